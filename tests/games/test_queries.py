"""The number of SQL queries of a table's pages, pinned at two sheet sizes.

Saving a deal, correcting one, the sheet and its poll make the same number of queries whether
the sheet holds 2 deals or 40, at a casual table and at a tournament table: a regression (a
query per deal, per player, or a read done twice) fails here. Timings stay out of the tests
(see `make bench`).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarotclub.games import selectors as game_selectors
from tarotclub.games.models import Change, Game
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import services as tournaments
from tarotclub.tournaments.models import Table

from ..tournaments.helpers import make_tournament

pytestmark = pytest.mark.django_db

#: two sheet sizes per table (a tournament round has at most 24 deals a table)
SIZES = {"casual": (2, 40), "tournament": (2, 20)}

#: PostgreSQL runs a save's writes (the deal or its correction, its score lines, its history
#: entry, the revision) as one statement (data-modifying WITH); SQLite one after the other.
TOGETHER = connection.vendor == "postgresql"
#: statements of a save outside the savepoints (the goal is at most 8). A new deal reads the
#: game, its seats and players (1) and locks the game (2). SQLite counts its deals and reads
#: its tournament table's state in that statement, then inserts the deal (3), its lines (4),
#: its history entry (5) and bumps the revision (6). PostgreSQL takes the count from the
#: locked row's tally, reads the tournament table after the lock (3; a statement that waited
#: for the lock would see it as it was before: see `lock_game`), and writes all four in one
#: statement (4). A correction reads the deal and its lines under the lock instead of
#: counting, and updates them. Before issue 12: saving 22, correcting 24; then 7 and 8.
WRITES = {"new": 4, "correct": 5} if TOGETHER else {"new": 6, "correct": 7}
#: queries of each request, the same at every sheet size. A write counts the SAVEPOINT and
#: RELEASE of its transaction, nested in the test's one; in production (no outer transaction)
#: they are not statements, hence `WRITES`. The sheet (and a poll that gets it whole) reads
#: its deals with their score lines in one query, the totals summed from them. Before issue
#: 12: the sheet 7 (8 at a tournament table), the poll that found nothing new 2; then the
#: sheet 6 (7), the whole sheet's poll 6; then the sheet 4 (5) and a poll with a change 4, and
#: one fewer each since the game's read also reads its tournament table's state (the
#: policy's). The sheet's heading (is it a tournament table, of which tournament) took one
#: query more, two at a tournament table; now none for a casual game (its read found no
#: event) and one at a tournament table (the table with its tournament).
SAVES = {"new": WRITES["new"] + 2, "correct": WRITES["correct"] + 2}
QUERIES = {
    "casual": {**SAVES, "sheet": 2, "poll_same": 1, "poll_changed": 3},
    "tournament": {**SAVES, "sheet": 3, "poll_same": 1, "poll_changed": 3},
}


def _fill(game, count: int) -> None:
    for i in range(count):
        players = game_selectors.seat_players(game)
        dealer = tarot.dealer_for(game, i + 1, players)
        taker = [p for p in players if p.pk != dealer.pk][i % (len(players) - 1)]
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=51 + i % 20),
        )


def _table_game(where: str, four, member, size: int) -> Game:
    if where == "casual":
        from tarotclub.games.services import game_start

        game = game_start(players=four, first_dealer=0, created_by=member)
    else:
        t, _players = make_tournament(4, rounds=2, deals=size + 4)
        tournaments.tournament_start(tournament=t)
        game = Table.objects.get(tournament=t, round=1).game
    _fill(game, size)
    return Game.objects.get(pk=game.pk)


def _deal_post(game, **over) -> dict:
    players = game_selectors.seat_players(game_selectors.game_by_token(game.token))
    data = {
        "taker": players[1].pk,
        "contract": "garde",
        "bouts": "2",
        "points_side": "attack",
        "points": "49",
        "petit_au_bout": "",
        "chelem": "none",
    }
    data.update(over)
    return data


def _count(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as ctx:
        response = call()
    return len(ctx.captured_queries), response


def _statements(call) -> tuple[int, int, object]:
    """(all queries, queries but the savepoints, response)."""
    with CaptureQueriesContext(connection) as ctx:
        response = call()
    sql = [q["sql"] for q in ctx.captured_queries]
    real = [q for q in sql if not q.startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
    return len(sql), len(real), response


CASES = [(where, size) for where, sizes in SIZES.items() for size in sizes]


@pytest.mark.parametrize(("where", "size"), CASES)
def test_saving_a_deal(client, four, member, where, size):
    game = _table_game(where, four, member, size)
    url = reverse("games:deal_new", args=[game.token])
    post = {**_deal_post(game), "number": size + 1}
    count, real, response = _statements(lambda: client.post(url, post))
    assert response.status_code == 302
    assert Deal.objects.filter(game=game).count() == size + 1
    assert Change.objects.filter(game=game, number=size + 1).exists()
    assert (count, real) == (QUERIES[where]["new"], WRITES["new"])


@pytest.mark.parametrize(("where", "size"), CASES)
def test_correcting_a_deal(client, four, member, where, size):
    game = _table_game(where, four, member, size)
    url = reverse("games:deal_edit", args=[game.token, 1])
    post = {**_deal_post(game), "version": "1"}
    count, real, response = _statements(lambda: client.post(url, post))
    assert response.status_code == 302
    assert Deal.objects.get(game=game, number=1).version == 2
    assert (count, real) == (QUERIES[where]["correct"], WRITES["correct"])


@pytest.mark.parametrize(("where", "size"), CASES)
def test_the_sheet(client, four, member, where, size):
    game = _table_game(where, four, member, size)
    count, response = _count(lambda: client.get(reverse("games:sheet", args=[game.token])))
    assert response.status_code == 200
    assert count == QUERIES[where]["sheet"], count


@pytest.mark.parametrize(("where", "size"), CASES)
def test_the_poll(client, four, member, where, size):
    game = _table_game(where, four, member, size)
    url = reverse("games:poll", args=[game.token])
    count, response = _count(lambda: client.get(f"{url}?rev={game.revision}"))
    assert response.status_code == 204
    assert count == QUERIES[where]["poll_same"], count
    count, response = _count(lambda: client.get(f"{url}?rev={game.revision - 1}"))
    assert response.status_code == 200
    assert count == QUERIES[where]["poll_changed"], count


def _compiled(call) -> tuple[int, object]:
    """(ORM queries compiled, response): what the ORM's SQL compiler built during `call`."""
    from unittest import mock

    from django.db.models.sql.compiler import SQLCompiler

    real = SQLCompiler.as_sql
    with mock.patch.object(SQLCompiler, "as_sql", autospec=True, side_effect=real) as as_sql:
        response = call()
    return as_sql.call_count, response


