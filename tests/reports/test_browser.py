"""The pages the reports app adds, on a phone: no sideways scrolling, the links in reach."""

from __future__ import annotations

import pytest

from conftest import PHONE, scroll_width
from tarotclub.tournaments import services
from tests.tournaments.helpers import make_tournament, play_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_all_deals_and_players_sheets_on_a_phone(phone, live_server, artifacts):
    page = phone
    t, players = make_tournament(9, rounds=2, deals=2)
    t = services.tournament_start(tournament=t)
    play_round(t)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    assert scroll_width(page) <= PHONE["width"]
    page.click("text=all deals")
    page.wait_for_url("**/deals/")
    assert scroll_width(page) <= PHONE["width"]  # the wide table scrolls inside its frame
    text = page.inner_text("main")
    assert "All deals" in text and players[0].name in text
    (artifacts / "pdf").mkdir(exist_ok=True)
    page.screenshot(path=str(artifacts / "pdf" / "deals-page-phone.png"), full_page=True)
    page.click("nav.round-filter >> text=Round 1")
    assert "round=1" in page.url
    page.click("text=players' sheets")
    page.wait_for_url("**/players/")
    assert scroll_width(page) <= PHONE["width"]
    with page.expect_response(lambda r: r.url.endswith(".pdf")) as info:
        page.click(f"text={players[3].name}")
    assert info.value.status == 200
    assert info.value.headers["content-type"] == "application/pdf"
