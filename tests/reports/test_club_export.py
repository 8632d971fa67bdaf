"""The club export: everything there, nothing secret, the same in JSON and in the workbook."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db.models import Sum

from tarotclub.core.models import LogEntry
from tarotclub.games.models import Change, Game, Record
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.players.models import Player
from tarotclub.players.services import player_create
from tarotclub.reports import club
from tarotclub.tournaments import services as tournaments
from tests.tournaments.helpers import make_tournament, play_round

pytestmark = pytest.mark.django_db
URL = "/export/"


@pytest.fixture
def built(director):
    players = [
        player_create(name=n, user=director) for n in ("=HYPERLINK(1)", "Bram", "Chloé", "Dirk")
    ]
    game = game_start(players=players, first_dealer=0, created_by=director, name="Soirée")
    for taker, points in ((players[1], Fraction(81, 2)), (players[2], 56)):
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=taker.pk, contract="garde", bouts=2, points=points),
        )
    game_start(players=players[:3], first_dealer=0, kind="foolsfaith")
    t, _ = make_tournament(8, rounds=2)
    t = tournaments.tournament_start(tournament=t, user=director)
    play_round(t)
    from tarotclub.seasons.services import season_create

    season = season_create(
        name="Championnat",
        start=t.date,
        end=t.date,
        formula="places",
        best_n=3,
        tournaments=[t],
        user=director,
    )
    return {"game": game, "tournament": t, "season": season}


def test_everything_is_there(built):
    data = json.loads(club.club_json())
    assert data["format"] == "tarotclub-club-export" and data["version"] == 1
    assert len(data["players"]) == Player.objects.count()
    assert len(data["games"]) == Game.objects.count()
    assert sum(len(g["deals"]) for g in data["games"]) == Deal.objects.count()
    assert sum(len(g["records"]) for g in data["games"]) == Record.objects.count()
    assert len(data["history"]["games"]) == Change.objects.count()
    assert len(data["history"]["site"]) == LogEntry.objects.count()
    (t,) = data["tournaments"]
    assert len(t["entries"]) == 8 and len(t["tables"]) == 2
    assert {x["game"] for x in t["tables"]} <= {g["id"] for g in data["games"]}
    (season,) = data["seasons"]
    assert season["tournaments"] == [t["id"]] and season["formula"] == "places"
    assert season["best_n"] == 3 and season["points"][:3] == [25, 20, 16]


def test_scores_and_totals_match_the_stored_deals(built):
    data = json.loads(club.club_json())
    for g in data["games"]:
        for d in g["deals"]:
            assert sum(d["scores"].values()) == 0
            stored = dict(
                DealLine.objects.filter(
                    deal__game_id=g["id"], deal__number=d["number"]
                ).values_list("player_id", "score")
            )
            assert {int(p): s for p, s in d["scores"].items()} == stored
        if g["kind"] == "tarot":
            sums = dict(
                DealLine.objects.filter(deal__game_id=g["id"])
                .values("player")
                .annotate(t=Sum("score"))
                .values_list("player", "t")
            )
            assert {int(p): s for p, s in g["totals"].items()} == sums
    soiree = next(g for g in data["games"] if g["name"] == "Soirée")
    assert [d["points"] for d in soiree["deals"]] == [40.5, 56]
    assert soiree["created_by"] == "director"


def test_nothing_secret(built):
    text = club.club_json().decode()
    for token in Game.objects.values_list("token", flat=True):
        assert token not in text
    for password in get_user_model().objects.values_list("password", flat=True):
        assert password not in text
    assert "token" not in text and "password" not in text


def test_the_workbook_holds_the_same_rows_and_no_formula(built):
    data = club.club_data()
    book = openpyxl.load_workbook(io.BytesIO(club.club_workbook(data)))
    counts = {name: book[name].max_row - 1 for name in book.sheetnames}
    assert counts["players"] == len(data["players"])
    assert counts["games"] == len(data["games"])
    assert counts["deals"] == sum(len(g["deals"]) for g in data["games"])
    assert counts["deal scores"] == DealLine.objects.count()
    assert counts["entries"] == 8
    assert counts["game history"] == len(data["history"]["games"])
    assert counts["seasons"] == 1
    names = [c.value for c in book["players"]["B"][1:]]
    assert "'=HYPERLINK(1)" in names  # shown as text, never evaluated
    scores = [c.value for c in book["deal scores"]["D"][1:]]
    assert all(isinstance(s, int) for s in scores) and sum(scores) == 0


def test_only_a_director_downloads_it_and_it_is_in_the_history(client, member, director, built):
    assert client.get(URL).status_code == 302  # to the login page
    assert client.post(URL, {"format": "json"}).status_code == 302
    client.force_login(member)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"format": "json"}).status_code == 403
    client.force_login(director)
    assert client.get(URL).status_code == 200
    before = LogEntry.objects.filter(action="export.downloaded").count()
    response = client.post(URL, {"format": "json"})
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["format"] == "tarotclub-club-export"
    response = client.post(URL, {"format": "xlsx"})
    assert response["Content-Type"].endswith("spreadsheetml.sheet")
    openpyxl.load_workbook(io.BytesIO(response.content))
    entries = LogEntry.objects.filter(action="export.downloaded")
    assert entries.count() == before + 2
    assert entries.latest("pk").after == {"format": "xlsx"}


@pytest.mark.parametrize("fmt", ["", "csv", "pdf", "../etc", "x" * 5000])
def test_a_bad_format_is_refused_with_a_message(client, director, built, fmt):
    client.force_login(director)
    before = LogEntry.objects.count()
    response = client.post(URL, {"format": fmt})
    assert response.status_code == 400
    assert "Choose the JSON file or the workbook." in response.content.decode()
    assert LogEntry.objects.count() == before


def test_from_manage_py(built, tmp_path, capsys):
    path = tmp_path / "club.json"
    call_command("export_club", "--format", "json", "-o", str(path))
    assert json.loads(path.read_text())["players"]
    book = tmp_path / "club.xlsx"
    call_command("export_club", "--format", "xlsx", "-o", str(book))
    assert "players" in openpyxl.load_workbook(book).sheetnames
    call_command("export_club", "-o", "-")
    assert json.loads(capsys.readouterr().out)["format"] == "tarotclub-club-export"


@pytest.mark.parametrize("rounds", [1, 2])
def test_constant_queries(director, django_assert_num_queries, rounds):
    t, _ = make_tournament(8 * rounds, rounds=rounds)
    t = tournaments.tournament_start(tournament=t, user=director)
    for _ in range(rounds):
        play_round(t)
        t = tournaments.tournament_next_round(tournament=t, user=director)
    with django_assert_num_queries(14):
        club.club_data()


def test_house_rules_misères_and_a_duplicate_tournament_are_exported(four, director):
    """What issue 14 added is in the club's file too: a deal's misères, a game's and a
    tournament's house rules, a duplicate tournament's format, movement and seats."""
    from tarotclub.games import house
    from tarotclub.games.services import club_rules_set, game_start
    from tarotclub.kinds.tarot import services as tarot
    from tarotclub.reports.club import club_data
    from tarotclub.tournaments import services as tournament_services
    from tests.tournaments.duplicate_helpers import make_duplicate

    rules = house.read("tarot", {"misere_tete": True, "misere_amount": 10})
    club_rules_set(kind="tarot", rules=rules, user=director)
    game = game_start(players=four, created_by=director)
    a, b, c, d = four
    tarot.deal_add(
        game=game,
        data=tarot.DealInput(
            taker=b.pk, contract="prise", bouts=1, points=51, miseres=((c.pk, "tete"),)
        ),
    )
    t, _players = make_duplicate(2, rounds=2)
    tournament_services.tournament_start(tournament=t)
    data = club_data()
    (exported,) = [g for g in data["games"] if g["id"] == game.pk]
    assert exported["options"]["house"]["misere_tete"] is True
    assert exported["deals"][0]["miseres"] == [{"player": c.pk, "kind": "tete"}]
    (dup,) = [x for x in data["tournaments"] if x["id"] == t.pk]
    assert dup["format"] == "duplicate" and dup["duplicate_tables"] == 2
    assert dup["movement"]["tables"] == 2
    seats = {(e["orientation"], e["start_table"]) for e in dup["entries"]}
    assert seats == {(o, n) for o in "NESW" for n in (1, 2)}
