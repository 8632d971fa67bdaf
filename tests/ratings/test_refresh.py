"""The stored ratings always equal a rating of the stored deals made from scratch."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction

import pytest
from django.db.models import Sum
from django.utils import timezone

from scoring.ratings import Table, rate
from tarotclub.games import services as games
from tarotclub.games.models import Game
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import DealLine
from tarotclub.players.services import player_create
from tarotclub.ratings import selectors, services
from tarotclub.ratings.models import PlayerRating, RatingEvent
from tarotclub.tournaments import services as tournaments
from tarotclub.tournaments.models import Table as EventTable

from ..tournaments.helpers import make_tournament

pytestmark = pytest.mark.django_db

CONTRACTS = ("prise", "garde", "garde_sans")


def deal(game, rnd: random.Random, players):
    dealer = tarot.dealer_for(game, game.deals.count() + 1, players)
    takers = [p for p in players if p.pk != dealer.pk]
    data = tarot.DealInput(
        taker=rnd.choice(takers).pk,
        contract=rnd.choice(CONTRACTS),
        bouts=rnd.randrange(4),
        points=Fraction(rnd.randrange(20, 72)),
    )
    return tarot.deal_add(game=game, data=data)


def casual(players, rnd, *, deals=3, finish=True, when=None):
    from tarotclub.games import selectors as game_selectors

    game = games.game_start(players=players, first_dealer=0)
    if when is not None:
        Game.objects.filter(pk=game.pk).update(created_at=when)
        game.refresh_from_db()
    seated = game_selectors.seat_players(game)
    for _ in range(deals):
        deal(game, rnd, seated)
    if finish:
        games.game_finish(game=game)
    return game


def brute_force() -> dict[int, tuple[float, float, int]]:
    """Every counting game's totals read again, rated from scratch in created order."""
    tables = []
    for game in Game.objects.filter(kind="tarot").order_by("created_at", "pk"):
        if game.archived_at or not (game.finished_at or game.locked):
            continue
        if not game.deals.exists():
            continue
        totals = {s.player_id: 0 for s in game.seats.all()}
        for line in (
            DealLine.objects.filter(deal__game=game).values("player").annotate(t=Sum("score"))
        ):
            totals[line["player"]] = line["t"]
        tables.append(Table(game.pk, totals))
    updates, skills = rate(tables)
    count: dict[int, int] = {}
    for u in updates:
        count[u.player] = count.get(u.player, 0) + 1
    return {p: (s.mu, s.sigma, count[p]) for p, s in skills.items()}


def stored() -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}


def assert_fresh():
    services.ratings_refresh()
    assert selectors.stale_from() is None
    expected, got = brute_force(), stored()
    assert got.keys() == expected.keys()
    for p, (mu, sigma, n) in expected.items():
        assert got[p][0] == pytest.approx(mu, abs=1e-9)
        assert got[p][1] == pytest.approx(sigma, abs=1e-9)
        assert got[p][2] == n


@pytest.fixture
def club():
    return [player_create(name=f"Player {i:02}") for i in range(9)]


def test_only_finished_games_with_deals_count(club):
    rnd = random.Random(1)
    done = casual(club[:4], rnd)
    casual(club[4:8], rnd, finish=False)  # still being played
    empty = games.game_start(players=club[:3], first_dealer=0)
    games.game_finish(game=empty)  # finished without a deal
    services.ratings_refresh()
    assert set(RatingEvent.objects.values_list("game_id", flat=True)) == {done.pk}
    assert set(stored()) == {p.pk for p in club[:4]}
    assert_fresh()


def test_nothing_to_do_when_nothing_changed(club, django_assert_num_queries):
    casual(club[:4], random.Random(2))
    assert services.ratings_refresh().games == 1
    with django_assert_num_queries(2):  # the two staleness reads, no write, no lock
        assert services.ratings_refresh() == services.Refresh(0, 0)


def play(table_games, rnd, deals=4):
    from tarotclub.games import selectors as game_selectors

    for game in table_games:
        seated = game_selectors.seat_players(game)
        for _ in range(deals):
            deal(game, rnd, seated)


def test_a_directors_correction_rates_that_table_and_every_later_game_again(director):
    rnd = random.Random(3)
    t, _players = make_tournament(12, rounds=2)
    t = tournaments.tournament_start(tournament=t)
    first_round = [x.game for x in EventTable.objects.filter(tournament=t, round=1)]
    play(first_round, rnd)
    t = tournaments.tournament_next_round(tournament=t, force=True, user=director)
    play([x.game for x in EventTable.objects.filter(tournament=t, round=2)], rnd)
    for table in EventTable.objects.filter(tournament=t, round=2):
        tournaments.table_confirm(table=table, user=director)
    services.ratings_refresh()
    before = stored()
    game = Game.objects.get(pk=first_round[1].pk)
    first = game.deals.get(number=1)
    data = tarot.DealInput(taker=first.taker_id, contract="garde_contre", bouts=3, points=80)
    tarot.deal_correct(deal=first, data=data, expected_version=first.version, user=director)
    key = (game.created_at, game.pk)
    assert selectors.stale_from() == key
    later = selectors.rated_games().filter(selectors._after(key, at="created_at", pk="pk"))
    assert services.ratings_refresh().games == later.count() >= 4  # it and round 2's three
    assert stored() != before
    assert_fresh()


