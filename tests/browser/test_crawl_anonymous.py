"""The crawl of the demo club at 360 x 740 (tests/browser/crawl.py) as an anonymous visitor, in the
first language (every language under CRAWL_FULL=1 or as CRAWL_LANGS says): every check."""

from __future__ import annotations

from .crawl import MARKS, check_crawl

pytestmark = MARKS


def test_every_page_of_the_demo_club_at_360_px_as_an_anonymous_visitor(
    live_server, demo, artifacts, monkeypatch
):
    check_crawl("anonymous", None, live_server, demo, artifacts, monkeypatch)
