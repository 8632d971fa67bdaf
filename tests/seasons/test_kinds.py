"""A season of a game other than French Tarot: its casual games, one evening per date, each game
counted as its kind says (Keys, Cuckoo, Fool's Faith: the players one finished ahead of;
Death's Pot: the net balance), ranked by the same formulas and tie rules."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import deathspot
from scoring import season as rules
from tarotclub.core.models import LogEntry
from tarotclub.games import kinds
from tarotclub.games.models import Game, Record, Seat
from tarotclub.games.services import game_start, record_add
from tarotclub.players.models import Player
from tarotclub.seasons import selectors, services
from tarotclub.seasons.models import Season

from .helpers import SUITS, casual_game, cuckoo_match, keys_game, on_day, roster, tournament

pytestmark = pytest.mark.django_db

JAN, DEC = dt.date(2026, 1, 1), dt.date(2026, 12, 31)
D1, D2, D3 = dt.date(2026, 3, 3), dt.date(2026, 3, 10), dt.date(2026, 3, 17)


def make(**kwargs):
    return services.season_create(**{"name": "Les Clés 2026", "start": JAN, "end": DEC, **kwargs})


# --- the service ---------------------------------------------------------------------------------


def test_a_season_of_another_kind_keeps_its_kind_and_logs_it(director):
    s = make(kind="keys", formula="places", user=director)
    s.refresh_from_db()
    assert s.kind == "keys" and s.include_casual  # its casual games are what it counts
    entry = LogEntry.objects.for_object(s).get()
    assert entry.after["kind"] == "keys" and entry.after["include_casual"] is True
    assert make().kind == "tarot"  # unsaid: French Tarot, as every season before


def test_tournaments_in_a_season_of_another_kind_are_refused_and_change_nothing():
    cup = tournament(roster(4), dt.date(2026, 2, 1))
    logged = LogEntry.objects.count()
    with pytest.raises(services.SeasonError) as e:
        make(kind="cuckoo", tournaments=[cup])
    assert e.value.message == services.ERR_KIND_TOURNAMENTS
    assert "Cuckoo" in " ".join(e.value.messages)
    assert not Season.objects.exists() and LogEntry.objects.count() == logged


@pytest.mark.parametrize("kind", ["", "chess", None, 12, "tarot "])
def test_an_unknown_kind_is_refused(kind):
    with pytest.raises(services.SeasonError) as e:
        make(kind=kind)
    assert e.value.message == services.ERR_KIND
    assert not Season.objects.exists()


def test_every_kind_can_have_a_season():
    chosen = {k.identifier for k in selectors.season_kinds()}
    assert chosen == {k.identifier for k in kinds.all_kinds()}
    for kind in chosen:
        assert make(kind=kind, name=kind).kind == kind


def test_an_update_keeps_the_kind_unless_told_and_logs_a_change(director):
    s = make(kind="cuckoo", user=director)
    services.season_update(season=s, name="Coucou", start=JAN, end=DEC, formula="total")
    s.refresh_from_db()
    assert (s.name, s.kind) == ("Coucou", "cuckoo")
    services.season_update(
        season=s, name="Coucou", start=JAN, end=DEC, formula="total", kind="deathspot",
        user=director,
    )  # fmt: skip
    entry = LogEntry.objects.for_object(s).filter(action="season.updated").order_by("pk").last()
    assert entry.before["kind"] == "cuckoo" and entry.after["kind"] == "deathspot"


# --- the standings ------------------------------------------------------------------------------


def brute_force(players, day):
    """Each player's figure over the Keys games of `day`, from the stored records."""
    figures: dict[int, int] = {}
    places_by_day: list[dict[int, int]] = []
    for game in Game.objects.filter(kind="keys", created_at__date=day, archived_at__isnull=True):
        for record in game.records.order_by("number"):
            data = record.data
            winner = data["winner"]
            held = {int(p): k for p, k in data["keys"].items()}
            table = {int(p): (int(p) == winner, held.get(int(p), 5)) for p in data["suits"]}
            places = {p: 1 + sum(v > mine for v in table.values()) for p, mine in table.items()}
            places_by_day.append(places)
            for p, place in places.items():
                worse = sum(1 for other in places.values() if other > place)
                figures[p] = figures.get(p, 0) + worse
    return figures, len(places_by_day)


