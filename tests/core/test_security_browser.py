"""The Content-Security-Policy holds in a real browser: no page, htmx swap or stepper breaks it.

Headless Chromium reports every refused inline script, style or handler on the console and
as a `securitypolicyviolation` event; both are collected on every page of the walk.
"""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' +
                    (e.sourceFile || '') + ':' + e.lineNumber);
});
"""


def tap(page, name: str, value) -> None:
    page.click(f"label.choice:has(input[name='{name}'][value='{value}'])")


@pytest.fixture
def csp_page(phone):
    console: list[str] = []
    phone.on(
        "console",
        lambda msg: console.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    phone.add_init_script(LISTEN)
    phone.csp_console = console

    def violations() -> list[str]:
        events = phone.evaluate("window.__csp || []")
        return console + events

    phone.violations = violations
    return phone


def visit(page, path: str) -> None:
    page.goto(page.base_url + path)
    page.wait_for_load_state("load")


def assert_clean(page) -> None:
    assert page.violations() == [], page.url


def test_the_policy_header_is_strict(client):
    header = client.get("/").headers["Content-Security-Policy"]
    directives = dict((d.strip().split(" ", 1) + [""])[:2] for d in header.split(";") if d.strip())
    assert directives["default-src"] == "'self'"
    for name in ("script-src", "style-src"):
        assert "'unsafe-inline'" not in directives.get(name, directives["default-src"])
        assert "'unsafe-eval'" not in directives.get(name, directives["default-src"])
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"


def test_no_page_breaks_the_policy(csp_page, live_server, director, member, make_players):
    from tarotclub.games.services import game_start
    from tarotclub.tournaments import services as tournaments

    page = csp_page
    four = make_players("Anne", "Bram", "Chloé", "Dirk")
    a, b, c, d = four
    keys = game_start(players=[a, b, c], kind="keys", first_dealer=0, created_by=member)
    t = tournaments.tournament_create(
        name="Open", date=dt.date.today(), place="Salle", rounds=2, deals_per_round=2
    )
    for p in [*four, *make_players("Eva", "Fien", "Gilles", "Hanna")]:
        tournaments.entry_register(tournament=t, player=p)
    tournaments.tournament_start(tournament=t)

    visit(page, "/")
    visit(page, "/tournaments/")
    visit(page, f"/tournaments/{t.pk}/")
    # "Where do I sit?": an htmx search as one types
    visit(page, f"/tournaments/{t.pk}/where/")
    page.fill("main input[name=q]", "Anne")
    page.wait_for_timeout(800)
    assert_clean(page)

    # log in (the director) through the page itself
    visit(page, "/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw-director-1")
    page.click("button.primary")
    page.wait_for_url(page.base_url + "/")
    for path in (
        "/games/",
        "/players/",
        "/games/new/",
        "/variants/standings/",
        f"/tournaments/{t.pk}/manage/",
        f"/tournaments/{t.pk}/projector/",
        "/admin/",
        "/admin/auth/user/",
    ):
        visit(page, path)
        assert_clean(page)

    # start a French Tarot game and enter a deal, watching the live preview (htmx)
    visit(page, "/games/new/")
    for i, p in enumerate(four, start=1):
        page.select_option(f"#seat{i}", str(p.pk))
    page.click("button[name=start]")
    page.wait_for_url("**/t/*/")
    sheet = page.url
    page.click("details.share summary")
    page.click("details.share input")  # the share link is selected in one tap
    assert_clean(page)
    assert page.evaluate(
        "(() => { const i = document.querySelector('details.share input');"
        " return i.selectionStart === 0 && i.selectionEnd === i.value.length; })()"
    )
    page.click(".sticky-actions a")
    tap(page, "taker", a.pk)
    tap(page, "contract", "garde")
    tap(page, "bouts", 2)
    tap(page, "points_side", "attack")
    page.fill("#id_points", "49")
    expect(page.locator("#preview")).to_contain_text("won by")
    page.click("button[name=save]")
    page.wait_for_url(sheet)
    assert "1 deal" in page.inner_text(".zero-sum")
    assert_clean(page)

    # another game's entry screen: the Keys, with its steppers
    visit(page, f"/v/{keys.token}/")
    page.click("details.share summary")
    page.click("details.share input")
    visit(page, f"/v/{keys.token}/r/new/")
    stepper = f"[data-stepper]:has(input[name=keys_{b.pk}])"
    page.click(f"{stepper} button[data-step='1']")
    page.click(f"{stepper} button[data-step='1']")
    assert page.input_value(f"input[name=keys_{b.pk}]") == "2"
    # the winner holds no keys to count: their stepper hides (a stylesheet rule, not inline)
    assert page.is_visible(f".keys-{a.pk}")
    tap(page, "winner", a.pk)
    expect(page.locator(f".keys-{a.pk}")).to_be_hidden()
    assert page.is_visible(f".keys-{b.pk}")
    tap(page, "winner", c.pk)
    expect(page.locator(f".keys-{c.pk}")).to_be_hidden()
    assert page.is_visible(f".keys-{a.pk}")
    page.wait_for_timeout(600)  # the htmx preview after the taps
    assert_clean(page)

    # no indicator <style> injected by htmx, no inline style anywhere
    assert page.evaluate("document.querySelectorAll('style, [style]').length") == 0
    assert_clean(page)


def test_the_policy_would_be_reported(csp_page, live_server):
    """The listener itself works: an inline script injected into a page is reported."""
    page = csp_page
    visit(page, "/")
    page.evaluate(
        "(() => { const s = document.createElement('script');"
        " s.textContent = 'window.__ran = 1'; document.body.appendChild(s); })()"
    )
    page.wait_for_timeout(300)
    assert page.evaluate("window.__ran") is None
    assert any("script-src" in v for v in page.violations())
