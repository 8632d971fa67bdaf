"""The other games honour their house rules through the site (issue 14): the engine replays
with the game's own copy, the entry screens follow it, the sheet says it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.games import services
from tarotclub.games.models import Record
from tarotclub.games.services import GameError

from .helpers import played

pytestmark = pytest.mark.django_db


def tricks(players, *counts):
    return {"tricks": {p.pk: n for p, n in zip(players, counts, strict=True)}}


def test_fools_faith_next_dealer_after_a_tie(start, three):
    same = start("foolsfaith", three)
    nxt = start("foolsfaith", three, house={"tie_dealer": "next"})
    for game in (same, nxt):
        services.record_add(game=game, data=tricks(three, 3, 3, 2))
    assert played(same).state.dealer == three[0].pk
    assert played(nxt).state.dealer == three[1].pk


def test_deaths_pot_shares_the_pot_on_a_tie(client, member, start, three):
    game = start("deathspot", three, stake=1, house={"tie_pot": "shared"})
    services.record_add(game=game, data=tricks(three, 5, 5, 2))
    state = played(game).state
    assert state.balances == {three[0].pk: 0, three[1].pk: 0, three[2].pk: -1}
    assert state.pot == 1
    client.force_login(member)
    page = client.get(reverse("games:sheet", args=[game.token])).content.decode()
    assert "House rules: on a tie for most tricks the tied players share the pot" in page
    assert "share the pot." in page and "The pot stays." not in page


def test_keys_whole_table_unless_the_club_says_so(client, member, start, three):
    whole = start("keys", three)
    game = {"suits": {three[0].pk: "hearts", three[1].pk: "spades"}, "winner": three[0].pk}
    game["keys"] = {three[1].pk: 3}
    with pytest.raises(GameError) as refused:
        services.record_add(game=whole, data=game)
    assert "Chloé is missing" in refused.value.messages[0]
    partial = start("keys", three, house={"partial_table": True})
    services.record_add(game=partial, data=game)
    assert Record.objects.filter(game=partial).count() == 1
    # The entry screen offers "not playing" only where the rule is on.
    client.force_login(member)
    url = reverse("games:deal_new", args=[partial.token])
    assert "not playing" in client.get(url).content.decode()
    assert (
        "not playing"
        not in client.get(reverse("games:deal_new", args=[whole.token])).content.decode()
    )
    response = client.post(
        url,
        {
            f"suit_{three[0].pk}": "hearts",
            f"suit_{three[1].pk}": "",
            f"suit_{three[2].pk}": "clubs",
            "winner": three[2].pk,
            f"keys_{three[0].pk}": "4",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Record.objects.get(game=partial, number=2).data
    assert set(stored["suits"]) == {str(three[0].pk), str(three[2].pk)}
    assert stored["keys"] == {str(three[0].pk): 4}
