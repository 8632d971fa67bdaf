"""The phone's queue when the server refuses an entry it kept offline (issue 15): a stale CSRF
token is renewed once, a refusal that stays is shown with what to do, an invalid entry is
reopened in the entry screen and corrected. Chromium through the `phone` fixture, at 360 px."""

from __future__ import annotations

import time

import pytest
from django.middleware.csrf import CsrfViewMiddleware, RejectRequest

from tarotclub.games.services import game_start
from tarotclub.kinds.tarot.models import Deal
from tests.games.test_offline_browser import enter_deal, open_table, shot, takers, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 740}


@pytest.fixture
def table(phone, live_server, four, member):
    """A new game's sheet, opened once online in the phone at 360 px (kept by its worker)."""
    phone.set_viewport_size(NARROW)
    game = game_start(players=four, created_by=member)
    return game, open_table(phone, live_server, game)


@pytest.fixture
def csrf_checks(monkeypatch):
    """How many POSTs the site's CSRF check saw; `refuse_all()` makes it refuse every one
    (a phone whose cookies are blocked)."""
    seen = {"count": 0, "refuse": False}
    check = CsrfViewMiddleware._check_token

    def counted(self, request):
        seen["count"] += 1
        if seen["refuse"]:
            raise RejectRequest("refused by the test")
        return check(self, request)

    monkeypatch.setattr(CsrfViewMiddleware, "_check_token", counted)
    return seen


def test_a_deal_queued_with_a_stale_csrf_token_is_sent_with_a_fresh_one(phone, table):
    game, sheet = table
    (taker,) = takers(game, 1)
    phone.context.set_offline(True)
    enter_deal(phone, sheet, taker, contract="garde")
    # a long time offline: the token the entry was made with no longer goes with the cookie
    phone.context.clear_cookies(name="csrftoken")
    phone.context.set_offline(False)
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 1)
    deal = Deal.objects.get(game=game)
    assert deal.contract == "garde" and deal.client_id is not None
    assert wait_for(lambda: phone.locator(".waiting-row").count() == 0)


def test_a_deal_the_site_keeps_refusing_is_tried_twice_then_kept_and_explained(
    phone, table, csrf_checks
):
    game, sheet = table
    (taker,) = takers(game, 1)
    phone.context.set_offline(True)
    enter_deal(phone, sheet, taker, contract="prise")
    csrf_checks["refuse"] = True
    phone.context.set_offline(False)
    phone.wait_for_selector(".forbidden-row")
    text = phone.locator(".forbidden-row").inner_text()
    assert "Deal 1 could not be sent" in text and "Send again" in text
    time.sleep(5)  # past the queue's back-off: nothing more is tried on its own
    assert csrf_checks["count"] == 2  # the first send and the one with a fresh token
    assert not Deal.objects.filter(game=game).exists()
    shot(phone, "forbidden")
    phone.reload()
    phone.wait_for_selector(".forbidden-row")  # kept on the phone
    # once the site accepts the phone again, "Send again" sends it
    csrf_checks["refuse"] = False
    phone.click(".forbidden-row button.primary")
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 1)
    assert Deal.objects.get(game=game).contract == "prise"


def test_a_refused_deal_is_discarded_only_when_the_player_says_so(phone, table, csrf_checks):
    game, sheet = table
    (taker,) = takers(game, 1)
    phone.context.set_offline(True)
    enter_deal(phone, sheet, taker)
    csrf_checks["refuse"] = True
    phone.context.set_offline(False)
    phone.wait_for_selector(".forbidden-row")
    phone.click(".forbidden-row button.danger")
    assert "Discard your entry for good?" in phone.locator(".forbidden-row").inner_text()
    phone.click(".forbidden-row button:has-text('Keep it')")
    phone.wait_for_selector(".forbidden-row button.primary")
    phone.click(".forbidden-row button.danger")
    phone.click(".forbidden-row button:has-text('Yes, discard it')")
    assert wait_for(lambda: phone.locator(".waiting-row").count() == 0)
    assert csrf_checks["count"] == 2 and not Deal.objects.filter(game=game).exists()


