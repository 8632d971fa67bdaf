"""A tournament table enters and confirms its round on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import PHONE, scroll_width
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, name, value):
    page.click(f"label.choice:has(input[name='{name}'][value='{value}'])")


def test_a_table_enters_and_confirms_its_round(phone, live_server, artifacts):
    page = phone
    t, players = make_tournament(9, rounds=2, deals=4)  # a table of 5 and a table of 4
    services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t, round=1, game__seats__position=4)  # the five
    seats = [s.player for s in table.game.seats.order_by("position")]

    # a player finds their seat (the public page shows no link to the sheet), then opens the
    # table's sheet through the QR code printed on it
    page.goto(f"{live_server.url}/tournaments/{t.pk}/where/")
    page.fill("main input[name=q]", seats[2].name[-4:])
    page.click("button.primary")
    expect(page.locator(".seats-found")).to_contain_text(f"Table {table.number}")
    # (its one link is the player's position card, never the table's share link)
    assert page.locator(f".seats-found a[href*='{table.game.token}']").count() == 0
    page.goto(f"{live_server.url}/t/{table.game.token}/")
    assert scroll_width(page) <= PHONE["width"]
    assert "0 of 5 deals" in page.inner_text("main")

    for number in range(1, 6):
        page.click(".sticky-actions a")
        dealer = seats[(number - 1) % 5]
        assert dealer.name in page.inner_text("h1")
        # the dealer sits out: they are not offered as taker
        assert page.locator(f"input[name=taker][value='{dealer.pk}']").count() == 0
        taker = seats[number % 5]
        tap(page, "taker", taker.pk)
        tap(page, "contract", "garde")
        tap(page, "bouts", 2)
        page.fill("#id_points", str(40 + number))
        expect(page.locator("#preview-detail")).to_contain_text("per defender")
        assert scroll_width(page) <= PHONE["width"]
        page.click("button[name=save]")
        page.wait_for_url(f"**/t/{table.game.token}/")

    assert "5 of 5 deals" in page.inner_text("main")
    totals = [
        int(v.inner_text().replace("−", "-")) for v in page.query_selector_all(".totals .value")
    ]
    assert sum(totals) == 0 and any(totals)
    page.click("text=All deals are in: confirm the sheet")
    # it asks first: the totals, and that only the director can change the sheet afterwards
    expect(page.locator("main")).to_contain_text("only the director")
    table.game.refresh_from_db()
    assert not table.game.locked
    page.screenshot(path=str(artifacts / "tournament-confirm-sheet-phone.png"), full_page=True)
    page.click("text=Yes, confirm the sheet")
    expect(page.locator(".messages")).to_contain_text("is confirmed")
    assert page.locator(".sticky-actions").count() == 0  # locked for the table's link
    page.screenshot(path=str(artifacts / "tournament-table-phone.png"), full_page=True)
    table.game.refresh_from_db()
    assert table.game.locked and table.game.deals.count() == 5
