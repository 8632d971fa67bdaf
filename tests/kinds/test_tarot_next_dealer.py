"""The data the sheet gives the phone to name who deals next after the deals it keeps offline
(static/js/offline-app.js): the dealers in dealing order and the hint's sentence. The phone's
rule, dealers[(n - 1) % len(dealers)], is the server's `dealer_for` on every deal number."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotclub.games.selectors import seat_players
from tarotclub.kinds.tarot.selectors import dealer_for, game_sheet


def hint_data(response) -> dict[str, str]:
    page = response.content.decode()
    found = re.search(r'<p class="next-dealer"([^>]*)>(.*?)</p>', page, re.S)
    assert found, "no next-dealer hint on the sheet"
    attrs = dict(re.findall(r'data-next-([a-z]+)="([^"]*)"', found.group(1)))
    return {**{k: html.unescape(v) for k, v in attrs.items()}, "shown": found.group(2)}


def phone_sentence(data: dict[str, str], count_after: int) -> str:
    """What offline-app.js writes, in Python: the sentence for deal count_after + 1."""
    dealers = json.loads(data["dealers"])
    n = count_after + 1
    name = dealers[(n - 1) % len(dealers)]
    return data["text"].replace("__N__", str(n)).replace("__NAME__", name)


@pytest.mark.django_db
@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_dealers_in_order_give_dealer_for_on_every_deal(make_players, member, size, first):
    from tarotclub.games.services import game_start

    players = make_players(*"ABCDE"[:size])
    game = game_start(players=players, first_dealer=first, created_by=member)
    sheet = game_sheet(game)
    seated = seat_players(game)
    for n in range(1, 3 * size + 2):
        assert sheet.dealers[(n - 1) % len(sheet.dealers)] == dealer_for(game, n, seated)


@pytest.mark.django_db
@pytest.mark.parametrize("sits_out", [False, True])
def test_the_phones_sentence_after_k_kept_deals_is_the_servers_after_k_saved(
    client, five, member, sits_out
):
    from tarotclub.games.services import game_start
    from tarotclub.kinds.tarot import services as tarot

    game = game_start(players=five, first_dealer=3, dealer_sits_out=sits_out, created_by=member)
    url = reverse("games:sheet", args=[game.token])
    before = hint_data(client.get(url))  # the sheet the phone keeps, with no deal yet
    assert before["count"] == "0"
    assert phone_sentence(before, 0) == before["shown"]
    seated = seat_players(game)
    for k in range(1, 8):
        dealer = dealer_for(game, k, seated)
        active = tarot.active_players(game, dealer, seated)
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=active[0].pk, contract="prise", bouts=1, points=51),
        )
        after = hint_data(client.get(url))
        assert after["count"] == str(k)
        # k deals kept on the phone, offline, then saved: the same sentence
        assert phone_sentence(before, k) == after["shown"]


@settings(max_examples=60, deadline=None)
@given(first=st.integers(0, 4), queued=st.integers(0, 12))
def test_the_phones_next_dealer_is_the_servers_for_any_number_of_kept_deals(first, queued):
    """Pure: the index rule against dealer_for's formula on seat lists (no database)."""

    class Seat:
        def __init__(self, label):
            self.label = label

    class Game:
        first_dealer = first

    seats = [Seat(x) for x in "ABCDE"]
    dealers = [dealer_for(Game, n, seats) for n in range(1, len(seats) + 1)]
    n = queued + 1
    assert dealers[(n - 1) % len(dealers)] is dealer_for(Game, n, seats)


@pytest.mark.django_db
@pytest.mark.parametrize("first", [0, 2, 4])
def test_the_kept_deal_screens_rotation_seats_each_deals_players(client, five, member, first):
    """At a table where the dealer sits out, the deal screen gives the phone every seat and
    deal 1's dealer: tarot-preview.js seats deal n's players as every seat but
    seats[(first + n - 1) % 5], which is the server's `active_players` for that deal."""
    from tarotclub.games.services import game_start
    from tarotclub.kinds.tarot import services as tarot
    from tests.kinds.test_tarot_offline_data import offline_data

    game = game_start(players=five, first_dealer=first, dealer_sits_out=True, created_by=member)
    data = offline_data(client.get(reverse("games:deal_new", args=[game.token])))
    rotation, seated = data["rotation"], seat_players(game)
    assert [s["pk"] for s in data["seats"]] == [
        p.pk for p in tarot.active_players(game, dealer_for(game, 1, seated), seated)
    ]
    for n in range(1, 12):
        out = rotation["seats"][(rotation["first"] + n - 1) % len(rotation["seats"])]
        phone = [s["pk"] for s in rotation["seats"] if s["pk"] != out["pk"]]
        server = tarot.active_players(game, dealer_for(game, n, seated), seated)
        assert phone == [p.pk for p in server]


@pytest.mark.django_db
def test_a_table_where_everybody_plays_gives_no_rotation(client, game4):
    from tests.kinds.test_tarot_offline_data import offline_data

    data = offline_data(client.get(reverse("games:deal_new", args=[game4.token])))
    assert "rotation" not in data
