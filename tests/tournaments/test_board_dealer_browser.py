"""The board's dealer on a 360 px phone: the director's boards page and the dealer page (tap a
dealer, mark it), and the table's sheet naming each board's dealer and who leads; each page
fits, with no small tap target and no serious axe violation."""

from __future__ import annotations

import pytest

from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tests.browser.pagecheck import check_page

from .duplicate_helpers import make_duplicate
from .test_duplicate_browser import WIDTH, fits, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def clean(page) -> None:
    found = check_page(page)
    assert {k: v for k, v in found.items() if v} == {}, page.url


def test_the_director_marks_a_dealer_on_a_phone(phone, live_server, director, artifacts):
    page = phone
    page.set_viewport_size({"width": WIDTH, "height": 780})
    url = live_server.url
    t, _players = make_duplicate(3, rounds=3)
    services.tournament_start(tournament=t)
    login(page, url)

    page.goto(f"{url}/tournaments/{t.pk}/duplicate/")
    fits(page)
    clean(page)
    page.screenshot(path=str(artifacts / "dealer-boards.png"), full_page=True)

    page.click("#board-6 a.dealer-link")
    page.wait_for_url("**/duplicate/board/6/dealer/")
    assert "Dealer: East — North leads" in page.inner_text("#dealing")
    fits(page)
    clean(page)
    page.click("label.choice:has(input[name='dealer'][value='S'])")
    page.screenshot(path=str(artifacts / "dealer-board-page.png"), full_page=True)
    page.click("button.primary")
    page.wait_for_url(f"**/tournaments/{t.pk}/duplicate/#board-6")
    assert "Board 6: Dealer: South — East leads." in page.inner_text("body")
    row = page.inner_text("#board-6")
    assert "South" in row and "(marked)" in row
    t.refresh_from_db()
    assert t.board_dealers == {"6": "S"}

    # the table that plays board 6 sees it on its phone
    table = next(
        x
        for x in Table.objects.filter(tournament=t, round=1).select_related("game")
        if 6 in x.game.options["boards"]
    )
    page.goto(f"{url}/t/{table.game.token}/")
    text = page.inner_text(".board-dealing")
    assert "Board 6 · Dealer: South — East leads" in text
    assert "Board 5 · Dealer: East — North leads" in text
    fits(page)
    page.screenshot(path=str(artifacts / "dealer-table-sheet.png"), full_page=True)
