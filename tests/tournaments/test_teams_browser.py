"""A free-deal pairs event at 360 × 740 in French and Dutch: the standings with the team
ranking beside the individual one, and the registration form with its team field, pass the
page checks (no sideways page, no clipped frame, no broken word, 44 px targets, axe)."""

from __future__ import annotations

import datetime as dt

import pytest

from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tests.browser.pagecheck import check_page
from tests.browsing import log_in

from .helpers import play_round
from .test_pagecheck_browser import HIDE_CHROME, LONG_NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEAMS = ["Les Excuses-Volantes", "De Troefkaarten", "Petit au Bout", "Garde Contre"]


def test_a_pairs_event_on_a_phone(phone, live_server, artifacts, director):
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    t = services.tournament_create(
        name="Pairs cup", date=dt.date(2026, 12, 1), rounds=2, deals_per_round=1
    )
    names = [*LONG_NAMES, "Anne Martin", "Bart Peeters", "Daan de Vries"]
    for i, name in enumerate(names):
        player = Player.objects.create(name=name)
        services.entry_register(tournament=t, player=player, team=TEAMS[i // 2])
    t = services.tournament_start(tournament=t)
    play_round(t)
    base = live_server.url
    problems = {}

    def check(lang, name, url):
        response = page.goto(url)
        assert response.status < 400, url
        page.evaluate(HIDE_CHROME)
        found = check_page(page)
        page.screenshot(path=str(artifacts / f"teams-{lang}-{name}.png"), full_page=True)
        if any(found.values()):
            problems[(lang, name)] = {k: v for k, v in found.items() if v}
        return page.content()

    for lang in ("fr", "nl"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        html = check(lang, "standings", f"{base}/tournaments/{t.pk}/")
        assert html.count("Volantes") == 1  # the team's name, once, in the team ranking
    log_in(page, "director", "pw-director-1", live_server.url)
    for lang in ("fr", "nl"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        html = check(lang, "manage", f"{base}/tournaments/{t.pk}/manage/")
        assert 'name="team"' in html
    assert problems == {}, problems
