"""The crawl of the demo club at 360 x 740 (tests/browser/crawl.py) as the director, in French: the
layout checks and the language-free ones (downloads, axe-core, every screenshot)."""

from __future__ import annotations

from .crawl import MARKS, check_crawl

pytestmark = MARKS


def test_every_page_of_the_demo_club_at_360_px_as_the_director_in_french(
    live_server, demo, artifacts, monkeypatch
):
    check_crawl("director", "fr", live_server, demo, artifacts, monkeypatch)
