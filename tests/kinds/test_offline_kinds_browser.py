"""The other kinds with no connection (issue 15): each kind's entry screen, opened from the
phone's cache, keeps its records in the phone's queue with their client ids, the sheet shows
them as waiting, and they are sent in order when the connection returns. Offline, each
kind's rules on the phone preview the record after the ones the phone keeps (a kind without
them would say the score comes back with the connection). Chromium through the `phone`
fixture, at 360 px."""

from __future__ import annotations

import os

import pytest

from tarotclub.games.models import Record
from tests.games.test_offline_browser import open_table, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def records(kind, a, b, c):
    """Two records of each kind that its rules take one after the other (3 players)."""
    return {
        "foolsfaith": [
            {f"tricks_{a.pk}": 5, f"tricks_{b.pk}": 2, f"tricks_{c.pk}": 1},
            {f"tricks_{a.pk}": 2, f"tricks_{b.pk}": 5, f"tricks_{c.pk}": 1},
        ],
        "deathspot": [
            {"death": a.pk},
            {f"tricks_{a.pk}": 5, f"tricks_{b.pk}": 5, f"tricks_{c.pk}": 2},
        ],
        "keys": [
            {
                f"suit_{a.pk}": "hearts",
                f"suit_{b.pk}": "spades",
                f"suit_{c.pk}": "clubs",
                "winner": a.pk,
                f"keys_{b.pk}": 3,
                f"keys_{c.pk}": 1,
                f"guards_{b.pk}": 2,
            },
            {
                f"suit_{a.pk}": "hearts",
                f"suit_{b.pk}": "spades",
                f"suit_{c.pk}": "clubs",
                "winner": b.pk,
                f"keys_{a.pk}": 2,
            },
        ],
        "cuckoo": [
            {f"card_{a.pk}": "owl", f"card_{b.pk}": "XII", f"card_{c.pk}": "cuckoo"},
            {f"card_{a.pk}": "fool", f"card_{b.pk}": "II", f"card_{c.pk}": "III"},
        ],
    }[kind]


# the entry screen's fields set as a player's taps would (radios checked, numbers typed)
FILL = """([values]) => {
  const form = document.getElementById("record-form");
  for (const [name, value] of Object.entries(values)) {
    const field = form.elements[name];
    if (!field) throw new Error("no field " + name);
    field.value = String(value);
  }
  form.dispatchEvent(new Event("change", { bubbles: true }));
}"""

NOTE = (
    "Before the entries waiting on this phone: what follows (who deals, the scores) "
    "comes when they are sent."
)

OPTIONS = {"deathspot": {"stake": 1}, "cuckoo": {"lives": 2}}

#: The kinds whose entry screen previews on the phone: what it shows for each record of
#: `records` (the second one after the first, which waits on the phone).
OWN_PREVIEW = {
    "foolsfaith": [
        "Anne wins and takes 1 card.\nNext: Round 2: Anne deals. It is worth 1 challenge card.",
        "Bram wins and takes 1 card.\nNext: Round 3: Bram deals. It is worth 1 challenge card.",
    ],
    "keys": ["Anne wins with ♥.", "Bram wins with ♠."],
    "deathspot": [
        "Anne shows Death and takes the pot (3). · Everybody pays in again (1 each). · Pot: 3"
        "\nNext: Deal 2: Bram deals (the deal passes to the right).",
        "Tie for the most tricks: Anne, Bram. The pot stays. · Pot: 3"
        "\nNext: Deal 3: Chloé deals (the deal passes to the right).",
    ],
    "cuckoo": [
        "a life lost: Anne\nNext: Deal 2: Bram deals.",
        "Fool: Anne · a life lost: Anne, Bram · out: Anne\nNext: Deal 3: Chloé deals.",
    ],
}


@pytest.mark.parametrize("kind", ["foolsfaith", "deathspot", "keys", "cuckoo"])
def test_each_kinds_records_wait_on_the_phone_and_arrive_once_in_order(
    phone, live_server, start, three, kind
):
    phone.set_viewport_size({"width": 360, "height": 740})
    game = start(kind, three, **OPTIONS.get(kind, {}))
    sheet = open_table(phone, live_server, game)
    entries = records(kind, *three)
    phone.context.set_offline(True)
    ids = []
    note = phone.locator(".state-line + .offline-state-note")
    for values in entries:
        phone.goto(sheet + "deal/")  # from the phone's cache
        # the game so far is the sheet's before the records kept here: the screen says so
        if ids:
            note.wait_for()
            assert note.inner_text() == NOTE
        phone.evaluate(FILL, [values])
        if kind in OWN_PREVIEW:
            # the phone's own preview, after the records it keeps (record-preview.js)
            phone.wait_for_selector("#preview .offline-note")
            # offline-app.js, which keeps the entry on the phone, is loaded too
            phone.wait_for_selector("input[name=client_id]", state="attached")
            shown = phone.inner_text("#preview .bar-result").replace("\n\n", "\n")
            assert shown == OWN_PREVIEW[kind][len(ids)], shown
        else:
            phone.wait_for_selector("#preview .offline-preview")  # the server's, once back
        ids.append(phone.input_value("input[name=client_id]"))
        if os.environ.get("OFFLINE_SHOTS"):
            path = os.path.join(os.environ["OFFLINE_SHOTS"], f"{kind}-entry-{len(ids)}.png")
            phone.screenshot(path=path, full_page=True)
        phone.click("button[name=save]")
        phone.wait_for_url(sheet)
        phone.wait_for_selector("#offline-box:not([hidden])")
    assert len(set(ids)) == 2 and all(ids)
    rows = phone.locator(".waiting-row")
    assert rows.count() == 2
    assert [rows.nth(i).get_attribute("data-client-id") for i in range(2)] == ids
    assert not Record.objects.filter(game=game).exists()
    # the state on the sheet is the one before them: who deals next is not known here
    assert phone.locator("#sheet .state .offline-state-note").count() == 1
    before = phone.locator("#sheet .state .offline-state-note").inner_text()
    assert before == NOTE
    if os.environ.get("OFFLINE_SHOTS"):
        path = os.path.join(os.environ["OFFLINE_SHOTS"], f"{kind}-waiting.png")
        phone.screenshot(path=path, full_page=True)
    phone.context.set_offline(False)
    assert wait_for(lambda: Record.objects.filter(game=game).count() == 2)
    saved = list(Record.objects.filter(game=game).order_by("number"))
    assert [str(r.client_id) for r in saved] == ids  # in order, each once
    assert wait_for(lambda: phone.locator(".waiting-row").count() == 0)
    assert Record.objects.filter(game=game).count() == 2
    assert phone.locator(".offline-state-note").count() == 0  # the server's state again
