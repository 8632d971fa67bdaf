"""Triplette tournaments' writes (duplicate.md 2.2): teams, lines, badges, start, boards."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring import triplette as rules
from tarotclub.core.models import LogEntry
from tarotclub.games.services import GameError
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.tournaments import services, triplette, triplette_services
from tarotclub.tournaments.models import Entry, Table

from .duplicate_helpers import deal_for_score, enter_board
from .triplette_helpers import make_triplette, play_triplette_round

pytestmark = pytest.mark.django_db


def create(**kwargs):
    args = dict(name="T", date=dt.date(2026, 12, 2), rounds=2, deals_per_round=4, seed=5)
    args.update(kwargs)
    return services.tournament_create(format="triplette", **args)


def players(*names):
    return [Player.objects.create(name=n) for n in names]


def register(t, team, members, line=""):
    return triplette_services.triplette_register(
        tournament=t, team=team, members=members, line=line
    )


def test_create_draws_the_first_colour_with_the_seed():
    t = create()
    assert t.triplette and not t.duplicate
    assert t.first_colour == rules.draw_first_colour(5, 0)
    assert LogEntry.objects.get(action=services.CREATED).after["first_colour"] == t.first_colour


def test_create_refuses_boards_not_a_multiple_of_four():
    with pytest.raises(services.TournamentError) as e:
        create(deals_per_round=6)
    assert e.value.message == services.ERR_DUPLICATE_BOARDS


@pytest.mark.parametrize(
    "team, members, line, message",
    [
        ("", ["A a", "B b", "C c"], "NS", triplette_services.ERR_TEAM_NAME_EMPTY),
        ("   ", ["A a", "B b", "C c"], "NS", triplette_services.ERR_TEAM_NAME_EMPTY),
        ("x" * 61, ["A a", "B b", "C c"], "NS", triplette_services.ERR_TEAM_NAME_LONG),
        ("Two", ["A a", "B b"], "NS", triplette_services.ERR_TEAM_THREE),
        ("Four", ["A a", "B b", "C c", "D d"], "NS", triplette_services.ERR_TEAM_THREE),
        ("Twice", ["A a", "a  A", "C c"], "NS", triplette_services.ERR_TEAM_TWICE),
        ("Blank", ["A a", "", "C c"], "NS", triplette_services.ERR_PLAYER_NAME),
        ("Num", ["A a", 7, "C c"], "NS", triplette_services.ERR_PLAYER_NAME),
        ("Line", ["A a", "B b", "C c"], "NE", triplette_services.ERR_LINE),
        ("Line", ["A a", "B b", "C c"], "<b>", triplette_services.ERR_LINE),
        ("Text", "abc", "NS", triplette_services.ERR_TEAM_THREE),
        ("None", None, "NS", triplette_services.ERR_TEAM_THREE),
    ],
)
def test_register_refuses_hostile_input_and_changes_nothing(team, members, line, message):
    t = create()
    with pytest.raises(services.TournamentError) as e:
        register(t, team, members, line)
    assert e.value.message == message
    assert not Entry.objects.exists() and not Player.objects.exists()
    assert not LogEntry.objects.filter(action=triplette_services.TEAM_REGISTERED).exists()


def test_register_a_team_and_log_it():
    t = create()
    a, b, c = players("Paul Dupont", "Anne Martin", "Léa Roux")
    entries = register(t, "Les Bleus", [a, b, "Marc Guest"], "EW")
    assert [e.team for e in entries] == ["Les Bleus"] * 3
    assert {e.line for e in entries} == {"EW"}
    assert Player.objects.get(name="Marc Guest").guest
    log = LogEntry.objects.get(action=triplette_services.TEAM_REGISTERED)
    assert log.after["team"] == "Les Bleus" and len(log.after["players"]) == 3


def test_a_player_in_two_teams_is_refused():
    t = create()
    a, b, c, d, e = players("A Un", "B Deux", "C Trois", "D Quatre", "E Cinq")
    register(t, "One", [a, b, c], "NS")
    with pytest.raises(services.TournamentError) as err:
        register(t, "Two", [d, e, c], "EW")
    assert err.value.message == triplette_services.ERR_IN_TEAM
    assert "One" in str(err.value)
    assert Entry.objects.count() == 3


def test_a_team_name_is_taken_whatever_its_case():
    t = create()
    register(t, "Les Rois", ["A a", "B b", "C c"], "NS")
    with pytest.raises(services.TournamentError) as e:
        register(t, "les  ROIS", ["D d", "E e", "F f"], "EW")
    assert e.value.message == triplette_services.ERR_TEAM_NAME_TAKEN


def test_without_a_line_the_lines_stay_balanced():
    t = create()
    lines = [register(t, f"T{i}", [f"A{i} a", f"B{i} b", f"C{i} c"])[0].line for i in range(4)]
    assert lines == ["NS", "EW", "NS", "EW"]


def test_single_registration_is_refused_in_triplettes():
    t = create()
    (a,) = players("Solo Player")
    with pytest.raises(services.TournamentError) as e:
        services.entry_register(tournament=t, player=a)
    assert e.value.message == services.ERR_TRIPLETTE_BY_TEAM


def test_remove_a_team_before_the_start():
    t = create()
    register(t, "Gone", ["A a", "B b", "C c"], "NS")
    assert triplette_services.triplette_remove(tournament=t, team="gone") == 3
    assert not Entry.objects.exists()
    with pytest.raises(services.TournamentError):
        triplette_services.triplette_remove(tournament=t, team="gone")


def test_redraw_colour_before_start_and_refuse_a_second_tap():
    t = create()
    first = t.first_colour
    t = triplette_services.triplette_redraw_colour(tournament=t, draws=0)
    assert t.colour_draws == 1 and t.first_colour == rules.draw_first_colour(5, 1)
    with pytest.raises(services.TournamentError):
        triplette_services.triplette_redraw_colour(tournament=t, draws=0)
    t.refresh_from_db()
    assert t.colour_draws == 1
    log = LogEntry.objects.get(action=triplette_services.COLOUR_DRAWN)
    assert log.before == {"first_colour": first}


@pytest.mark.parametrize(
    "lines, message",
    [
        (["NS", "EW", "NS"], services.ERR_TRIPLETTE_ODD),
        (["NS", "NS", "NS", "EW"], services.ERR_TRIPLETTE_LINES),
        (["NS", "EW"], services.ERR_TRIPLETTE_FEW),
    ],
)
def test_start_refuses_unplayable_teams(lines, message):
    t = create(rounds=1)
    for i, line in enumerate(lines):
        register(t, f"T{i}", [f"A{i} a", f"B{i} b", f"C{i} c"], line)
    with pytest.raises(services.TournamentError) as e:
        services.tournament_start(tournament=t)
    assert e.value.message == message
    t.refresh_from_db()
    assert t.status == "registration" and not Table.objects.exists()


def test_start_refuses_a_team_left_with_two():
    t = create(rounds=1)
    for i, line in enumerate(["NS", "EW", "NS", "EW"]):
        register(t, f"T{i}", [f"A{i} a", f"B{i} b", f"C{i} c"], line)
    services.entry_withdraw(entry=Entry.objects.filter(team="T0").first())
    with pytest.raises(services.TournamentError) as e:
        services.tournament_start(tournament=t)
    assert e.value.message == services.ERR_TRIPLETTE_SIZE


def test_start_refuses_more_rounds_than_tables():
    t, _teams = make_triplette(4, rounds=3)
    with pytest.raises(services.TournamentError) as e:
        services.tournament_start(tournament=t)
    assert e.value.message == services.ERR_TRIPLETTE_ROUNDS
    assert e.value.params == {"rounds": 3, "teams": 4, "most": 2}


def test_start_gives_tables_badges_and_seats_six_with_four_a_board():
    t, teams = make_triplette(4, rounds=2, seed=3)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    assert t.table_count == 2
    assert (t.movement["kind"], t.movement["teams"], t.movement["sets"]) == ("stay", 4, 2)
    entries = list(Entry.objects.select_related("player"))
    for members in triplette.teams(entries).values():
        assert [e.badge for e in members] == list(rules.BADGES)
        names = [e.player.name for e in members]
        assert sorted(names, key=rules.surname_key) == names
        assert len({e.start_table for e in members}) == 1
    tables = list(Table.objects.filter(round=1).select_related("game"))
    assert len(tables) == 2
    for table in tables:
        opts = table.game.options
        seated = [s.player_id for s in table.game.seats.order_by("position")]
        assert len(seated) == 6
        ns, ew = seated[:3], seated[3:]
        for board, (taker, contract), active in zip(
            opts["boards"], opts["imposed"], opts["active"], strict=True
        ):
            assert contract == "garde" and taker in active and len(set(active)) == 4
            attackers = ns if rules.attacking_line(board) == "NS" else ew
            defenders = ew if attackers is ns else ns
            assert taker in attackers and set(active) - {taker} == set(defenders)


def test_rotation_follows_the_drawn_colour_over_rounds():
    t, teams = make_triplette(4, rounds=2, seed=3)
    services.tournament_start(tournament=t)
    play_triplette_round(t)
    services.tournament_next_round(tournament=t)
    t.refresh_from_db()
    by_pk = {e.player_id: e for e in Entry.objects.all()}
    takers: dict[str, list[str]] = {}
    for table in Table.objects.order_by("round", "number").select_related("game"):
        for _board, (taker, _c) in sorted(
            zip(table.game.options["boards"], table.game.options["imposed"], strict=True)
        ):
            takers.setdefault(by_pk[taker].team, []).append(by_pk[taker].badge)
    for badges in takers.values():
        assert len(badges) == 4
        assert badges == [rules.attacker_badge(t.first_colour, k) for k in range(4)]


def test_the_imposed_attacker_takes_and_only_the_four_score():
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    table = Table.objects.filter(round=1).select_related("game").first()
    game = table.game
    taker, _c = game.options["imposed"][0]
    other = next(pk for pk in game.options["active"][0] if pk != taker)
    with pytest.raises(GameError):
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=other, **deal_for_score(60)),
            expected_number=1,
        )
    sitting = [
        s.player_id for s in game.seats.all() if s.player_id not in game.options["active"][0]
    ]
    with pytest.raises(GameError):  # one of the two not playing this board cannot take it
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=sitting[0], **deal_for_score(60)),
            expected_number=1,
        )
    deal = enter_board(table, 1, 60)
    scores = {line.player_id: line.score for line in deal.lines.all()}
    assert scores[taker] == 180 and sum(scores.values()) == 0
    assert [scores[pk] for pk in sitting] == [0, 0]
    assert deal.dealer_id == game.options["active"][0][0]


def test_double_submit_of_a_board_is_refused():
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    table = Table.objects.filter(round=1).select_related("game").first()
    enter_board(table, 1, 60)
    with pytest.raises(GameError):
        enter_board(table, 1, 60)
    assert table.game.deals.count() == 1


def test_two_teams_registered_at_once_are_both_kept():
    t = create()
    register(t, "One", ["A a", "B b", "C c"], "NS")
    register(t, "Two", ["D d", "E e", "F f"], "EW")
    assert sorted({e.team for e in Entry.objects.all()}) == ["One", "Two"]


def test_no_team_after_the_start_and_no_redraw():
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    with pytest.raises(services.TournamentError):
        register(t, "Late", ["X x", "Y y", "Z z"], "NS")
    with pytest.raises(services.TournamentError):
        triplette_services.triplette_redraw_colour(tournament=t)
    with pytest.raises(services.TournamentError):
        services.round_redraw(tournament=t)


def test_graded_teams_half_attack_half_defence():
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    play_triplette_round(t, lambda board, rnd, table: 60 if table == 1 else -56)
    services.tournament_next_round(tournament=t)
    play_triplette_round(t, lambda board, rnd, table: 50 if table == 1 else 70)
    t.refresh_from_db()
    g = triplette.graded(t)
    assert len(g.plays) == 16
    res = g.results
    for key in g.keys:
        assert res.overall[key] == (res.attack[key] + res.defence[key]) / 2
    rows = triplette.ranking_rows(g, "alternating")
    assert len(rows) == 4 and {r["line"] for r in rows[:2]} == {"North-South", "East-West"}
    for board in triplette.boards(g):
        sheet = triplette.grading_rows(g, board)
        assert len(sheet) == 2
        assert sum(r["attack"] for r in sheet) == 50 * 2


def test_where_do_i_sit_names_the_teams_line():
    from tarotclub.tournaments import selectors

    t, teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    for members in teams:
        line = Entry.objects.get(player=members[0]).line
        found = selectors.find_seat(t, members[0].name)
        assert [str(f["seat"]) for f in found] == ["North-South" if line == "NS" else "East-West"]


def test_each_board_is_dealt_by_the_player_at_its_marked_dealers_orientation():
    """The four who play a board sit at its orientations (the attacker at the taker's): the
    board's dealer is the one of them at the dealer's orientation, and the deal stores him."""
    from scoring.movement import ORIENTATIONS, dealer_of
    from tarotclub.kinds.tarot.selectors import dealer_for

    t, _teams = make_triplette(4, rounds=2, boards=8)
    services.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t, round=1).select_related("game").first()
    game = table.game
    boards = game.options["boards"]
    assert game.options["dealers"] == [dealer_of(b) for b in boards]
    # boards 1-4 and 5-8 have different default dealers: the dealer follows the board
    assert len(set(game.options["dealers"])) > 1
    for n, _board in enumerate(boards, start=1):
        four = game.options["active"][n - 1]
        assert dealer_for(game, n).pk == four[ORIENTATIONS.index(game.options["dealers"][n - 1])]
    enter_board(table, 1, 50)
    deal = game.deals.get(number=1)
    assert deal.dealer_id == game.options["active"][0][ORIENTATIONS.index(dealer_of(boards[0]))]
