"""The room's Wi-Fi drops (issue 15): Chromium with Playwright's offline mode, at 360 px in
French. The service worker keeps the table's pages, the phone's queue keeps the deals, and
the server saves each one once, in order, with its own scores."""

from __future__ import annotations

import os
import time

import pytest
from django.utils import translation
from django.utils.translation import ngettext

from tarotclub.games.kinds import DEAL_WORDS
from tarotclub.games.models import RefusedEntry
from tarotclub.games.policy import ERR_LOCKED
from tarotclub.games.services import game_set_locked, game_start
from tarotclub.kinds.tarot.models import Deal
from tarotclub.kinds.tarot.services import dealer_for
from tests import browsing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 740}
SHOTS = os.environ.get("OFFLINE_SHOTS", "")  # a folder for screenshots, when asked


@pytest.fixture(autouse=True)
def _phones_closed(browser):
    """Chromium lives for the whole module: close the phones each test opened."""
    yield
    for context in browser.contexts:
        context.close()


def new_phone(browser, live_server):
    """A phone of its own (its own service worker, IndexedDB and cookies), in French."""
    page = browsing.new_phone(
        browser, live_server.url, viewport=NARROW, locale="fr-FR", timeout=15_000
    )
    page.context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    return page


def shot(page, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def open_table(page, live_server, game):
    """The sheet and the entry screen opened once online, with the service worker in
    charge: both are then kept for when the connection is gone."""
    sheet = f"{live_server.url}/t/{game.token}/"
    page.goto(sheet)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now through the worker, which keeps it
    # (polled from here: the page's CSP forbids the evaluated predicates of wait_for_function)
    assert wait_for(lambda: page.evaluate("navigator.serviceWorker.controller !== null"))
    page.goto(sheet + "deal/")
    page.goto(sheet)
    page.wait_for_selector("#offline-box:not([hidden])")
    return sheet


def enter_deal(page, sheet, taker, *, contract="garde", points="49"):
    page.goto(sheet + "deal/")
    for name, value in (
        ("taker", taker.pk),
        ("contract", contract),
        ("bouts", "2"),
        ("points_side", "attack"),
    ):
        page.click(f"label.choice:has(input[name='{name}'][value='{value}'])")
    page.fill("input[name=points]", points)
    page.click("button[name=save]")
    page.wait_for_url(sheet)
    page.wait_for_selector("#offline-box:not([hidden])")


def wait_for(check, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.2)
    return check()


def takers(game, count):
    """A player who is not the dealer, for each of the first `count` deals."""
    from tarotclub.games.selectors import seat_players

    players = seat_players(game)
    dealers = [dealer_for(game, n, players) for n in range(1, count + 1)]
    return [next(p for p in players if p != dealer) for dealer in dealers]


def test_three_deals_offline_arrive_once_in_order_with_the_servers_scores(
    browser, live_server, four, member
):
    game = game_start(players=four, created_by=member)
    page = new_phone(browser, live_server)
    sheet = open_table(page, live_server, game)
    page.context.set_offline(True)
    # the entry screen opens from the worker's cache; its preview waits for the connection
    # (or comes from the scoring script, when it is on the page)
    page.goto(sheet + "deal/")
    page.click("label.choice:has(input[name='contract'][value='garde'])")
    page.wait_for_selector("#preview .offline-note")  # worked out on the phone
    shot(page, "entry-offline")
    contracts = ["prise", "garde", "garde_sans"]
    for taker, contract in zip(takers(game, 3), contracts, strict=True):
        enter_deal(page, sheet, taker, contract=contract)
    rows = page.locator(".waiting-row")
    assert rows.count() == 3
    with translation.override("fr"):
        waiting = ngettext(
            "%(count)s entry is waiting to be sent.", "%(count)s entries are waiting to be sent.", 3
        ) % {"count": 3}
    assert waiting in page.locator("[data-offline-status]").inner_text()
    assert not Deal.objects.filter(game=game).exists()
    shot(page, "waiting-rows")
    page.reload()  # offline: the sheet and the queue are still there
    page.wait_for_selector("#offline-box:not([hidden])")
    assert page.locator(".waiting-row").count() == 3
    page.context.set_offline(False)
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 3)
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert [d.contract for d in deals] == contracts  # in order
    assert len({d.client_id for d in deals}) == 3 and None not in {d.client_id for d in deals}
    assert wait_for(lambda: page.locator(".waiting-row").count() == 0)
    page.wait_for_selector("table.sheet tbody tr:nth-child(3)")
    time.sleep(1)  # nothing is sent twice
    assert Deal.objects.filter(game=game).count() == 3
    shot(page, "synced")


