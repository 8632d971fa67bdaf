"""At 360 px: a triplette table's sheet on screen (its two teams with badges, each board's
attacker), and the rankings and grading pages of a triplette and a duplicate tournament,
which share one rankings table and one grading table include."""

from __future__ import annotations

import pytest

from conftest import scroll_width
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .duplicate_helpers import make_duplicate, play_duplicate_round
from .test_triplette_browser import WIDTH, login, shot
from .triplette_helpers import make_triplette, play_triplette_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def score(board, rnd, table):
    return 50 + 2 * ((board * 7 + table) % 5) if board % 3 else -60


def test_triplette_and_duplicate_pages_at_360_px(phone, live_server, director, artifacts):
    page = phone
    page.set_viewport_size({"width": WIDTH, "height": 780})
    t, _teams = make_triplette(4, rounds=2)
    services.tournament_start(tournament=t)
    play_triplette_round(t, score)
    d, _players = make_duplicate(5, rounds=2)
    services.tournament_start(tournament=d)
    play_duplicate_round(d, score)
    url = live_server.url
    login(page, url)
    table = Table.objects.filter(tournament=t, round=1, number=1).select_related("game").get()
    pages = {
        "triplette-sheet": f"/t/{table.game.token}/scoresheet/",
        "triplette-rankings": f"/tournaments/{t.pk}/",
        "triplette-grading": f"/tournaments/{t.pk}/triplettes/grading/",
        "duplicate-rankings": f"/tournaments/{d.pk}/",
        "duplicate-grading": f"/tournaments/{d.pk}/duplicate/grading/",
    }
    for name, path in pages.items():
        response = page.goto(url + path)
        assert response.status == 200, path
        assert scroll_width(page) <= WIDTH, path
        shot(page, artifacts, f"{name}-360.png")
    page.goto(url + pages["triplette-sheet"])
    text = page.inner_text("main")
    assert "North-South" in text and "East-West" in text and "Sixth" not in text
    for link in page.locator("main a.button, main button").all():
        box = link.bounding_box()
        assert box is None or box["height"] >= 44, link.inner_text()
    page.goto(url + pages["triplette-rankings"])
    assert page.locator("section.ranking").count() == 2
    assert page.locator("section.ranking a[href*='/triplettes/record/']").count() == 8
    page.goto(url + pages["duplicate-rankings"])
    assert page.locator("section.ranking a[href*='/duplicate/record/']").count() == 40
