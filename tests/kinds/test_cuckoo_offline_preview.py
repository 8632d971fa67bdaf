"""Cuckoo's entry screen with the network cut (static/js/record-preview.js on cuckoo-score.js),
at 360 px in headless Chromium: for the same entries it shows what the server's preview shows
online, at every point of a match (its fields follow who takes part: a Fool's holder rests)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tarotclub.games.services import record_add
from tests.kinds.test_foolsfaith_offline_preview import NARROW, PAGE_AGAINST_SERVER, shots_folder
from tests.kinds.test_keys_offline_preview import (
    AS_HELD,
    SET,
    compare_online_and_offline,
    seats,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RANKS = ["fool", "owl", "pot", "0", "I", "II", "V", "XII", "house", "cat", "dragoon", "cuckoo"]


@pytest.fixture(autouse=True)
def _phones_closed(browser):
    yield
    for context in browser.contexts:
        context.close()


def entry(game, cards, swaps=None):
    """The form's values: the card of each seat given (None: not taking part), and swaps."""
    a = seats(game)
    values = {}
    for pk, card in zip(a, cards, strict=True):
        if card is not None:
            values[f"card_{pk}"] = card
            values[f"swap_{pk}"] = str((swaps or {}).get(a.index(pk), 0))
    return values


def stored(game, cards, swaps=None):
    a = seats(game)
    record_add(
        game=game,
        data={
            "cards": {pk: c for pk, c in zip(a, cards, strict=True) if c is not None},
            "swap_losses": {a[i]: n for i, n in (swaps or {}).items()},
        },
    )


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR", "nl-NL"])
def test_a_deal_offline_is_the_servers(live_server, browser, start, four, lang):
    game = start("cuckoo", four, lives=2)
    stored(game, ["fool", "II", "V", "XII"])  # Anne rests, Bram loses a life
    scenarios = {
        "the lowest card loses": entry(game, [None, "owl", "V", "cuckoo"]),
        "a Fool and a swap": entry(game, [None, "fool", "cat", "V"], swaps={3: 1}),
        "Bram out": entry(game, [None, "0", "V", "cuckoo"]),
        "a card missing": entry(game, [None, "owl", "", "cuckoo"]),
        "three of a rank": entry(game, [None, "V", "V", "V"]),
    }
    shown = compare_online_and_offline(live_server, browser, game, scenarios, lang, shots_folder())
    if lang == "en-GB":
        assert "out: Bram" in str(shown["Bram out"]["online"])


def random_form(rng, game, state):
    a = seats(game)
    taking = set(state.taking_part)
    cards = [rng.choice(RANKS) if pk in taking else None for pk in a]
    if rng.random() < 0.1:
        i = rng.choice([i for i, c in enumerate(cards) if c is not None])
        cards[i] = ""
    swaps = {i: 1 for i, c in enumerate(cards) if c is not None and rng.random() < 0.15}
    values = entry(game, cards, swaps)
    if rng.random() < 0.1:
        name = rng.choice([k for k in values if k.startswith("swap_")])
        values[name] = rng.choice(["", "2", "-1", "x"])
    return values


@pytest.mark.parametrize("history", ["new match", "a Fool rests", "near the end"])
def test_the_pages_preview_is_the_servers_for_many_entries(
    live_server, browser, client, start, four, history
):
    from tarotclub.games.replayed import ReplayedKind  # noqa: F401  (the kinds are loaded)
    from tarotclub.kinds.cuckoo.kind import Cuckoo

    game = start("cuckoo", four, lives=2)
    deals = {
        "new match": [],
        "a Fool rests": [["fool", "II", "V", "XII"]],
        "near the end": [
            ["owl", "II", "V", "XII"],
            ["owl", "II", "V", "XII"],
            [None, "owl", "V", "X"],
        ],
    }[history]
    for cards in deals:
        stored(game, cards)
    state = Cuckoo().load(game).state
    url = live_server.url + reverse("games:deal_new", args=[game.token])
    preview_url = reverse("games:deal_preview", args=[game.token]) + f"?n={len(deals) + 1}"
    context = browser.new_context(viewport=NARROW, locale="fr-FR")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.RecordPreview")  # loaded after the page (site.js)
    rng = random.Random(1205 + len(deals))
    typed = page.evaluate(AS_HELD, [random_form(rng, game, state) for _ in range(200)])
    cases = []
    for data in typed:
        response = client.post(preview_url, data, HTTP_ACCEPT_LANGUAGE="fr-FR")
        assert response.status_code == 200
        cases.append([data, response.content.decode()])
    scored = sum(1 for _, html in cases if "bar-result" in html)
    hints = sum(1 for _, html in cases if "bar-hint" in html)
    assert scored >= 60 and hints >= 20, (scored, hints)  # rows and refusals both
    page.evaluate("() => { window.setForm = " + SET.strip() + "; }")
    assert page.evaluate(PAGE_AGAINST_SERVER, cases) == []
    context.close()
