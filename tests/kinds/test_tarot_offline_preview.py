"""The deal screen's preview with the network cut (static/js/tarot-preview.js), at 360 px in
headless Chromium: for the same entries it shows what the server's preview shows online."""

from __future__ import annotations

import os

import pytest
from django.urls import reverse

from conftest import scroll_width

NARROW = {"width": 360, "height": 780}

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _phones_closed(browser):
    """Chromium lives for the whole module: close the phones each test opened."""
    yield
    for context in browser.contexts:
        context.close()


#: The preview box, the points line and the formula as a tree: (tag, attributes, children),
#: text trimmed, whitespace between tags dropped. The phone's own note is left out.
SHOWN = """
() => {
  function tree(node) {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent.trim() || null;
    if (node.nodeType !== Node.ELEMENT_NODE || node.classList.contains("offline-note")) return null;
    const attrs = Array.from(node.attributes).map(a => [a.name, a.value])
      .filter(([name]) => name !== "id" && name !== "hx-swap-oob").sort();
    const children = Array.from(node.childNodes).map(tree).filter(x => x !== null);
    return [node.tagName.toLowerCase(), attrs, children];
  }
  return {
    preview: tree(document.getElementById("preview")),
    points: document.getElementById("points-both").textContent.trim(),
    detail: tree(document.getElementById("preview-detail")),
    note: !!document.querySelector("#preview .offline-note"),
  };
}
"""

#: Tick the radio `name` = `value` (opening its panel) as a tap does: htmx sees the change.
TICK = """
([name, value]) => {
  const input = document.querySelector(`input[name="${name}"][value="${value}"]`);
  const panel = input.closest("details");
  if (panel) panel.open = true;
  input.checked = true;
  input.dispatchEvent(new Event("change", {bubbles: true}));
}
"""


#: The form back as the page gave it (before the same entry is made again).
RESET = "() => document.getElementById('record-form').reset()"


def enter(page, entries, pks):
    """Fill the deal form: ("taker", 1) ticks the second player; ("points", "40,5") types."""
    for name, value in entries:
        if name == "points":
            page.fill("#id_points", value)
        else:
            if name in ("taker", "partner") and isinstance(value, int):
                value = pks[value]
            if name.startswith(("poignee_", "misere_")):
                prefix, index = name.split("_")
                name = f"{prefix}_{pks[int(index)]}"
            page.evaluate(TICK, [name, str(value)])


def settle(page):
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # the points field's 300 ms delay, then the swap


SCENARIOS = {
    # The federation's first worked example: garde, 2 bouts, 49, petit au bout, a poignée.
    "worked example": [
        ("taker", 2),
        ("contract", "garde"),
        ("bouts", 2),
        ("points", "49"),
        ("petit_au_bout", "attack"),
        ("poignee_2", "simple"),
    ],
    # The defence's points typed with a comma: the attack has 50½, counted 50, lost by 1.
    "defence half points": [
        ("points_side", "defence"),
        ("points", "40,5"),
        ("taker", 0),
        ("contract", "prise"),
        ("bouts", 1),
    ],
    "slam of a lost contract": [
        ("taker", 1),
        ("contract", "garde_sans"),
        ("bouts", 2),
        ("points", "40½"),
        ("chelem", "announced_made"),
    ],
    "no taker yet": [("contract", "garde"), ("points", "41")],
    "points not a number": [("taker", 3), ("contract", "prise"), ("bouts", 0), ("points", "4e1")],
    "too many trumps": [
        ("taker", 0),
        ("contract", "garde"),
        ("bouts", 3),
        ("points", "60"),
        ("poignee_0", "double"),
        ("poignee_1", "simple"),
    ],
}