def test_an_invalid_queued_deal_is_reopened_with_its_values_and_the_servers_message(phone, table):
    game, sheet = table
    (taker,) = takers(game, 1)
    phone.context.set_offline(True)
    enter_deal(phone, sheet, taker, contract="garde_sans", points="")  # the points forgotten
    phone.context.set_offline(False)
    phone.wait_for_selector(".invalid-row a.button")
    row = phone.locator(".invalid-row")
    reason = phone.locator(".invalid-row .invalid-reasons p").first.inner_text()
    assert reason.strip()
    assert "Deal 1 was refused" in row.inner_text()
    shot(phone, "invalid-row")
    kept = phone.evaluate("TarotQueue.all().then(list => list.map(e => e.id))")
    assert len(kept) == 1
    phone.click(".invalid-row a.button")
    phone.wait_for_selector(".offline-fix")
    # its values, and the server's message by the field it is about
    assert phone.is_checked("input[name=contract][value=garde_sans]")
    assert phone.is_checked(f"input[name=taker][value='{taker.pk}']")
    assert phone.is_checked("input[name=bouts][value='2']")
    assert reason in phone.locator("#fs-points .field-error").inner_text()
    assert phone.input_value("input[name=client_id]") == kept[0]
    shot(phone, "invalid-reopened")
    phone.fill("input[name=points]", "56")
    phone.click("button[name=save]")
    phone.wait_for_url(sheet)
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 1)
    deal = Deal.objects.get(game=game)
    assert (deal.number, deal.contract, str(deal.client_id)) == (1, "garde_sans", kept[0])
    assert wait_for(lambda: phone.locator(".waiting-row").count() == 0)


def test_the_next_dealer_offline_counts_the_kept_deals_as_the_server_does(phone, table):
    from tarotclub.games.selectors import seat_players
    from tarotclub.kinds.tarot.services import dealer_for

    game, sheet = table
    hint = phone.locator(".next-dealer")
    assert hint.inner_text().startswith("Deal 1:")
    phone.context.set_offline(True)
    for taker in takers(game, 2):
        enter_deal(phone, sheet, taker)
    third = dealer_for(game, 3, seat_players(game))
    offline = hint.inner_text()
    assert offline == f"Deal 3: {third.label} deals."
    assert hint.locator("strong").inner_text() == third.label
    shot(phone, "next-dealer-offline")
    # the entry screen, from the phone's cache, is deal 3's, dealt by the third dealer
    phone.goto(sheet + "deal/")
    title = phone.locator("h1")
    assert wait_for(lambda: title.inner_text().startswith("Deal 3"))
    assert title.inner_text() == f"Deal 3 · {third.short_name} deals"
    phone.goto(sheet)
    phone.context.set_offline(False)
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 2)
    phone.wait_for_selector("table.sheet tbody tr:nth-child(2)")
    assert wait_for(lambda: phone.locator(".waiting-row").count() == 0)
    assert hint.inner_text() == offline  # the server's, once synced


