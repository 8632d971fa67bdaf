"""The federation's score sheet (and a position card) on a phone (360 px, French and
Dutch): a table of five and a table of four with long names and four-digit scores; the pages
pass the page checks (no sideways page, no clipped frame, no broken word, 44 px targets, axe),
and the sheet's + and − columns, Total and Balance are the stored scores."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest

from conftest import scroll_width
from tarotclub.games import selectors as game_selectors
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import DealLine
from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table
from tests.browser.pagecheck import check_page
from tests.tournaments.test_pagecheck_browser import HIDE_CHROME, LONG_NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NSEW = (0, 2, 1, 3, 4)


def play(table: Table) -> None:
    """A slam announced and made (four-digit scores), then small deals."""
    game = table.game
    for i in range(game.options["deals"]):
        players = game_selectors.seat_players(game)
        dealer = tarot.dealer_for(game, i + 1, players)
        active = tarot.active_players(game, dealer, players)
        big = i == 0
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(
                taker=active[i % len(active)].pk,
                contract="garde_contre" if big else "prise",
                bouts=3 if big else 1,
                points=Fraction(91 if big else 40 + 7 * i),
                chelem="announced_made" if big else "none",
            ),
        )


def test_the_score_sheet_on_a_phone(phone, live_server, artifacts):
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    t = services.tournament_create(
        name="Coupe d'hiver", date=dt.date(2026, 12, 1), rounds=2, deals_per_round=3
    )
    for name in [*LONG_NAMES, "Anne Martin", "Bart Peeters", "Daan de Vries", "Luc Wouters"]:
        services.entry_register(tournament=t, player=Player.objects.create(name=name))
    t = services.tournament_start(tournament=t)
    tables = list(Table.objects.filter(tournament=t, round=1).select_related("game"))
    assert sorted(x.game.seats.count() for x in tables) == [4, 5]
    for table in tables:
        play(table)
    base = live_server.url
    problems = {}
    for lang in ("fr", "nl"):
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for table in tables:
            size = table.game.seats.count()
            response = page.goto(f"{base}/t/{table.game.token}/scoresheet/")
            assert response.status == 200
            page.evaluate(HIDE_CHROME)
            found = check_page(page)
            page.screenshot(path=str(artifacts / f"score-sheet-{lang}-{size}.png"), full_page=True)
            if any(found.values()):
                problems[(lang, size)] = {k: v for k, v in found.items() if v}
            # the grid read back from the page: per deal, each player's + and − cells
            grid = page.evaluate(
                """() => [...document.querySelectorAll('table.fed-sheet tr')].map(
                    tr => [...tr.querySelectorAll('td')].map(td => td.textContent.trim()))"""
            )
            seats = {s.position: s.player_id for s in table.game.seats.all()}
            order = [seats[i] for i in NSEW if i in seats]
            lines = {}
            for line in DealLine.objects.filter(deal__game=table.game).select_related("deal"):
                lines[line.deal.number, line.player_id] = line.score
            deals = table.game.options["deals"]
            body = [row for row in grid if row][:deals]
            dealer_out = size == 5
            for number, row in enumerate(body, start=1):
                expected = []
                for pk in order:
                    score = lines[number, pk]
                    if dealer_out and score == 0:
                        expected.append(row[len(expected)])  # the dealer's "sits out" cell
                    else:
                        expected += [str(score), ""] if score >= 0 else ["", str(-score)]
                assert row == expected
            total, balance = [row for row in grid if row][deals : deals + 2]
            for i, pk in enumerate(order):
                mine = [v for (n, p), v in lines.items() if p == pk]
                assert total[2 * i : 2 * i + 2] == [
                    str(sum(v for v in mine if v > 0)),
                    str(-sum(v for v in mine if v < 0)),
                ]
                net = sum(mine)
                sign = "+" if net > 0 else "\u2212" if net < 0 else ""
                cell = f"{sign}{abs(net)}"
                assert balance[i] == cell  # one cell over both columns, on the phone
            assert any(len(c) == 4 for row in body for c in row)  # a four-digit score
            # every figure keeps 2 px from its cell's sides: two neighbours never
            # read as one number ("0" beside "1002" is not "01002")
            tight = page.evaluate(
                """() => [...document.querySelectorAll('table.fed-sheet td')].filter(td => {
                    if (!td.textContent.trim()) return false;
                    const range = document.createRange();
                    range.selectNodeContents(td);
                    const box = td.getBoundingClientRect(), text = range.getBoundingClientRect();
                    return text.left < box.left + 2 || text.right > box.right - 2;
                }).map(td => td.textContent.trim())"""
            )
            assert tight == [], (lang, size, tight)
            assert scroll_width(page) <= 360
        # a player's position card, from "Where do I sit?"
        player = Player.objects.get(name=LONG_NAMES[0])
        response = page.goto(f"{base}/tournaments/{t.pk}/where/{player.pk}/")
        assert response.status == 200
        page.evaluate(HIDE_CHROME)
        found = check_page(page)
        page.screenshot(path=str(artifacts / f"position-card-{lang}.png"), full_page=True)
        if any(found.values()):
            problems[(lang, "card")] = {k: v for k, v in found.items() if v}
        assert page.locator("table.position-card tbody tr").count() == t.rounds
    assert problems == {}, problems
