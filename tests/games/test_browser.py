"""A game played on a phone in headless Chromium: start, three deals, correct, undo."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import PHONE, scroll_width
from scoring import fft
from tarotclub.games.models import Game
from tests.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page, name: str, value) -> None:
    page.click(f"label.choice:has(input[name='{name}'][value='{value}'])")


def enter_deal(page, *, taker, contract, bouts, points, side="attack", petit="", poignee=None):
    tap(page, "taker", taker)
    tap(page, "contract", contract)
    tap(page, "bouts", bouts)
    tap(page, "points_side", side)
    page.fill("#id_points", str(points))
    tap(page, "petit_au_bout", petit)
    if poignee:
        page.click("summary:has-text('Poignées')")
        tap(page, f"poignee_{poignee[0]}", poignee[1])


def assert_fits(page):
    assert scroll_width(page) <= PHONE["width"], page.url


def test_an_evening_at_the_table(phone, live_server, member, four, artifacts):
    page = phone
    a, b, c, d = four
    log_in(page, "member", "pw-member-1", live_server.url)
    page.goto(live_server.url + "/games/new/")
    assert_fits(page)
    for i, p in enumerate(four, start=1):
        page.select_option(f"#seat{i}", str(p.pk))
    page.click("button[name=start]")
    page.wait_for_url("**/t/*/")
    sheet_url = page.url
    assert "Anne" in page.inner_text(".next-dealer")

    # deal 1: garde, 2 bouts, 49 points, petit au bout and a poignée for the taker
    page.click(".sticky-actions a")
    assert_fits(page)
    enter_deal(
        page,
        taker=a.pk,
        contract="garde",
        bouts=2,
        points=49,
        petit="attack",
        poignee=(a.pk, "simple"),
    )
    # the live preview (htmx) shows the breakdown before saving
    # the save bar shows the verdict and each player's score; the count sits under the form
    expect(page.locator("#preview")).to_contain_text("Anne +318")
    assert "won by 8" in page.inner_text("#preview")
    expect(page.locator("#preview-detail")).to_contain_text("106 per defender")
    page.click("button[name=save]")
    page.wait_for_url(sheet_url)

    # deal 2: prise, the defence counted 40 (the attack made 51 with 1 bout)
    page.click(".sticky-actions a")
    enter_deal(page, taker=b.pk, contract="prise", bouts=1, points=40, side="defence")
    page.click("button[name=save]")
    page.wait_for_url(sheet_url)

    # deal 3: garde sans, 1 bout, 55 points, petit au bout to the defence
    page.click(".sticky-actions a")
    enter_deal(page, taker=c.pk, contract="garde_sans", bouts=1, points=55, petit="defence")
    page.click("button[name=save]")
    page.wait_for_url(sheet_url)
    assert "3 deals" in page.inner_text(".zero-sum")

    # correct deal 2: the attack made only 44
    page.click("table.sheet tbody tr:nth-child(2) a.row-link")
    page.click("text=Correct this deal")
    page.wait_for_url("**/edit/")
    assert_fits(page)
    page.fill("#id_points", "44")
    tap(page, "points_side", "attack")
    page.click("button[name=save]")
    page.wait_for_url(sheet_url)

    # undo deal 3, with the confirmation
    page.click("text=Undo the last deal")
    expect(page.locator("h1")).to_contain_text("Undo deal 3?")
    page.click("text=Yes, undo it")
    page.wait_for_url(sheet_url)

    seats = [p.pk for p in four]
    expected = {pk: 0 for pk in seats}
    for deal in [
        fft.score_deal(
            seats=seats,
            taker=a.pk,
            contract="garde",
            bouts=2,
            points=49,
            petit_au_bout="attack",
            poignees=[(a.pk, "simple")],
        ),
        fft.score_deal(seats=seats, taker=b.pk, contract="prise", bouts=1, points=44),
    ]:
        for pk, score in deal.scores.items():
            expected[pk] += score
    shown = {
        int(el.get_attribute("data-player")): int(el.inner_text().replace("−", "-"))
        for el in page.query_selector_all(".totals .value")
    }
    assert shown == expected
    assert sum(shown.values()) == 0
    assert "add up to 0" in page.inner_text(".zero-sum")
    assert "2 deals" in page.inner_text(".zero-sum")
    assert_fits(page)
    page.screenshot(path=str(artifacts / "score-sheet-phone.png"), full_page=True)
    assert Game.objects.get().deals.count() == 2


def test_a_second_phone_sees_new_deals_without_reloading(phone, live_server, game4, four):
    page = phone
    page.goto(f"{live_server.url}/t/{game4.token}/")
    assert "0 deals" in page.inner_text(".zero-sum")
    # the empty sheet's message runs across the whole card, not down the first column's 1.4rem
    message = page.locator("#sheet-rows td[colspan]").bounding_box()
    rows = page.locator("#sheet-rows").bounding_box()
    assert message["width"] >= 0.9 * rows["width"], (message, rows)
    assert message["height"] < 80, message  # two lines at most at this width
    from tarotclub.kinds.tarot.services import DealInput, deal_add

    deal_add(game=game4, data=DealInput(taker=four[1].pk, contract="prise", bouts=1, points=60))
    page.wait_for_function(
        "() => document.querySelector('.zero-sum').innerText.includes('1 deal')", timeout=10_000
    )
    expected = fft.score_deal(
        seats=[p.pk for p in four], taker=four[1].pk, contract="prise", bouts=1, points=60
    ).scores
    shown = {
        int(el.get_attribute("data-player")): int(el.inner_text().replace("−", "-"))
        for el in page.query_selector_all(".totals .value")
    }
    assert shown == expected
