"""A substitute on a 360 px phone: the director taps "Replace" by a seated player, fills the
form, and the table's phone and the rankings show the substitute; each page fits, with no
small tap target and no serious axe violation (tests/browser/pagecheck.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.players.models import Player
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.models import Entry, Table
from tests.browser.pagecheck import check_page

from .duplicate_helpers import make_duplicate, play_duplicate_round
from .test_duplicate_browser import WIDTH, fits, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def clean(page) -> None:
    found = check_page(page)
    assert {k: v for k, v in found.items() if v} == {}, page.url


def test_the_director_seats_a_substitute_on_a_phone(phone, live_server, director, artifacts):
    page = phone
    page.set_viewport_size({"width": WIDTH, "height": 780})
    url = live_server.url
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    play_duplicate_round(t)
    services.tournament_next_round(tournament=t)
    Player.objects.create(name="Zoé Remplaçante")
    gone = Entry.objects.select_related("player").get(tournament=t, orientation="W", start_table=1)
    login(page, url)

    manage = reverse("tournaments:manage", args=[t.pk])
    page.goto(f"{url}{manage}")
    page.click(f"a[href$='/duplicate/substitute/{gone.pk}/']")
    page.wait_for_url(f"**/duplicate/substitute/{gone.pk}/")
    fits(page)
    clean(page)
    page.select_option("select[name='player']", label="Zoé Remplaçante")
    page.fill("input[name='from_round']", "2")
    page.screenshot(path=str(artifacts / "substitute-form.png"), full_page=True)
    page.click("button.primary")
    page.wait_for_url(f"**{manage}")
    body = page.inner_text("body")
    assert f"Zoé Remplaçante plays in the seat of {gone.player.name} (W1) from round 2." in body
    assert "substitute in W1" in body
    fits(page)
    page.screenshot(path=str(artifacts / "substitute-manage.png"), full_page=True)

    # the seat's table in round 2 shows the substitute on its phone
    m = duplicate.stored_movement(t)
    number = next(s.table for s in m.seating(2) if s.seats["W"] == ("W", 1))
    table = Table.objects.select_related("game").get(tournament=t, round=2, number=number)
    page.goto(f"{url}/t/{table.game.token}/")
    text = page.inner_text("body")
    # the sheet's columns give first names
    assert "Zoé" in text and gone.player.name not in text
    fits(page)
    page.screenshot(path=str(artifacts / "substitute-table.png"), full_page=True)

    play_duplicate_round(t)
    page.goto(url + reverse("tournaments:standings", args=[t.pk]))
    text = page.inner_text("body")
    assert "Zoé Remplaçante *" in text and "substitute from round 2" in text
    assert "played round 1" in text
    page.screenshot(path=str(artifacts / "substitute-rankings.png"), full_page=True)
    fits(page)
    clean(page)