@pytest.fixture
def keys_season():
    a, b, c, d, e = roster(5, "Clé")
    # D1: a wins over b, c, d (b 3 keys, c and d 1 each: level); then b wins over a, c, d
    keys_game([a, b, c, d], D1, games=[(0, {1: 3, 2: 1, 3: 1}), (1, {0: 2, 2: 0, 3: 4})])
    # D1 too: e wins over a at two
    keys_game([e, a], D1, games=[(0, {1: 2})])
    # D2: c wins over a, b, e; a and b level
    keys_game([c, a, b, e], D2, games=[(0, {1: 2, 2: 2, 3: 0})])
    # outside the season, archived, and a French Tarot game: none of them counts
    keys_game([a, b], dt.date(2027, 1, 2), games=[(1, {0: 0})])
    archived = keys_game([a, b], D3, games=[(1, {0: 0})])
    Game.objects.filter(pk=archived.pk).update(archived_at=timezone.now())
    on_day(casual_game([a, b, c, d]), D3)
    season = make(kind="keys", include_casual=False)
    return season, [a, b, c, d, e]


def test_keys_evenings_are_its_game_dates_and_each_figure_is_a_recount(keys_season):
    season, players = keys_season
    standings = selectors.season_standings(season)
    assert [e.date for e in standings.evenings] == [D1, D2]
    assert all(e.tournament is None and e.url == "" for e in standings.evenings)
    by_player = {line.player: line for line in standings.lines}
    for day in (D1, D2):
        figures, _ = brute_force(players, day)
        key = ("d", day.isoformat())
        for pk, figure in figures.items():
            assert by_player[pk].results[key].score == figure
            assert by_player[pk].results[key].place == 1 + sum(
                1 for v in figures.values() if v > figure
            )
    a, b, c, d, e = players
    # a played three games on D1 (two at four, one at two): three rounds
    assert by_player[a.pk].results[("d", D1.isoformat())].rounds == 3
    assert by_player[d.pk].attended == 1


def test_keys_season_ranks_by_the_formula_with_its_ties(keys_season):
    season, players = keys_season
    a, b, c, d, e = players
    # D1: a 3 + 1 + 0 = 4, b 2 + 3 = 5, c 0 + 0 = 0, d 0 + 2 = 2, e 1
    # D2: c 3, a 1, b 1 (level: they share the second place), e 0
    lines = selectors.season_standings(season).lines
    got = {line.player: (int(line.value), line.rank, line.tied) for line in lines}
    assert got[b.pk] == (6, 1, False)
    assert got[a.pk] == (5, 2, False)
    assert got[c.pk] == (3, 3, False)  # 0 + 3
    assert got[d.pk] == (2, 4, False) and got[e.pk] == (1, 5, False)
    # points by place: D2's shared second place gives a and b 20 each
    Season.objects.filter(pk=season.pk).update(formula="places", points=[25, 20, 16, 13, 11])
    season.refresh_from_db()
    lines = selectors.season_standings(season).lines
    got = {line.player: (int(line.value), line.rank, line.tied) for line in lines}
    assert got[b.pk] == (25 + 20, 1, False)
    # a: D1 second (20), D2 second level with b (20) → 40; c: D1 fifth (11) + D2 first (25);
    # e: D1 fourth (13) + D2 fourth (13); d: D1 third (16)
    assert got[a.pk][0] == 40 and got[c.pk][0] == 36
    assert got[e.pk][:2] == (26, 4) and got[d.pk][:2] == (16, 5)


