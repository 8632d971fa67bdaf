"""Quadrette tournaments (duplicate.md 2.3, 2.5) through the services: registration, the
start's refusals, the tables of each opposition, the worked result (+20.186 PM)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from tarotclub.core.models import LogEntry
from tarotclub.games.services import GameError
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.tournaments import quadrette, quadrette_services, services
from tarotclub.tournaments.models import Entry, Status, Table, Tournament
from tarotclub.tournaments.services import TournamentError

from .duplicate_helpers import deal_for_score
from .quadrette_helpers import enter_board, make_quadrette, play_quadrette_round

pytestmark = pytest.mark.django_db

#: The worked quadrette result (2.5): A's attacker's score, the opponent's attacker's score.
EXAMPLE = {
    1: (82, 66),
    2: (-68, -58),
    3: (50, 50),
    4: (116, -52),
    5: (56, 106),
    6: (-52, -52),
    7: (60, 50),
    8: (50, -56),
}


def example_score(rnd, table, board):
    """Team 1 (A) meets 2 (B) in round 1, 3 (C) in round 2: A's attacker plays at the
    opponent's table, the opponent's attacker at table 1. The other opposition scores 50."""
    opponent = 2 if rnd == 1 else 3
    if table == opponent:
        return EXAMPLE[board][0]
    if table == 1:
        return EXAMPLE[board][1]
    return 50


def test_the_worked_quadrette_result_through_the_services():
    t, _teams = make_quadrette(4, rounds=2, names=["A", "B", "C", "D"])
    services.tournament_start(tournament=t)
    play_quadrette_round(t, example_score)
    services.tournament_next_round(tournament=t, from_round=1)
    play_quadrette_round(t, example_score)
    g = quadrette.graded(t)
    assert g.missing == []
    assert g.totals[1] == Decimal("20.186")
    assert sum(g.totals.values()) == 0
    rows = g.ranking()
    assert rows[0]["name"] == "A" and rows[0]["pm"] == Decimal("20.186") and rows[0]["place"] == 1
    # against B +13.799, against C +6.387 (shown for checking; only the total counts)
    by_opponent = {}
    for p in g.team_boards(1):
        by_opponent[p.opponent] = by_opponent.get(p.opponent, 0) + p.pm
    assert by_opponent == {2: Decimal("13.799"), 3: Decimal("6.387")}
    # the results sheet's builder reads the same oppositions
    from tarotclub.reports.duplicate import quadrette_totals

    assert quadrette_totals(g.report_teams(), g.report_oppositions())[1] == Decimal("20.186")


def test_the_tables_seat_the_hosts_defence_and_the_visiting_attacker_south():
    t, teams = make_quadrette(4, rounds=3)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    assert t.status == Status.RUNNING and t.table_count == 4
    numbers = {e.player_id: e.start_table for e in Entry.objects.filter(tournament=t)}
    attackers = {numbers[p[0].pk]: p[0].pk for p in teams}
    defence = {numbers[p[0].pk]: [x.pk for x in p[1:]] for p in teams}
    expected_visitor = {1: 2, 2: 1, 3: 4, 4: 3}
    for table in Table.objects.filter(tournament=t, round=1).select_related("game"):
        seats = [s.player_id for s in table.game.seats.order_by("position")]
        n, e, s, w = seats
        # the defence at its own table North, East, West, the opponent's attacker South
        assert [n, e, w] == defence[table.number]
        assert s == attackers[expected_visitor[table.number]]
        options = table.game.options
        assert options["boards"] == [1, 2, 3, 4]
        assert options["imposed"] == [[s, "garde"]] * 4
        assert options["quadrette"] == {
            "host": table.number,
            "visitor": expected_visitor[table.number],
        }
    # the next rounds: same defences, the attackers moved, new boards
    play_quadrette_round(t)
    services.tournament_next_round(tournament=t, from_round=1)
    r2 = {tb.number: tb.game for tb in Table.objects.filter(tournament=t, round=2)}
    assert r2[1].options["boards"] == [5, 6, 7, 8]
    assert [s.player_id for s in r2[1].seats.order_by("position")][2] == attackers[3]
    assert [s.player_id for s in r2[3].seats.order_by("position")][2] == attackers[1]


def test_the_imposed_attacker_and_garde_are_enforced():
    t, teams = make_quadrette(2, rounds=1)
    services.tournament_start(tournament=t)
    table = Table.objects.select_related("game").get(tournament=t, round=1, number=1)
    game = table.game
    defender = game.seats.order_by("position").first().player_id
    with pytest.raises(GameError):
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=defender, **deal_for_score(50)),
            expected_number=1,
        )
    with pytest.raises(GameError):
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(
                taker=game.options["imposed"][0][0],
                **{**deal_for_score(50), "contract": "petite"},
            ),
            expected_number=1,
        )
    assert game.deals.count() == 0
    enter_board(table, 1, 62)
    assert quadrette.board_scores(t) == {(1, 1, 1): 62}
    enter_board(table, 2, 116)
    assert quadrette.board_scores(t)[(1, 1, 2)] == 116


def test_a_double_tap_enters_a_board_once():
    t, _teams = make_quadrette(2, rounds=1)
    services.tournament_start(tournament=t)
    table = Table.objects.select_related("game").get(tournament=t, round=1, number=2)
    enter_board(table, 1, 56)
    with pytest.raises(GameError):
        enter_board(table, 1, 56)
    assert table.game.deals.count() == 1
    g = quadrette.graded(Tournament.objects.get(pk=t.pk))
    assert (1, 1, 1) in g.missing and (1, 2, 1) not in g.missing


def test_registration_is_logged_and_removal_too():
    t, teams = make_quadrette(2, rounds=1)
    log = LogEntry.objects.filter(action=quadrette_services.TEAM_REGISTERED).first()
    assert log.after["team"] in ("Team 1", "Team 2")
    assert set(log.after["defenders"]) == {"N", "E", "W"}
    assert sorted(Entry.objects.filter(team="Team 1").values_list("orientation", flat=True)) == [
        "E",
        "N",
        "S",
        "W",
    ]
    assert quadrette_services.quadrette_remove(tournament=t, team=" team  1 ") == 4
    assert LogEntry.objects.filter(action=quadrette_services.TEAM_REMOVED).count() == 1
    assert Entry.objects.filter(tournament=t).count() == 4


def _new():
    return services.tournament_create(
        name="Q", date=dt.date(2026, 12, 2), rounds=1, format="quadrette"
    )


@pytest.mark.parametrize(
    "team,attacker,defenders,message",
    [
        ("", "Ann", ["Bo", "Cy", "Di"], "Give the quadrette a name."),
        ("x" * 61, "Ann", ["Bo", "Cy", "Di"], "at most 60 characters"),
        ("Q", "Ann", ["Bo", "Cy"], "exactly 4 players"),
        ("Q", "", ["Bo", "Cy", "Di"], "exactly 4 players"),
        ("Q", "Ann", ["Bo", "Cy", "Di", "Ed"], "exactly 4 players"),
        ("Q", "Ann", "BoCyDi", "exactly 4 players"),
        ("Q", "Ann", ["Bo", "ann", "Di"], "named twice"),
        ("Q", "Ann", ["Bo", "  ", "Di"], "Give each player's name."),
        ("Q", "Ann", ["Bo", 3, "Di"], "Give each player's name."),
        ("Old", "Ann", ["Bo", "Cy", "Di"], "already a quadrette called Old"),
        ("Q", "Zed Taken", ["Bo", "Cy", "Di"], "already plays in quadrette Old"),
    ],
)
def test_bad_registrations_are_refused_and_change_nothing(team, attacker, defenders, message):
    t = _new()
    quadrette_services.quadrette_register(
        tournament=t, team="Old", attacker="Zed Taken", defenders=["Y1", "Y2", "Y3"]
    )
    before = (Entry.objects.count(), Player.objects.count(), LogEntry.objects.count())
    with pytest.raises(TournamentError) as e:
        quadrette_services.quadrette_register(
            tournament=t, team=team, attacker=attacker, defenders=defenders
        )
    assert message in " ".join(e.value.messages)
    assert (Entry.objects.count(), Player.objects.count(), LogEntry.objects.count()) == before


def test_players_join_by_team_only_and_never_after_the_start():
    t, _teams = make_quadrette(2, rounds=1)
    with pytest.raises(TournamentError, match="by team of 4"):
        services.entry_register(tournament=t, guest_name="Loose Player")
    with pytest.raises(TournamentError, match="by team of 4"):
        services.entries_register_bulk(tournament=t, lines=["Loose Player"])
    services.tournament_start(tournament=t)
    with pytest.raises(TournamentError):
        quadrette_services.quadrette_register(
            tournament=t, team="Late", attacker="A1", defenders=["A2", "A3", "A4"]
        )
    with pytest.raises(TournamentError):
        quadrette_services.quadrette_remove(tournament=t, team="Team 1")
    with pytest.raises(TournamentError):
        services.entry_withdraw(entry=Entry.objects.filter(tournament=t).first())
    with pytest.raises(TournamentError):
        services.round_redraw(tournament=t)
    free = services.tournament_create(name="F", date=t.date)
    with pytest.raises(TournamentError, match="not played in quadrettes"):
        quadrette_services.quadrette_register(
            tournament=free, team="X", attacker="B1", defenders=["B2", "B3", "B4"]
        )


def _refused_start(t, message):
    before = LogEntry.objects.count()
    with pytest.raises(TournamentError) as e:
        services.tournament_start(tournament=t)
    assert message in " ".join(e.value.messages)
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == Status.REGISTRATION and t.movement == {} and t.plan == []
    assert not Table.objects.filter(tournament=t).exists()
    assert not Entry.objects.filter(tournament=t, start_table__isnull=False).exists()
    assert LogEntry.objects.count() == before


def test_the_start_refuses_an_odd_number_of_teams():
    t, _teams = make_quadrette(3, rounds=1)
    _refused_start(t, "must be even (here 3)")


def test_the_start_refuses_a_single_team():
    t, _teams = make_quadrette(1, rounds=1)
    _refused_start(t, "at least 2 teams (here 1)")


def test_the_start_refuses_a_player_in_no_team():
    t, _teams = make_quadrette(2, rounds=1)
    Entry.objects.create(tournament=t, player=Player.objects.create(name="Solo Loose"))
    _refused_start(t, "in no quadrette: Solo Loose")


def test_the_start_refuses_a_team_of_the_wrong_size():
    t, _teams = make_quadrette(2, rounds=1)
    Entry.objects.filter(tournament=t, team="Team 2", orientation="W").delete()
    _refused_start(t, "exactly 4 players, one attacker and 3 defenders: Team 2")


def test_more_rounds_than_opponents_meet_again_only_then():
    t, _teams = make_quadrette(2, rounds=3)
    services.tournament_start(tournament=t)
    assert quadrette.schedule(Tournament.objects.get(pk=t.pk)) == [[(1, 2)]] * 3


def test_each_board_is_dealt_by_the_turned_dealer_and_the_phone_says_who_leads():
    """Open question 18: the hands turn so that the taker is South, and the dealer with them;
    each deal's stored dealer is the player at that seat."""
    from scoring.movement import ORIENTATIONS, dealer_of, lead_place, leader_of, taker_of
    from scoring.quadrette import turned_dealer
    from tarotclub.kinds.tarot.selectors import dealer_for

    t, _teams = make_quadrette(4, rounds=2, boards=4)
    services.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t, round=1).select_related("game").first()
    game = table.game
    boards = game.options["boards"]
    assert game.options["dealers"] == [turned_dealer(dealer_of(b), taker_of(b)) for b in boards]
    seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
    for n, board in enumerate(boards, start=1):
        turned = game.options["dealers"][n - 1]
        assert dealer_for(game, n).pk == seats[ORIENTATIONS.index(turned)]
        # the same hand leads as the board intends, from the same place for the taker
        assert lead_place("S", leader_of(turned)) == lead_place(
            taker_of(board), leader_of(dealer_of(board))
        )
    # the first board, entered: its deal is stored with that dealer
    enter_board(table, 1, 50)
    deal = game.deals.get(number=1)
    assert deal.dealer_id == seats[ORIENTATIONS.index(game.options["dealers"][0])]
