"""The site's chrome on a 360 x 740 phone: a header of at most 64 px whose menu works without a
script, by keyboard and by tap, and the pages of the roster, the club and the login that pass
the page check (no sideways scroll, no clipped frame, no broken word, every tap target at
least 44 x 44 px, no serious axe-core violation) in French, Dutch and English.

Screenshots go to artifacts/chrome-*.png.
"""

from __future__ import annotations

import pytest

from tests.browser.pagecheck import check_page
from tests.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGS = ["fr", "nl", "en"]
SMALL = {"width": 360, "height": 740}
LONG_NAMES = [
    "Marie-Christine Vanderhaegen-Dubois",
    "Jean-Baptiste de la Rochefoucauld",
    "Anneke van Oosterzee-Wijnberg",
]


def set_language(page, lang: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": page.base_url}])


def header_height(page) -> float:
    return page.evaluate(
        "document.querySelector('header.site-header').getBoundingClientRect().height"
    )


def nav_links(page) -> list[str]:
    """The menu's destinations, as the server rendered them (the search box, links and the
    buttons: the search's and the log-out one)."""
    return page.evaluate(
        f"Array.from(document.querySelectorAll('.site-menu input[type=search], "
        f".site-menu a[href], .site-menu button')).map({DESTINATION})"
    )


#: what a focused element of the menu is: its link, the search box or a button's words
DESTINATION = (
    "(e) => e.matches('input') ? 'search:' + e.name"
    " : (e.getAttribute('href') || 'button:' + e.textContent.trim())"
)


def assert_clean(page, where: str) -> None:
    found = check_page(page)
    bad = {k: v for k, v in found.items() if v}
    assert bad == {}, where


@pytest.fixture
def browser_context_no_js(phone):
    """A second page, in a context with JavaScript off: the menu must work without site.js."""
    context = phone.context.browser.new_context(
        viewport=SMALL, locale="en-GB", java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = phone.base_url
    yield page
    context.close()


@pytest.fixture
def club(make_players, member, director):
    players = make_players(*LONG_NAMES, "Anne", "Bram", "Chloé", "Dirk")
    return players


@pytest.mark.parametrize("lang", LANGS)
def test_header_is_at_most_64px_logged_in_and_out(phone, club, lang):
    page = phone
    page.set_viewport_size(SMALL)
    set_language(page, lang)
    page.goto(page.base_url + "/")
    assert header_height(page) <= 64, (lang, "anonymous", header_height(page))
    log_in(page, "director", "pw-director-1")
    page.goto(page.base_url + "/players/")
    assert header_height(page) <= 64, (lang, "director", header_height(page))
    # the menu is a disclosure: closed, it hides the links; its summary has a name
    summary = page.locator("header .site-menu > summary")
    assert summary.is_visible()
    assert summary.inner_text().strip()
    assert not page.locator(".site-menu a[href='/players/']").is_visible()


def test_menu_reaches_every_link_by_keyboard(phone, club):
    page = phone
    page.set_viewport_size(SMALL)
    log_in(page, "director", "pw-director-1")
    page.goto(page.base_url + "/")
    expected = nav_links(page)
    assert {"/games/", "/players/", "/tournaments/", "/history/"} <= set(expected)
    assert expected[:2] == ["search:q", "button:Find"]  # the search box comes first
    assert any(e.startswith("button:") for e in expected)  # log out
    # Tab from the top of the page reaches the menu's summary first thing after the brand
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('.site-menu > summary')")
    page.keyboard.press("Enter")
    assert page.evaluate("document.querySelector('.site-menu').open")
    reached = []
    for _ in expected:
        page.keyboard.press("Tab")
        reached.append(page.evaluate(f"({DESTINATION})(document.activeElement)"))
        # a focused target shows where it is (an outline or a box shadow)
        assert page.evaluate(
            """(() => { const s = getComputedStyle(document.activeElement);
                 return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2)
                        || s.boxShadow !== 'none'; })()"""
        ), reached[-1]
    assert reached == expected
    # Escape closes it and gives the focus back to the summary
    page.keyboard.press("Escape")
    assert not page.evaluate("document.querySelector('.site-menu').open")
    assert page.evaluate("document.activeElement.matches('.site-menu > summary')")
    # every destination opens, by keyboard: the search box first, then the first link
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.type("cup")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == page.base_url + "/search/?q=cup"
    page.goto(page.base_url + "/")
    for key in ("Tab", "Tab", "Enter", "Tab", "Tab", "Tab"):  # summary, open, box, Find, link
        page.keyboard.press(key)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == page.base_url + expected[2]


def test_menu_works_by_tap_without_javascript(browser_context_no_js, live_server, club):
    page = browser_context_no_js
    page.set_viewport_size(SMALL)
    log_in(page, "director", "pw-director-1")
    page.goto(live_server.url + "/")
    links = [e for e in nav_links(page) if not e.startswith(("button:", "search:"))]
    for href in links:
        page.goto(live_server.url + "/")
        page.click(".site-menu > summary")
        target = page.locator(f".site-menu a[href='{href}']")
        box = target.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, href
        target.click()
        page.wait_for_load_state("load")
        assert page.url == live_server.url + href
    # tapping the summary again closes the menu
    page.goto(live_server.url + "/")
    page.click(".site-menu > summary")
    assert page.locator(".site-menu a[href='/players/']").is_visible()
    page.click(".site-menu > summary")
    assert not page.locator(".site-menu a[href='/players/']").is_visible()
    # and log out works from the menu (the first button is the search box's)
    page.click(".site-menu > summary")
    page.click(".site-menu .account button[type=submit]")
    page.wait_for_load_state("load")
    assert page.locator(".site-menu a[href='/login/']").count() == 1


def test_menu_opened_fits_and_closes_on_tap_outside(phone, club, artifacts):
    page = phone
    page.set_viewport_size(SMALL)
    log_in(page, "member", "pw-member-1")
    page.goto(page.base_url + "/")
    page.click(".site-menu > summary")
    assert page.evaluate("document.querySelector('.site-menu').open")
    page.screenshot(path=str(artifacts / "chrome-menu-open.png"))
    assert_clean(page, "menu open")
    page.mouse.click(180, 600)
    assert not page.evaluate("document.querySelector('.site-menu').open")


def test_wide_screen_shows_the_links_inline(phone, club, artifacts):
    page = phone
    page.set_viewport_size({"width": 1024, "height": 768})
    log_in(page, "director", "pw-director-1")
    page.goto(page.base_url + "/players/")
    page.screenshot(path=str(artifacts / "chrome-wide-players.png"))
    assert not page.locator(".site-menu > summary").is_visible()
    for href in ["/games/", "/players/", "/tournaments/", "/history/"]:
        assert page.locator(f".site-menu a[href='{href}']").is_visible(), href
    assert header_height(page) <= 64
    assert_clean(page, "wide home")


def lock_out(page) -> None:
    from django.conf import settings

    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        page.goto(page.base_url + "/login/")
        page.fill("#id_username", "member")
        page.fill("#id_password", "wrong-password")
        page.click("main button[type=submit]")
        page.wait_for_load_state("load")


@pytest.mark.parametrize("lang", LANGS)
def test_my_pages_pass_the_page_check(phone, club, artifacts, lang):
    from tarotclub.players.services import player_update

    page = phone
    page.set_viewport_size(SMALL)
    set_language(page, lang)
    # some history to list
    p = club[0]
    player_update(player=p, name=p.name, nickname="Marie-Chris", licence="123456")
    checked = []

    def visit(name: str, path: str) -> None:
        response = page.goto(page.base_url + path)
        assert response.status < 500, path
        page.screenshot(path=str(artifacts / f"chrome-{lang}-{name}.png"), full_page=True)
        assert_clean(page, f"{lang} {path}")
        assert header_height(page) <= 64, (lang, path)
        checked.append(name)

    visit("home-anonymous", "/")
    visit("login", "/login/")
    visit("not-found", "/no-such-page/")
    log_in(page, "member", "pw-member-1")
    visit("forbidden", "/history/")
    log_in(page, "director", "pw-director-1")
    visit("home", "/")
    visit("players", "/players/")
    visit("players-sorted", "/players/?sort=-name")
    visit("players-search", "/players/?q=an")
    visit("player-new", "/players/new/")
    visit("player", f"/players/{p.pk}/")
    visit("player-edit", f"/players/{p.pk}/edit/")
    # the form's errors, shown
    page.fill("#id_name", "")
    page.click("main button[type=submit]")
    page.wait_for_load_state("load")
    assert_clean(page, f"{lang} player form errors")
    visit("history", "/history/")
    visit("history-filtered", f"/history/?player={p.pk}")
    visit("backup", "/backup/")
    page.context.clear_cookies()
    set_language(page, lang)
    lock_out(page)
    page.screenshot(path=str(artifacts / f"chrome-{lang}-locked-out.png"), full_page=True)
    assert page.locator("main .errors").count() == 1
    assert_clean(page, f"{lang} locked out")
    assert len(checked) == 14


def test_player_list_pages_and_sorts_with_big_targets(phone, make_players, director, artifacts):
    make_players(*(f"Joueur {i:03d}" for i in range(120)))
    page = phone
    page.set_viewport_size(SMALL)
    log_in(page, "director", "pw-director-1")
    page.goto(page.base_url + "/players/?page=2")
    page.screenshot(path=str(artifacts / "chrome-players-page-2.png"), full_page=True)
    assert_clean(page, "players page 2")
    pagination = page.locator("nav.pagination")
    assert pagination.count() == 1
    assert pagination.get_attribute("aria-label")
    assert page.locator("nav.pagination [aria-current=page]").inner_text().strip() == "2"
    # the sorted column says so to a screen reader
    page.goto(page.base_url + "/players/?sort=-name")
    assert page.locator("th[aria-sort=descending]").count() == 1
