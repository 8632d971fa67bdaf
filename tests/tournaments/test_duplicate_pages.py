"""Duplicate tournaments' pages: creation and registration through the forms, boards and
guide cards, each board's grading, the rankings, a player's record, the travelling slip,
the downloads; the spec's worked 5-table board through the site; queries pinned."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from scoring.duplicate import general_ranking
from tarotclub.games.forms import ERR_CHOICE
from tarotclub.players.models import Player
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.models import Entry, Table, Tournament

from .duplicate_helpers import deal_for_score, enter_board, make_duplicate, play_duplicate_round

pytestmark = pytest.mark.django_db

#: duplicate.md 1.7 G1: board 1 (taker North) on 5 tables, by round: the table that plays it
#: and its score; the grades the rulebook gives (p. 18).
G1 = {1: (1, 56, 75), 2: (5, 62, 100), 3: (4, -56, 0), 4: (3, -52, 25), 5: (2, 50, 50)}


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def test_a_director_creates_a_duplicate_tournament_and_seats_players(director_client, make_players):
    c = director_client
    response = c.post(
        reverse("tournaments:new"),
        {
            "name": "Duplicate evening",
            "date": "2026-12-05",
            "rounds": "3",
            "deals_per_round": "4",
            "ranking": "total",
            "format": "duplicate",
            "tables": "3",
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert t.duplicate and t.table_count == 3
    manage = reverse("tournaments:manage", args=[t.pk])
    page = c.get(manage).content.decode()
    assert 'name="orientation"' in page and 'name="team"' not in page
    players = make_players(*[f"Joueur {i}" for i in range(12)])
    c.post(
        manage, {"register": "1", "player": players[0].pk, "orientation": "S", "start_table": "2"}
    )
    taken = c.post(
        manage, {"register": "1", "player": players[1].pk, "orientation": "S", "start_table": "2"}
    )
    said = escape(services.ERR_SEAT_TAKEN % {"seat": "S2", "name": "Joueur 0"})
    assert said in taken.content.decode()
    for p in players[1:]:
        c.post(manage, {"register": "1", "player": p.pk})
    assert t.entries.count() == 12
    c.post(reverse("tournaments:start", args=[t.pk]), {"from_round": "0"})
    t.refresh_from_db()
    assert t.status == "running" and t.movement
    assert Entry.objects.get(player=players[0]).orientation == "S"
    page = c.get(manage).content.decode()
    assert ">S2</span>" in page
    assert reverse("tournaments:duplicate_boards", args=[t.pk]) in page


def test_a_free_tournament_form_without_a_format_makes_free_deals(director_client):
    director_client.post(
        reverse("tournaments:new"),
        {
            "name": "Free",
            "date": "2026-12-05",
            "rounds": "2",
            "deals_per_round": "1",
            "ranking": "total",
        },
    )
    assert Tournament.objects.get().format == "free"


def test_a_refused_duplicate_creation_says_why(director_client):
    response = director_client.post(
        reverse("tournaments:new"),
        {
            "name": "Too many rounds",
            "ranking": "total",
            "date": "2026-12-05",
            "rounds": "4",
            "deals_per_round": "4",
            "format": "duplicate",
            "tables": "3",
        },
    )
    assert response.status_code == 200
    said = escape(services.ERR_DUPLICATE_ROUNDS % {"tables": 3})
    assert said in response.content.decode()
    assert not Tournament.objects.exists()


def five_table_example():
    """The spec's 5-table session: every board +50 but board 1, scored as G1."""
    t, _players = make_duplicate(5)
    services.tournament_start(tournament=t)

    def score(board, rnd, table):
        if board == 1:
            assert G1[rnd][0] == table  # the set moves down one table a round (p. 18)
            return G1[rnd][1]
        return 50

    for _ in range(5):
        play_duplicate_round(t, score)
        services.tournament_next_round(tournament=t)
    t.refresh_from_db()
    return t


def test_the_rulebooks_board_graded_through_the_site(director_client):
    t = five_table_example()
    g = duplicate.graded(t)
    rows = duplicate.grading_rows(g, 1)
    assert [(r["round"], r["table"], r["score"], r["attack"]) for r in rows] == [
        (rnd, table, score, Fraction(grade)) for rnd, (table, score, grade) in G1.items()
    ]
    assert all(r["attack"] + r["defence"] == 100 for r in rows)
    # the spec's 5-table movement (duplicate.md 1.6): table 1 plays set 2 in round 2 with
    # N1 E5 S4 W3, and table 3 set 1 in round 4 with N3 E5 S2 W4
    t1 = g.movement.seating(2)[0]
    assert t1.board_set == 2 and t1.seats == {
        "N": ("N", 1),
        "E": ("E", 5),
        "S": ("S", 4),
        "W": ("W", 3),
    }
    t3 = g.movement.seating(4)[2]
    assert t3.board_set == 1 and t3.seats == {
        "N": ("N", 3),
        "E": ("E", 5),
        "S": ("S", 2),
        "W": ("W", 4),
    }
    page = director_client.get(reverse("tournaments:grading", args=[t.pk])).content.decode()
    board1 = page.split('id="board-1"')[1].split("</section>")[0]
    for cell in ("75.0", "100.0", "0.0", "25.0", "50.0", '<td class="num">56</td>'):
        assert cell in board1
    # −56 goes in the "taker lost" column, without a sign
    assert '<td class="num"></td><td class="num">56</td>' in board1
    # everybody but board 1's players is at 50 %; the rankings follow the overall %
    overall = {p: r.overall for p, r in g.session.records.items()}
    assert g.session.general == general_ranking(overall)


