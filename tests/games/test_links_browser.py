"""Issue 13 at 360 px: a member taps a name on a game's sheet (the boxes on top) and on a
tournament's standings; each name is a tap target of at least 44 x 44 px, and the page does
not scroll sideways. Screenshots in artifacts/links/."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from conftest import scroll_width
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.services import DealInput
from tarotclub.tournaments import services as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, user) -> None:
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": page.base_url}]
    )


def boxes(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {w: r.width, h: r.height, href: e.getAttribute('href')}; })",
    )


def assert_tappable(page, selector: str, count: int) -> None:
    found = boxes(page, selector)
    assert len(found) == count
    assert all(b["w"] >= 44 and b["h"] >= 44 for b in found), found
    assert all(b["href"].startswith("/players/") for b in found)
    width = scroll_width(page)
    assert width <= 360


def test_a_members_names_are_tap_targets_on_a_sheet_and_the_standings(
    phone, member, make_players, artifacts
):
    out = artifacts / "links"
    out.mkdir(exist_ok=True)
    players = make_players("Marie-Christine", "Jean-Baptiste", "Li", "Maximilien", "Bo")
    game = game_start(players=players, first_dealer=0, created_by=member)
    tarot.deal_add(
        game=game,
        data=DealInput(taker=players[1].pk, contract="garde", bouts=2, points=Fraction(49)),
    )
    t = tournaments.tournament_create(name="Coupe", date=game.created_at.date(), rounds=2)
    for p in players[:4]:
        tournaments.entry_register(tournament=t, player=p)
    tournaments.tournament_start(tournament=t)
    sign_in(phone, member)
    phone.set_viewport_size({"width": 360, "height": 740})

    phone.goto(phone.base_url + reverse("games:sheet", args=[game.token]))
    assert_tappable(phone, "#sheet-top a.player-box", 5)
    phone.screenshot(path=str(out / "sheet.png"), full_page=True)

    phone.goto(phone.base_url + reverse("tournaments:standings", args=[t.pk]))
    assert_tappable(phone, "table.standings a.player-link", 4)
    phone.screenshot(path=str(out / "standings.png"), full_page=True)

    phone.goto(phone.base_url + reverse("games:list"))
    found = boxes(phone, "table.game-list a.player-link")
    assert found and all(b["w"] >= 44 and b["h"] >= 44 for b in found), found
    phone.screenshot(path=str(out / "games.png"), full_page=True)
