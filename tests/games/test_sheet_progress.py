"""A tournament table's heading counts the deals entered out of those planned ("2 of 4
deals"). It sits above the polled part of the sheet, so every poll that brings a change sends
it again, out of band (games/_sheet_progress.html): the heading never shows an older count
than the sheet under it. A casual sheet has no such count, and its polls send none."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tarotclub.demo.builders import make_tournament
from tarotclub.games import selectors as game_selectors
from tarotclub.games.models import Game
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

pytestmark = pytest.mark.django_db

PROGRESS = re.compile(r'<span id="sheet-progress"( hx-swap-oob="true")?>([^<]*)</span>')


def _deal(game: Game) -> None:
    players = game_selectors.seat_players(game)
    n = game.deals.count() + 1
    dealer = tarot.dealer_for(game, n, players)
    taker = next(p for p in players if p.pk != dealer.pk)
    tarot.deal_add(
        game=game, data=tarot.DealInput(taker=taker.pk, contract="garde", bouts=2, points=49)
    )


def _poll(client, game: Game, rev: int, shown: int, language: str):
    url = reverse("games:poll", args=[game.token])
    return client.get(url, {"rev": rev, "n": shown}, headers={"accept-language": language})


@pytest.mark.parametrize(
    ("language", "before", "after"),
    [
        ("en", "0 of 4 deals", "1 of 4 deals"),
        ("fr", "donnes : 0 sur 4", "donnes : 1 sur 4"),
        ("nl", "0 van 4 spellen", "1 van 4 spellen"),
    ],
)
def test_a_poll_brings_the_headings_count_with_the_new_deal(client, language, before, after):
    t, _ = make_tournament(4, rounds=1, deals=4)
    services.tournament_start(tournament=t)
    game = Table.objects.get(tournament=t, round=1).game
    page = client.get(
        reverse("games:sheet", args=[game.token]), headers={"accept-language": language}
    )
    assert PROGRESS.findall(page.content.decode()) == [("", before)]  # in the heading, once
    rev = Game.objects.get(pk=game.pk).revision
    _deal(game)
    changes = _poll(client, game, rev, 0, language)
    assert changes.status_code == 200
    assert PROGRESS.findall(changes.content.decode()) == [(' hx-swap-oob="true"', after)]
    whole = _poll(client, game, rev, 99, language)  # a picture that does not fit: the whole part
    assert '<section id="sheet"' in whole.content.decode()
    assert PROGRESS.findall(whole.content.decode()) == [(' hx-swap-oob="true"', after)]


def test_a_casual_sheet_has_no_count_and_its_polls_send_none(client, four):
    game = game_start(players=four, first_dealer=0)
    assert (
        "sheet-progress"
        not in client.get(reverse("games:sheet", args=[game.token])).content.decode()
    )
    rev = game.revision
    _deal(game)
    assert "sheet-progress" not in _poll(client, game, rev, 0, "en").content.decode()
