"""A 3-table duplicate session on a 360 px phone, from the boards to the alternating ranking:
the director creates it and starts it; a table enters its boards on the deal screen (taker and
garde imposed) and reads the travelling slip; the director follows the guide cards, the grading
and the rankings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from conftest import scroll_width
from tarotclub.players.models import Player
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.models import Table, Tournament

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


def test_a_three_table_duplicate_session_on_a_phone(phone, live_server, director, artifacts):
    page = phone
    page.set_viewport_size({"width": WIDTH, "height": 780})
    url = live_server.url
    login(page, url)

    # the director creates the tournament: 3 tables, 3 rounds, 4 boards a round
    page.goto(url + "/tournaments/new/")
    page.fill("#id_name", "Duplicate du mardi")
    page.select_option("#id_format", "duplicate")
    page.fill("#id_tables", "3")
    page.fill("#id_rounds", "3")
    page.fill("#id_deals_per_round", "4")
    page.click("button.primary")
    page.wait_for_url("**/manage/")
    t = Tournament.objects.get()
    assert t.duplicate
    for i in range(12):
        services.entry_register(tournament=t, player=Player.objects.create(name=f"Joueur {i:02d}"))
    page.goto(f"{url}/tournaments/{t.pk}/manage/")
    page.click("form[action$='/start/'] button")
    page.wait_for_url(f"**/tournaments/{t.pk}/manage/")
    t.refresh_from_db()
    assert t.status == "running"

    # the guide cards of round 1
    page.click("text=Boards and guide cards")
    expect(page.locator(".guide-card")).to_have_count(3)
    fits(page)
    page.screenshot(path=str(artifacts / "duplicate-guide.png"), full_page=True)

    g = duplicate.graded(t)
    for rnd in (1, 2, 3):
        tables = list(Table.objects.filter(tournament=t, round=rnd).select_related("game"))
        phone_table, others = tables[0], tables[1:]
        # the other tables enter their boards (their phones), each a different score
        for table in others:
            for i, _board in enumerate(table.game.options["boards"], start=1):
                enter_board(table, i, 50 + 2 * (table.number + i + rnd))
        # table 1 enters its boards on this phone: the taker and garde are imposed
        game = phone_table.game
        for i, board in enumerate(game.options["boards"], start=1):
            page.goto(f"{url}/t/{game.token}/")
            page.click(".sticky-actions a")
            expect(page.locator("main")).to_contain_text(f"Board {board}")
            assert page.locator("input[name=taker]").count() == 1
            assert page.locator("input[name=contract]").count() == 1
            tap(page, "taker", game.options["imposed"][i - 1][0])
            tap(page, "contract", "garde")
            deal = deal_for_score(-56 if i == 2 else 60)
            tap(page, "bouts", deal["bouts"])
            page.fill("#id_points", str(deal["points"]))
            page.wait_for_selector("#preview-detail:has-text('per defender')")
            fits(page)
            if rnd == 1 and i == 1:
                page.screenshot(path=str(artifacts / "duplicate-deal.png"), full_page=True)
            page.click("button[name=save]")
            page.wait_for_url(f"**/t/{game.token}/")
        # the slip of its first board shows every score recorded for that board so far
        board = game.options["boards"][0]
        page.click(f"a[href$='/board/{board}/']")
        expect(page.locator("main")).to_contain_text("Travelling slip")
        expect(page.locator(".slip tbody tr")).to_have_count(rnd)
        fits(page)
        if rnd == 3:
            page.screenshot(path=str(artifacts / "duplicate-slip.png"), full_page=True)
        for table in tables:
            services.table_confirm(table=table)
        page.goto(f"{url}/tournaments/{t.pk}/next/")
        page.click("form.actions button[type=submit]")
        page.wait_for_url(f"**/tournaments/{t.pk}/manage/")
        t.refresh_from_db()
    assert t.status == "finished"

    # the grading of every board, then the rankings
    page.goto(f"{url}/tournaments/{t.pk}/duplicate/grading/")
    assert page.locator(".grading-sheet").count() == 12
    assert page.locator(".grading-sheet tbody tr").count() == 36
    fits(page)
    page.screenshot(path=str(artifacts / "duplicate-grading.png"), full_page=False)
    page.goto(f"{url}/tournaments/{t.pk}/")
    counts = page.locator(".ranking.counts")
    assert counts.count() == 1 and "Alternating ranking" in counts.inner_text()
    assert counts.locator("tbody tr").count() == 12
    g = duplicate.graded(t)
    first = g.session.alternating[0]
    assert g.name(first) in counts.locator("tbody tr").first.inner_text()
    fits(page)
    page.screenshot(path=str(artifacts / "duplicate-rankings.png"), full_page=True)
    counts.locator("tbody tr a").first.click()
    expect(page.locator("h2")).to_contain_text("Record of")
    fits(page)
    page.screenshot(path=str(artifacts / "duplicate-record.png"), full_page=True)
