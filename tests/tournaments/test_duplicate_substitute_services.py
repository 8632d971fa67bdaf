"""A substitute for a duplicate player who withdraws (`duplicate_services.entry_substitute`):
the happy path and its history, the seating from his round (the table's seat, the imposed
takers, the phone's revision), every refusal changing nothing, a double tap, and the grading
through the site equal to `scoring.duplicate.grade_session` with the substitutes."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError

from scoring.duplicate import grade_session
from tarotclub.core.models import LogEntry
from tarotclub.games.models import Seat
from tarotclub.players.models import Player
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.duplicate_services import entry_substitute
from tarotclub.tournaments.history import ENTRY_SUBSTITUTED
from tarotclub.tournaments.models import Entry, Status, Table, Tournament

from .duplicate_helpers import enter_board, make_duplicate, play_duplicate_round

pytestmark = pytest.mark.django_db


def _started(tables=3, rounds=3):
    t, players = make_duplicate(tables, rounds=rounds)
    services.tournament_start(tournament=t)
    t.refresh_from_db()
    return t, players


def _entry(t, seat=("E", 2)) -> Entry:
    return Entry.objects.select_related("player").get(
        tournament=t, orientation=seat[0], start_table=seat[1]
    )


def _table_of(t, seat, rnd) -> Table:
    m = duplicate.stored_movement(t)
    number = next(s.table for s in m.seating(rnd) if s.seats[seat[0]] == seat)
    return Table.objects.select_related("game").get(tournament=t, round=rnd, number=number)


def _logs(t) -> int:
    return LogEntry.objects.filter(object_id=t.pk, action=ENTRY_SUBSTITUTED).count()


def _refused(call, text: str) -> None:
    with pytest.raises(ValidationError) as e:
        call()
    assert text in " ".join(e.value.messages), e.value.messages


def test_a_substitute_takes_the_seat_of_the_current_round_at_once(director):
    t, _players = _started()
    play_duplicate_round(t)
    services.tournament_next_round(tournament=t)
    t.refresh_from_db()
    gone = _entry(t)
    table = _table_of(t, ("E", 2), 2)
    revision = table.game.revision
    sub = Player.objects.create(name="Zoé Remplaçante")
    made = entry_substitute(tournament=t, entry=gone, player=sub, from_round=2, user=director)
    assert (made.player, made.replaces, made.first_round, made.from_round) == (sub, gone, 2, 2)
    assert made.orientation == "" and made.start_table is None
    gone.refresh_from_db()
    assert gone.last_round == 1 and gone.from_round is None
    table.game.refresh_from_db()
    seated = list(Seat.objects.filter(game=table.game).values_list("player_id", flat=True))
    assert sub.pk in seated and gone.player_id not in seated
    takers = [pk for pk, _c in table.game.options["imposed"]]
    assert gone.player_id not in takers
    assert takers.count(sub.pk) == len(takers) // 4  # a seat takes one board in four
    assert table.game.revision == revision + 1  # the phone reloads the names
    log = LogEntry.objects.get(object_id=t.pk, action=ENTRY_SUBSTITUTED)
    assert log.user == director
    assert log.before["player"]["name"] == gone.player.name and log.before["last_round"] is None
    assert log.after["last_round"] == 1
    assert log.after["substitute"]["player"] == {"pk": sub.pk, "name": sub.name}
    assert log.after["from_round"] == 2 and log.after["games"] == [table.game_id]
    # round 1 stays the player's own
    first = _table_of(t, ("E", 2), 1)
    assert gone.player_id in Seat.objects.filter(game=first.game).values_list("player", flat=True)


def test_a_substitute_from_a_later_round_is_seated_by_the_plan():
    t, _players = _started()
    gone = _entry(t, ("N", 1))
    sub = entry_substitute(tournament=t, entry=gone, guest_name="  Jan   Invaller ", from_round=3)
    assert sub.player.guest and sub.player.name == "Jan Invaller"
    t.refresh_from_db()
    m = duplicate.stored_movement(t)
    seats = duplicate.seats_of(t.entries.all())
    for r, plan in zip((2, 3), t.plan, strict=True):
        who = sub.player_id if r == 3 else gone.player_id
        s = next(s for s in m.seating(r) if s.seats["N"] == ("N", 1))
        assert plan[s.table - 1][0] == who
        assert len(seats) == 12
    play_duplicate_round(t)
    services.tournament_next_round(tournament=t)
    assert gone.player_id in Seat.objects.filter(game=_table_of(t, ("N", 1), 2).game).values_list(
        "player", flat=True
    )
    play_duplicate_round(t)
    services.tournament_next_round(tournament=t)
    game = _table_of(t, ("N", 1), 3).game
    assert sub.player_id in Seat.objects.filter(game=game).values_list("player", flat=True)
    assert sub.player_id in [pk for pk, _c in game.options["imposed"]]


def _nothing_changed(t, before_entries: int) -> None:
    assert Entry.objects.filter(tournament=t).count() == before_entries
    assert _logs(t) == 0
    assert not Entry.objects.filter(tournament=t, last_round__isnull=False).exists()


def test_refusals_change_nothing():
    t, players = _started()
    gone = _entry(t)
    count = Entry.objects.filter(tournament=t).count()
    sub = Player.objects.create(name="Extra")
    for bad in (1, 0, 4, -1, "2", True, None, 2.0):
        _refused(
            lambda bad=bad: entry_substitute(tournament=t, entry=gone, player=sub, from_round=bad),
            "between 2 and 3",
        )
    _refused(
        lambda: entry_substitute(tournament=t, entry=gone, player=players[0], from_round=2),
        "already plays in this tournament",
    )
    _refused(
        lambda: entry_substitute(tournament=t, entry=gone, guest_name="   ", from_round=2),
        "Choose the substitute",
    )
    _nothing_changed(t, count)


def test_refused_once_the_seats_table_has_entered_a_deal_of_that_round():
    t, _players = _started()
    play_duplicate_round(t)
    services.tournament_next_round(tournament=t)
    table = _table_of(t, ("E", 2), 2)
    enter_board(table, 1, 50)
    gone = _entry(t)
    count = Entry.objects.filter(tournament=t).count()
    sub = Player.objects.create(name="Late")
    _refused(
        lambda: entry_substitute(tournament=t, entry=gone, player=sub, from_round=2),
        f"Table {table.number} has entered a deal in round 2",
    )
    _nothing_changed(t, count)
    assert gone.player_id in Seat.objects.filter(game=table.game).values_list("player", flat=True)
    # from the next round it is fine
    entry_substitute(tournament=t, entry=gone, player=sub, from_round=3)
    assert _logs(t) == 1


def test_refused_for_another_format_a_finished_or_not_started_tournament(four):
    free = services.tournament_create(name="Free", date=dt.date(2026, 12, 1), rounds=2)
    for p in four:
        services.entry_register(tournament=free, player=p)
    services.tournament_start(tournament=free)
    _refused(
        lambda: entry_substitute(
            tournament=free, entry=free.entries.first(), guest_name="X", from_round=2
        ),
        "not an individual duplicate tournament",
    )
    t, _players = make_duplicate(2, rounds=2)
    _refused(
        lambda: entry_substitute(
            tournament=t, entry=t.entries.first(), guest_name="X", from_round=2
        ),
        "once the tournament has started",
    )
    services.tournament_start(tournament=t)
    Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    _refused(
        lambda: entry_substitute(
            tournament=t, entry=t.entries.first(), guest_name="X", from_round=2
        ),
        "finished",
    )
    assert not Player.objects.filter(name="X").exists()


def test_one_substitute_a_seat_and_a_double_tap_is_a_no_op():
    t, _players = _started()
    gone = _entry(t)
    sub = Player.objects.create(name="First sub")
    made = entry_substitute(tournament=t, entry=gone, player=sub, from_round=2)
    again = entry_substitute(tournament=t, entry=gone, player=sub, from_round=2)
    assert again.pk == made.pk and _logs(t) == 1
    other = Player.objects.create(name="Second sub")
    count = Entry.objects.filter(tournament=t).count()
    _refused(
        lambda: entry_substitute(tournament=t, entry=gone, player=other, from_round=2),
        "is already replaced by First sub from round 2",
    )
    _refused(
        lambda: entry_substitute(tournament=t, entry=gone, player=sub, from_round=3),
        "is already replaced by First sub",
    )
    _refused(
        lambda: entry_substitute(tournament=t, entry=made, player=other, from_round=3),
        "is a substitute",
    )
    assert Entry.objects.filter(tournament=t).count() == count and _logs(t) == 1
    # a guest's double tap: the same name again
    g = entry_substitute(
        tournament=t, entry=_entry(t, ("S", 3)), guest_name="Guest Sub", from_round=3
    )
    g2 = entry_substitute(
        tournament=t, entry=_entry(t, ("S", 3)), guest_name="guest  sub", from_round=3
    )
    assert g.pk == g2.pk and _logs(t) == 2


def test_an_entry_of_another_tournament_is_refused():
    t, _players = _started()
    other, _p = _started(2, 2)
    _refused(
        lambda: entry_substitute(
            tournament=t, entry=_entry(other, ("N", 1)), guest_name="Y", from_round=2
        ),
        "no longer registered",
    )


def test_the_grading_through_the_site_equals_grade_session_with_substitutes():
    t, _players = _started()
    entry_substitute(tournament=t, entry=_entry(t, ("E", 2)), guest_name="Sub A", from_round=2)
    entry_substitute(tournament=t, entry=_entry(t, ("W", 3)), guest_name="Sub B", from_round=3)

    def score(board, rnd, table):
        return 50 + 2 * ((board * 7 + rnd * 3 + table) % 11)

    for _r in range(3):
        play_duplicate_round(t, score)
        t.refresh_from_db()
        if t.current_round < t.rounds:
            services.tournament_next_round(tournament=t)
    g = duplicate.graded(t)
    subs = {("E", 2): 2, ("W", 3): 3}
    assert g.substitutes == subs
    expected = grade_session(g.movement, t.deals_per_round, g.scores, substitutes=subs)
    assert g.session == expected
    assert len(g.scores) == 3 * 3 * 4
    sub_a = g.session.records[("E", 2, 2)]
    assert sub_a.overall is not None
    assert {p.round for p in sub_a.took + sub_a.defended} == {2, 3}
    own = g.session.records[("E", 2)]
    assert {p.round for p in own.took + own.defended} == {1}
    assert {p.round for p in g.session.records[("W", 3, 3)].defended} == {3}
    assert g.name(("E", 2, 2)) == "Sub A"
    assert g.note(("E", 2)) == "played round 1"
    assert g.note(("W", 3)) == "played rounds 1–2"
    assert g.note(("E", 2, 2)) == "substitute from round 2"
    assert g.full_name(("W", 3, 3)) == "Sub B (substitute from round 3)"
    assert g.code(("W", 3, 3)) == "W3-3"
    assert len(g.session.alternating) == 14
    # graded_many (a player's page) grades the same way
    assert duplicate.graded_many([t])[t.pk].session == expected