def test_the_poll_that_finds_nothing_new_compiles_no_orm_query(client, four, member):
    """The most frequent request of a room (every open sheet, every 4 s): one plain SELECT,
    no ORM query to compile (which cost several times the query itself)."""
    game = _table_game("casual", four, member, 2)
    url = reverse("games:poll", args=[game.token])
    compiled, response = _compiled(lambda: client.get(f"{url}?rev={game.revision}"))
    assert response.status_code == 204
    assert compiled == 0


def test_the_revision_of_a_share_link(four, member):
    game = _table_game("casual", four, member, 2)
    assert game_selectors.revision_by_token(game.token) == (game.revision, game.kind)
    assert game_selectors.revision_by_token(game.token[:-1] + "!") is None
    assert game_selectors.revision_by_token("") is None
    assert game_selectors.revision_by_token("x" * 33) is None


def test_the_poll_after_a_new_deal_reads_the_new_deals_without_the_orm(client, four, member):
    """A poll after a deal was added (every sheet of a table, once a deal): the deals written
    since are read with one plain SELECT (core.sql), and arrive as the sheet's rows."""
    from django.db.models.sql.compiler import SQLCompiler

    game = _table_game("casual", four, member, 3)
    url = reverse("games:poll", args=[game.token])
    shown, since = 2, Deal.objects.get(game=game, number=3).revision - 1
    seen = []
    real = SQLCompiler.as_sql

    def as_sql(self, *args, **kwargs):
        seen.append(self.query.model)
        return real(self, *args, **kwargs)

    from unittest import mock

    with mock.patch.object(SQLCompiler, "as_sql", as_sql):
        response = client.get(url, {"rev": since, "n": shown})
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert b'id="sheet-state"' in response.content
    from tarotclub.kinds.tarot.models import DealLine

    assert DealLine not in seen and Deal not in seen


