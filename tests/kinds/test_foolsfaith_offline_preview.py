"""Fool's Faith's entry screen with the network cut (static/js/record-preview.js on
foolsfaith-score.js), at 360 px in headless Chromium: for the same entries it shows what the
server's preview shows online, at every point of a game (a first round, after a tie, a round
that ends the game), in the three languages, and after the rounds the phone still keeps."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import escape

from tarotclub.games.services import game_set_house_rules, record_add

NARROW = {"width": 360, "height": 780}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _phones_closed(browser):
    """Chromium lives for the whole test process: close the phones each test opened."""
    yield
    for context in browser.contexts:
        context.close()


#: The preview box as a tree: (tag, attributes, children), text trimmed, whitespace between
#: tags dropped; the phone's own note left out (and said apart).
TREE = """
function tree(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent.trim() || null;
  if (node.nodeType !== Node.ELEMENT_NODE || node.classList.contains("offline-note")) return null;
  const attrs = Array.from(node.attributes).map(a => [a.name, a.value])
    .filter(([name]) => name !== "id").sort();
  const children = Array.from(node.childNodes).map(tree).filter(x => x !== null);
  return [node.tagName.toLowerCase(), attrs, children];
}
"""

SHOWN = (
    "() => {"
    + TREE
    + """
  return {
    preview: tree(document.getElementById("preview")),
    note: !!document.querySelector("#preview .offline-note"),
  };
}"""
)

#: Type the tricks as a thumb on the steppers would: htmx sees the change.
TYPE = """
([values]) => {
  const form = document.getElementById("record-form");
  for (const [name, value] of Object.entries(values)) form.elements[name].value = String(value);
  form.dispatchEvent(new Event("change", {bubbles: true}));
}
"""


def tricks(game, *counts):
    """{"tricks_<pk>": n} for the seats in order."""
    pks = list(game.seats.order_by("position").values_list("player_id", flat=True))
    return {f"tricks_{pk}": n for pk, n in zip(pks, counts, strict=True)}


def stored(game, *counts):
    pks = list(game.seats.order_by("position").values_list("player_id", flat=True))
    record_add(game=game, data={"tricks": dict(zip(pks, counts, strict=True))})


def settle(page):
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(600)  # the fields' delay, then the swap


def shots_folder():
    folder = os.environ.get("OFFLINE_PREVIEW_SHOTS")
    return Path(folder) if folder else None


def compare_online_and_offline(live_server, browser, game, scenarios, lang, shots=None, blank=()):
    """The other games' comparison (tests/kinds/test_keys_offline_preview.py), which imports
    this module's pieces: imported when called."""
    from tests.kinds.test_keys_offline_preview import compare_online_and_offline as compare

    return compare(live_server, browser, game, scenarios, lang, shots, blank)


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR", "nl-NL"])
def test_a_first_round_offline_is_the_servers(live_server, browser, ff, lang):
    scenarios = {
        "a winner": tricks(ff, 5, 2, 1),
        "a tie": tricks(ff, 3, 3, 2),
        "not eight yet": tricks(ff, 3, 3, 3),
        "not a number": tricks(ff, 3, "", 2),
        "too many": tricks(ff, 9, 0, 0),
    }
    blank = {"not eight yet"}  # the tricks do not add up to eight yet
    compare_online_and_offline(live_server, browser, ff, scenarios, lang, shots_folder(), blank)


def test_after_a_tie_the_round_worth_two_and_the_game_over(live_server, browser, ff):
    stored(ff, 6, 1, 1)  # Anne holds a card
    stored(ff, 3, 3, 2)  # a tie: the next round is worth 2
    scenarios = {
        "Anne wins the game": tricks(ff, 5, 2, 1),
        "Bram wins the game": tricks(ff, 1, 5, 2),
        "a further tie": tricks(ff, 4, 0, 4),
    }
    shown = compare_online_and_offline(live_server, browser, ff, scenarios, "en-GB", shots_folder())
    assert "Game over: Bram won." in str(shown["Bram wins the game"]["online"])
    assert "Round 4: Anne deals." in str(shown["a further tie"]["online"])


# --- Many entries: the page's own preview against the server's, case by case ------------------

