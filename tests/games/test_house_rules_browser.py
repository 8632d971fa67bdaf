"""House rules on a phone (issue 14): the game's page to choose them, the deal screen with its
misères, the sheet's line; nothing wider than the phone."""

from __future__ import annotations

import pytest

from conftest import PHONE, scroll_width

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_house_rules_on_a_phone(phone, live_server, member, four, artifacts):
    page = phone
    page.goto(live_server.url + "/login/")
    page.fill("#id_username", "member")
    page.fill("#id_password", "pw-member-1")
    page.click("button.primary")
    page.goto(live_server.url + "/games/new/")
    for i, p in enumerate(four, start=1):
        page.select_option(f"#seat{i}", str(p.pk))
    page.click("button[name=start]")
    page.wait_for_url("**/t/*/")
    sheet = page.url
    page.click("text=House rules")
    page.wait_for_url("**/house-rules/")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=str(artifacts / "house-rules-game.png"), full_page=True)
    page.check("#id_misere_tete", force=True)
    page.check("#id_misere_atout", force=True)
    page.fill("#id_poignee_simple", "25")
    page.click("button.primary")
    page.wait_for_url(sheet)
    assert "House rules: misère de tête and misère d'atout" in page.inner_text(".house-rules")
    page.goto(sheet + "deal/")
    page.click("#misere-panel summary")
    assert page.locator(f"input[name=misere_{four[1].pk}]").count() == 4
    assert "worth 25 · 30 · 40" in page.inner_text("body")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=str(artifacts / "house-rules-deal.png"), full_page=True)
