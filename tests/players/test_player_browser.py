"""The player page and the head-to-head page on a phone (360 px): the charts are drawn,
visible and inside the screen; no sideways page, tap targets of 44 px, nothing serious for
axe (tests/browser/pagecheck.py). Screenshots go to tests/artifacts/."""

from __future__ import annotations

import pytest

from tests.browser.pagecheck import check_page
from tests.browsing import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HIDE_CHROME = """() => {
  const chrome = document.querySelectorAll('.site-header, .site-footer');
  for (const el of chrome) el.style.display = 'none';
}"""
LONG_NAMES = (
    "Marie-Élisabeth Vandenberghe",
    "Jean-Baptiste Van der Heyden",
    "Hanneke Wijnbergen-Oosterhuis",
    "Élodie Castelnau-Lafontaine",
    "Diamonds Mahieu",
)


def test_the_player_pages_on_a_phone(phone, live_server, artifacts, member):
    from tarotclub.demo.history import tarot_history
    from tarotclub.players.services import player_create

    players = [player_create(name=n) for n in LONG_NAMES]
    tarot_history(players, deals=300)
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    log_in(page, "member", "pw-member-1", live_server.url)
    base = live_server.url
    me, other = players[0].pk, players[1].pk
    paths = {
        "player": f"/players/{me}/",
        "player-filtered": f"/players/{me}/?size=5&from=2026-01-01&to=2026-12-31",
        "player-bad-filter": f"/players/{me}/?from=2026-13-45&size=9",
        "versus": f"/players/{me}/versus/?other={other}",
        "versus-choose": f"/players/{me}/versus/",
        "versus-dates": f"/players/{me}/versus/?other={other}&from=2026-01-01&to=2026-12-31",
        "versus-bad-dates": f"/players/{me}/versus/?other={other}&from=2026-12-31&to=2026-01-01",
    }
    problems = {}
    for lang in ("fr", "nl", "en"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for name, path in paths.items():
            response = page.goto(base + path)
            assert response.status == 200, path
            page.evaluate(HIDE_CHROME)
            found = {k: v for k, v in check_page(page).items() if v}
            page.screenshot(path=str(artifacts / f"player-{lang}-{name}.png"), full_page=True)
            if found:
                problems[(lang, name)] = found
            if name in ("player", "player-filtered", "versus"):
                charts = page.locator("svg.chart-svg")
                assert charts.count() >= 1, (lang, name)
                for i in range(charts.count()):
                    box = charts.nth(i).bounding_box()
                    assert box["width"] > 200 and box["height"] > 100, (lang, name, box)
                    assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (lang, name, box)
    page.goto(base + paths["player"])
    # the rating history and the cumulative score
    assert page.locator("svg.chart-svg polyline").count() == 2
    assert page.locator("#rating-title ~ figure svg[role=img]").count() == 1
    assert page.locator("svg.chart-svg rect.bar").count() == 4  # the four contracts
    assert problems == {}, "\n".join(f"{k}: {v}" for k, v in sorted(problems.items()))
