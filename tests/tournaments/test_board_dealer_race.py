"""Two screens at once on a board's dealer, and a table entering the board while the director
changes its dealer: real threads on a real database (see test_concurrency)."""

from __future__ import annotations

import os

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.games.selectors import seat_players
from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.duplicate_services import board_set_dealer
from tarotclub.tournaments.history import BOARD_DEALER_SET
from tarotclub.tournaments.models import Table, Tournament

from .duplicate_helpers import enter_board, make_duplicate
from .test_concurrency import together

pytestmark = pytest.mark.django_db(transaction=True)

REPEAT = int(os.environ.get("TAROTCLUB_RACE_REPEAT", "4"))


def _started():
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    return t


@pytest.mark.parametrize("attempt", range(REPEAT))
def test_two_screens_mark_a_dealer_at_once(director, attempt):
    t = _started()
    url = reverse("tournaments:board_dealer", args=[t.pk, 3])
    screens = []
    for _ in range(2):
        c = Client()
        c.force_login(director)
        screens.append(c)
    a, b = together(
        lambda: screens[0].post(url, {"dealer": "S", "was": "N"}),
        lambda: screens[1].post(url, {"dealer": "W", "was": "N"}),
    )
    codes = sorted([a.status_code, b.status_code])
    assert codes == [200, 302]
    won = "S" if a.status_code == 302 else "W"
    lost = b if a.status_code == 302 else a
    assert "has just been changed to" in lost.content.decode()
    t.refresh_from_db()
    assert t.board_dealers == {"3": won}
    assert LogEntry.objects.filter(object_id=t.pk, action=BOARD_DEALER_SET).count() == 1


@pytest.mark.parametrize("attempt", range(REPEAT))
def test_a_table_enters_the_board_while_its_dealer_changes(attempt):
    t = _started()
    table = next(
        x
        for x in Table.objects.filter(tournament=t, round=1).select_related("game")
        if x.game.options["boards"][0] == 1
    )
    seats = seat_players(table.game)

    def change_dealer():
        try:
            return board_set_dealer(tournament=Tournament.objects.get(pk=t.pk), board=1, dealer="E")
        except ValidationError as e:
            return ("refused", e)

    deal, change = together(lambda: enter_board(table, 1, 56), change_dealer)
    assert isinstance(deal, Deal), deal
    t.refresh_from_db()
    if isinstance(change, tuple):  # the deal went first: the change was refused
        assert "has been played" in " ".join(change[1].messages)
        assert t.board_dealers == {}
    else:  # the change went first: the deal was dealt by the new dealer
        assert t.board_dealers == {"1": "E"}
    stored = Deal.objects.get(pk=deal.pk)
    assert stored.dealer_id == seats["NESW".index(duplicate.board_dealer(t, 1))].pk
