"""Every main page fits a 360 px phone: no sideways scrolling, in all three languages."""

from __future__ import annotations

import pytest

from conftest import scroll_width
from tarotclub.kinds.tarot.services import DealInput, deal_add
from tarotclub.tournaments import services as tournaments
from tests.browsing import log_in
from tests.tournaments.helpers import make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_main_pages_fit_360px(phone, live_server, member, game5, five):
    deal_add(
        game=game5,
        data=DealInput(
            taker=five[0].pk,
            partner=five[2].pk,
            contract="garde_contre",
            bouts=3,
            points=78,
            petit_au_bout="attack",
            poignees=((five[0].pk, "triple"),),
        ),
    )
    t, _ = make_tournament(13, rounds=3)
    tournaments.tournament_start(tournament=t)
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, "member", "pw-member-1", live_server.url)
    paths = [
        "/",
        "/games/",
        "/games/new/",
        "/games/new/?kind=cuckoo",
        "/players/",
        f"/t/{game5.token}/",
        f"/t/{game5.token}/deal/",
        f"/t/{game5.token}/deal/1/",
        f"/t/{game5.token}/history/",
        "/tournaments/",
        f"/tournaments/{t.pk}/",
        f"/tournaments/{t.pk}/where/?q=pla",
        "/games/standings/",
    ]
    for lang in ["fr", "nl", "en"]:
        page.context.add_cookies(
            [{"name": "django_language", "value": lang, "url": live_server.url}]
        )
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response.status < 400, path
            assert scroll_width(page) <= 360, (lang, path)
