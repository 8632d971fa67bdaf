"""Two phones on one score sheet (headless Chromium, 360 px): each sees the other's new deal
and correction without a reload, swapped in row by row (the rest of the sheet stays)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from conftest import scroll_width
from scoring import fft
from tarotclub.kinds.tarot.services import DealInput, deal_add

from .test_browser import enter_deal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 740}


def _number(text: str) -> int:
    return int(text.strip().replace("−", "-").replace("+", ""))


def _second_phone(first):
    """Another phone (its own cookies) beside `first`, both 360 px wide."""
    first.set_viewport_size(NARROW)
    second = first.context.browser.new_context(viewport=NARROW, locale="en-GB").new_page()
    second.set_default_timeout(15_000)
    return second


def _mark(page, part: str = "#sheet-rows") -> None:
    """Tag the page and a part of the sheet (the rows by default): a reload drops the first,
    a whole new sheet the second (a poll that swaps rows in keeps both)."""
    page.evaluate(
        "(part) => { window.samePage = 1; document.querySelector(part).dataset.kept = '1'; }",
        part,
    )


def _kept(page, part: str = "#sheet-rows") -> bool:
    return page.evaluate(
        "(part) => window.samePage === 1 && document.querySelector(part).dataset.kept === '1'",
        part,
    )


def _sheet(page) -> tuple[dict, list]:
    """(totals by player pk, each row's (scores, running totals) in seat order)."""
    totals = {
        int(el.get_attribute("data-player")): _number(el.inner_text())
        for el in page.query_selector_all(".totals .value")
    }
    rows = []
    for tr in page.query_selector_all("#sheet-rows tr"):
        cells = tr.query_selector_all("td.score")
        rows.append(
            (
                [_number(td.query_selector("span").inner_text()) for td in cells],
                [_number(td.query_selector("small").inner_text()) for td in cells],
            )
        )
    return totals, rows


def _expected(four, deals) -> tuple[dict, list]:
    seats = [p.pk for p in four]
    running = dict.fromkeys(seats, 0)
    rows = []
    for kwargs in deals:
        scores = fft.score_deal(seats=seats, **kwargs).scores
        for pk in seats:
            running[pk] += scores.get(pk, 0)
        rows.append(([scores.get(pk, 0) for pk in seats], [running[pk] for pk in seats]))
    return running, rows


def test_two_phones_see_each_others_deal_and_correction(phone, live_server, game4, four):
    a, b, c, d = four
    deals = [
        {"taker": b.pk, "contract": "prise", "bouts": 1, "points": 60},
        {"taker": c.pk, "contract": "garde", "bouts": 2, "points": 45},
    ]
    for kwargs in deals:
        deal_add(game=game4, data=DealInput(**kwargs))
    sheet_url = f"{live_server.url}/t/{game4.token}/"
    first = phone
    second = _second_phone(first)
    try:
        for page in (first, second):
            page.goto(sheet_url)
            expect(page.locator(".zero-sum")).to_contain_text("2 deals")
        _mark(second)

        # the first phone enters deal 3; the second sees it come in, row by row
        first.click(".sticky-actions a")
        enter_deal(first, taker=d.pk, contract="prise", bouts=1, points=41)
        first.click("button[name=save]")
        first.wait_for_url(sheet_url)
        deals.append({"taker": d.pk, "contract": "prise", "bouts": 1, "points": 41})
        expect(second.locator(".zero-sum")).to_contain_text("3 deals", timeout=15_000)
        expect(second.locator("#deal-3")).to_be_visible()
        assert _kept(second), "the second phone reloaded or got a whole new sheet"
        assert _sheet(second) == _expected(four, deals)
        _mark(first)

        # the second phone corrects deal 1: the first sees its row and every later running
        # total move, and the totals
        second.click("#deal-1 a.row-link")
        second.click("text=Correct this deal")
        second.fill("#id_points", "40")
        second.click("label.choice:has(input[name='points_side'][value='attack'])")
        second.click("button[name=save]")
        second.wait_for_url(sheet_url)
        deals[0] = {**deals[0], "points": 40}
        want = _expected(four, deals)
        shown = ", ".join(str(v) for v in want[1][0][0])
        first.wait_for_function(
            "(want) => Array.from(document.querySelectorAll('#deal-1 td.score span'))"
            ".map(s => s.innerText.replace('\\u2212', '-').replace('+', '')).join(', ') === want",
            arg=shown.replace("−", "-"),
            timeout=15_000,
        )
        assert _kept(first), "the first phone reloaded or got a whole new sheet"
        assert _sheet(first) == want
        leaders = first.eval_on_selector_all(
            "#sheet-rows tr:last-child td.leader", "tds => tds.length"
        )
        assert leaders == len([v for v in want[0].values() if v == max(want[0].values())])
        assert scroll_width(first) <= NARROW["width"]
    finally:
        second.context.close()


def test_a_phone_on_the_empty_sheet_gets_the_first_deals_in_place(phone, live_server, game4, four):
    """A round's start: the second phone shows the empty sheet ("no deal yet"); the first
    deals come into it without a reload or a new sheet (its body replaced, the rest kept),
    and the next deal is added to that new body. The undo button comes with them."""
    a, b, c, d = four
    sheet_url = f"{live_server.url}/t/{game4.token}/"
    first = phone
    second = _second_phone(first)
    wrapper = "#sheet .table-wrap"  # the body is replaced: the table's wrapper stays
    try:
        second.goto(sheet_url)
        expect(second.locator("#sheet-rows")).to_contain_text("No deal yet")
        assert second.locator("#sheet-undo a").count() == 0  # nothing to undo yet
        _mark(second, wrapper)
        deals = []
        first.goto(sheet_url)
        for kwargs in (
            {"taker": b.pk, "contract": "garde", "bouts": 2, "points": 45},
            {"taker": c.pk, "contract": "prise", "bouts": 1, "points": 40},
        ):
            first.click(".sticky-actions a")
            enter_deal(first, **kwargs)
            first.click("button[name=save]")
            first.wait_for_url(sheet_url)
            deals.append(kwargs)
            count = len(deals)
            label = "1 deal" if count == 1 else f"{count} deals"
            expect(second.locator(".zero-sum")).to_contain_text(label, timeout=15_000)
            expect(second.locator(f"#deal-{count}")).to_be_visible()
            assert _kept(second, wrapper), "the second phone reloaded or got a whole new sheet"
            assert _sheet(second) == _expected(four, deals)
        expect(second.locator("#sheet-rows")).not_to_contain_text("No deal yet")
        assert second.locator("#sheet-rows tr").count() == 2
        assert scroll_width(second) <= NARROW["width"]
        # the undo the first deal made possible came with the polls, among the other actions
        undo = second.locator("#sheet-undo a")
        expect(undo).to_be_visible()
        history = second.locator(".actions a[href$='/history/']")
        assert undo.bounding_box()["height"] == history.bounding_box()["height"]
        assert _kept(second, wrapper)
        # and the sheet's next polls say the phone shows them: they are not sent again
        with second.expect_request(lambda r: "/live/?" in r.url, timeout=15_000) as poll:
            pass
        assert "a=uf" in poll.value.url  # undo and finish, for a phone on the share link
        if shots := os.environ.get("POLL_SHOTS"):  # the sheet as the second phone shows it
            second.screenshot(path=f"{shots}/poll-undo.png", full_page=True)
        undo.click()
        second.wait_for_url(f"{sheet_url}deal/undo/")
        expect(second.locator("h1")).to_have_text("Undo deal 2?")
    finally:
        second.context.close()
