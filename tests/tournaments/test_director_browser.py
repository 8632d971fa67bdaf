"""The director's evening in a phone's browser: the page refreshes its round by itself (htmx),
earlier rounds stay a tap away, a list of players is registered in bulk after a check, and
withdrawing, finishing and reopening each ask first."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tarotclub.players.models import Player
from tarotclub.players.services import player_create
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Status, Table
from tests.browsing import log_in

from .helpers import make_tournament, play_round, play_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_round_refreshes_itself_and_every_round_is_reachable(phone, live_server, director):
    page = phone
    t, _ = make_tournament(8, rounds=3, deals=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    log_in(page, "director", "pw-director-1", live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/manage/")
    section = page.locator("#round-tables")
    expect(section.locator(".badge.good")).to_have_count(0)
    # a table confirms on its phone; the director's page shows it without a reload
    table = Table.objects.filter(tournament=t, round=2).order_by("number").first()
    play_table(table)
    page.evaluate("window.__not_reloaded = true")
    expect(section.locator(".badge.good")).to_have_count(1, timeout=25_000)
    assert page.evaluate("window.__not_reloaded === true")  # swapped in place
    # round 1's tables, one tap away
    page.click("nav.round-filter >> text=Round 1")
    first = Table.objects.get(tournament=t, round=1, number=1)
    expect(page.locator(f"a[href='/t/{first.game.token}/']").first).to_be_visible()


def test_bulk_registration_checks_then_registers(phone, live_server, director, artifacts):
    page = phone
    t, players = make_tournament(4, rounds=2, deals=1)
    player_create(name="Anne Martin", licence="111")
    log_in(page, "director", "pw-director-1", live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/manage/")
    page.click("text=Register a list of players")
    page.fill("textarea[name=names]", f"anne martin\n{players[0].name}\nNew Guest;4242")
    page.click("button[name=preview]")
    preview = page.locator(".bulk-preview")
    expect(preview).to_contain_text("2 players will be registered")
    expect(preview).to_contain_text("New Guest")
    expect(preview).to_contain_text(players[0].name)
    page.screenshot(path=str(artifacts / "bulk-preview-phone.png"), full_page=True)
    assert t.entries.count() == 4
    page.click("button[name=confirm]")
    expect(page.locator(".messages")).to_contain_text("2 players registered")
    assert t.entries.count() == 6
    assert Player.objects.get(name="New Guest").guest
    # a bad line: listed, nothing registered
    page.click("text=Register a list of players")
    page.fill("textarea[name=names]", "Bram;not a licence!\nChloé")
    page.click("button[name=preview]")
    expect(page.locator(".errors")).to_contain_text("Line 1")
    assert t.entries.count() == 6


def test_withdraw_finish_and_reopen_ask_first(phone, live_server, director):
    page = phone
    t, players = make_tournament(4, rounds=1, deals=1)
    extra = player_create(name="Late Leaver")
    services.entry_register(tournament=t, player=extra)
    log_in(page, "director", "pw-director-1", live_server.url)
    manage = f"{live_server.url}/tournaments/{t.pk}/manage/"
    page.goto(manage)
    page.locator("ul.entries li", has_text="Late Leaver").locator("text=remove").click()
    expect(page.locator("h1")).to_contain_text("Remove the registration?")
    assert t.entries.filter(player=extra).exists()
    page.click("text=Yes, remove")
    expect(page.locator(".messages")).to_contain_text("no longer registered")
    assert not t.entries.filter(player=extra).exists()
    t = services.tournament_start(tournament=t)
    play_round(t)
    page.goto(manage)
    page.click("text=Finish the tournament")
    expect(page.locator("h1")).to_contain_text("Finish the tournament?")
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    page.click("text=Yes, finish it")
    expect(page.locator(".messages")).to_contain_text("finished")
    page.click("text=Reopen the tournament")
    expect(page.locator("h1")).to_contain_text("Reopen the tournament?")
    page.click("text=Yes, reopen it")
    expect(page.locator(".messages")).to_contain_text("open again")
    t.refresh_from_db()
    assert t.status == Status.RUNNING
