"""Death's Pot's entry screen with the network cut (static/js/record-preview.js on
deathspot-score.js), at 360 px in headless Chromium: for the same entries it shows what the
server's preview shows online (the deal's payments with each name kept whole, the next deal),
whatever the stake."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tarotclub.games.services import game_set_house_rules, record_add
from tests.kinds.test_foolsfaith_offline_preview import NARROW, PAGE_AGAINST_SERVER, shots_folder
from tests.kinds.test_keys_offline_preview import (
    AS_HELD,
    SET,
    compare_online_and_offline,
    seats,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _phones_closed(browser):
    yield
    for context in browser.contexts:
        context.close()


def entry(game, tricks, death=None, **honours):
    """The form's values: Death's holder, or the honours (seat numbers) and the tricks."""
    a = seats(game)
    values = {"death": "" if death is None else str(a[death])}
    for kind in ("excuse", "trump1", "trump11"):
        values[kind] = "" if honours.get(kind) is None else str(a[honours[kind]])
    for pk, n in zip(a, tricks, strict=True):
        values[f"tricks_{pk}"] = str(n)
    return values


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR", "nl-NL"])
def test_a_deal_offline_is_the_servers(live_server, browser, start, three, lang):
    game = start("deathspot", three, stake=2)
    a = seats(game)
    record_add(
        game=game,
        data={"death": None, "excuse": a[0], "tricks": dict(zip(a, [6, 3, 3], strict=True))},
    )
    scenarios = {
        "honours and the tricks": entry(game, [2, 7, 3], excuse=1, trump1=1, trump11=2),
        "Death": entry(game, [0, 0, 0], death=2),
        "a tie": entry(game, [5, 5, 2], trump11=0),
        "Death, a trick count left empty": entry(game, [5, "", 5], death=0),
        "tricks missing": entry(game, [5, "", 7]),
    }
    shown = compare_online_and_offline(live_server, browser, game, scenarios, lang, shots_folder())
    if lang == "en-GB":
        assert "Deal 3: Chloé deals" in str(shown["a tie"]["online"])


def random_form(rng, game):
    a = seats(game)
    if rng.random() < 0.15:
        return entry(game, [rng.choice(["", "3"]) for _ in a], death=rng.randrange(len(a)))
    takers = [rng.randrange(len(a)) for _ in range(12)]
    if rng.random() < 0.25:
        takers = [i % 2 for i in range(12)]
    tricks = [takers.count(i) for i in range(len(a))]
    if rng.random() < 0.2:
        tricks[rng.randrange(len(a))] = rng.choice(["", "13", "-1", "2.5", "0"])
    honours = {
        k: rng.randrange(len(a)) for k in ("excuse", "trump1", "trump11") if rng.random() < 0.4
    }
    return entry(game, tricks, **honours)


@pytest.mark.parametrize(("stake", "tie_pot"), [(1, "stays"), (3, "shared")])
def test_the_pages_preview_is_the_servers_for_many_entries(
    live_server, browser, client, start, four, member, stake, tie_pot
):
    game = start("deathspot", four, stake=stake)
    # the club's rule for a tie for the most tricks (the house default keeps the pot)
    game = game_set_house_rules(game=game, rules={"tie_pot": tie_pot}, user=member)
    a = seats(game)
    record_add(game=game, data={"death": a[1], "excuse": None, "trump1": None, "trump11": None})
    url = live_server.url + reverse("games:deal_new", args=[game.token])
    preview_url = reverse("games:deal_preview", args=[game.token]) + "?n=2"
    context = browser.new_context(viewport=NARROW, locale="fr-FR")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.RecordPreview")  # loaded after the page (site.js)
    rng = random.Random(1204 + stake)
    typed = page.evaluate(AS_HELD, [random_form(rng, game) for _ in range(200)])
    cases = []
    for data in typed:
        response = client.post(preview_url, data, HTTP_ACCEPT_LANGUAGE="fr-FR")
        assert response.status_code == 200
        cases.append([data, response.content.decode()])
    scored = sum(1 for _, html in cases if "bar-result" in html)
    hints = sum(1 for _, html in cases if "bar-hint" in html)
    assert scored >= 60 and hints >= 20, (scored, hints)  # rows and refusals both
    assert any("dp-name" in html for _, html in cases)
    shares = sum(1 for _, html in cases if "part du pot" in html)  # the French row
    assert (shares > 0) == (tie_pot == "shared"), shares
    page.evaluate("() => { window.setForm = " + SET.strip() + "; }")
    assert page.evaluate(PAGE_AGAINST_SERVER, cases) == []
    context.close()
