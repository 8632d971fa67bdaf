"""A Fool's Faith game played to its end on a phone, in headless Chromium."""

from __future__ import annotations

import pytest

from conftest import scroll_width
from tests.browsing import new_phone

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser, live_server):
    """conftest's phone, with touch: these tests tap."""
    page = new_phone(browser, live_server.url, is_mobile=True, has_touch=True)
    yield page
    page.context.close()


def tap(page, pk, step, times=1):
    for _ in range(times):
        page.tap(f"[data-stepper]:has(input[name=tricks_{pk}]) button[data-step='{step}']")


def tap_plus(page, pk, times):
    tap(page, pk, 1, times)


def no_sideways_scroll(page):
    assert scroll_width(page) <= 390


def test_fools_faith_game_on_a_phone(live_server, phone, start, three):
    a, b, c = three
    game = start("foolsfaith", three)
    page = phone
    page.goto(f"{live_server.url}/v/{game.token}/")
    assert "Round 1: Anne deals. It is worth 1 challenge card." in page.inner_text("#sheet")
    no_sideways_scroll(page)

    # Round 1: Bram takes 5 tricks, Anne 2, Chloé 1 (tapped with the + buttons)
    page.tap("text=New round")
    page.wait_for_selector(f"input[name=tricks_{a.pk}]")
    no_sideways_scroll(page)
    tap_plus(page, b.pk, 5)
    assert page.inner_text("[data-sum-status]") == "3 left to share"
    tap_plus(page, a.pk, 2)
    # the last player's count fills itself with what the others left (issue 11)
    assert page.input_value(f"input[name=tricks_{c.pk}]") == "1"
    assert page.inner_text("[data-sum-status]") == "All given ✓"
    tap_plus(page, c.pk, 1)
    assert page.inner_text("[data-sum-status]") == "1 too many"
    tap(page, c.pk, -1)
    assert page.inner_text("[data-sum-status]") == "All given ✓"
    assert page.input_value(f"input[name=tricks_{b.pk}]") == "5"
    page.wait_for_selector("#preview .verdict")
    assert "Bram wins and takes 1 card." in page.inner_text("#preview")
    page.tap("button[name=save]")
    page.wait_for_url(f"**/t/{game.token}/")
    sheet = page.inner_text("#sheet")
    assert "Bram wins and takes 1 card." in sheet
    assert "Round 2: Bram deals. It is worth 1 challenge card." in sheet

    # Round 2: a tie between Anne and Chloé (typed, not tapped: the inputs are real numbers)
    page.tap("text=New round")
    page.fill(f"input[name=tricks_{a.pk}]", "3")
    page.fill(f"input[name=tricks_{b.pk}]", "2")
    page.fill(f"input[name=tricks_{c.pk}]", "3")
    page.tap("button[name=save]")
    page.wait_for_url(f"**/t/{game.token}/")
    assert "It is worth 2 challenge cards." in page.inner_text("#sheet")

    # Round 3: a mistake first (7 tricks), refused with a message; then Chloé wins the game
    page.tap("text=New round")
    page.fill(f"input[name=tricks_{a.pk}]", "1")
    page.fill(f"input[name=tricks_{b.pk}]", "1")
    page.fill(f"input[name=tricks_{c.pk}]", "5")
    page.tap("button[name=save]")
    assert "must add up to 8, not 7" in page.inner_text(".errors")
    tap_plus(page, c.pk, 1)
    page.tap("button[name=save]")
    page.wait_for_url(f"**/t/{game.token}/")
    assert page.inner_text(".game-over") == "Game over: Chloé won."
    cards = page.locator(".total-card .value").all_inner_texts()
    assert cards == ["0", "1", "2"]
    assert page.locator("text=New round").count() == 0
    assert "Chloé gives 2 challenge cards" in page.inner_text("#awards")
    no_sideways_scroll(page)
    game.refresh_from_db()
    assert game.finished and game.records.count() == 3
