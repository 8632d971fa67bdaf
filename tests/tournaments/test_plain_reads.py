"""Issue 12: the reads of the standings, projector and director pages are plain SELECTs
(`core.sql`), no longer the ORM's querysets. Each is compared here with the queryset it
replaced, on tournaments holding what changes their rows: guests, a late registration, a
withdrawal, a renamed player, teams, a licence per entry, the average ranking, tables of five,
kept entries; and two tournaments read together (a player's page reads many)."""

from __future__ import annotations

import uuid
from collections import defaultdict

import pytest
from django.db.models import Count, F, Sum

from tarotclub.games.models import Game, RefusedEntry, Seat
from tarotclub.games.services import refused_entry_keep
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import DealLine
from tarotclub.players.models import Player
from tarotclub.players.services import player_create, player_update
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import SEAT_NAMES, Entry, Ranking, Table

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db


def tables(t, round_number):
    return list(Table.objects.filter(tournament=t, round=round_number).order_by("number"))


def busy(n_players: int, *, teams: bool = False, ranking: str = Ranking.TOTAL):
    """Round 1 played, round 2 under way (a table confirmed, one with a deal), a guest and a
    late player, a withdrawal, a renamed player, licences on some entries."""
    t, players = make_tournament(n_players, rounds=3, deals=2, ranking=ranking)
    if teams:
        for i, entry in enumerate(Entry.objects.filter(tournament=t).order_by("pk")):
            Entry.objects.filter(pk=entry.pk).update(team=f"Team <{i // 2}>")
    Entry.objects.filter(tournament=t, player=players[0]).update(licence="L<1>")
    services.entry_register(tournament=t, guest_name=f"Anne-Guest {n_players}")
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    first, second, *_ = tables(t, 2)
    play_table(first)
    play_table(second, points_for=lambda i: 20 + i, confirm=False)
    services.entry_withdraw(entry=Entry.objects.get(tournament=t, player=players[2]))
    services.entry_register(tournament=t, player=player_create(name=f"Late-Comer {n_players}"))
    player_update(player=players[1], name=f"Jean-Baptiste <b>&</b> Fils {n_players}")
    t.refresh_from_db()
    return t


def orm_standings_of(tournaments) -> dict:
    """`selectors.standings_of` as it read with the ORM (its three querysets)."""
    pks = [t.pk for t in tournaments]
    entries = defaultdict(list)
    for player in (
        Player.objects.filter(entries__tournament__in=pks)
        .annotate(
            entry_tournament=F("entries__tournament"),
            entry_licence=F("entries__licence"),
            entry_last=F("entries__last_round"),
            entry_team=F("entries__team"),
        )
        .order_by("entries__pk")
    ):
        entries[player.entry_tournament].append(player)
    per_round = defaultdict(dict)
    for t_pk, player, rnd, total in (
        DealLine.objects.filter(deal__game__tournament_table__tournament__in=pks)
        .values_list("deal__game__tournament_table__tournament", "player_id")
        .annotate(rnd=F("deal__game__tournament_table__round"), total=Sum("score"))
        .values_list("deal__game__tournament_table__tournament", "player_id", "rnd", "total")
    ):
        per_round[t_pk][player, rnd] = total
    seats = defaultdict(list)
    for t_pk, player, rnd, game in (
        Seat.objects.filter(game__tournament_table__tournament__in=pks)
        .order_by()
        .values_list(
            "game__tournament_table__tournament",
            "player_id",
            "game__tournament_table__round",
            "game_id",
        )
    ):
        seats[t_pk].append((player, rnd, game))
    return {
        t.pk: selectors._ranked(t, entries[t.pk], per_round[t.pk], seats[t.pk]) for t in tournaments
    }


def described(standings) -> list:
    fields = [f.attname for f in Player._meta.concrete_fields]
    rows = [
        (
            [getattr(r.player, f) for f in fields],
            r.licence,
            r.rounds,
            r.total,
            r.played,
            r.tops,
            r.best,
            r.withdrawn,
            r.rank,
            r.tied,
            r.average,
            r.team,
        )
        for r in standings.rows
    ]
    teams = [
        (x.name, x.total, x.rank, x.tied, [r.player.pk for r in x.members]) for x in standings.teams
    ]
    return [rows, standings.round_numbers, teams]


