"""The projector of a 200-player evening on a 1920 × 1080 and a 1280 × 800 screen: every
screen of standings fits (no scroll, nothing clipped), all 200 names appear across the
screens, htmx moves to the next screen by itself, and axe finds nothing serious."""

from __future__ import annotations

import re

import pytest

from tarotclub.tournaments import services
from tests.browser.pagecheck import check_page

from .helpers import make_tournament, play_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)])
def test_the_projector_of_a_200_player_evening(phone, live_server, artifacts, size):
    page = phone
    width, height = size
    t, players = make_tournament(200, rounds=3, deals=1)
    t = services.tournament_start(tournament=t)
    for table in list(t.tables.filter(round=1))[:20]:  # the round is under way
        play_table(table)
    page.set_viewport_size({"width": width, "height": height})
    url = f"{live_server.url}/tournaments/{t.pk}/projector/"
    page.goto(url)
    screen = page.locator("#projector-screen")
    pages = int(screen.get_attribute("data-pages"))
    assert pages > 1
    assert "round 1 of 3" in page.inner_text("main") and "20 of 50 tables confirmed" in (
        page.inner_text("main")
    )
    seen: list[str] = []
    for n in range(1, pages + 1):
        page.goto(f"{url}?page={n}")
        found = check_page(page)
        assert found["page_scroll"] == [] and found["frames"] == [], (n, found)
        assert found["axe"] == [], found["axe"]
        bottom = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.projector-standings li')]"
            ".map((li) => li.getBoundingClientRect().bottom))"
        )
        assert bottom <= height, (n, bottom)
        assert page.evaluate("document.documentElement.scrollHeight") <= height
        # large type: a row at least 28 px high
        row = page.locator(".projector-standings li").first.bounding_box()
        assert row["height"] >= 28
        seen += page.locator(".projector-standings .name").all_inner_texts()
        if n in (1, pages):
            page.screenshot(path=str(artifacts / f"projector-{width}x{height}-p{n}.png"))
    assert sorted(seen) == sorted(p.name for p in players)
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
    # htmx pages by itself: from the last screen back to the first, in place
    first_name = page.locator(".projector-standings .name").first.inner_text()
    page.wait_for_function(
        "(name) => document.querySelector('.projector-standings .name').textContent !== name",
        arg=first_name,
        timeout=15_000,
    )
    assert page.url.endswith(f"?page={pages}")  # swapped in place, no navigation
    assert re.search(r"page 1 of \d+", page.inner_text(".projector-progress"))