FIVE_SCENARIOS = {
    "partner and a defence slam in a garde sans": [
        ("taker", 0),
        ("partner", 3),
        ("contract", "garde_sans"),
        ("bouts", 2),
        ("points", "18"),
        ("petit_au_bout", "defence"),
        ("chelem", "defence"),
        ("poignee_4", "triple"),
    ],
    "partner missing": [("taker", 0), ("contract", "garde"), ("bouts", 1), ("points", "51,5")],
    "taker alone, won by one": [
        ("taker", 4),
        ("partner", "alone"),
        ("contract", "garde_contre"),
        ("bouts", 1),
        ("points", "51.5"),
    ],
}


#: A game with the house rules switched on: both misères (15 each) and other poignée amounts.
HOUSE = {
    "misere_tete": True,
    "misere_atout": True,
    "misere_amount": 15,
    "poignee_simple": 25,
    "poignee_double": 35,
    "poignee_triple": 50,
}

HOUSE_SCENARIOS = {
    "a misère and a poignée at the club's amounts": [
        ("taker", 2),
        ("contract", "garde"),
        ("bouts", 2),
        ("points", "49"),
        ("poignee_2", "simple"),
        ("misere_1", "tete"),
    ],
    "both misères of a player who lost": [
        ("taker", 0),
        ("contract", "prise"),
        ("bouts", 1),
        ("points", "44"),
        ("misere_0", "both"),
        ("misere_3", "atout"),
    ],
    "a misère d'atout cannot show a poignée": [
        ("taker", 0),
        ("contract", "garde"),
        ("bouts", 2),
        ("points", "49"),
        ("poignee_3", "simple"),
        ("misere_3", "atout"),
    ],
}


@pytest.fixture
def house_game4(four, member):
    from tarotclub.games import services

    return services.game_start(players=four, created_by=member, options={"house": HOUSE})


