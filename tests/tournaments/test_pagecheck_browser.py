"""The tournament and report pages at 360 × 740 in French, Dutch and English: no sideways
page, no clipped frame, no word broken in the middle, tap targets of 44 px at least, nothing
serious for axe. The site's header, menu and footer are measured by their own test (they
belong to the site's chrome) and are hidden here before measuring."""

from __future__ import annotations

import pytest

from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tests.browser.pagecheck import check_page
from tests.browsing import log_in

from .helpers import make_tournament, play_round, play_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = [
    "Marie-Élisabeth Vandenberghe",
    "Jean-Baptiste Van der Heyden",
    "Hanneke Wijnbergen-Oosterhuis",
    "Élodie Castelnau-Lafontaine",
    "Diamonds Mahieu",
]

HIDE_CHROME = """() => {
  const chrome = document.querySelectorAll('.site-header, .site-footer');
  for (const el of chrome) el.style.display = 'none';
}"""


def measure(page, url):
    response = page.goto(url)
    assert response.status < 400, url
    page.evaluate(HIDE_CHROME)
    return check_page(page)


def test_the_directors_and_public_pages_on_a_phone(phone, live_server, artifacts, director):
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    t, players = make_tournament(9, rounds=3, deals=1)  # a table of five and one of four
    for p, name in zip(players, LONG_NAMES, strict=False):
        Player.objects.filter(pk=p.pk).update(name=name)
    services.entry_register(tournament=t, guest_name="Visiting Vera Van Oosterwijck")
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    open_table = Table.objects.filter(tournament=t, round=2).first()
    play_table(open_table, confirm=False)
    entry = t.entries.first()
    base = live_server.url
    paths = {
        "list": "/tournaments/",
        "standings": f"/tournaments/{t.pk}/",
        "where": f"/tournaments/{t.pk}/where/?q=van",
        "deals": f"/tournaments/{t.pk}/deals/",
        "deals-table": f"/tournaments/{t.pk}/deals/?round=1&table=1",
        "players": f"/tournaments/{t.pk}/players/",
        "confirm-sheet": f"/t/{open_table.game.token}/confirm/",
    }
    director_paths = {
        "manage": f"/tournaments/{t.pk}/manage/",
        "manage-round-1": f"/tournaments/{t.pk}/manage/?round=1",
        "new": "/tournaments/new/",
        "bulk": f"/tournaments/{t.pk}/register/",
        "withdraw": f"/tournaments/{t.pk}/withdraw/{entry.pk}/",
        "next": f"/tournaments/{t.pk}/next/",
        "deals-director": f"/tournaments/{t.pk}/deals/",
    }
    problems = {}

    def check(lang, name, url):
        found = measure(page, url)
        page.screenshot(path=str(artifacts / f"pc-{lang}-{name}.png"), full_page=True)
        bad = {k: v for k, v in found.items() if v}
        if bad:
            problems[(lang, name)] = bad

    for lang in ("fr", "nl", "en"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for name, path in paths.items():
            check(lang, name, base + path)
    log_in(page, "director", "pw-director-1", live_server.url)
    for lang in ("fr", "nl", "en"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for name, path in director_paths.items():
            check(lang, name, base + path)
        # the bulk registration's confirmation step
        page.goto(base + director_paths["bulk"])
        page.fill("textarea[name=names]", f"{LONG_NAMES[0]}\nNew Guest Wilhelmina;12345\nAnne X")
        page.click("button[name=preview]")
        page.wait_for_load_state("load")  # the preview is a new page: measure that one
        page.evaluate(HIDE_CHROME)
        found = check_page(page)
        page.screenshot(path=str(artifacts / f"pc-{lang}-bulk-preview.png"), full_page=True)
        if any(found.values()):
            problems[(lang, "bulk-preview")] = {k: v for k, v in found.items() if v}
    report = "\n".join(f"{key}: {value}" for key, value in sorted(problems.items()))
    (artifacts / "pagecheck-tournaments.txt").write_text(report or "nothing", encoding="utf-8")
    assert problems == {}, report
