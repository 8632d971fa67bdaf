"""games_start: many games at once (a tournament round), the checks of game_start for each,
all or none, in a constant number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tarotclub.games import services
from tarotclub.games.models import Game, Seat
from tarotclub.players.models import Player

pytestmark = pytest.mark.django_db


def roster(n: int) -> list[Player]:
    return Player.objects.bulk_create(Player(name=f"P{i:04d}") for i in range(n))


def tables(players, size=4, **extra):
    return [
        {"players": players[i : i + size], "name": f"T{i // size + 1}", **extra}
        for i in range(0, len(players), size)
    ]


@pytest.mark.parametrize("n_tables", [2, 60])
@pytest.mark.parametrize("house_rules", [False, True])
def test_many_games_in_a_constant_number_of_queries(n_tables, house_rules):
    players = roster(4 * n_tables)
    # A tournament's tables bring the tournament's house rules; other games read the club's.
    options = {"deals": 3, "house": {}} if house_rules else {"deals": 3}
    with CaptureQueriesContext(connection) as ctx:
        games = services.games_start(tables=tables(players, options=options))
    statements = [
        q for q in ctx.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]
    # (the club's house rules,) the players' existence, the games, the seats
    assert len(statements) == (3 if house_rules else 4)
    assert [g.name for g in games] == [f"T{i}" for i in range(1, n_tables + 1)]
    assert len({g.token for g in games}) == n_tables
    for i, game in enumerate(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk")):
        seats = Seat.objects.filter(game=game).order_by("position")
        assert [s.player_id for s in seats] == [p.pk for p in players[4 * i : 4 * i + 4]]
        assert game.options == options and game.kind == "tarot"


@pytest.mark.parametrize(
    "spoil, message",
    [
        (
            lambda t, ps: t[2].update(players=[ps[0], ps[0], ps[1], ps[2]]),
            services.ERR_DUPLICATE_PLAYER,
        ),
        (lambda t, ps: t[1].update(kind="chess"), services.ERR_KIND),
        (lambda t, ps: t[0].update(first_dealer=4), services.ERR_FIRST_DEALER),
        (lambda t, ps: ps[5].delete(), services.ERR_UNKNOWN_PLAYER),
    ],
)
def test_one_bad_table_starts_none(spoil, message):
    players = roster(16)
    todo = tables(players)
    spoil(todo, players)
    with pytest.raises(services.GameError) as exc:
        services.games_start(tables=todo)
    assert exc.value.messages == [str(message)]
    assert not Game.objects.exists() and not Seat.objects.exists()


def test_a_table_size_the_kind_refuses_starts_none():
    players = roster(9)
    with pytest.raises(services.GameError):
        services.games_start(tables=[{"players": players[:4]}, {"players": players[4:6]}])
    assert not Game.objects.exists()
