"""A 2-table triplette session (4 teams) on a 360 px phone, from the registration of the
teams to the ranking: the director creates it, registers the teams, starts it; a table enters
its boards on the deal screen (the attacking team's attacker and garde imposed); the director
follows the guide cards, the grading and the rankings."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from conftest import scroll_width
from tarotclub.tournaments import services, triplette
from tarotclub.tournaments.models import Entry, Table, Tournament

from .duplicate_helpers import deal_for_score, enter_board

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH = 360


def login(page, url):
    page.goto(url + "/login/")
    page.fill("#id_username", "director")
    page.fill("#id_password", "pw-director-1")
    page.click("button.primary")
    page.wait_for_load_state()


def tap(page, name, value):
    page.click(f"label.choice:has(input[name='{name}'][value='{value}'])")


def fits(page) -> None:
    assert scroll_width(page) <= WIDTH, page.url


def shot(page, artifacts: Path, name: str, *, full_page=True):
    page.screenshot(path=str(artifacts / name), full_page=full_page)


TEAMS = [
    ("Les Rois", ["Paul Dupont", "Anne Martin", "Léa Roux"]),
    ("Les Dames", ["Marc Bernard", "Julie Petit", "Yves Moreau"]),
    ("Les Valets", ["Hugo Faure", "Inès Girard", "Noé Lambert"]),
    ("Les Cavaliers", ["Eva Caron", "Luc Mercier", "Zoé Vidal"]),
]


def test_a_two_table_triplette_session_on_a_phone(phone, live_server, director, artifacts):
    page = phone
    page.set_viewport_size({"width": WIDTH, "height": 780})
    url = live_server.url
    login(page, url)

    page.goto(url + "/tournaments/new/")
    page.fill("#id_name", "Triplettes du jeudi")
    page.select_option("#id_format", "triplette")
    page.fill("#id_rounds", "2")
    page.fill("#id_deals_per_round", "4")
    page.click("button.primary")
    page.wait_for_url("**/triplettes/")
    t = Tournament.objects.get()
    assert t.triplette

    # the four teams through the form, the line left to the site (balanced)
    for name, members in TEAMS:
        page.fill("#id_team", name)
        for i, member in enumerate(members, start=1):
            page.fill(f"#id_player_{i}", member)
        page.click("#register button.primary")
        page.wait_for_load_state()
    assert page.locator(".triplette").count() == 4
    assert "Paul Dupont" in page.inner_text("#teams")
    fits(page)
    shot(page, artifacts, "triplette-teams.png")
    page.click("form[action$='/start/'] button")
    page.wait_for_load_state()
    t.refresh_from_db()
    assert t.status == "running" and t.table_count == 2

    page.goto(f"{url}/tournaments/{t.pk}/triplettes/boards/")
    assert page.locator(".guide-card").count() == 2
    fits(page)
    shot(page, artifacts, "triplette-guide.png")

    names = {e.player_id: e.player for e in Entry.objects.select_related("player")}
    for rnd in (1, 2):
        tables = list(Table.objects.filter(tournament=t, round=rnd).select_related("game"))
        phone_table, others = tables[0], tables[1:]
        for table in others:
            for i, _board in enumerate(table.game.options["boards"], start=1):
                enter_board(table, i, 50 + 2 * (table.number + i + rnd))
        game = phone_table.game
        for i, board in enumerate(game.options["boards"], start=1):
            taker = game.options["imposed"][i - 1][0]
            page.goto(f"{url}/t/{game.token}/")
            page.click(".sticky-actions a")
            expect(page.locator("input[name=taker]")).to_have_count(1)  # the entry page is in
            main = page.inner_text("main")
            assert f"Board {board}" in main and names[taker].short_name in main
            tap(page, "taker", taker)
            tap(page, "contract", "garde")
            deal = deal_for_score(-56 if i == 2 else 60)
            tap(page, "bouts", deal["bouts"])
            page.fill("#id_points", str(deal["points"]))
            page.wait_for_selector("#preview-detail:has-text('per defender')")
            fits(page)
            if rnd == 1 and i == 1:
                shot(page, artifacts, "triplette-deal.png")
            page.click("button[name=save]")
            page.wait_for_url(f"**/t/{game.token}/")
        if rnd == 1:
            fits(page)
            shot(page, artifacts, "triplette-sheet.png")
        for table in tables:
            services.table_confirm(table=table)
        page.goto(f"{url}/tournaments/{t.pk}/next/")
        page.click("form.actions button[type=submit]")
        page.wait_for_url(f"**/tournaments/{t.pk}/manage/")
        t.refresh_from_db()
    assert t.status == "finished"

    page.goto(f"{url}/tournaments/{t.pk}/triplettes/grading/")
    assert page.locator(".grading-sheet").count() == 8
    assert page.locator(".grading-sheet tbody tr").count() == 16
    fits(page)
    shot(page, artifacts, "triplette-grading.png", full_page=False)
    page.goto(f"{url}/tournaments/{t.pk}/")
    counts = page.locator(".ranking.counts")
    assert counts.count() == 1 and "Alternating ranking" in counts.inner_text()
    assert counts.locator("tbody tr").count() == 4
    g = triplette.graded(t)
    first = g.results.alternating[0]
    assert g.name(first) in counts.locator("tbody tr").first.inner_text()
    fits(page)
    shot(page, artifacts, "triplette-rankings.png")