def test_the_standings_read_in_sql_are_the_orms():
    first = busy(12, teams=True)
    second = busy(10, ranking=Ranking.AVERAGE)
    empty, _ = make_tournament(0, rounds=2, deals=2)
    together = [first, second, empty]
    found, expected = selectors.standings_of(together), orm_standings_of(together)
    assert found.keys() == expected.keys()
    for t in together:
        assert described(found[t.pk]) == described(expected[t.pk])
    assert any(r.withdrawn for r in found[first.pk].rows)
    assert len(found[first.pk].teams) == 6
    assert described(selectors.standings(second)) == described(expected[second.pk])
    assert selectors.standings_of([]) == {}


def test_the_standings_sum_the_lines_of_a_table_whose_tally_is_not_current():
    """A round's scores come from its games' tallies while they are current (`Game.tally`),
    else from their deal lines: the same standings either way, and mixed, after a deal
    corrected and one undone at a table of the round under way."""
    t = busy(12, teams=True)
    first, second, *_ = tables(t, 2)
    game = second.game
    deal = game.deals.get(number=1)
    tarot.deal_correct(
        deal=deal,
        data=tarot.DealInput(taker=deal.taker_id, contract="garde", bouts=2, points=70),
        expected_version=deal.version,
    )
    tarot.deal_undo_last(game=game, number=game.deals.count())
    expected = described(orm_standings_of([t])[t.pk])
    assert described(selectors.standings(t)) == expected
    games = list(Game.objects.filter(tournament_table__tournament=t).order_by("pk"))
    assert all(g.current_tally is not None for g in games)  # as the services leave them
    # stale in each way a tally can be: behind the revision, without "rev", not a tally
    Game.objects.filter(pk=games[0].pk).update(revision=F("revision") + 1)
    Game.objects.filter(pk=second.game_id).update(tally={"count": 1, "totals": {}})
    Game.objects.filter(pk=games[-1].pk).update(tally=[1, 2])
    assert described(selectors.standings(t)) == expected
    Game.objects.update(revision=F("revision") + 1)  # every table stale
    assert described(selectors.standings(t)) == expected


def orm_round_tables(t, round_number) -> list[dict]:
    """`selectors.round_tables` as it read with the ORM."""
    rows = (
        Table.objects.filter(tournament=t, round=round_number)
        .order_by("number")
        .annotate(done=Count("game__deals"))
        .values_list(
            "pk", "number", "game_id", "game__token", "game__locked", "game__options", "done"
        )
    )
    seats = defaultdict(list)
    for game, position, pk, name, guest in (
        Seat.objects.filter(
            game__tournament_table__tournament=t, game__tournament_table__round=round_number
        )
        .order_by()
        .values_list("game_id", "position", "player_id", "player__name", "player__guest")
    ):
        seats[game].append((position, selectors.SeatedPlayer(pk=pk, name=name, guest=guest)))
    out = []
    for pk, number, game, token, locked, options, done in rows:
        state = "confirmed" if locked else "not_started" if done == 0 else "in_progress"
        out.append(
            {
                "table": selectors.RoundTable(pk=pk, number=number),
                "game": selectors.RoundGame(pk=game, token=token, locked=locked),
                "seats": [(SEAT_NAMES[pos], p) for pos, p in sorted(seats[game])],
                "done": done,
                "planned": (options or {}).get("deals") or 0,
                "state": state,
            }
        )
    return out


def test_a_rounds_tables_read_in_sql_are_the_orms():
    t = busy(14)  # 14 players: tables of five (the dealer sits out) and of four
    for round_number in (1, 2, 3):
        found = selectors.round_tables(t, round_number)
        assert found == orm_round_tables(t, round_number)
    states = {x["state"] for x in selectors.round_tables(t, 2)}
    assert states == {"confirmed", "in_progress", "not_started"}
    assert {type(x["game"].locked) for x in found} <= {bool}
    assert any(p.guest for x in selectors.round_tables(t, 2) for _, p in x["seats"])


def test_the_directors_entries_read_in_sql_are_the_orms():
    t = busy(9)
    expected = list(t.entries.select_related("player").order_by("player__name"))
    found = selectors.director_entries(t)
    assert [e.pk for e in found] == [e.pk for e in expected]
    for e, x in zip(found, expected, strict=True):
        assert (e.player.pk, e.player.name, e.player.guest) == (
            x.player.pk,
            x.player.name,
            x.player.guest,
        )
        for name in ("licence", "orientation", "start_table", "replaces_id", "first_round"):
            assert getattr(e, name) == getattr(x, name), name
        assert (e.last_round, e.withdrawn) == (x.last_round, x.withdrawn)
    assert any(e.withdrawn for e in found) and any(e.player.guest for e in found)
    assert any(e.first_round > 1 for e in found) and any(e.licence == "L<1>" for e in found)