def test_two_phones_offline_enter_the_same_deal_the_second_sees_the_conflict(
    browser, live_server, four, member
):
    game = game_start(players=four, created_by=member)
    (taker,) = takers(game, 1)
    first, second = new_phone(browser, live_server), new_phone(browser, live_server)
    sheet = open_table(first, live_server, game)
    open_table(second, live_server, game)
    first.context.set_offline(True)
    second.context.set_offline(True)
    enter_deal(first, sheet, taker, contract="garde")
    enter_deal(second, sheet, taker, contract="prise")
    first.context.set_offline(False)
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 1)
    second.context.set_offline(False)
    second.wait_for_selector(".conflict-row")
    text = second.locator(".conflict-row").inner_text()
    with translation.override("fr"):
        assert str(DEAL_WORDS.entry % {"n": 1}) in text
    theirs = second.locator(".conflict-version.theirs").inner_text()
    mine = second.locator(".conflict-version.mine").inner_text()
    assert "garde" in theirs and "prise" in mine  # both versions
    assert Deal.objects.filter(game=game).count() == 1  # nothing saved twice
    shot(second, "conflict")
    second.click(".conflict-row button.primary")  # add mine as deal 2
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 2)
    assert list(
        Deal.objects.filter(game=game).order_by("number").values_list("contract", flat=True)
    ) == ["garde", "prise"]


def test_a_sheet_confirmed_while_offline_refuses_the_queued_deal_and_keeps_it(
    browser, live_server, four, member
):
    game = game_start(players=four, created_by=member)
    (taker,) = takers(game, 1)
    page = new_phone(browser, live_server)
    sheet = open_table(page, live_server, game)
    page.context.set_offline(True)
    enter_deal(page, sheet, taker)
    game_set_locked(game=game, locked=True)  # the director confirms it meanwhile
    page.context.set_offline(False)
    page.wait_for_selector(".offline-notice")
    notice = page.locator(".offline-notice").inner_text()
    with translation.override("fr"):
        assert str(ERR_LOCKED) in notice  # the reason, in the phone's language
    assert not Deal.objects.filter(game=game).exists()
    kept = RefusedEntry.objects.get(game=game)
    assert kept.number == 1 and kept.outcome == ""
    assert page.locator(".waiting-row").count() == 0
    shot(page, "refused")


def test_a_tournament_tables_link_queues_and_the_director_finds_the_refused_deal(
    browser, live_server, director
):
    from tarotclub.demo.builders import make_tournament, play_table
    from tarotclub.tournaments import services as tournaments
    from tarotclub.tournaments.models import Table

    t, _players = make_tournament(8, rounds=2, deals=2)
    t = tournaments.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t, round=1).order_by("number").first()
    game = table.game
    (taker,) = takers(game, 1)
    page = new_phone(browser, live_server)
    sheet = open_table(page, live_server, game)
    page.context.set_offline(True)
    enter_deal(page, sheet, taker, contract="garde_sans")
    assert page.locator(".waiting-row").count() == 1
    play_table(table)  # the other phone enters both deals and the sheet is confirmed
    page.context.set_offline(False)
    page.wait_for_selector(".offline-notice")
    assert Deal.objects.filter(game=game).count() == 2  # the queued deal made no third one
    kept = RefusedEntry.objects.get(game=game)
    assert kept.number == 1 and "garde sans" in kept.text.lower()
    # the director's page lists it; the table's sheet adds it or discards it
    desk = browsing.new_phone(browser, live_server.url, viewport=NARROW, locale="fr-FR")
    browsing.log_in(desk, director.username, "pw-director-1")
    desk.goto(f"{live_server.url}/tournaments/{t.pk}/manage/")
    desk.click("#kept a.button")
    desk.wait_for_selector(".kept-entries")
    shot(desk, "kept-for-director")
    desk.click(".kept-item a.button")  # discard, asked first
    desk.click("button.danger")
    kept.refresh_from_db()
    assert kept.outcome == RefusedEntry.Outcome.DISCARDED
