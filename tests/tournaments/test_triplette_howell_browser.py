"""A Howell triplette session (8 teams, 4 tables) on a 360 px phone, from the choice of the
movement to the rankings: the director taps Howell on the teams page, starts, follows the guide
cards (both teams move, lines change), the boards are entered, and the rankings show."""

from __future__ import annotations

import pytest

from tarotclub.tournaments import triplette
from tarotclub.tournaments.models import Tournament

from .test_triplette_browser import WIDTH, fits, login, shot, tap
from .triplette_helpers import make_triplette, play_triplette_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_howell_triplette_session_on_a_phone(phone, live_server, director, artifacts):
    page = phone
    page.set_viewport_size({"width": WIDTH, "height": 780})
    url = live_server.url
    t, _teams = make_triplette(8, rounds=3)
    login(page, url)

    page.goto(f"{url}/tournaments/{t.pk}/triplettes/")
    box = page.locator("#movement label.choice").nth(1).bounding_box()
    assert box["height"] >= 44
    tap(page, "movement", "howell")
    page.click("#movement button[type=submit]")
    page.wait_for_load_state()
    assert "The movement is now Howell." in page.inner_text(".messages")
    t.refresh_from_db()
    assert t.triplette_movement == "howell"
    fits(page)
    page.locator("#movement").scroll_into_view_if_needed()
    shot(page, artifacts, "triplette-howell-choice.png")

    page.click("form[action$='/start/'] button")
    page.wait_for_load_state()
    t.refresh_from_db()
    assert t.status == "running" and t.movement["kind"] == "howell"

    page.goto(f"{url}/tournaments/{t.pk}/triplettes/boards/?round=2")
    assert page.locator(".guide-card").count() == 4
    assert "both teams move" in page.inner_text("main")
    fits(page)
    shot(page, artifacts, "triplette-howell-guide.png")

    for _rnd in (1, 2, 3):
        play_triplette_round(t, lambda b, r, table: 50 + 2 * ((b * 5 + r * 3 + table) % 11))
        page.goto(f"{url}/tournaments/{t.pk}/next/")
        page.click("form.actions button[type=submit]")
        page.wait_for_url(f"**/tournaments/{t.pk}/manage/")
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == "finished"

    page.goto(f"{url}/tournaments/{t.pk}/triplettes/")
    link = page.locator("a[href$='/triplettes/cards.pdf']")
    assert link.count() == 1
    assert "Movement: Howell" in page.inner_text("#movement")
    fits(page)
    page.locator("#movement").scroll_into_view_if_needed()
    shot(page, artifacts, "triplette-howell-started.png", full_page=False)
    response = page.request.get(url + link.get_attribute("href"))
    assert response.status == 200 and response.body().startswith(b"%PDF")

    page.goto(f"{url}/tournaments/{t.pk}/triplettes/grading/")
    # 7 sets of 4 boards; 3 rounds of 4 tables played 48 board plays
    assert page.locator(".grading-sheet").count() == 28
    assert page.locator(".grading-sheet tbody tr").count() == 48
    fits(page)

    page.goto(f"{url}/tournaments/{t.pk}/")
    counts = page.locator(".ranking.counts")
    assert counts.count() == 1 and "Alternating ranking" in counts.inner_text()
    assert counts.locator("tbody tr").count() == 8
    g = triplette.graded(t)
    assert g.name(g.results.alternating[0]) in counts.locator("tbody tr").first.inner_text()
    fits(page)
    shot(page, artifacts, "triplette-howell-rankings.png")