def test_the_kept_entries_read_in_sql_are_the_orms():
    t = busy(8)
    assert selectors.kept_entries(t) == []
    confirmed = [x for x in tables(t, 1)] + [tables(t, 2)[0]]
    for table in reversed(confirmed):  # kept in another order than the tables'
        for number in (3, 4):
            refused_entry_keep(
                game=table.game,
                client_id=uuid.uuid4(),
                number=number,
                data={"taker": "1"},
                reason="The sheet is confirmed.",
                text=f"Garde <{number}>",
            )
    RefusedEntry.objects.filter(number=4, game=confirmed[0].game).update(outcome="discarded")
    expected = list(
        RefusedEntry.objects.filter(game__tournament_table__tournament=t, outcome="")
        .select_related("game__tournament_table")
        .order_by("game__tournament_table__round", "game__tournament_table__number", "pk")
    )
    found = selectors.kept_entries(t)
    assert len(found) == len(confirmed) * 2 - 1
    assert [e.pk for e in found] == [e.pk for e in expected]
    entry_fields = [f.attname for f in RefusedEntry._meta.concrete_fields]
    game_fields = [f.attname for f in type(found[0].game)._meta.concrete_fields]
    for e, x in zip(found, expected, strict=True):
        assert [getattr(e, f) for f in entry_fields] == [getattr(x, f) for f in entry_fields]
        assert [getattr(e.game, f) for f in game_fields] == [
            getattr(x.game, f) for f in game_fields
        ]
        table, other = e.game.tournament_table, x.game.tournament_table
        assert (table.pk, table.round, table.number, table.tournament_id) == (
            other.pk,
            other.round,
            other.number,
            other.tournament_id,
        )


def orm_round_progress(t, round_number) -> dict:
    """`selectors.round_progress` as it read with the ORM."""
    rows = (
        Table.objects.filter(tournament=t, round=round_number)
        .order_by()
        .annotate(done=Count("game__deals"))
        .values_list("game__locked", "game__options", "done")
    )
    progress = {"tables": 0, "confirmed": 0, "done": 0, "planned": 0}
    for locked, options, done in rows:
        progress["tables"] += 1
        progress["confirmed"] += bool(locked)
        progress["done"] += done
        progress["planned"] += (options or {}).get("deals") or 0
    return progress


def test_a_rounds_progress_read_in_sql_is_the_orms():
    t = busy(14)
    found = [selectors.round_progress(t, r) for r in (1, 2, 3, 4)]
    assert found == [orm_round_progress(t, r) for r in (1, 2, 3, 4)]
    assert found[1]["confirmed"] == 1 and 0 < found[1]["done"] < found[1]["planned"]
    assert found[3] == {"tables": 0, "confirmed": 0, "done": 0, "planned": 0}


def test_the_roster_to_register_read_in_sql_is_the_orms():
    from tarotclub.players.selectors import roster

    t = busy(8)
    other, _ = make_tournament(3, rounds=1, deals=1)  # registered elsewhere: still offered
    for name, active, guest in (
        ("Zoé Active", True, False),
        ("Ana Inactive", False, False),
        ("Bob Guest", True, True),
        ("élise Lower", True, False),  # by name key: with Élodie, not after Zoé
        ("Élodie Upper", True, False),
    ):
        Player.objects.create(name=name, active=active, guest=guest)
    expected = list(roster().exclude(entries__tournament=t).order_by("name_key", "pk"))
    found = selectors.roster_to_register(t)
    assert [p.pk for p in found] == [p.pk for p in expected]
    fields = [f.attname for f in Player._meta.concrete_fields]
    assert [[getattr(p, f) for f in fields] for p in found] == [
        [getattr(p, f) for f in fields] for p in expected
    ]
    assert [str(p) for p in found] == [str(p) for p in expected]
    assert len(found) == 3 + 3  # the other tournament's three, Zoé, Élise and Élodie
    assert [p.name for p in found][:2] == ["élise Lower", "Élodie Upper"]
