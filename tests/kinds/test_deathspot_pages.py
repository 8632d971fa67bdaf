"""Death's Pot as the players follow it: each row says when everybody paid in again, so the
balances can be followed; a finished game says what is left in the pot and names no dealer."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import strip_tags

from tarotclub.games import services
from tarotclub.games.presenters import MINUS

from .helpers import played

pytestmark = pytest.mark.django_db


def sheet_text(client, game) -> str:
    html = client.get(reverse("games:sheet", args=[game.token])).content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def rows_of(game):
    from tarotclub.games import kinds

    p = played(game)
    rows = kinds.get("deathspot").rows(p.state, p.players, p.names)
    for row in rows:
        row.summary = strip_tags(row.summary)
    return rows


def test_a_death_deal_says_everybody_paid_in_again(dp, three):
    services.record_add(game=dp, data={"death": three[0].pk})
    (row,) = rows_of(dp)
    assert "Anne shows Death and takes the pot (3)." in row.summary
    assert "Everybody pays in again (1 each)." in row.summary
    assert row.summary.index("takes the pot") < row.summary.index("pays in again")
    # Anne: −1 opening, +3, −1 again = +1; the others −1 −1 = −2; the pot 3
    assert row.cells[three[0].pk].sub == "1" and row.cells[three[1].pk].sub == f"{MINUS}2"
    assert row.cells[three[0].pk].main == "+2"  # +3 taken, 1 paid in again


def test_an_honour_that_empties_the_pot_shows_the_ante_where_it_happens(dp, three):
    data = {
        "excuse": three[1].pk,
        "trump11": three[2].pk,
        "tricks": {three[0].pk: 6, three[1].pk: 3, three[2].pk: 3},
    }
    services.record_add(game=dp, data=data)
    (row,) = rows_of(dp)
    text = row.summary
    # pot 3: Excuse Bram +1 (2 left), trump 11 Chloé +2 (empty: everybody pays in, 3),
    # Anne takes 3 with 6 tricks (empty: everybody pays in again, 3)
    assert text.count("Everybody pays in again (1 each).") == 2
    assert text.index("Trump 11") < text.index("pays in again") < text.index("Anne takes")
    assert text.endswith("Pot: 3")


def test_a_tie_keeps_the_pot_and_nobody_pays_in(dp, three):
    tricks = {three[0].pk: 5, three[1].pk: 5, three[2].pk: 2}
    services.record_add(game=dp, data={"tricks": tricks})
    (row,) = rows_of(dp)
    assert "The pot stays." in row.summary and "pays in again" not in row.summary


def test_the_stake_is_said_in_each_re_ante(start, three):
    game = start("deathspot", three, stake=5)
    services.record_add(game=game, data={"death": three[1].pk})
    (row,) = rows_of(game)
    assert "Everybody pays in again (5 each)." in row.summary


def test_a_finished_game_shows_the_pot_left_and_no_next_dealer(client, dp, three, member):
    tricks = {three[0].pk: 5, three[1].pk: 5, three[2].pk: 2}
    services.record_add(game=dp, data={"tricks": tricks})
    running = sheet_text(client, dp)
    assert "Deal 2:" in running and "deals (the deal passes to the right)" in running
    services.game_finish(game=dp, user=member)
    done = sheet_text(client, dp)
    assert "Left in the pot: 3" in done
    assert "Deal 2:" not in done and "passes to the right" not in done
    assert "Balances and pot add up to 0 ✓" in done


def test_names_in_a_deal_line_stay_whole_and_are_escaped(start, make_players):
    players = make_players("Marie-Christine", "<b>Bold</b>")
    game = start("deathspot", players, stake=1)
    services.record_add(game=game, data={"tricks": {players[0].pk: 6, players[1].pk: 6}})
    from tarotclub.games import kinds

    p = played(game)
    (row,) = kinds.get("deathspot").rows(p.state, p.players, p.names)
    assert '<span class="dp-name">Marie-Christine</span>' in row.summary
    assert "<b>" not in row.summary and "&lt;b&gt;" in row.summary