def event(director, rnd, players=12, rounds=2):
    """A tournament whose first round is played and confirmed."""
    t, _players = make_tournament(players, rounds=rounds)
    t = tournaments.tournament_start(tournament=t)
    tables = list(EventTable.objects.filter(tournament=t, round=1).select_related("game"))
    play([x.game for x in tables], rnd)
    for table in tables:
        tournaments.table_confirm(table=table, user=director)
    return t, tables


def test_archiving_unlocking_and_undoing_take_a_game_out(club, director):
    rnd = random.Random(4)
    a = casual(club[:4], rnd)
    _t, tables = event(director, rnd)
    assert_fresh()
    games.game_archive(game=a, user=director)
    assert_fresh()
    assert not RatingEvent.objects.filter(game=a).exists()
    games.game_restore(game=a, user=director)
    assert_fresh()
    assert RatingEvent.objects.filter(game=a).count() == 4
    tournaments.table_unlock(table=tables[0], user=director)
    assert_fresh()
    assert not RatingEvent.objects.filter(game=tables[0].game).exists()
    tournaments.table_confirm(table=tables[0], user=director)
    game = tables[1].game
    for number in (4, 3, 2, 1):  # the director takes every deal back: nothing left to rate
        tarot.deal_undo_last(game=game, number=number, user=director)
    assert_fresh()
    assert not RatingEvent.objects.filter(game=game).exists()
    assert RatingEvent.objects.filter(game=tables[0].game).count() == 4


def test_an_earlier_game_finished_late_is_rated_in_its_place(club):
    rnd = random.Random(5)
    now = timezone.now()
    late = casual(club[:4], rnd, finish=False, when=now - dt.timedelta(hours=5))
    casual(club[2:6], rnd, when=now - dt.timedelta(hours=4))
    casual(club[:4], rnd, when=now - dt.timedelta(hours=3))
    assert_fresh()
    games.game_finish(game=late)
    assert selectors.stale_from() == (late.created_at, late.pk)
    assert_fresh()
    first = RatingEvent.objects.order_by("at", "game_id").first()
    assert first.game_id == late.pk


def test_a_confirmed_tournament_table_counts(director):
    t, _players = make_tournament(8, rounds=2)
    t = tournaments.tournament_start(tournament=t)
    rnd = random.Random(6)
    from tarotclub.games import selectors as game_selectors

    tables = list(EventTable.objects.filter(tournament=t, round=1).select_related("game"))
    for table in tables:
        seated = game_selectors.seat_players(table.game)
        for _ in range(4):
            deal(table.game, rnd, seated)
    tournaments.table_confirm(table=tables[0], user=director)
    services.ratings_refresh()
    assert set(RatingEvent.objects.values_list("game_id", flat=True)) == {tables[0].game_id}
    tournaments.tournament_next_round(tournament=t, force=True, user=director)
    assert_fresh()
    assert RatingEvent.objects.values("game_id").distinct().count() == len(tables)


def test_random_sequences_of_writes_keep_the_ratings_exact(club, director):
    rnd = random.Random(7)
    _t, tables = event(director, rnd, players=16)
    made = []
    for step in range(40):
        what = rnd.random()
        if what < 0.35 or not made:
            made.append(casual(rnd.sample(club, rnd.choice((3, 4, 5))), rnd, deals=2))
        elif what < 0.55:
            game = Game.objects.get(pk=rnd.choice(made).pk)
            if game.archived_at:
                games.game_restore(game=game, user=director)
            else:
                games.game_archive(game=game, user=director)
        elif what < 0.8:  # the director corrects a confirmed table
            game = rnd.choice(tables).game
            d = game.deals.order_by("?").first()
            if d is not None:
                data = tarot.DealInput(
                    taker=d.taker_id,
                    contract="garde",
                    bouts=rnd.randrange(4),
                    points=rnd.randrange(10, 80),
                )
                tarot.deal_correct(deal=d, data=data, expected_version=d.version, user=director)
        elif what < 0.9:
            game = rnd.choice(tables).game
            last = game.deals.order_by("-number").first()
            if last is not None:
                tarot.deal_undo_last(game=game, number=last.number, user=director)
        else:
            table = rnd.choice(tables)
            table.game.refresh_from_db()
            if table.game.locked:
                tournaments.table_unlock(table=table, user=director)
            elif table.game.deals.count() == 4:
                tournaments.table_confirm(table=table, user=director)
        if step % 4 == 3:
            assert_fresh()
    assert_fresh()


def test_a_full_recompute_gives_what_the_refreshes_gave(club):
    rnd = random.Random(8)
    for _ in range(6):
        casual(rnd.sample(club, 4), rnd)
        services.ratings_refresh()
    kept = {(e.game_id, e.player_id): (e.mu, e.sigma, e.place) for e in RatingEvent.objects.all()}
    done = services.ratings_refresh(full=True)
    assert done.games == 6 and done.events == 24
    again = {(e.game_id, e.player_id): (e.mu, e.sigma, e.place) for e in RatingEvent.objects.all()}
    assert again.keys() == kept.keys()
    for k, (mu, sigma, place) in kept.items():
        assert again[k][0] == pytest.approx(mu) and again[k][1] == pytest.approx(sigma)
        assert again[k][2] == place
