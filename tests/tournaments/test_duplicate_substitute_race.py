"""Two directors seat a substitute in the same seat at once, a double tap, and a table entering
its first deal while its player is replaced: real threads on a real database."""

from __future__ import annotations

import os

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.games.models import Seat
from tarotclub.kinds.tarot.models import Deal
from tarotclub.players.models import Player
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.duplicate_services import entry_substitute
from tarotclub.tournaments.history import ENTRY_SUBSTITUTED
from tarotclub.tournaments.models import Entry, Table, Tournament

from .duplicate_helpers import enter_board, make_duplicate, play_duplicate_round
from .test_concurrency import together

pytestmark = pytest.mark.django_db(transaction=True)

REPEAT = int(os.environ.get("TAROTCLUB_RACE_REPEAT", "4"))


def _in_round_two():
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    play_duplicate_round(t)
    services.tournament_next_round(tournament=t)
    return t, Entry.objects.get(tournament=t, orientation="S", start_table=2)


def _screens(director, n=2):
    out = []
    for _ in range(n):
        c = Client()
        c.force_login(director)
        out.append(c)
    return out


@pytest.mark.parametrize("attempt", range(REPEAT))
def test_two_directors_seat_two_substitutes_at_once(director, attempt):
    t, gone = _in_round_two()
    a_sub, b_sub = Player.objects.create(name="Sub A"), Player.objects.create(name="Sub B")
    url = reverse("tournaments:substitute", args=[t.pk, gone.pk])
    first, second = _screens(director)
    a, b = together(
        lambda: first.post(url, {"player": a_sub.pk, "from_round": "2"}),
        lambda: second.post(url, {"player": b_sub.pk, "from_round": "2"}),
    )
    assert sorted([a.status_code, b.status_code]) == [200, 302]
    won, lost = (a_sub, b) if a.status_code == 302 else (b_sub, a)
    assert "is already replaced by" in lost.content.decode()
    assert list(Entry.objects.filter(replaces=gone).values_list("player", flat=True)) == [won.pk]
    assert LogEntry.objects.filter(object_id=t.pk, action=ENTRY_SUBSTITUTED).count() == 1
    m = duplicate.stored_movement(t)
    number = next(s.table for s in m.seating(2) if s.seats["S"] == ("S", 2))
    game = Table.objects.get(tournament=t, round=2, number=number).game
    seated = set(Seat.objects.filter(game=game).values_list("player", flat=True))
    assert won.pk in seated and gone.player_id not in seated


@pytest.mark.parametrize("attempt", range(REPEAT))
def test_a_double_tap_seats_one_substitute(director, attempt):
    t, gone = _in_round_two()
    url = reverse("tournaments:substitute", args=[t.pk, gone.pk])
    first, second = _screens(director)
    a, b = together(
        lambda: first.post(url, {"guest_name": "Tap Twice", "from_round": "2"}),
        lambda: second.post(url, {"guest_name": "Tap Twice", "from_round": "2"}),
    )
    assert (a.status_code, b.status_code) == (302, 302)
    assert Entry.objects.filter(replaces=gone).count() == 1
    assert Player.objects.filter(name="Tap Twice").count() == 1
    assert LogEntry.objects.filter(object_id=t.pk, action=ENTRY_SUBSTITUTED).count() == 1


@pytest.mark.parametrize("attempt", range(REPEAT))
def test_a_table_enters_its_first_deal_while_its_player_is_replaced(attempt):
    t, gone = _in_round_two()
    m = duplicate.stored_movement(t)
    number = next(s.table for s in m.seating(2) if s.seats["S"] == ("S", 2))
    table = Table.objects.select_related("game").get(tournament=t, round=2, number=number)
    sub = Player.objects.create(name="Racing Sub")

    def deal():
        try:
            return enter_board(table, 1, 56)
        except ValidationError as e:
            return ("refused", e)

    def replace():
        try:
            return entry_substitute(
                tournament=Tournament.objects.get(pk=t.pk), entry=gone, player=sub, from_round=2
            )
        except ValidationError as e:
            return ("refused", e)

    entered, replaced = together(deal, replace)
    seated = set(Seat.objects.filter(game=table.game).values_list("player", flat=True))
    if isinstance(replaced, Entry):  # the substitute went first: the seat is his
        assert sub.pk in seated and gone.player_id not in seated
        # a deal saved after him is one the phone made for the seat's new taker, or refused
        for d in Deal.objects.filter(game=table.game):
            assert d.taker_id in seated
    else:  # the deal went first: the substitute was refused, nothing changed
        assert isinstance(entered, Deal), entered
        assert "has entered a deal in round 2" in " ".join(replaced[1].messages)
        assert gone.player_id in seated and not Entry.objects.filter(replaces=gone).exists()
