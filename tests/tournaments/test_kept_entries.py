"""A tournament table's sheet confirmed while a phone was offline: the phone's queued deal is
refused with the reason, and kept for the director on the director's page."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.games import queued
from tarotclub.games.models import RefusedEntry
from tarotclub.games.policy import ERR_LOCKED
from tarotclub.games.selectors import seat_players
from tarotclub.kinds.tarot import services as tarot
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament, play_table

pytestmark = pytest.mark.django_db


def test_a_confirmed_tables_queued_deal_is_kept_for_the_director(director):
    t, _ = make_tournament(8, rounds=2, deals=2)
    t = services.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t, round=1).order_by("number").first()
    play_table(table)  # all deals in, confirmed
    players = seat_players(table.game)
    dealer = tarot.dealer_for(table.game, 3, players)
    taker = next(p for p in players if p != dealer)
    data = {
        "taker": taker.pk,
        "contract": "garde",
        "bouts": "2",
        "points_side": "attack",
        "points": "49",
        "chelem": "none",
        "number": "3",
        "client_id": str(uuid.uuid4()),
        "summary": "Garde",
    }
    phone = Client()
    answer = phone.post(
        reverse("games:deal_new", args=[table.game.token]), data, HTTP_ACCEPT="application/json"
    ).json()
    assert answer["status"] == queued.LOCKED and answer["kept"]
    assert answer["message"] == str(ERR_LOCKED)
    assert RefusedEntry.objects.filter(game=table.game).count() == 1
    desk = Client()
    desk.force_login(director)
    html = desk.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert "Entries kept for you" in html and f"Table {table.number} · round 1" in html
