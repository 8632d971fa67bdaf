"""Duplicate tournaments' writes: creation, seats, the movement at the start, rounds."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.movement import boards_of_set, movement, taker_of
from tarotclub.core.models import LogEntry
from tarotclub.kinds.tarot import services as tarot
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.models import Entry, Table

from .duplicate_helpers import enter_board, make_duplicate, play_duplicate_round

pytestmark = pytest.mark.django_db


def create(**kwargs):
    args = dict(name="D", date=dt.date(2026, 12, 1), rounds=3, deals_per_round=4)
    args.update(kwargs)
    return services.tournament_create(format="duplicate", **args)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"tables": 1}, services.ERR_DUPLICATE_TABLES),
        ({"tables": 31}, services.ERR_DUPLICATE_TABLES),
        ({"tables": "3"}, services.ERR_DUPLICATE_TABLES),
        ({"tables": 3, "rounds": 4}, services.ERR_DUPLICATE_ROUNDS),
        ({"tables": 3, "deals_per_round": 6}, services.ERR_DUPLICATE_BOARDS),
    ],
)
def test_create_refuses_what_no_movement_plays(kwargs, message):
    with pytest.raises(services.TournamentError) as e:
        create(**kwargs)
    assert e.value.message == message
    assert not services.Tournament.objects.exists()


def test_create_keeps_the_format_and_logs_it():
    t = create(tables=3)
    assert t.duplicate and t.table_count == 3 and not t.allow_three
    entry = LogEntry.objects.get(action=services.CREATED)
    assert entry.after["format"] == "duplicate" and entry.after["tables"] == 3


def test_free_tournament_refuses_a_seat(four):
    t = services.tournament_create(name="F", date=dt.date(2026, 12, 1))
    with pytest.raises(services.TournamentError):
        services.entry_register(tournament=t, player=four[0], orientation="N", start_table=1)


def test_seat_checks(make_players):
    t = create(tables=2, rounds=2)
    a, b, c = make_players("A", "B", "C")
    services.entry_register(tournament=t, player=a, orientation="E", start_table=2)
    for kwargs, message in [
        ({"orientation": "E", "start_table": 2}, services.ERR_SEAT_TAKEN),
        ({"orientation": "X", "start_table": 1}, services.ERR_ORIENTATION),
        ({"orientation": "N", "start_table": 3}, services.ERR_START_TABLE),
        ({"orientation": "N", "start_table": 0}, services.ERR_START_TABLE),
        ({"orientation": "N"}, services.ERR_SEAT_HALF),
        ({"start_table": 1}, services.ERR_SEAT_HALF),
    ]:
        with pytest.raises(services.TournamentError) as e:
            services.entry_register(tournament=t, player=b, **kwargs)
        assert e.value.message == message, kwargs
    assert Entry.objects.filter(tournament=t).count() == 1
    services.entry_register(tournament=t, player=c)  # no seat: given at the start
    assert Entry.objects.get(player=c).orientation == ""


def test_start_needs_four_players_a_table_and_refuses_a_fifth_of_a_table(make_players):
    t, players = make_duplicate(2, rounds=2)
    (extra,) = make_players("Extra")
    with pytest.raises(services.TournamentError) as e:
        services.entry_register(tournament=t, player=extra)
    assert e.value.message == services.ERR_DUPLICATE_FULL
    services.entry_withdraw(entry=Entry.objects.get(player=players[0]))
    with pytest.raises(services.TournamentError) as e:
        services.tournament_start(tournament=t)
    assert e.value.message == services.ERR_DUPLICATE_COUNT
    t.refresh_from_db()
    assert t.status == "registration" and t.movement == {}


def test_start_seats_everybody_by_the_movement():
    seats = [("W", 1), ("N", 2)] + [("", None)] * 10
    t, players = make_duplicate(3, seats=seats)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    m = duplicate.stored_movement(t)
    assert m == movement(3, 3)
    entries = {e.player_id: e for e in t.entries.all()}
    assert (entries[players[0].pk].orientation, entries[players[0].pk].start_table) == ("W", 1)
    assert (entries[players[1].pk].orientation, entries[players[1].pk].start_table) == ("N", 2)
    assert sorted((e.orientation, e.start_table) for e in entries.values()) == sorted(
        (o, n) for o in "NESW" for n in (1, 2, 3)
    )
    by_seat = {(e.orientation, e.start_table): e.player_id for e in entries.values()}
    tables = Table.objects.filter(tournament=t, round=1).select_related("game")
    for table, seating in zip(tables, m.seating(1), strict=True):
        seated = [s.player_id for s in table.game.seats.order_by("position")]
        assert seated == [by_seat[seating.seats[o]] for o in "NESW"]
        boards = list(boards_of_set(seating.board_set, 4))
        assert table.game.options["boards"] == boards
        takers = [pk for pk, contract in table.game.options["imposed"]]
        assert takers == [by_seat[seating.seats[taker_of(b)]] for b in boards]
        assert {c for _pk, c in table.game.options["imposed"]} == {"garde"}
    started = LogEntry.objects.get(action=services.STARTED)
    assert duplicate.stored_movement(type(t)(movement=started.after["movement"])) == m
    assert {p["seat"] for p in started.after["players"]} == {
        f"{o}{n}" for o in "NESW" for n in (1, 2, 3)
    }


def test_rounds_follow_the_movement_and_no_one_meets_a_board_twice():
    t, _players = make_duplicate(3)
    services.tournament_start(tournament=t)
    for _ in range(3):
        play_duplicate_round(t)
        services.tournament_next_round(tournament=t)
        t.refresh_from_db()
    assert t.status == "finished"
    played: dict[int, list[int]] = {}
    for table in Table.objects.filter(tournament=t).select_related("game"):
        for seat in table.game.seats.all():
            played.setdefault(seat.player_id, []).extend(table.game.options["boards"])
    assert all(len(b) == len(set(b)) == 12 for b in played.values())


def test_a_table_cannot_choose_the_taker_or_the_contract():
    t, _players = make_duplicate(3)
    services.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t, round=1).first()
    game = table.game
    imposed_taker = game.options["imposed"][0][0]
    other = next(s.player_id for s in game.seats.all() if s.player_id != imposed_taker)
    for data, field in [
        (tarot.DealInput(taker=other, contract="garde", bouts=1, points=60), "taker"),
        (tarot.DealInput(taker=imposed_taker, contract="prise", bouts=1, points=60), "contract"),
        (
            tarot.DealInput(taker=imposed_taker, contract="garde_sans", bouts=1, points=60),
            "contract",
        ),
    ]:
        with pytest.raises(tarot.GameError) as e:
            tarot.deal_add(game=game, data=data)
        assert field in e.value.message_dict
    assert game.deals.count() == 0
    deal = enter_board(table, 1, 56)
    with pytest.raises(tarot.GameError):
        tarot.deal_correct(
            deal=deal,
            data=tarot.DealInput(taker=other, contract="garde", bouts=1, points=60),
            expected_version=deal.version,
        )
    assert duplicate.board_scores(t) == {(game.options["boards"][0], 1): 56}


def test_no_redraw_no_withdrawal_no_late_player_once_started(make_players):
    t, players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    (late,) = make_players("Late")
    for call, message in [
        (lambda: services.round_redraw(tournament=t), services.ERR_DUPLICATE_REDRAW),
        (
            lambda: services.entry_withdraw(entry=Entry.objects.get(player=players[0])),
            services.ERR_DUPLICATE_WITHDRAW,
        ),
        (lambda: services.entry_register(tournament=t, player=late), services.ERR_DUPLICATE_LATE),
    ]:
        with pytest.raises(services.TournamentError) as e:
            call()
        assert e.value.message == message
    assert Entry.objects.filter(tournament=t).count() == 8
    assert Table.objects.filter(tournament=t).count() == 2


def test_a_pasted_list_fills_the_seats_and_no_more():
    from tarotclub.tournaments import bulk

    t = create(tables=2, rounds=2)
    lines, errors = bulk.parse("\n".join(f"Joueuse {chr(65 + i)}" for i in range(9)))
    assert not errors
    with pytest.raises(services.TournamentError) as e:
        services.entries_register_bulk(tournament=t, lines=lines)
    assert e.value.message == services.ERR_DUPLICATE_FULL
    assert not Entry.objects.filter(tournament=t).exists()
    services.entries_register_bulk(tournament=t, lines=lines[:8])
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    assert t.status == "running" and Table.objects.filter(tournament=t).count() == 2
    with pytest.raises(services.TournamentError) as e:
        services.entries_register_bulk(tournament=t, lines=lines[8:])
    assert e.value.message == services.ERR_DUPLICATE_LATE
