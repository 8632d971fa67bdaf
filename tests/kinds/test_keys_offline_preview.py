"""Keys of the Kingdom's entry screen with the network cut (static/js/record-preview.js on
keys-score.js), at 360 px in headless Chromium: for the same entries it shows what the
server's preview shows online (a game's row, or the form's or the rules' first message)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from conftest import scroll_width
from tarotclub.games.services import game_set_house_rules, record_add
from tests.kinds.test_foolsfaith_offline_preview import (
    NARROW,
    PAGE_AGAINST_SERVER,
    SHOWN,
    settle,
    shots_folder,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _phones_closed(browser):
    yield
    for context in browser.contexts:
        context.close()


#: The form set to `values` as taps would: every button of a group named is unticked first,
#: then the one of that value ticked; a number typed.
SET = """
(form, values) => {
  for (const [name, value] of Object.entries(values)) {
    const field = form.elements[name];
    if (field instanceof RadioNodeList || field.type === "radio") {
      const radios = form.querySelectorAll(`input[name="${name}"]`);
      radios.forEach(r => { r.checked = r.value === value; });
    } else {
      field.value = value;
    }
  }
}
"""

TYPE = (
    "([values]) => { const form = document.getElementById('record-form'); ("
    + SET
    + ")(form, values); form.dispatchEvent(new Event('change', {bubbles: true})); }"
)

#: What the form holds of each set of values (a number field keeps only a number).
AS_HELD = (
    "(forms) => { const form = document.getElementById('record-form'); return forms.map(data => {("
    + SET
    + """)(form, data);
    const held = {};
    for (const name of Object.keys(data)) {
      const field = form.elements[name];
      held[name] = field.value;
    }
    return held;
  });
}"""
)


def seats(game):
    return list(game.seats.order_by("position").values_list("player_id", flat=True))


def entry(game, suits, winner, held, guards=None):
    a = seats(game)
    values = {f"suit_{pk}": s for pk, s in zip(a, suits, strict=True)}
    values["winner"] = str(a[winner]) if winner is not None else ""
    for pk, n in zip(a, held, strict=True):
        values[f"keys_{pk}"] = str(n)
    for pk, g in zip(a, guards or [""] * len(a), strict=True):
        values[f"guards_{pk}"] = str(g)
    return values


def compare_online_and_offline(live_server, browser, game, scenarios, lang, shots=None, blank=()):
    """Each scenario's entry typed on the phone online (the server's preview, swapped in by
    htmx), then the same entry again with the network cut (the phone's own): the same preview,
    with the phone's note. The first scenario also with a request that fails on its way (the
    route aborted: the same fallback as offline, reached from htmx's error). The scenarios of
    `blank` are entries not finished yet: the server shows nothing, and the phone neither."""
    url = live_server.url + reverse("games:deal_new", args=[game.token])
    context = browser.new_context(viewport=NARROW, locale=lang, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    shown = {}
    for n, (label, values) in enumerate(scenarios.items()):
        results = shown[label] = {}
        page.goto(url)
        page.wait_for_function("() => window.RecordPreview")  # loaded after the page
        page.evaluate(TYPE, [values])
        settle(page)
        results["online"] = page.evaluate(SHOWN)
        context.set_offline(True)
        page.evaluate(TYPE, [values])  # the same entry again: no server to ask
        settle(page)
        results["offline"] = page.evaluate(SHOWN)
        if shots is not None:
            page.screenshot(path=str(shots / f"{game.kind}-{lang}-{label.replace(' ', '-')}.png"))
        context.set_offline(False)
        if n == 0:
            page.route("**/deal/preview/**", lambda route: route.abort())
            page.evaluate(TYPE, [values])
            settle(page)
            results["aborted"] = page.evaluate(SHOWN)
            page.unroute("**/deal/preview/**")
        online = results["online"]
        assert not online["note"], label
        assert bool(online["preview"][2]) == (label not in blank), label
        for mode in ("offline", "aborted"):
            if mode in results:
                assert results[mode]["note"], (label, mode)
                assert results[mode]["preview"] == online["preview"], (label, mode)
        width = scroll_width(page)
        assert width <= NARROW["width"], (label, width)
    context.close()
    return shown


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR", "nl-NL"])
def test_a_game_offline_is_the_servers(live_server, browser, kk, lang):
    record_add(
        game=kk,
        data={
            "suits": dict(zip(seats(kk), ["hearts", "spades", "clubs"], strict=True)),
            "winner": seats(kk)[0],
            "keys": dict(zip(seats(kk)[1:], [3, 1], strict=True)),
        },
    )
    scenarios = {
        "Bram wins": entry(kk, ["hearts", "spades", "clubs"], 1, [2, 0, 4], [1, "", 2]),
        "no winner yet": entry(kk, ["hearts", "spades", "clubs"], None, [2, 0, 4]),
        "two in hearts": entry(kk, ["hearts", "hearts", "clubs"], 2, [2, 0, 0]),
        "keys missing": entry(kk, ["hearts", "spades", "clubs"], 0, [0, "", 1]),
    }
    shown = compare_online_and_offline(live_server, browser, kk, scenarios, lang, shots_folder())
    if lang == "en-GB":
        assert "Bram wins with ♠." in str(shown["Bram wins"]["online"])
    # the suit is named as the buttons name it, in the page's language, never "hearts"
    twice = str(shown["two in hearts"]["online"])
    assert {"en-GB": "♥ Hearts", "fr-FR": "♥ Cœur", "nl-NL": "♥ Harten"}[lang] in twice, twice
    assert "hearts" not in twice


def random_form(rng, game):
    a = seats(game)
    suits = rng.sample(["hearts", "spades", "diamonds", "clubs"], len(a))
    if rng.random() < 0.1:
        suits[rng.randrange(len(a))] = rng.choice(["hearts", ""])
    winner = rng.randrange(len(a)) if rng.random() < 0.9 else None
    held = [rng.randint(0, 5) for _ in a]
    if rng.random() < 0.15:
        held[rng.randrange(len(a))] = rng.choice(
            ["", "6", "-1", "2.5", "x", "99999999999999999999"]
        )
    guards = [rng.choice(["", "", "", "0", "1", "2"]) for _ in a]
    return entry(game, suits, winner, held, guards)


@pytest.mark.parametrize(("table", "partial"), [("three", False), ("four", True)])
def test_the_pages_preview_is_the_servers_for_many_entries(
    live_server, browser, client, start, request, member, table, partial
):
    game = start("keys", request.getfixturevalue(table))
    # the club's rule that lets only some of the table play a game (as written: everyone)
    game = game_set_house_rules(game=game, rules={"partial_table": partial}, user=member)
    url = live_server.url + reverse("games:deal_new", args=[game.token])
    preview_url = reverse("games:deal_preview", args=[game.token]) + "?n=1"
    context = browser.new_context(viewport=NARROW, locale="fr-FR")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.RecordPreview")  # loaded after the page (site.js)
    rng = random.Random(1203 + len(seats(game)))
    typed = page.evaluate(AS_HELD, [random_form(rng, game) for _ in range(200)])
    cases = []
    for data in typed:
        response = client.post(preview_url, data, HTTP_ACCEPT_LANGUAGE="fr-FR")
        assert response.status_code == 200
        cases.append([data, response.content.decode()])
    scored = sum(1 for _, html in cases if "bar-result" in html)
    hints = sum(1 for _, html in cases if "bar-hint" in html)
    assert scored >= 60 and hints >= 30, (scored, hints)  # rows and refusals both
    # a player left without a suit sits the game out under the club's rule, else is refused
    out = [
        html
        for data, html in cases
        if any(k.startswith("suit_") and not v for k, v in data.items()) and "bar-result" in html
    ]
    assert (len(out) > 0) == partial, len(out)
    page.evaluate("() => { window.setForm = " + SET.strip() + "; }")
    assert page.evaluate(PAGE_AGAINST_SERVER, cases) == []
    context.close()