def test_tied_players_of_a_cuckoo_season_share_their_rank():
    a, b, c = roster(3, "Coucou")
    # one match each evening; a wins D1 (c second, b out first), b wins D2 (c second, a first out)
    cuckoo_match([a, b, c], D1, deals=[{0: "XII", 1: "III", 2: "V"}, {0: "X", 2: "II"}])
    cuckoo_match([b, a, c], D2, deals=[{0: "XII", 1: "III", 2: "V"}, {0: "X", 2: "II"}])
    # a match not played to its end counts nowhere
    cuckoo_match([a, b, c], D3, deals=[{0: "XII", 1: "XII", 2: "V"}])
    standings = selectors.season_standings(make(kind="cuckoo"))
    assert [e.date for e in standings.evenings] == [D1, D2]
    got = {r.player: (int(r.value), r.wins, r.rank, r.tied) for r in standings.lines}
    # a: 2 + 0, b: 0 + 2, both one evening won, best evening 2: tied first; c 1 + 1 third
    assert got[a.pk] == (2, 1, 1, True) and got[b.pk] == (2, 1, 1, True)
    assert got[c.pk] == (2, 0, 3, False)
    assert [line.name for line in standings.lines][:2] == sorted([a.name, b.name])


def test_a_deaths_pot_season_counts_the_net_balance():
    players = roster(3, "Pot")
    game = game_start(players=players, kind="deathspot", options={"stake": 2})
    record_add(game=game, data={"death": players[1].pk})
    on_day(game, D1)
    standings = selectors.season_standings(make(kind="deathspot"))
    pks = [p.pk for p in players]
    expected = deathspot.play(pks, [{"death": pks[1]}], stake=2).balances
    by_player = {line.player: line for line in standings.lines}
    for pk in pks:
        assert by_player[pk].results[("d", D1.isoformat())].score == expected[pk]
    assert any(expected.values())  # Death took something: not a board of zeros
    assert [int(line.value) for line in standings.lines] == sorted(expected.values(), reverse=True)


def bulk_keys(players, days, *, tables_of: int = 4, offset: int = 0):
    """Keys sessions of one game at every table of four on each day, made in bulk."""
    tables = len(players) // tables_of
    games = Game.objects.bulk_create(Game(kind="keys") for _ in range(tables * len(days)))
    seats, records, moved = [], [], {}
    i = 0
    for n, day in enumerate(days):
        for t in range(tables):
            game = games[i]
            i += 1
            seated = players[t * tables_of : (t + 1) * tables_of]
            seated = seated[n % tables_of :] + seated[: n % tables_of]
            for pos, p in enumerate(seated):
                seats.append(Seat(game=game, player=p, position=pos))
            winner = seated[(n + t + offset) % tables_of]
            records.append(
                Record(
                    game=game,
                    number=1,
                    data={
                        "suits": {str(p.pk): SUITS[k] for k, p in enumerate(seated)},
                        "winner": winner.pk,
                        "keys": {
                            str(p.pk): (k + n) % 5 for k, p in enumerate(seated) if p != winner
                        },
                    },
                )
            )
            moved.setdefault(day, []).append(game.pk)
    Seat.objects.bulk_create(seats)
    Record.objects.bulk_create(records)
    for day, pks in moved.items():
        at = timezone.make_aware(dt.datetime.combine(day, dt.time(20)))
        Game.objects.filter(pk__in=pks).update(created_at=at)


