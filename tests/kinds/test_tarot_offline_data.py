"""What the deal screen gives tarot-preview.js for the preview with no network: the seats that
play, and the server's sentences in the page's language (json_script: CSP allows no inline
script)."""

from __future__ import annotations

import json
import re
from fractions import Fraction

from django.urls import reverse
from django.utils import translation

from scoring import fft
from tarotclub.games import services as games
from tarotclub.kinds.tarot import services
from tarotclub.kinds.tarot.kind import Tarot


def offline_data(response) -> dict:
    html = response.content.decode()
    found = re.search(r'<script id="tarot-offline" type="application/json">(.*?)</script>', html)
    assert found, "no offline data on the page"
    return json.loads(found.group(1))


def test_the_deal_page_carries_the_rules_script_and_its_sentences(client, game4):
    response = client.get(reverse("games:deal_new", args=[game4.token]))
    html = response.content.decode()
    later = re.search(r'data-later-scripts="([^"]*)"', html).group(1).split()
    assert [re.sub(r"\.[0-9a-f]{12}\.js$", ".js", u) for u in later] == [
        "/static/js/tarot-score.js",
        "/static/js/tarot-preview.js",
    ]
    data = offline_data(response)
    seats = list(game4.seats.order_by("position").values_list("player_id", flat=True))
    assert [s["pk"] for s in data["seats"]] == seats
    assert set(data["rules"]) == {name for name in dir(fft) if name.startswith("ERR_")}
    assert data["rules"]["ERR_BOUTS"] == fft.ERR_BOUTS
    assert data["bouts"] == {"0": "0 bouts", "1": "1 bout", "2": "2 bouts", "3": "3 bouts"}
    assert data["contracts"]["garde_sans"] == "garde sans"


def test_the_sentences_are_in_the_pages_language(client, game4):
    with translation.override("fr"):
        expected = {
            n: translation.gettext(getattr(fft, n)) for n in dir(fft) if n.startswith("ERR_")
        }
    response = client.get(reverse("games:deal_new", args=[game4.token]), HTTP_ACCEPT_LANGUAGE="fr")
    data = offline_data(response)
    assert data["rules"]["ERR_CHELEM_ATTACK_LOST"] == expected["ERR_CHELEM_ATTACK_LOST"]
    assert data["rules"]["ERR_CHELEM_ATTACK_LOST"] != fft.ERR_CHELEM_ATTACK_LOST
    assert data["words"]["won"] != "won by %(gap)s"


def test_a_dealer_who_sits_out_is_no_seat_of_the_deal(client, five, member):
    game = games.game_start(players=five, first_dealer=0, dealer_sits_out=True, created_by=member)
    data = offline_data(client.get(reverse("games:deal_new", args=[game.token])))
    assert [s["pk"] for s in data["seats"]] == [p.pk for p in five[1:]]
    assert five[0].pk not in {s["pk"] for s in data["seats"]}


def test_the_correction_screen_carries_it_too(client, game4):
    players = list(Tarot().load(game4).players)
    services.deal_add(
        game=game4,
        data=services.DealInput(
            taker=players[1].pk, contract="garde", bouts=2, points=Fraction(49)
        ),
    )
    response = client.get(reverse("games:deal_edit", args=[game4.token, 1]))
    assert response.status_code == 200
    assert len(offline_data(response)["seats"]) == 4
