"""The crawl of the demo club at 360 x 740 (tests/browser/crawl.py) as the director, in English:
the layout checks (a word's length changes the page)."""

from __future__ import annotations

from .crawl import MARKS, check_crawl

pytestmark = MARKS


def test_every_page_of_the_demo_club_at_360_px_as_the_director_in_english(
    live_server, demo, artifacts, monkeypatch
):
    check_crawl("director", "en", live_server, demo, artifacts, monkeypatch)
