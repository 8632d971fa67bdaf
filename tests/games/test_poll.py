"""A sheet's poll after a change sends only what changed (`Kind.sheet_changes`): the deals
written since the phone's revision, the rows an undo took away, the totals; the same number
of queries and about the same bytes whether the sheet holds 2 deals or 2,000."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarotclub.demo.history import sheet_deal, tarot_sheet
from tarotclub.games import selectors as game_selectors
from tarotclub.games.models import Game
from tarotclub.games.services import game_finish
from tarotclub.kinds.tarot import selectors as tarot_selectors
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import DealLine

pytestmark = pytest.mark.django_db

#: queries of a poll that finds a change: the revision, the game with its seats, players and
#: tournament table (the policy's), the deals written since with their lines (one query); a
#: correction adds one sum for its running totals.
POLL_CHANGED = {"new": 3, "correct": 4, "undo": 3}
SIZES = (2, 2000)


def _deal(game, i: int) -> tarot.DealInput:
    return sheet_deal(game, game_selectors.seat_players(game), i)


@pytest.fixture
def sheet_of(four, member):
    def make(count: int) -> Game:
        return tarot_sheet(four, deals=count, created_by=member)

    return make


def _poll(client, game, rev: int, shown: int | None):
    params = {"rev": rev} if shown is None else {"rev": rev, "n": shown}
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("games:poll", args=[game.token]), params)
    return len(ctx.captured_queries), response


def _rows(html: str) -> list[str]:
    """The deal rows sent (not the rows to take away)."""
    return re.findall(r'<tr id="deal-(\d+)" class=', html)


def _change(game: Game, what: str) -> None:
    if what == "new":
        tarot.deal_add(game=game, data=_deal(game, game.tally["count"] + 1))
    elif what == "correct":
        data = tarot.DealInput(taker=_deal(game, 1).taker, contract="garde", bouts=2, points=60)
        tarot.deal_correct(
            played=None, deal=game.deals.get(number=1), data=data, expected_version=1
        )
    else:
        tarot.deal_undo_last(game=game, number=game.tally["count"])


@pytest.mark.parametrize("what", ["new", "correct", "undo"])
@pytest.mark.parametrize("size", SIZES)
def test_a_poll_after_a_change_sends_that_change_alone(client, sheet_of, what, size):
    game = sheet_of(size)
    rev = game.revision
    _change(game, what)
    count, response = _poll(client, game, rev, size)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    expected_rows = {"new": [str(size + 1)], "correct": ["1"], "undo": []}[what]
    assert _rows(html) == expected_rows
    if what == "undo":
        assert f'<tr id="deal-{size}" hx-swap-oob="delete">' in html
    # the totals are the database's, whatever the tally says
    game = Game.objects.get(pk=game.pk)
    totals = tarot.game_totals_db(game)
    for pk, total in totals.items():
        shown = f'data-player="{pk}">{total}'.replace(">-", ">−")
        assert shown in html
    assert f'name="rev" value="{game.revision}"' in html
    assert count == POLL_CHANGED[what], count


@pytest.mark.parametrize("what", ["new", "correct", "undo"])
def test_the_poll_costs_the_same_bytes_at_2_and_2000_deals(client, sheet_of, what):
    sizes = []
    for size in SIZES:
        game = sheet_of(size)
        rev = game.revision
        _change(game, what)
        _count, response = _poll(client, game, rev, size)
        sizes.append(len(response.content))
    # only the digits of the numbers differ (deal 2001, larger totals)
    assert abs(sizes[1] - sizes[0]) < 200, sizes


def test_a_corrected_deal_comes_with_its_own_running_totals(client, sheet_of):
    game = sheet_of(6)
    rev = game.revision
    _change(game, "correct")
    html = _poll(client, game, rev, 6)[1].content.decode()
    row = html[html.index('<tr id="deal-1"') :]
    row = row[: row.index("</tr>")]
    lines = {
        line.player_id: line.score
        for line in DealLine.objects.filter(deal__game=game, deal__number=1)
    }
    players = game_selectors.seat_players(game)
    running = re.findall(r'<small class="muted">([^<]*)</small>', row)
    assert running == [str(lines[p.pk]).replace("-", "−") for p in players]
    assert 'data-recount="1"' in html  # the phone adds the later rows up again


@pytest.mark.parametrize(
    "params",
    [
        {"rev": "0"},  # no number of rows shown: an old page
        {"rev": "abc", "n": "6"},
        {"rev": "5", "n": "²"},  # a digit to str.isdigit, not to int()
        {"rev": "5", "n": "-1"},
        {"rev": "5", "n": "3"},  # a picture that does not fit: deals 4 and 5 are older
    ],
)
def test_a_poll_that_cannot_be_answered_in_part_gets_the_whole_sheet(client, sheet_of, params):
    game = sheet_of(6)
    response = client.get(reverse("games:poll", args=[game.token]), params)
    assert response.status_code == 200
    assert "HX-Reswap" not in response
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="sheet"')
    assert _rows(html) == [str(n) for n in range(1, 7)]


def test_a_phone_on_an_empty_sheet_gets_the_first_deals_as_changes(client, sheet_of):
    """A round's start: every phone polls its empty sheet, then gets the first deals alone
    (their rows in a new body), at the cost of any poll after a change."""
    game = sheet_of(0)
    rev = game.revision
    for _ in range(3):
        _change(game, "new")
    count, response = _poll(client, game, rev, 0)
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert _rows(html) == ["1", "2", "3"]
    assert '<tbody id="sheet-rows" hx-swap-oob="true">' in html
    assert count == POLL_CHANGED["new"], count
    # a phone that says it shows no deal at a revision before deals it never saw: all again
    tarot.deal_undo_last(game=game, number=3)
    game = Game.objects.get(pk=game.pk)
    after_two = game.revision
    _change(game, "new")
    response = _poll(client, game, after_two, 0)[1]
    assert "HX-Reswap" not in response
    assert _rows(response.content.decode()) == ["1", "2", "3"]


def test_too_many_changes_get_the_whole_sheet(client, sheet_of):
    game = sheet_of(2)
    rev = game.revision
    for _ in range(tarot_selectors.MAX_CHANGES + 1):
        _change(game, "new")
    response = _poll(client, game, rev, 2)[1]
    assert "HX-Reswap" not in response
    assert len(_rows(response.content.decode())) == tarot_selectors.MAX_CHANGES + 3


def test_a_change_that_is_no_deal_updates_the_top_alone(client, sheet_of):
    game = sheet_of(3)
    rev = game.revision
    game_finish(game=game)
    response = _poll(client, game, rev, 3)[1]
    html = response.content.decode()
    assert response["HX-Reswap"] == "none"
    assert _rows(html) == []
    assert "Finished" in html


def test_the_tally_follows_every_write(sheet_of):
    """Deals added, corrected, undone, and a write that is no deal: the game's tally is
    always the count and the sums of its stored lines."""
    game = sheet_of(0)
    for step in range(14):
        if step % 5 == 3:
            number = 1 + step % game.tally["count"]
            deal = game.deals.get(number=number)
            data = tarot.DealInput(taker=deal.taker_id, contract="garde", bouts=0, points=70)
            tarot.deal_correct(deal=deal, data=data, expected_version=deal.version)
        elif step % 5 == 4:
            tarot.deal_undo_last(game=game, number=game.tally["count"])
        else:
            tarot.deal_add(game=game, data=_deal(game, game.tally["count"] + 1))
        if step == 7:
            from tarotclub.games.services import game_set_locked

            game_set_locked(game=game, locked=True)
            game_set_locked(game=Game.objects.get(pk=game.pk), locked=False)
        game = Game.objects.get(pk=game.pk)
        tally = game.current_tally
        assert tally is not None
        assert tally["count"] == game.deals.count()
        stored = {str(pk): t for pk, t in tarot.game_totals_db(game).items()}
        assert {k: v for k, v in tally["totals"].items() if v or k in stored} == stored


def test_a_stale_tally_is_summed_again_by_the_next_deal(sheet_of):
    game = sheet_of(4)
    Game.objects.filter(pk=game.pk).update(tally={"rev": 0, "count": 0, "totals": {}})
    game = Game.objects.get(pk=game.pk)
    tarot.deal_add(game=game, data=_deal(game, 5))
    game = Game.objects.get(pk=game.pk)
    assert game.current_tally["count"] == 5
    assert game.current_tally["totals"] == {
        str(pk): t for pk, t in tarot.game_totals_db(game).items()
    }


def test_a_phone_back_after_ten_minutes_catches_up_in_one_request(client, sheet_of):
    """Issue 15: a phone whose Wi-Fi dropped for ten minutes (a dozen deals entered on the
    other phones, one corrected) gets them all in its first poll back: one request, every
    new row and the corrected one, with the sheet's state (revision, count) it then shows."""
    game = sheet_of(3)
    rev = game.revision
    for _ in range(12):
        _change(game, "new")
    _change(game, "correct")
    game.refresh_from_db()
    _queries, response = _poll(client, game, rev, 3)
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert sorted(map(int, _rows(html))) == [1, *range(4, 16)]
    assert f'name="rev" value="{game.revision}"' in html and 'name="n" value="15"' in html
    # and the next poll, from where that answer left the phone, has nothing to send
    assert _poll(client, game, game.revision, 15)[1].status_code == 204


