"""The list of games, archiving and a finished Death's Pot on a 360 px phone, in French, Dutch
and English: filters, paging, archive and restore, and the page check on each page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tarotclub.games import services
from tarotclub.games.models import Game
from tests.browser.pagecheck import check_page
from tests.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL = {"width": 360, "height": 740}
#: The header, menu and footer belong to the site's chrome, checked with it.
CHROME = "header, footer, .site-header, .site-nav, .site-footer"


def checked(page, artifacts, name: str) -> dict:
    """The page check without the chrome, and a screenshot to look at."""
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
    axe = [v for v in check_page(page)["axe"] if not re.search(r"site-(header|nav|footer)", v)]
    page.evaluate(f"document.querySelectorAll({CHROME!r}).forEach((e) => e.style.display = 'none')")
    found = check_page(page, with_axe=False)
    found["axe"] = axe
    page.reload()
    return {k: v for k, v in found.items() if v}


@pytest.fixture
def club(member, make_players):
    long = make_players(
        "Marie-Christine Vandenbroucke", "Jean-Baptiste Lefebvre", "Anneke", "Dirk", "Eva"
    )
    for i in range(23):
        services.game_start(players=long[:4], created_by=member, name=f"Tuesday {i:02d}")
    dp = services.game_start(
        players=long[:3], created_by=member, kind="deathspot", options={"stake": 1}
    )
    services.record_add(game=dp, data={"death": long[0].pk})
    tricks = {long[0].pk: 5, long[1].pk: 5, long[2].pk: 2}
    services.record_add(game=dp, data={"tricks": tricks})
    services.game_finish(game=dp, user=member)
    services.game_start(players=long[:3], created_by=member, kind="cuckoo", options={"lives": 3})
    return {"players": long, "deathspot": dp}


@pytest.mark.parametrize("lang", ["fr", "nl", "en"])
def test_the_list_filters_pages_and_archives_on_a_phone(phone, live_server, club, artifacts, lang):
    page = phone
    page.set_viewport_size(SMALL)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    log_in(page, "member", "pw-member-1", live_server.url)
    page.goto(live_server.url + "/games/")
    assert page.locator("table.game-list tbody tr").count() == 20
    assert checked(page, artifacts, f"games-list-{lang}") == {}

    # the next page has the rest
    page.click(".pagination a[href*='page=2']")
    page.wait_for_url("**/games/?page=2")
    expect(page.locator("table.game-list tbody tr")).to_have_count(5)

    # filter: one kind, then one player, then a bad date range
    page.goto(live_server.url + "/games/")
    page.select_option("#id_kind", "deathspot")
    page.click(".filter-actions button")
    page.wait_for_url("**kind=deathspot**")
    expect(page.locator("table.game-list tbody tr")).to_have_count(1)
    assert checked(page, artifacts, f"games-list-deathspot-{lang}") == {}
    page.goto(live_server.url + "/games/")
    page.select_option("#id_player", str(club["players"][4].pk))  # Eva played nothing
    page.click(".filter-actions button")
    page.wait_for_url(f"**player={club['players'][4].pk}**")
    expect(
        page.locator("table.game-list tbody tr td.empty, table.game-list tbody tr")
    ).to_have_count(1)
    page.fill("#id_from", "2026-05-02")
    page.fill("#id_to", "2026-05-01")
    page.click(".filter-actions button")
    expect(page.locator(".list-filter .errors")).to_be_visible()
    assert checked(page, artifacts, f"games-list-error-{lang}") == {}

    # archive a game from its sheet, find it under "archived", restore it
    game = Game.objects.get(name="Tuesday 22")
    page.goto(f"{live_server.url}/t/{game.token}/")
    page.click("form.archive-form button")
    page.wait_for_url("**/games/")
    assert "Tuesday 22" not in page.inner_text("table.game-list")
    page.select_option("#id_status", "archived")
    page.click(".filter-actions button")
    page.wait_for_url("**status=archived**")
    expect(page.locator("table.game-list tbody tr")).to_have_count(1)
    page.click("table.game-list .game-link")
    expect(page.locator(".archived-note")).to_be_visible()
    # the sheet itself belongs to the score sheet's work: here, the archive notice and button
    found = checked(page, artifacts, f"game-archived-{lang}")
    assert not [x for v in found.values() for x in v if "archive" in x.lower()], found
    page.click(".archived-note button")
    page.wait_for_url(f"**/t/{game.token}/")
    game.refresh_from_db()
    assert game.archived_at is None

    # the history keeps both
    page.goto(f"{live_server.url}/t/{game.token}/history/")
    assert page.locator("ol.changes li").count() == 2
    assert checked(page, artifacts, f"game-history-{lang}") == {}


@pytest.mark.parametrize("lang", ["fr", "nl", "en"])
def test_a_finished_deaths_pot_on_a_phone(phone, live_server, club, artifacts, lang):
    page = phone
    page.set_viewport_size(SMALL)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    log_in(page, "member", "pw-member-1", live_server.url)
    dp = club["deathspot"]
    page.goto(f"{live_server.url}/t/{dp.token}/")
    lines = page.inner_text(".state-lines")
    assert "3" in lines and "Deal 3" not in lines and "passes" not in lines
    assert page.locator(".next-dealer").count() == 0
    # the rows' table is the score sheet's (its own work); here, the state on top
    found = checked(page, artifacts, f"deathspot-finished-{lang}")
    mine = [x for v in found.values() for x in v if "state" in x or "total-card" in x]
    assert mine == [], found
    assert not [w for w in found.get("broken_words", []) if "-" in w], found  # names stay whole
    page.goto(f"{live_server.url}/t/{dp.token}/history/")
    assert checked(page, artifacts, f"deathspot-history-{lang}") == {}