def test_rankings_mark_the_one_that_counts_and_show_two_decimals(client, director_client):
    t = five_table_example()
    page = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    first = page.index('id="alternating"')
    assert first < page.index('id="general"')
    assert "the one that counts" in page[first : page.index('id="general"')]
    g = duplicate.graded(t)
    best = g.session.alternating[0]
    from tarotclub.games.presenters import figure

    assert figure(g.session.records[best].overall, 2) in page
    # a visitor sees no record link; the director does
    record = reverse("tournaments:record", args=[t.pk, g.label(best)])
    assert record not in page
    assert (
        record
        in director_client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    )


def test_a_players_record_lists_every_board_played(director_client):
    t = five_table_example()
    g = duplicate.graded(t)
    player = ("N", 1)
    page = director_client.get(reverse("tournaments:record", args=[t.pk, "N1"])).content.decode()
    assert g.name(player) in page
    rows = duplicate.record_rows(g, player)
    assert len(rows) == 5 * 4  # 5 rounds of 4 boards
    assert sum(1 for r in rows if r["took"]) == 5  # one board in four as taker
    assert page.count("<tr>") == 3 + len(rows)  # two heads, the figures, the boards


def test_boards_and_guide_cards(director_client):
    t, _players = make_duplicate(3)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    g = duplicate.graded(t)
    url = reverse("tournaments:duplicate_boards", args=[t.pk])
    page = director_client.get(url + "?round=2").content.decode()
    seating = g.movement.seating(2)
    for s in seating:
        card = page.split(f'id="guide-{s.table}"')[1].split("</section>")[0]
        for o in "NESW":
            assert g.name(s.seats[o]) in card
        assert f"Boards {(s.board_set - 1) * 4 + 1} to {s.board_set * 4}" in card
    assert page.count('class="card guide-card"') == 3
    assert page.count('<td class="num">0/3</td>') == 12  # 12 boards, none scored yet


def test_the_slip_shows_the_other_scores_only_after_the_tables_own(client):
    t, _players = make_duplicate(3)
    services.tournament_start(tournament=t)
    play_duplicate_round(t, lambda board, rnd, table: 56 + 2 * table)
    services.tournament_next_round(tournament=t)
    t.refresh_from_db()
    table = Table.objects.get(tournament=t, round=2, number=1)
    board = table.game.options["boards"][0]
    url = reverse("tournaments:slip", args=[table.game.token, board])
    before = client.get(url).content.decode()
    assert "once your table has entered its own" in before
    assert "Travelling slip</h2>" not in before
    enter_board(table, 1, -60)
    after = client.get(url).content.decode()
    assert "Travelling slip</h2>" in after
    # round 1's table that played this board, and this table's −60 in the "lost" column
    first = next(
        x for x in Table.objects.filter(tournament=t, round=1) if board in x.game.options["boards"]
    )
    assert f'<td class="num">{56 + 2 * first.number}</td>' in after
    assert '<td class="num"></td><td class="num">60</td>' in after
    # the sheet links each of its boards' slips
    sheet = client.get(reverse("games:sheet", args=[table.game.token])).content.decode()
    assert url in sheet


def test_the_deal_screen_offers_only_the_imposed_taker_and_garde(client):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1, number=1)
    game = table.game
    taker = game.options["imposed"][0][0]
    page = client.get(reverse("games:deal_new", args=[game.token])).content.decode()
    assert page.count('name="taker"') == 1 and f'value="{taker}"' in page
    assert page.count('name="contract"') == 1 and 'value="garde"' in page
    assert "garde imposed" in page
    other = next(s.player_id for s in game.seats.all() if s.player_id != taker)
    response = client.post(
        reverse("games:deal_new", args=[game.token]),
        {"taker": other, "contract": "garde", "bouts": "1", "points": "60", "number": "1"},
    )
    assert response.status_code == 400  # the form again, with why
    assert escape(str(ERR_CHOICE)) in response.content.decode()
    assert game.deals.count() == 0
    data = {"taker": taker, "points_side": "attack", "chelem": "none", "number": "1"}
    data.update({k: str(v) for k, v in deal_for_score(62).items()})
    client.post(reverse("games:deal_new", args=[game.token]), data)
    assert duplicate.board_scores(t) == {(game.options["boards"][0], 1): 62}


