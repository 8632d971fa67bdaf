"""What the deal screen gives tarot-preview.js for the preview with no network: the seats that
play (json_script: CSP allows no inline script), and the address of the server's sentences in
the page's language, a script kept by the phone (/offline/<language>/tarot.js)."""

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


def sentences(client, data) -> dict:
    """The sentences of the script the page names, as the phone reads them."""
    answer = client.get(data["text_url"])
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Cache-Control"] == "public, max-age=31536000, immutable"
    body = answer.content.decode()
    prefix = "window.TarotOfflineText = "
    assert body.startswith(prefix)
    return json.loads(body[len(prefix) :].rstrip().rstrip(";"))


def test_the_deal_page_carries_the_rules_script_and_its_sentences(client, game4):
    response = client.get(reverse("games:deal_new", args=[game4.token]))
    html = response.content.decode()
    later = re.search(r'data-later-scripts="([^"]*)"', html).group(1).split()
    data = offline_data(response)
    assert [re.sub(r"\.[0-9a-f]{12}\.js$", ".js", u) for u in later] == [
        data["text_url"],
        "/static/js/tarot-score.js",
        "/static/js/tarot-preview.js",
    ]
    assert re.fullmatch(r"/offline/en/tarot\.js\?v=[0-9a-f]{12}", data["text_url"])
    seats = list(game4.seats.order_by("position").values_list("player_id", flat=True))
    assert [s["pk"] for s in data["seats"]] == seats
    data = sentences(client, data)
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
    assert data["text_url"].startswith("/offline/fr/")
    data = sentences(client, data)
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


def test_the_sentences_script_refuses_what_it_does_not_know(client):
    assert client.get("/offline/xx/tarot.js").status_code == 404
    assert client.post("/offline/fr/tarot.js").status_code == 405
    stale = client.get("/offline/fr/tarot.js?v=0")  # an old version: served, not kept
    assert stale.status_code == 200 and stale["Cache-Control"] == "no-cache"