def _live(html: str, which: str) -> str:
    """What the poll's answer puts in the action `which` below the sheet (out of band)."""
    found = re.findall(
        rf'<span id="sheet-{which}" class="live-action" hx-swap-oob="true">(.*?)</span>',
        html,
        re.S,
    )
    assert len(found) == 1, (which, found)
    return found[0]


def _state(html: str) -> dict:
    """The state a sheet shows (its hidden `rev`, `n` and `a`), which htmx sends with a poll."""
    return {
        name: re.search(rf'name="{name}" value="([^"]*)"', html).group(1)
        for name in ("rev", "n", "a")
    }


def _phone_poll(client, game, state: dict) -> str:
    """A phone's poll with the state its sheet shows, as htmx sends it; the state is brought
    up to date from the answer."""
    response = client.get(reverse("games:poll", args=[game.token]), state)
    html = response.content.decode()
    state.update(_state(html))
    return html


def test_the_actions_below_the_sheet_follow_the_other_phones_writes(client, member, sheet_of):
    """The undo comes with the first deal, the house rules go with it (for the game's creator),
    both come back when it is undone, and a finished game shows neither undo nor finish: a
    phone that opened the sheet earlier needs no reload to see them. A poll sends them only
    when they differ from the ones the phone shows."""
    game = sheet_of(0)
    client.force_login(member)
    undo = f'href="{reverse("games:deal_undo", args=[game.token])}"'
    rules = f'href="{reverse("games:house_rules", args=[game.token])}"'
    finish = f'href="{reverse("games:finish", args=[game.token])}"'
    page = client.get(reverse("games:sheet", args=[game.token])).content.decode()
    assert undo not in page and rules in page and finish in page
    for which in ("undo", "house-rules", "finish"):
        assert page.count(f'id="sheet-{which}"') == 1
    state = _state(page)
    assert state == {"rev": str(game.revision), "n": "0", "a": "hf"}

    _change(game, "new")
    html = _phone_poll(client, game, state)
    assert undo in _live(html, "undo")
    assert _live(html, "house-rules").strip() == ""
    assert finish in _live(html, "finish")
    assert state["a"] == "uf"

    _change(Game.objects.get(pk=game.pk), "new")  # the actions the phone shows stay
    html = _phone_poll(client, game, state)
    assert _rows(html) == ["2"] and 'id="sheet-undo"' not in html and "live-action" not in html

    _change(Game.objects.get(pk=game.pk), "undo")
    _change(Game.objects.get(pk=game.pk), "undo")
    html = _phone_poll(client, game, state)
    assert _live(html, "undo").strip() == ""
    assert rules in _live(html, "house-rules")
    assert state["a"] == "hf"

    _change(Game.objects.get(pk=game.pk), "new")
    _phone_poll(client, game, state)
    game_finish(game=Game.objects.get(pk=game.pk))
    html = _phone_poll(client, game, state)
    assert "Finished" in html
    for which in ("undo", "house-rules", "finish"):
        assert _live(html, which).strip() == "", which
    assert state["a"] == ""


def test_the_whole_sheet_sent_again_brings_the_actions_too(client, sheet_of):
    """An old page's poll (no number of rows shown, no actions) gets the whole live part, and
    the actions below it out of band: a phone on the share link sees its undo."""
    game = sheet_of(2)
    response = client.get(reverse("games:poll", args=[game.token]), {"rev": "0"})
    html = response.content.decode()
    assert "HX-Reswap" not in response and html.lstrip().startswith('<section id="sheet"')
    assert f'href="{reverse("games:deal_undo", args=[game.token])}"' in _live(html, "undo")
    assert f'href="{reverse("games:finish", args=[game.token])}"' in _live(html, "finish")
    assert _live(html, "house-rules").strip() == ""  # no account: never the house rules
    # the same picture with the actions it shows: the live part alone
    response = client.get(reverse("games:poll", args=[game.token]), {"rev": "0", "a": "uf"})
    assert "live-action" not in response.content.decode()