def test_the_deals_written_since_are_found_by_the_revision_index_not_by_walking_the_game():
    """The poll's read of the deals written since a revision (`_written_since`) searches the
    (game, revision) index: its cost is the changes', not the sheet's (SQLite's own plan;
    ordered by the (game, number) index instead, it walked all 2,000 deals of a long game:
    1.9× the time of a poll at 2 deals, bench/poll.py). PostgreSQL plans by its statistics."""
    from tarotclub.kinds.tarot.selectors import _written_since_sql

    if connection.vendor != "sqlite":
        pytest.skip("the plan checked is SQLite's (EXPLAIN QUERY PLAN)")
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + _written_since_sql("sqlite"), [1, 5, 40])
        plan = [row[-1] for row in cursor.fetchall()]
    deals = next(step for step in plan if step.startswith("SEARCH d "))
    assert "deal_game_revision (game_id=? AND revision>?)" in deals, plan


@pytest.mark.parametrize("where", ["casual", "tournament"])
def test_the_deals_a_poll_sends_are_the_sheets_own_rows(four, member, where):
    """What the poll after new deals sends is what the whole sheet shows for those deals."""
    from tarotclub.kinds.tarot import selectors as tarot_selectors

    game = _table_game(where, four, member, 5)
    since = Deal.objects.get(game=game, number=3).revision - 1
    game = Game.objects.get(pk=game.pk)
    changes = tarot_selectors.sheet_changes(game, since=since, shown=2)
    full = tarot_selectors.game_sheet(game)
    assert changes.added == {3, 4, 5} and not changes.replaced
    assert changes.sheet.rows == [row for row in full.rows if row.number >= 3]
    for row in changes.sheet.rows:
        deal = Deal.objects.get(pk=row.deal.pk)
        assert (row.deal.dealer, row.deal.taker, row.deal.partner) == (
            deal.dealer,
            deal.taker,
            deal.partner,
        )


def test_a_poll_at_five_sends_the_called_partner_as_the_sheet_shows_it(five, member):
    from tarotclub.games.services import game_start
    from tarotclub.kinds.tarot import selectors as tarot_selectors

    game = game_start(players=five, first_dealer=0, created_by=member)
    players = game_selectors.seat_players(game)
    for i, partner in enumerate([players[3].pk, None, players[2].pk]):
        dealer = tarot.dealer_for(game, i + 1, players)
        taker = [p for p in players if p.pk != dealer.pk][1]
        data = tarot.DealInput(taker=taker.pk, contract="garde", bouts=2, points=56)
        if partner is not None and partner != taker.pk:
            data = tarot.DealInput(
                taker=taker.pk, contract="garde", bouts=2, points=56, partner=partner
            )
        tarot.deal_add(game=game, data=data)
    game = Game.objects.get(pk=game.pk)
    since = Deal.objects.get(game=game, number=2).revision - 1
    changes = tarot_selectors.sheet_changes(game, since=since, shown=1)
    full = tarot_selectors.game_sheet(game)
    assert changes.sheet.rows == full.rows[1:]
    assert any(" + " in row.taker for row in changes.sheet.rows)  # a called partner shown
