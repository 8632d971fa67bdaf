"""The page check measures what a phone shows: synthetic pages with one known fault each."""

from __future__ import annotations

import pytest

from .pagecheck import check_page, measure

PAGE = (
    '<!doctype html><html lang="en"><head><title>A test page</title>'
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
    '<body style="margin:0">%s</body></html>'
)

pytestmark = pytest.mark.browser


@pytest.fixture(params=[True, False], ids=["phone", "desktop"])
def page(browser, request):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=request.param, has_touch=request.param
    )
    yield context.new_page()
    context.close()


def show(page, body: str):
    page.set_content(PAGE % body)
    return page


def test_a_page_wider_than_the_phone_scrolls_sideways(page):
    # An emulated phone zooms out to show a wide page, so window.innerWidth grows with it;
    # the page is measured against the layout viewport instead.
    found = measure(show(page, '<div style="width:500px">wide</div>'))
    assert found["page_scroll"] == ["page is 500px wide in a 360px window"]


def test_a_page_that_fits_is_clean(page):
    body = '<p>Short words only.</p><button style="width:48px;height:48px">OK</button>'
    assert check_page(show(page, body)) == {
        "page_scroll": [], "frames": [], "broken_words": [], "small_targets": [],
        "ascii_minus": [], "axe": []
    }  # fmt: skip


def test_a_clipped_frame_a_broken_word_and_a_small_target(page):
    found = measure(show(page, (
        '<div style="overflow-x:auto;width:100px"><div style="width:300px">x</div></div>'
        '<p style="width:40px;overflow-wrap:anywhere">Verdediging</p>'
        '<a href="/x" style="display:inline-block;width:30px">go</a>'
    )))  # fmt: skip
    assert len(found["frames"]) == 1 and "300px in 100px" in found["frames"][0]
    assert found["broken_words"] == ['"Verdediging" in p "Verdediging"']
    assert found["small_targets"] and found["small_targets"][0].startswith('a "go": 30x')
    assert found["page_scroll"] == []


def test_what_a_closed_panel_hides_is_not_measured(page):
    # Chromium lays out a closed <details> on demand (content-visibility: hidden), so its
    # hidden text has client rects: only what is rendered counts.
    found = measure(show(page, (
        '<details><summary style="min-height:48px">More</summary>'
        '<p style="width:40px;overflow-wrap:anywhere">Verdediging</p>'
        '<a href="/x" style="display:inline-block;width:30px">go</a></details>'
    )))  # fmt: skip
    assert found["broken_words"] == [] and found["small_targets"] == []


def test_a_negative_number_with_a_hyphen_minus_is_found(page):
    found = measure(show(page, "<p>Total -652</p><p>dated 1-12-2026, score \u2212336 (-4)</p>"))
    assert [item.split('"')[1] for item in found["ascii_minus"]] == [
        "Total -652",
        "dated 1-12-2026, score \u2212336 (-4)",
    ]
    assert measure(show(page, "<p>dated 1-12-2026, score \u2212336</p>"))["ascii_minus"] == []
