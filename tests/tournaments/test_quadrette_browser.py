"""A quadrette session (4 teams, 2 rounds) on a 360 px phone, from the registration of the
teams to the results: the director creates it, registers the teams, starts it; one table
enters its boards on the deal screen (the visiting attacker and garde imposed); the director
follows the missing boards; the public results page ranks by match points. Each page is
measured (no sideways scroll, tap targets, minus signs, axe)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tarotclub.tournaments import quadrette, services
from tarotclub.tournaments.models import Entry, Table, Tournament
from tests.browser.pagecheck import check_page

from .quadrette_helpers import enter_board, garde_for
from .test_triplette_browser import WIDTH, fits, login, shot, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAMS = [
    ("Les Excuses", ["Anne Dupont", "Bruno Martin", "Claire Peeters", "Didier Maes"]),
    ("Petit au bout", ["Élodie Claes", "Henri Faure", "Inès Lambert", "Wim Bakker"]),
    ("Les Gardes", ["Lucas Moreau", "Sofie Jacobs", "Noël Girard", "Zoé Bonnet"]),
    ("Les Poignées", ["Jan de Vries", "Marie Lefèvre", "Pieter Smit", "Rose Vidal"]),
]


def checked(page) -> None:
    fits(page)
    found = check_page(page)
    assert not any(found.values()), {k: v for k, v in found.items() if v}


def test_a_quadrette_session_on_a_phone(phone, live_server, director, artifacts):
    page = phone
    page.set_viewport_size({"width": WIDTH, "height": 780})
    url = live_server.url
    login(page, url)

    page.goto(url + "/tournaments/new/")
    page.fill("#id_name", "Quadrettes du jeudi")
    page.select_option("#id_format", "quadrette")
    page.fill("#id_rounds", "2")
    page.fill("#id_deals_per_round", "4")
    page.click("button.primary")
    page.wait_for_url("**/quadrettes/")
    t = Tournament.objects.get()
    assert t.quadrette

    for name, (attacker, north, east, west) in TEAMS:
        page.fill("#id_team", name)
        page.fill("#id_attacker", attacker)
        page.fill("#id_north", north)
        page.fill("#id_east", east)
        page.fill("#id_west", west)
        page.click("#register button.primary")
        page.wait_for_load_state()
    assert page.locator(".quadrette").count() == 4
    assert "Anne Dupont" in page.inner_text("#teams")
    checked(page)
    shot(page, artifacts, "quadrette-teams.png")
    page.click("form[action$='/start/'] button")
    page.wait_for_load_state()
    t.refresh_from_db()
    assert t.status == "running" and t.table_count == 4

    attackers = {e.player_id for e in Entry.objects.filter(tournament=t, orientation="S")}
    names = {e.player_id: e.player for e in Entry.objects.select_related("player")}
    for rnd in (1, 2):
        tables = list(Table.objects.filter(tournament=t, round=rnd).select_related("game"))
        phone_table, others = tables[0], tables[1:]
        for table in others:
            for i, _board in enumerate(table.game.options["boards"], start=1):
                enter_board(table, i, 50 + 2 * (table.number + i + rnd))
        if rnd == 1:
            page.goto(f"{url}/tournaments/{t.pk}/quadrettes/boards/")
            assert page.locator(".opposition").count() == 2
            assert "missing: 1, 2, 3, 4" in page.inner_text("#table-1")
            checked(page)
            shot(page, artifacts, "quadrette-boards.png")
        game = phone_table.game
        for i, board in enumerate(game.options["boards"], start=1):
            taker = game.options["imposed"][i - 1][0]
            assert taker in attackers
            page.goto(f"{url}/t/{game.token}/")
            page.click(".sticky-actions a")
            expect(page.locator("input[name=taker]")).to_have_count(1)  # the entry page is in
            main = page.inner_text("main")
            assert f"Board {board}" in main and names[taker].short_name in main
            tap(page, "taker", taker)
            tap(page, "contract", "garde")
            deal = garde_for(-56 if i == 2 else 60)
            tap(page, "bouts", deal["bouts"])
            page.fill("#id_points", str(deal["points"]))
            page.wait_for_selector("#preview-detail:has-text('per defender')")
            fits(page)
            if rnd == 1 and i == 1:
                shot(page, artifacts, "quadrette-deal.png")
            page.click("button[name=save]")
            page.wait_for_url(f"**/t/{game.token}/")
        for table in tables:
            services.table_confirm(table=table)
        page.goto(f"{url}/tournaments/{t.pk}/next/")
        page.click("form.actions button[type=submit]")
        page.wait_for_url(f"**/tournaments/{t.pk}/manage/")
        t.refresh_from_db()
    assert t.status == "finished"

    page.goto(f"{url}/tournaments/{t.pk}/quadrettes/boards/?round=2")
    assert page.locator(".badge.good").count() == 4
    page.goto(f"{url}/tournaments/{t.pk}/")
    ranking = page.locator("#ranking tbody tr")
    assert ranking.count() == 4
    g = quadrette.graded(t)
    best = g.ranking()[0]
    assert best["name"] in ranking.first.inner_text()
    assert sum(g.totals.values()) == Decimal(0)
    page.click(f"#team-{best['number']} summary")
    assert page.locator(f"#team-{best['number']} tbody tr").count() == 8
    checked(page)
    shot(page, artifacts, "quadrette-results.png")
