"""The demo club shows every page with real data (issue 11, item 18)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tarotclub.demo.builders import GUEST, LONG_NAMES
from tarotclub.games import kinds
from tarotclub.games.models import Game
from tarotclub.kinds.foolsfaith.models import ChallengeAward
from tarotclub.kinds.tarot.models import Deal
from tarotclub.players.models import Player
from tarotclub.tournaments.models import Status, Table, Tournament
from tests.shared_data import loaded_once

pytestmark = pytest.mark.django_db


def load(*args) -> str:
    out = io.StringIO()
    call_command("demo_club", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def club(django_db_setup, django_db_blocker):
    """The demo club, loaded once for this module (some 12 s a load; tests/shared_data.py)."""
    yield from loaded_once(django_db_blocker, lambda: load("--if-empty"))


def test_a_five_player_tarot_game_with_long_names_and_every_bonus(club):
    long = {name for name, _n, _l in LONG_NAMES}
    five = [
        g
        for g in Game.objects.filter(kind="tarot", tournament_table__isnull=True)
        if g.seats.count() == 5 and {s.player.name for s in g.seats.all()} <= long
    ]
    assert len(five) == 1
    deals = Deal.objects.filter(game=five[0])
    assert deals.count() >= 5
    assert deals.filter(petit_au_bout="attack").exists()
    assert deals.filter(petit_au_bout="defence").exists()
    assert deals.exclude(chelem="none").exists()
    poignees = [p for d in deals for p in (d.poignees or [])]
    assert {"simple", "double", "triple"} <= {kind for _pk, kind in poignees}
    assert all(len(name) >= 20 for name in long)


def test_a_finished_tournament_and_one_running_with_a_round_partly_entered(club):
    finished = Tournament.objects.get(status=Status.FINISHED, format="free")
    assert not Table.objects.filter(tournament=finished, game__locked=False).exists()
    running = Tournament.objects.get(status=Status.RUNNING)
    tables = Table.objects.filter(tournament=running, round=running.current_round)
    assert running.current_round >= 2
    confirmed = [t for t in tables if t.game.locked]
    open_ = [t for t in tables if not t.game.locked]
    assert confirmed and open_
    assert any(0 < t.game.deals.count() < t.game.options["deals"] for t in open_)
    assert Tournament.objects.filter(status=Status.REGISTRATION).exists()


def test_a_finished_duplicate_tournament_with_every_board_graded(club):
    from tarotclub.tournaments import duplicate

    t = Tournament.objects.get(format="duplicate")
    assert t.status == Status.FINISHED
    g = duplicate.graded(t)
    assert len(g.scores) == 3 * 12  # 12 boards, each played at the 3 tables
    assert len({s for s in g.scores.values()}) > 3  # results differ from table to table
    assert len(g.session.alternating) == 12


def test_a_guest_plays_in_the_running_tournament(club):
    guest = Player.objects.get(name=GUEST)
    assert guest.guest
    running = Tournament.objects.get(status=Status.RUNNING)
    assert running.entries.filter(player=guest).exists()


def test_one_game_of_each_other_kind_with_rounds_played(club):
    for kind in ("foolsfaith", "deathspot", "keys", "cuckoo"):
        for game in Game.objects.filter(kind=kind):
            played = kinds.get(kind).load(game)
            assert len(played.entries) >= 2, kind
            assert played.state is not None and not played.error, kind


def test_a_cuckoo_match_is_played_to_its_end(club):
    """So that the Cuckoo standings and the player pages have figures to show (issue 13)."""
    over = [
        g for g in Game.objects.filter(kind="cuckoo") if kinds.get("cuckoo").load(g).state.finished
    ]
    assert len(over) == 1
    assert Game.objects.filter(kind="cuckoo").count() == 2


def test_the_fools_faith_winner_gave_challenge_cards(club):
    game = Game.objects.get(kind="foolsfaith")
    assert game.finished
    awards = ChallengeAward.objects.filter(game=game)
    assert awards.count() == 2
    assert all(a.text for a in awards)


def test_demo_club_if_empty_is_idempotent(club):
    counts = (Player.objects.count(), Game.objects.count(), Tournament.objects.count())
    out = load("--if-empty")
    assert "not loaded" in out
    assert (Player.objects.count(), Game.objects.count(), Tournament.objects.count()) == counts


def test_a_finished_quadrette_tournament_with_every_board_counted(club):
    from tarotclub.tournaments import quadrette

    t = Tournament.objects.get(format="quadrette")
    assert t.status == Status.FINISHED
    g = quadrette.graded(t)
    assert g.missing == [] and len(g.played) == 2 * 4 * 4
    assert sum(g.totals.values()) == 0 and any(g.totals.values())
