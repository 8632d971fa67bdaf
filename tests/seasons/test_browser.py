"""The season's pages at 360 × 740: no sideways page, no clipped frame, no broken word, tap
targets big enough, nothing serious for axe. Screenshots go to tests/artifacts/."""

from __future__ import annotations

import datetime as dt

import pytest

from conftest import scroll_width
from tarotclub.players.models import Player
from tarotclub.seasons import services
from tests.browser.pagecheck import check_page
from tests.browsing import log_in

from .helpers import keys_game, roster, tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = ["Marie-Élisabeth Vandenberghe", "Jean-Baptiste Van der Heyden", "Hanneke Wijnbergen"]
HIDE_CHROME = """() => {
  const chrome = document.querySelectorAll('.site-header, .site-footer');
  for (const el of chrome) el.style.display = 'none';
}"""


def test_season_pages_on_a_phone(phone, live_server, artifacts, director):
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    players = roster(8, "Joueur")
    for p, name in zip(players, LONG, strict=False):
        Player.objects.filter(pk=p.pk).update(name=name)
    evenings = [tournament(players, dt.date(2026, 1 + m, 6), shift=m) for m in range(6)]
    season = services.season_create(
        name="Championnat du club 2026", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31),
        formula="places", best_n=4, tournaments=evenings,
    )  # fmt: skip
    # a season of another game: Keys of the Kingdom on three evenings, with the long names
    for n, day in enumerate([dt.date(2026, 2, 3), dt.date(2026, 2, 10), dt.date(2026, 2, 17)]):
        table = players[n : n + 4]
        keys_game(table, day, games=[(n % 4, {i: (i + n) % 5 for i in range(4) if i != n % 4})])
    keys = services.season_create(
        name="Coupe des Clés 2026", kind="keys", start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31), formula="average", min_attendance=2,
    )  # fmt: skip
    base = live_server.url
    paths = {
        "list": "/seasons/",
        "standings": f"/seasons/{season.pk}/",
        "projector": f"/seasons/{season.pk}/projector/",
        "keys-standings": f"/seasons/{keys.pk}/",
        "keys-projector": f"/seasons/{keys.pk}/projector/",
    }
    director_paths = {
        "new": "/seasons/new/",
        "edit": f"/seasons/{season.pk}/edit/",
        "delete": f"/seasons/{season.pk}/delete/",
    }
    problems = {}

    def check(name, url):
        response = page.goto(url)
        assert response.status < 400, url
        page.evaluate(HIDE_CHROME)
        found = check_page(page)
        page.screenshot(path=str(artifacts / f"season-{name}.png"), full_page=True)
        bad = {k: v for k, v in found.items() if v}
        if bad:
            problems[name] = bad

    for name, path in paths.items():
        check(name, base + path)
    # the standings table scrolls inside its frame, never the page
    page.goto(base + paths["standings"])
    assert page.locator("table.season-standings tbody tr").count() == 8
    assert scroll_width(page) <= 360
    page.goto(base + paths["keys-standings"])
    assert page.locator("table.season-standings tbody tr").count() == 6
    assert page.locator("table.season-standings thead th").count() == 4 + 3
    assert page.locator(".season-kind").is_visible()
    assert scroll_width(page) <= 360
    log_in(page, "director", "pw-director-1", base)
    for name, path in director_paths.items():
        check(name, base + path)
    # a season of another game has no tournaments to choose: the form hides them
    page.goto(base + director_paths["new"])
    tournaments = page.locator(".season-form .tarot-only")
    assert tournaments.is_visible()
    page.check("input[name=kind][value=keys]", force=True)
    assert not tournaments.is_visible()
    page.check("input[name=kind][value=tarot]", force=True)
    assert tournaments.is_visible()
    report = "\n".join(f"{key}: {value}" for key, value in sorted(problems.items()))
    (artifacts / "pagecheck-seasons.txt").write_text(report or "nothing", encoding="utf-8")
    assert problems == {}, report