def test_downloads_hold_numbers(director_client):
    t = five_table_example()
    response = director_client.get(
        reverse("reports:duplicate_export", args=[t.pk, "grading", "csv"])
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][0] == "Board"
    board1 = [r for r in rows[1:] if r[0] == "1"]
    assert [(r[2], r[3], r[5], r[6], r[7]) for r in board1] == [
        ("1", "1", "56", "", "75.0"),
        ("2", "5", "62", "", "100.0"),
        ("3", "4", "", "56", "0.0"),
        ("4", "3", "", "52", "25.0"),
        ("5", "2", "50", "", "50.0"),
    ]
    assert len(rows) == 1 + 20 * 5
    response = director_client.get(
        reverse("reports:duplicate_export", args=[t.pk, "rankings", "xlsx"])
    )
    assert response.status_code == 200 and response["Content-Type"].startswith("application/")
    ranking = director_client.get(
        reverse("reports:duplicate_export", args=[t.pk, "rankings", "csv"])
    ).content.decode("utf-8-sig")
    assert len(ranking.strip().splitlines()) == 21


@pytest.mark.parametrize(
    "name, args",
    [
        ("tournaments:duplicate_boards", []),
        ("tournaments:grading", []),
        ("tournaments:record", ["N1"]),
        ("reports:duplicate_export", ["rankings", "csv"]),
    ],
)
def test_director_pages_are_for_directors(member_client, name, args):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    url = reverse(name, args=[t.pk, *args])
    assert Client().get(url).status_code == 302  # to the login page
    assert member_client.get(url).status_code == 403


@pytest.mark.parametrize(
    "name, args",
    [
        ("tournaments:record", ["X1"]),
        ("tournaments:record", ["N9"]),
        ("tournaments:record", ["N"]),
        ("tournaments:record", ["Nx"]),
        ("reports:duplicate_export", ["nothing", "csv"]),
        ("reports:duplicate_export", ["rankings", "pdf"]),
    ],
)
def test_hostile_values_are_not_found(director_client, name, args):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    assert director_client.get(reverse(name, args=[t.pk, *args])).status_code == 404


def test_free_tournaments_have_no_duplicate_pages(director_client, four):
    t = services.tournament_create(name="F", date=__import__("datetime").date(2026, 12, 1))
    for name in ("tournaments:duplicate_boards", "tournaments:grading"):
        assert director_client.get(reverse(name, args=[t.pk])).status_code == 404


def test_a_slip_of_a_board_the_table_does_not_play_is_not_found(client):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1, number=1)
    other = next(b for b in range(1, 9) if b not in table.game.options["boards"])
    assert (
        client.get(reverse("tournaments:slip", args=[table.game.token, other])).status_code == 404
    )


@pytest.mark.parametrize("tables", [2, 3])
def test_pages_read_a_constant_number_of_queries(
    director_client, client, django_assert_num_queries, tables
):
    t, _players = make_duplicate(tables)
    services.tournament_start(tournament=t)
    play_duplicate_round(t, lambda board, rnd, table: 50 + 2 * table)
    pk = t.pk
    for name, args, c, count in [
        ("tournaments:duplicate_boards", [pk], director_client, 5),
        ("tournaments:grading", [pk], director_client, 5),
        ("tournaments:record", [pk, "E1"], director_client, 5),
        ("tournaments:standings", [pk], client, 3),
        ("reports:duplicate_export", [pk, "rankings", "csv"], director_client, 5),
    ]:
        c.get(reverse(name, args=args))  # the session, once
        with django_assert_num_queries(count):
            assert c.get(reverse(name, args=args)).status_code == 200


def test_the_free_deal_pages_answer_for_a_duplicate_tournament(director_client):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    play_duplicate_round(t)
    for name in ("manage", "where", "standings"):
        assert director_client.get(reverse(f"tournaments:{name}", args=[t.pk])).status_code == 200
    projector = director_client.get(reverse("tournaments:projector", args=[t.pk]))
    assert projector.status_code == 302 and projector.url == reverse(
        "tournaments:standings", args=[t.pk]
    )
    for name in ("reports:deals", "reports:players"):
        assert director_client.get(reverse(name, args=[t.pk])).status_code == 200


def test_a_running_duplicate_offers_neither_registration_nor_a_redraw(director_client):
    """The services refuse both once a duplicate session has started (the movement seats
    everybody): the director's page no longer offers them. A free-deal round still has both."""
    t, _players = make_duplicate(3, rounds=2)
    services.tournament_start(tournament=t)
    page = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert 'id="register"' not in page
    assert reverse("tournaments:redraw", args=[t.pk]) not in page
    assert reverse("tournaments:bulk", args=[t.pk]) not in page

    free = services.tournament_create(name="Free", date=t.date, rounds=2, deals_per_round=4)
    for p in Player.objects.bulk_create(Player(name=f"Free {i}") for i in range(8)):
        services.entry_register(tournament=free, player=p)
    services.tournament_start(tournament=free)
    page = director_client.get(reverse("tournaments:manage", args=[free.pk])).content.decode()
    assert 'id="register"' in page
    assert reverse("tournaments:redraw", args=[free.pk]) in page
