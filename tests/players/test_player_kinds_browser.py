"""The other games on a phone (360 px): each kind's figures and its chart on the player page,
the chart inside the screen; head to head with every kind; nothing serious for axe, no
sideways page, tap targets of 44 px (tests/browser/pagecheck.py). Screenshots go to
tests/artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.pagecheck import check_page
from tests.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HIDE_CHROME = """() => {
  const chrome = document.querySelectorAll('.site-header, .site-footer');
  for (const el of chrome) el.style.display = 'none';
}"""


def test_the_other_games_on_a_phone(phone, live_server, artifacts, member):
    from tarotclub.games.models import Game
    from tests.players.test_player_kinds import _copy, other_games

    built = other_games(member)
    players = {p.name: p for p in built["players"]}
    marie = players["Marie-Christine Vandenbroucke"]  # Fool's Faith, Death's Pot and Cuckoo
    for game in Game.objects.filter(seats__player=marie, kind__in=("foolsfaith", "deathspot")):
        _copy(game, 9)  # evenings before: a line worth following
    amelie = players["Amélie Dubois"]  # Keys and Cuckoo, with Marie-Christine at Cuckoo
    gilles = players["Gilles Moreau"]  # received a Fool's Faith challenge (tap to read it)
    # ... and played the demo's short Cuckoo match to its end
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, "member", "pw-member-1", live_server.url)
    base = live_server.url
    paths = {
        "marie": (f"/players/{marie.pk}/", 3),
        "amelie": (f"/players/{amelie.pk}/", 2),
        "gilles": (f"/players/{gilles.pk}/", 2),
        "versus": (f"/players/{amelie.pk}/versus/?other={marie.pk}", 0),
    }
    problems = {}
    for lang in ("fr", "nl", "en"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for name, (path, charts_expected) in paths.items():
            response = page.goto(base + path)
            assert response.status == 200, path
            page.evaluate(HIDE_CHROME)
            found = {k: v for k, v in check_page(page).items() if v}
            page.screenshot(path=str(artifacts / f"kinds-{lang}-{name}.png"), full_page=True)
            if found:
                problems[(lang, name)] = found
            sections = page.locator("section.kind-section")
            if name == "versus":
                assert sections.count() == 1  # Cuckoo, the only kind they both played
                assert sections.locator("table.versus-figures tbody tr").count() == 6
                continue
            charts = page.locator("section.kind-section svg.chart-svg")
            assert charts.count() == charts_expected, (lang, name)
            for i in range(charts.count()):
                chart = charts.nth(i)
                chart.scroll_into_view_if_needed()
                assert chart.is_visible()
                box = chart.bounding_box()
                assert box["width"] > 300 and box["height"] > 150, (lang, name, box)
                assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (lang, name, box)
                assert chart.get_attribute("role") == "img" and chart.get_attribute("aria-label")
                assert chart.locator("polyline").count() == 1
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in sorted(problems.items()))