def compare_online_and_offline(live_server, browser, game, scenarios, lang, shots=None, url=""):
    """Each scenario entered online (the server's preview, swapped in by htmx), then entered
    again with the network cut (the phone's own): the same preview, points and detail, with
    the phone's note. The first scenario also with a request that fails on its way (the route
    aborted: the same fallback, reached from htmx's error)."""
    url = url or live_server.url + reverse("games:deal_new", args=[game.token])
    context = browser.new_context(viewport=NARROW, locale=lang, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    for n, (label, entries) in enumerate(scenarios.items()):
        results = {}
        page.goto(url)
        page.wait_for_function("() => window.TarotPreview")  # loaded after the page
        pks = page.evaluate(
            "() => JSON.parse(document.getElementById('tarot-offline').textContent)"
            ".seats.map(s => s.pk)"
        )
        modes = ("online", "offline", "aborted") if n == 0 else ("online", "offline")
        for mode in modes:
            if mode == "offline":
                context.set_offline(True)
            elif mode == "aborted":
                page.route("**/deal/preview/**", lambda route: route.abort())
            if mode != "online":
                page.evaluate(RESET)  # the same entry again, from an empty form
            enter(page, entries, pks)
            settle(page)
            results[mode] = page.evaluate(SHOWN)
            if shots is not None and mode == "offline":
                page.screenshot(path=str(shots / f"{lang}-{label.replace(' ', '-')}.png"))
            context.set_offline(False)
            page.unroute("**/deal/preview/**")
        online = results["online"]
        assert not online["note"], label
        assert online["preview"][2], label  # the server showed something
        for mode in modes[1:]:
            assert results[mode]["note"], (label, mode)
            assert results[mode]["preview"] == online["preview"], (label, mode)
            assert results[mode]["points"] == online["points"], (label, mode)
            assert results[mode]["detail"] == online["detail"], (label, mode)
        width = scroll_width(page)
        assert width <= NARROW["width"], (label, width)
    context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en-GB", "fr-FR", "nl-NL"])
def test_four_players_offline_preview_is_the_servers(live_server, browser, game4, lang, tmp_path):
    compare_online_and_offline(live_server, browser, game4, SCENARIOS, lang)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en-GB", "nl-NL"])
def test_house_rules_offline_preview_is_the_servers(live_server, browser, house_game4, lang):
    compare_online_and_offline(live_server, browser, house_game4, HOUSE_SCENARIOS, lang)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en-GB", "fr-FR"])
def test_five_players_offline_preview_is_the_servers(live_server, browser, game5, lang):
    from pathlib import Path

    shots = (
        Path(os.environ.get("OFFLINE_PREVIEW_SHOTS", ""))
        if os.environ.get("OFFLINE_PREVIEW_SHOTS")
        else None
    )
    compare_online_and_offline(live_server, browser, game5, FIVE_SCENARIOS, lang, shots)


@pytest.mark.django_db(transaction=True)
def test_the_correction_screen_previews_offline_too(live_server, browser, game4):
    from fractions import Fraction

    from tarotclub.kinds.tarot import services

    seats = list(game4.seats.order_by("position").values_list("player_id", flat=True))
    services.deal_add(
        game=game4,
        data=services.DealInput(taker=seats[1], contract="garde", bouts=2, points=Fraction(49)),
    )
    url = live_server.url + reverse("games:deal_edit", args=[game4.token, 1])
    changes = {
        "more points": [("points", "52,5")],
        "another taker, a slam that cannot be": [("taker", 3), ("chelem", "defence")],
    }
    compare_online_and_offline(live_server, browser, game4, changes, "en-GB", url=url)


@pytest.mark.django_db(transaction=True)
def test_the_preview_button_offline_keeps_the_page_and_previews(live_server, browser, game4):
    url = live_server.url + reverse("games:deal_new", args=[game4.token])
    context = browser.new_context(viewport=NARROW, locale="en-GB", is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.TarotPreview")  # loaded after the page (site.js)
    pks = page.evaluate(
        "() => JSON.parse(document.getElementById('tarot-offline').textContent)"
        ".seats.map(s => s.pk)"
    )
    context.set_offline(True)
    page.route("**/deal/preview/**", lambda route: route.abort())  # htmx says nothing
    page.evaluate(
        "() => document.getElementById('record-form')"
        ".addEventListener('htmx:beforeRequest', e => e.preventDefault(), {capture: true})"
    )
    enter(page, SCENARIOS["worked example"], pks)
    page.evaluate("() => { document.getElementById('preview').textContent = ''; }")
    page.click("button[name=preview]")
    page.wait_for_timeout(300)
    assert page.url == url  # still the form, with what was entered
    assert page.input_value("#id_points") == "49"
    shown = page.inner_text("#preview")
    assert "garde, 2 bouts, 49 points: won by 8" in shown
    assert "+318" in shown and "Offline" in shown
    context.close()


# --- Many entries: the page's own preview against the server's, case by case ------------------

POINTS_TEXTS = [
    "",
    " ",
    "49",
    " 49 ",
    "40,5",
    "40.5",
    "40½",
    "½",
    "0",
    "91",
    "4e1",
    "٤٠",
    "四十",
    "92",
    "-1",
    "91.5",
    "40.25",
    "abc",
    "\u00a041",
    "41\u0085",
    "\ufeff41",
    "40 ½",
    "040",
    ",5",
    "40.",
]

#: Set the form to `data` as taps would, let the page work the preview out, and compare it with
#: the server's answer to the same form (its fragment read in a detached element).
PAGE_AGAINST_SERVER = """
(cases) => {
  function tree(node) {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent.trim() || null;
    if (node.nodeType !== Node.ELEMENT_NODE || node.classList.contains("offline-note")) return null;
    const attrs = Array.from(node.attributes).map(a => [a.name, a.value])
      .filter(([name]) => name !== "id" && name !== "hx-swap-oob").sort();
    const children = Array.from(node.childNodes).map(tree).filter(x => x !== null);
    return [node.tagName.toLowerCase(), attrs, children];
  }
  const form = document.getElementById("record-form");
  const out = [];
  for (const [data, html] of cases) {
    form.querySelectorAll("input[type=radio]").forEach(r => { r.checked = false; });
    for (const [name, value] of Object.entries(data)) {
      if (name === "points") { form.querySelector("[name=points]").value = value; continue; }
      const input = form.querySelector(`input[name="${name}"][value="${value}"]`);
      if (input) input.checked = true;
    }
    TarotPreview.render(form);
    const mine = {
      preview: Array.from(document.getElementById("preview").childNodes).map(tree)
        .filter(x => x !== null),
      points: document.getElementById("points-both").textContent.trim(),
      detail: tree(document.getElementById("preview-detail")),
    };
    const server = document.createElement("div");
    server.innerHTML = html;
    const both = server.querySelector("#points-both");
    const detail = server.querySelector("#preview-detail");
    both.remove(); detail.remove();
    const theirs = {
      preview: Array.from(server.childNodes).map(tree).filter(x => x !== null),
      points: both.textContent.trim(),
      detail: tree(detail),
    };
    if (JSON.stringify(mine) !== JSON.stringify(theirs)) out.push([data, mine, theirs]);
  }
  return out;
}
"""


def random_form(rng, pks, misere=False):
    data = {"points_side": rng.choice(["attack", "attack", "defence"])}
    if rng.random() < 0.95:
        data["taker"] = rng.choice(pks)
    if rng.random() < 0.95:
        data["contract"] = rng.choice(["prise", "garde", "garde_sans", "garde_contre"])
    if rng.random() < 0.95:
        data["bouts"] = rng.choice([0, 1, 2, 3])
    if rng.random() < 0.8:
        halves = rng.randint(0, 182)
        whole, half = divmod(halves, 2)
        data["points"] = (
            rng.choice([f"{whole}.5", f"{whole},5", f"{whole}½"]) if half else str(whole)
        )
    else:
        data["points"] = rng.choice(POINTS_TEXTS)
    if len(pks) == 5 and rng.random() < 0.95:
        data["partner"] = rng.choice([*pks, "alone"])
    data["petit_au_bout"] = rng.choice(["", "", "attack", "defence"])
    data["chelem"] = rng.choice(
        ["none"] * 5 + ["announced_made", "unannounced_made", "announced_failed", "defence"]
    )
    for pk in rng.sample(pks, rng.choice([0, 0, 1, 2])):
        data[f"poignee_{pk}"] = rng.choice(["simple", "double", "triple"])
    if misere:
        for pk in rng.sample(pks, rng.choice([0, 1, 1, 2])):
            data[f"misere_{pk}"] = rng.choice(["tete", "atout", "both"])
    return data


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("table", ["game4", "game5", "house_game4"])
def test_the_pages_preview_is_the_servers_for_many_entries(
    live_server, browser, client, request, table
):
    import random

    game = request.getfixturevalue(table)
    url = live_server.url + reverse("games:deal_new", args=[game.token])
    preview_url = reverse("games:deal_preview", args=[game.token]) + "?n=1"
    context = browser.new_context(viewport=NARROW, locale="fr-FR")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.TarotPreview")  # loaded after the page (site.js)
    pks = page.evaluate(
        "() => JSON.parse(document.getElementById('tarot-offline').textContent)"
        ".seats.map(s => s.pk)"
    )
    rng = random.Random(1201 + len(pks))
    cases = []
    for _ in range(300):
        data = random_form(rng, pks, misere=table == "house_game4")
        response = client.post(preview_url, data, HTTP_ACCEPT_LANGUAGE="fr-FR")
        assert response.status_code == 200
        cases.append([data, response.content.decode()])
    scored = sum(1 for _, html in cases if "bar-result" in html)
    assert 60 <= scored <= 290, scored  # scores and refusals both
    # in French on both sides: the page's sentences are the server's gettext
    words = page.evaluate("() => window.TarotOfflineText.words")
    assert words["won"] != "won by %(gap)s"
    assert any(words["won"] % {"gap": 8} in html for _, html in cases)
    assert page.evaluate(PAGE_AGAINST_SERVER, cases) == []
    context.close()