PAGE_AGAINST_SERVER = (
    "(cases) => {"
    + TREE
    + """
  const form = document.getElementById("record-form");
  const out = [];
  return (async () => {
    for (const [data, html] of cases) {
      if (window.setForm) window.setForm(form, data);  // a kind's own way, if the test gave one
      else for (const [name, value] of Object.entries(data)) form.elements[name].value = value;
      await RecordPreview.render(form);
      const mine = Array.from(document.getElementById("preview").childNodes).map(tree)
        .filter(x => x !== null);
      const server = document.createElement("div");
      server.innerHTML = html;
      const theirs = Array.from(server.childNodes).map(tree).filter(x => x !== null);
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) out.push([data, mine, theirs]);
    }
    return out;
  })();
}"""
)

#: The values as the form's fields hold them (a number field keeps only a number).
AS_HELD = """
(forms) => {
  const form = document.getElementById("record-form");
  return forms.map(data => {
    const held = {};
    for (const [name, value] of Object.entries(data)) {
      form.elements[name].value = value;
      held[name] = form.elements[name].value;
    }
    return held;
  });
}
"""

TYPED = ["", " ", "0", "8", "9", "-1", "1.5", "2e0", "٣", " 3 ", "03", "x", "99999999999999999999"]


def random_form(rng, game):
    """Tricks as a thumb leaves them: mostly adding up to 8, often not yet, now and then junk."""
    pks = list(game.seats.order_by("position").values_list("player_id", flat=True))
    takers = [rng.randrange(len(pks)) for _ in range(8)]
    if rng.random() < 0.25:
        takers = [i % 2 for i in range(8)]
    data = {f"tricks_{pk}": str(takers.count(i)) for i, pk in enumerate(pks)}
    if rng.random() < 0.3:
        data[f"tricks_{rng.choice(pks)}"] = str(rng.randint(0, 8))
    if rng.random() < 0.15:
        data[f"tricks_{rng.choice(pks)}"] = rng.choice(TYPED)
    return data


@pytest.mark.parametrize(
    ("history", "tie_dealer"),
    [("new game", "same"), ("one card each", "same"), ("after a tie", "next")],
)
def test_the_pages_preview_is_the_servers_for_many_entries(
    live_server, browser, client, ff, member, history, tie_dealer
):
    # the club's rule for the dealer after a tied round (as written: the same dealer)
    ff = game_set_house_rules(game=ff, rules={"tie_dealer": tie_dealer}, user=member)
    rounds = {
        "new game": [],
        "one card each": [(5, 2, 1), (2, 5, 1), (1, 2, 5)],
        "after a tie": [(2, 5, 1), (4, 4, 0)],
    }[history]
    for counts in rounds:
        stored(ff, *counts)
    url = live_server.url + reverse("games:deal_new", args=[ff.token])
    preview_url = reverse("games:deal_preview", args=[ff.token]) + f"?n={len(rounds) + 1}"
    context = browser.new_context(viewport=NARROW, locale="fr-FR")
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.RecordPreview")  # loaded after the page (site.js)
    rng = random.Random(1202 + len(rounds))
    cases = []
    # what the page's number fields hold of what was typed ("٣" and " 3 " are not kept)
    typed = page.evaluate(AS_HELD, [random_form(rng, ff) for _ in range(200)])
    for data in typed:
        response = client.post(preview_url, data, HTTP_ACCEPT_LANGUAGE="fr-FR")
        assert response.status_code == 200
        cases.append([data, response.content.decode()])
    scored = sum(1 for _, html in cases if "bar-result" in html)
    hints = sum(1 for _, html in cases if "bar-hint" in html)
    assert scored >= 40 and hints >= 10, (scored, hints)  # rows and refusals both
    # in French on both sides: the page's sentences are the server's gettext
    words = page.evaluate("() => window.OfflineText.foolsfaith.words")
    assert words["next"] != "Next:"
    assert any(words["next"] in html for _, html in cases) or history == "one card each"
    if history == "after a tie":
        # the club's rule: Chloé deals round 3 after the tie, and a round 3 tied in turn moves
        # the deal on to Anne (as written, Bram would deal both)
        line = escape(words["round"]["2"] % {"n": 4, "dealer": "Anne", "stake": 2})
        ties = [html for _, html in cases if escape(words["tie"].split("%")[0]) in html]
        assert len(ties) >= 5 and all(line in html for html in ties), (len(ties), line)
    assert page.evaluate(PAGE_AGAINST_SERVER, cases) == []
    context.close()