def test_a_phone_back_after_ten_minutes_catches_up_with_one_request(
    phone, live_server, four, member
):
    """The other phones entered three deals while this one was offline for ten minutes (its
    clock run forward: every poll of those minutes failed). Back online, its next poll is one
    request, which brings all three deals; nothing else is asked."""
    from tarotclub.kinds.tarot import services as tarot

    phone.set_viewport_size(NARROW)
    game = game_start(players=four, created_by=member)
    phone.clock.install()
    sheet = f"{live_server.url}/t/{game.token}/"
    phone.goto(sheet)
    phone.wait_for_selector("#offline-box:not([hidden])")
    phone.context.set_offline(True)
    for taker in takers(game, 3):
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=taker.pk, contract="garde", bouts=2, points=49),
        )
    phone.clock.run_for("10:00")
    assert phone.locator("table.sheet tbody tr:nth-child(3)").count() == 0
    asked = []
    phone.on(
        "request",
        lambda request: asked.append(request.url)
        if request.url.startswith(live_server.url) and "/static/" not in request.url
        else None,
    )
    phone.context.set_offline(False)
    phone.clock.run_for(4_100)  # the next poll
    assert wait_for(lambda: phone.locator("table.sheet tbody tr:nth-child(3)").count() == 1)
    game.refresh_from_db()
    # the state the sheet then shows: its revision, 3 deals, undo and finish below it
    caught_up = f"{sheet}live/?rev={game.revision}&n=3&a=uf"
    # one request brought the three deals; a regular poll may follow it before we look (the
    # fake clock also runs in real time), and it says the phone is already up to date
    assert asked[0].startswith(sheet + "live/") and asked[0] != caught_up, asked
    assert all(url == caught_up for url in asked[1:]), asked
    totals = [
        int(t.replace("\u2212", "-")) for t in phone.locator(".total-card .value").all_inner_texts()
    ]
    assert sum(totals) == 0 and any(totals)
    shot(phone, "caught-up")
    # and the polls go on, each one cheap: the next one says the phone shows revision 3 with
    # 3 deals and its actions (the server answers it with a 204 and one query,
    # tests/games/test_poll.py)
    polled = len(asked)
    phone.clock.run_for(4_100)
    assert wait_for(lambda: len(asked) == polled + 1)
    assert asked[-1] == caught_up


def test_at_a_table_where_the_dealer_sits_out_the_kept_screen_seats_the_next_deals_players(
    phone, live_server, five, member
):
    from tarotclub.games.selectors import seat_players
    from tarotclub.kinds.tarot.services import active_players, dealer_for

    phone.set_viewport_size(NARROW)
    game = game_start(players=five, first_dealer=0, dealer_sits_out=True, created_by=member)
    sheet = open_table(phone, live_server, game)
    seated = seat_players(game)
    first, second = dealer_for(game, 1, seated), dealer_for(game, 2, seated)
    playing = [p.pk for p in active_players(game, second, seated)]
    phone.context.set_offline(True)
    enter_deal(phone, sheet, next(p for p in seated if p.pk not in (first.pk, second.pk)))
    phone.goto(sheet + "deal/")  # deal 1's screen, from the cache, made deal 2's
    title = phone.locator("h1")
    assert wait_for(lambda: title.inner_text() == f"Deal 2 · {second.short_name} deals")

    def seats():
        takers = phone.eval_on_selector_all("input[name=taker]", "l => l.map(i => +i.value)")
        labels = phone.locator("#fs-taker label.choice span").all_inner_texts()
        hands = phone.eval_on_selector_all(
            "input[name^=poignee_]", "l => [...new Set(l.map(i => i.name))]"
        )
        return takers, labels, hands

    assert wait_for(lambda: seats()[0] == playing)
    takers, labels, hands = seats()
    by_pk = {p.pk: p for p in seated}
    assert labels == [by_pk[pk].label for pk in playing]
    assert hands == [f"poignee_{pk}" for pk in playing]
    # deal 1's dealer takes deal 2 (a button the kept screen did not have)
    phone.click(f"label.choice:has(input[name='taker'][value='{first.pk}'])")
    for name, value in (("contract", "garde"), ("bouts", "2"), ("points_side", "attack")):
        phone.click(f"label.choice:has(input[name='{name}'][value='{value}'])")
    phone.fill("input[name=points]", "49")
    phone.wait_for_selector("#preview .offline-note")
    # the phone's preview scores deal 2's players: deal 1's dealer in, deal 2's out
    preview = phone.locator("#preview")
    assert wait_for(
        lambda: "+" in preview.inner_text() and first.short_name in preview.inner_text()
    )
    assert second.short_name not in preview.inner_text()
    shot(phone, "sits-out-deal-2")
    phone.click("button[name=save]")
    phone.wait_for_url(sheet)
    phone.context.set_offline(False)
    assert wait_for(lambda: Deal.objects.filter(game=game).count() == 2)
    deal = Deal.objects.get(game=game, number=2)
    assert (deal.taker_id, deal.dealer_id) == (first.pk, second.pk)