def page_queries(client, season) -> int:
    url = reverse("seasons:standings", args=[season.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response


def test_a_keys_season_of_40_players_over_30_evenings_keeps_the_queries_of_a_small_one(client):
    players = roster(40, "Joueur")
    bulk_keys(players[:4], [dt.date(2026, 1, 5)])
    small = make(kind="keys", start=dt.date(2026, 1, 1), end=dt.date(2026, 1, 31))
    few, _ = page_queries(client, small)
    days = [dt.date(2026, 2, 1) + dt.timedelta(days=d) for d in range(30)]
    bulk_keys(players, days)
    big = make(kind="keys", start=dt.date(2026, 2, 1), end=dt.date(2026, 3, 31))
    many, response = page_queries(client, big)
    assert many == few
    standings = response.context["standings"]
    assert len(standings.evenings) == 30 and len(standings.lines) == 40
    assert str(response.context["grid"]).count('<th scope="col"') == 4 + 30
    # the selector alone, read again: the games' fingerprint and the players' names (cached)
    with CaptureQueriesContext(connection) as ctx:
        selectors.season_standings(big)
    assert len(ctx.captured_queries) == 2
    # and cold: the fingerprint, then the games, their seats, their records replayed
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        again = selectors.season_standings(big)
    assert len(ctx.captured_queries) == 4
    assert again.lines == standings.lines


def test_a_kind_seasons_cached_standings_follow_every_change(client, director):
    """A record added, a game archived, a player renamed: the next read says so."""
    from tarotclub.games.services import game_archive

    players = roster(4, "Clé")
    a, b, c, d = players
    first = keys_game(players, D1, games=[(0, {1: 2, 2: 1, 3: 0})])
    second = keys_game(players, D2, games=[(1, {0: 1, 2: 1, 3: 1})])
    season = make(kind="keys", start=D1, end=D2)

    def figures():
        s = selectors.season_standings(season)
        return {line.player: (line.value, line.rounds) for line in s.lines}, s

    before, _ = figures()
    record_add(game=first, data={"suits": {p.pk: SUITS[i] for i, p in enumerate(players)},
                                 "winner": d.pk, "keys": {a.pk: 0, b.pk: 0, c.pk: 0}})  # fmt: skip
    after, _ = figures()
    assert after != before
    game_archive(game=second, user=director)
    archived, s = figures()
    assert archived != after and len(s.evenings) == 1
    Player.objects.filter(pk=a.pk).update(name="Renamed")
    assert "Renamed" in {line.name for line in selectors.season_standings(season).lines}


def test_a_fools_faith_season_counts_the_players_beaten_winner_first():
    players = roster(5, "Fou")
    game = game_start(players=players, kind="foolsfaith")
    for counts in [(3, 2, 1, 1, 1), (2, 2, 2, 1, 1), (1, 4, 1, 1, 1)]:  # a tie, then 2 cards
        tricks = {p.pk: n for p, n in zip(players, counts, strict=True)}
        record_add(game=game, data={"tricks": tricks})
    on_day(game, D1)
    kind = kinds.get("foolsfaith")
    played = kind.load(game)
    assert played.over
    places = kind.table_results(played)[0]
    season = make(kind="foolsfaith")
    with CaptureQueriesContext(connection) as ctx:
        standings = selectors.season_standings(season)
    # cold: the games' fingerprint, then the games, their seats and their records as rows
    assert len(ctx.captured_queries) == 4
    by_player = {line.player: line for line in standings.lines}
    winner = played.state.winner
    assert by_player[winner].results[("d", D1.isoformat())] == rules.Result(4, 1, 1)
    for p in players:
        expected = sum(1 for q in places.values() if q > places[p.pk])
        assert by_player[p.pk].results[("d", D1.isoformat())].score == expected


# --- the pages and downloads --------------------------------------------------------------------


def test_the_standings_page_says_what_the_kind_counts(client, keys_season):
    season, players = keys_season
    html = client.get(reverse("seasons:standings", args=[season.pk])).content.decode()
    assert "Keys of the Kingdom" in html
    assert "counts the players one finished ahead of" in html
    assert "each game counts as a round" in html
    grid_html = client.get(reverse("seasons:standings", args=[season.pk])).context["grid"]
    assert str(grid_html).count('<th scope="col"') == 4 + 2


def test_a_tarot_season_page_has_no_kind_note(client):
    season = make()
    html = client.get(reverse("seasons:standings", args=[season.pk])).content.decode()
    assert "one finished ahead of" not in html and "each game counts as a round" not in html


def test_csv_projector_and_pdf_of_a_keys_season(client, keys_season):
    season, players = keys_season
    response = client.get(reverse("seasons:export", args=[season.pk, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][5:] == [f"{day.isoformat()} Keys of the Kingdom" for day in (D1, D2)]
    standings = selectors.season_standings(season)
    for row, line in zip(rows[1:], standings.lines, strict=True):
        assert row[1] == line.name and int(row[2]) == int(line.value)
    assert client.get(reverse("seasons:export", args=[season.pk, "xlsx"])).status_code == 200
    screen = client.get(reverse("seasons:projector_screen", args=[season.pk]))
    assert "Keys of the Kingdom" in screen.content.decode()
    for line in standings.lines:
        assert line.name in screen.content.decode()
    pdf = client.get(reverse("seasons:pdf", args=[season.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_the_form_offers_the_kinds_and_refuses_tournaments_for_another(client, director):
    client.force_login(director)
    cup = tournament(roster(4), dt.date(2026, 2, 1))
    html = client.get(reverse("seasons:new")).content.decode()
    for kind in selectors.season_kinds():
        assert f'value="{kind.identifier}"' in html
    data = {"name": "Coucou 2026", "start": "2026-01-01", "end": "2026-12-31",
            "formula": "total", "kind": "cuckoo", "tournaments": [cup.pk]}  # fmt: skip
    response = client.post(reverse("seasons:new"), data)
    assert response.status_code == 200 and not Season.objects.exists()
    assert "Tournaments are French Tarot only" in response.content.decode()
    response = client.post(reverse("seasons:new"), {**data, "tournaments": []})
    season = Season.objects.get()
    assert response.status_code == 302 and season.kind == "cuckoo"
    html = client.get(reverse("seasons:edit", args=[season.pk])).content.decode()
    assert "checked" in html.split('value="cuckoo"')[1].split(">")[0]
    response = client.post(reverse("seasons:new"), {**data, "kind": "chess", "tournaments": []})
    assert response.status_code == 200 and Season.objects.count() == 1


def test_the_club_export_says_each_seasons_kind():
    from tarotclub.reports.club import club_data

    make(kind="cuckoo", name="Coucou")
    make(name="Tarot")
    data = json.loads(json.dumps(club_data(), default=str))
    assert {s["name"]: s["kind"] for s in data["seasons"]} == {"Coucou": "cuckoo", "Tarot": "tarot"}


def test_rules_see_the_same_figures_as_the_kind():
    """The kind's season figure is `scoring.season.beaten` of its own places at the table."""
    a, b, c, d = roster(4)
    game = keys_game([a, b, c, d], D1, games=[(2, {0: 1, 1: 1, 3: 4})])
    kind = kinds.get("keys")
    played = kind.load(game)
    assert kind.season_results(played) == [rules.beaten(p) for p in kind.table_results(played)]
    assert kind.season_results(played) == [{a.pk: 0, b.pk: 0, c.pk: 3, d.pk: 2}]


def test_a_write_replays_only_its_own_evening(monkeypatch):
    players = roster(4, "Soir")
    a, b, c, d = players
    first = keys_game(players, D1, games=[(0, {1: 2, 2: 1, 3: 0})])
    keys_game(players, D2, games=[(1, {0: 1, 2: 1, 3: 1})])
    keys_game(players, D3, games=[(2, {0: 1, 1: 1, 3: 1})])
    season = make(kind="keys", start=D1, end=D3)
    kind_class = type(kinds.get("keys"))
    replayed = []
    replay = kind_class.season_results_from

    def counting(self, game, *args, **kwargs):
        replayed.append(game.pk)
        return replay(self, game, *args, **kwargs)

    monkeypatch.setattr(kind_class, "season_results_from", counting)
    selectors.season_standings(season)
    assert len(replayed) == 3  # cold: every evening
    replayed.clear()
    selectors.season_standings(season)
    assert replayed == []  # every evening from the cache
    record_add(game=first, data={"suits": {p.pk: SUITS[i] for i, p in enumerate(players)},
                                 "winner": d.pk, "keys": {a.pk: 0, b.pk: 0, c.pk: 0}})  # fmt: skip
    replayed.clear()
    with CaptureQueriesContext(connection) as ctx:
        after = selectors.season_standings(season)
    assert replayed == [first.pk]  # D1 only
    assert len(ctx.captured_queries) == 5  # fingerprints, D1's games/seats/records, names
    cache.clear()
    assert selectors.season_standings(season).lines == after.lines  # as a cold read says
