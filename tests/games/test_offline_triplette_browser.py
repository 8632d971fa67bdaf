"""A triplette table's phone offline (duplicate.md 2.2, issue 15): 6 are seated, 4 play each
board. The entry screen the phone keeps serves the next boards; for each one it seats that
board's four (the attacker by the rotation, the other team's three in defence), makes its
imposed attacker the taker, says so in its subtitle, and the phone's preview scores them.
Chromium through the `phone` fixture, at 360 px."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from conftest import scroll_width
from tarotclub.games.selectors import seat_players
from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tests.games.test_offline_browser import enter_deal, open_table, wait_for
from tests.tournaments.triplette_helpers import make_triplette

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 740}


def triplette_table():
    t, _teams = make_triplette(4, rounds=2, seed=3)
    services.tournament_start(tournament=t)
    return Table.objects.filter(tournament=t, round=1, number=1).select_related("game").get()


def test_the_kept_screen_seats_each_boards_four_and_its_attacker(phone, live_server, artifacts):
    phone.set_viewport_size(NARROW)
    table = triplette_table()
    game = table.game
    options = game.options
    seated = {p.pk: p for p in seat_players(game)}
    attacker1, attacker2 = (seated[row[0]] for row in options["imposed"][:2])
    four2 = options["active"][1]
    assert set(options["active"][0]) != set(four2)  # the other team attacks board 2
    sheet = open_table(phone, live_server, game)
    phone.context.set_offline(True)
    enter_deal(phone, sheet, attacker1)
    phone.goto(sheet + "deal/")  # board 1's screen, from the cache, made board 2's
    title = phone.locator("h1")
    board2 = options["boards"][1]
    assert wait_for(
        lambda: title.inner_text().startswith("Deal 2")
        and f"Board {board2} · {attacker2.short_name} takes" in title.inner_text()
    )

    def seats():
        takers = phone.eval_on_selector_all("input[name=taker]", "l => l.map(i => +i.value)")
        labels = phone.locator("#fs-taker label.choice span").all_inner_texts()
        hands = phone.eval_on_selector_all(
            "input[name^=poignee_]", "l => [...new Set(l.map(i => i.name))]"
        )
        return takers, labels, hands

    assert wait_for(lambda: seats()[0] == [attacker2.pk])
    _takers, labels, hands = seats()
    assert labels == [attacker2.label]
    assert sorted(hands) == sorted(f"poignee_{pk}" for pk in four2)
    for name, value in (("contract", "garde"), ("bouts", "2"), ("points_side", "attack")):
        phone.click(f"label.choice:has(input[name='{name}'][value='{value}'])")
    phone.fill("input[name=points]", "49")
    phone.wait_for_selector("#preview .offline-note")
    preview = phone.locator("#preview")
    assert wait_for(lambda: f"{attacker2.label} +" in preview.inner_text())
    text = preview.inner_text()
    for pk, p in seated.items():  # the board's four are scored, the two others are not
        assert (f"{p.label} " in text) == (pk in four2), (p.label, text)
    assert scroll_width(phone) <= 360
    phone.screenshot(path=str(artifacts / "triplette-offline-board-2.png"), full_page=True)
    phone.click("button[name=save]")
    phone.wait_for_url(sheet)
    phone.context.set_offline(False)
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 2)
    deal = Deal.objects.get(game=game, number=2)
    assert deal.taker_id == attacker2.pk
    scored = {line.player_id for line in deal.lines.all() if line.score}
    assert scored == set(four2)


@pytest.mark.django_db
def test_the_entry_screen_gives_the_phone_every_boards_four():
    table = triplette_table()
    game = table.game
    page = Client().get(f"/t/{game.token}/deal/").content.decode()
    start = page.index('id="tarot-offline"')
    data = json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])
    boards = data["boards"]
    assert boards["active"] == game.options["active"]
    assert boards["imposed"] == [row[0] for row in game.options["imposed"]]
    assert sorted(s["pk"] for s in boards["seats"]) == sorted(
        {pk for row in game.options["active"] for pk in row}
    )
    assert [s["pk"] for s in data["seats"]] == game.options["active"][0]
    assert len(boards["subtitles"]) == len(game.options["boards"])
    pairs = zip(game.options["boards"], boards["subtitles"], strict=True)
    assert all(f"Board {b} ·" in s for b, s in pairs)
