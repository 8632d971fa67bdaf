"""The tournament from registration to the last round, through the services."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from tarotclub.games import services as games
from tarotclub.games.models import Seat
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import Status, Table
from tarotclub.tournaments.seating import count_repeats
from tarotclub.tournaments.services import TournamentError

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db


def seated(t, round_number) -> list[list[int]]:
    out = []
    for table in Table.objects.filter(tournament=t, round=round_number).order_by("number"):
        seats = Seat.objects.filter(game=table.game).order_by("position")
        out.append([s.player_id for s in seats])
    return out


def test_create_refuses_bad_settings():
    for kwargs in [dict(name=" "), dict(rounds=0), dict(rounds=21), dict(deals_per_round=0)]:
        data = dict(name="Cup", date=dt.date(2026, 1, 1), rounds=5, deals_per_round=4) | kwargs
        with pytest.raises(TournamentError):
            services.tournament_create(**data)


def test_register_twice_and_start_needs_four(make_players):
    t, players = make_tournament(3)
    with pytest.raises(TournamentError) as e:
        services.entry_register(tournament=t, player=players[0])
    assert "already registered" in e.value.messages[0]
    with pytest.raises(TournamentError) as e:
        services.tournament_start(tournament=t)
    assert "At least 4" in e.value.messages[0]
    guest = services.entry_register(tournament=t, guest_name="Guest Star", licence="G1")
    assert guest.player.guest and guest.licence == "G1"
    services.tournament_start(tournament=t)


@pytest.mark.parametrize("n, sizes", [(16, [4] * 4), (18, [5, 5, 4, 4]), (13, [5, 4, 4])])
def test_start_seats_everybody_once_with_five_deal_tables_of_five(n, sizes):
    t, players = make_tournament(n)
    t = services.tournament_start(tournament=t)
    tables = seated(t, 1)
    assert sorted(len(x) for x in tables) == sorted(sizes)
    assert sorted(pk for x in tables for pk in x) == sorted(p.pk for p in players)
    for table in Table.objects.filter(tournament=t):
        size = table.game.seats.count()
        assert table.game.dealer_sits_out == (size == 5)
        assert table.game.options["deals"] == (5 if size == 5 else 4)
    assert t.status == Status.RUNNING and t.current_round == 1 and len(t.plan) == 4


def test_sixteen_players_never_meet_twice():
    t, _ = make_tournament(16)
    t = services.tournament_start(tournament=t)
    for _round in range(5):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    assert t.status == Status.FINISHED
    assert count_repeats([seated(t, r) for r in range(1, 6)]) == 0


def test_confirm_needs_every_deal_and_locks_the_sheet(director):
    t, _ = make_tournament(16)
    t = services.tournament_start(tournament=t)
    table = Table.objects.filter(tournament=t).first()
    play_table(table, confirm=False)
    game = table.game
    tarot.deal_undo_last(game=game, number=4)
    with pytest.raises(TournamentError) as e:
        services.table_confirm(table=table)
    assert "3 of 4" in e.value.messages[0]
    play_table(table)
    game.refresh_from_db()
    assert game.locked
    deal = game.deals.get(number=1)
    data = tarot.DealInput(taker=deal.taker_id, contract="garde", bouts=1, points=60)
    with pytest.raises(games.GameError):  # the table's link can no longer change it
        tarot.deal_correct(deal=deal, data=data, expected_version=1)
    with pytest.raises(games.GameError):  # nor add a deal
        tarot.deal_add(game=game, data=data)
    # the director corrects a deal: kept in the history like every correction
    tarot.deal_correct(deal=deal, data=data, expected_version=1, user=director)
    assert Deal.objects.get(pk=deal.pk).contract == "garde"
    assert game.changes.filter(action="corrected").exists()
    services.table_unlock(table=table, user=director)
    game.refresh_from_db()
    assert not game.locked


def test_next_round_waits_for_tables_unless_forced():
    t, _ = make_tournament(16)
    t = services.tournament_start(tournament=t)
    tables = list(Table.objects.filter(tournament=t, round=1))
    play_table(tables[0])
    with pytest.raises(TournamentError) as e:
        services.tournament_next_round(tournament=t)
    assert "2, 3, 4" in e.value.messages[0]
    t = services.tournament_next_round(tournament=t, force=True)
    assert t.current_round == 2
    assert all(x.game.locked for x in Table.objects.filter(tournament=t, round=1))


def test_late_player_and_withdrawal_change_the_next_rounds():
    t, players = make_tournament(16)
    t = services.tournament_start(tournament=t)
    late = services.entry_register(tournament=t, guest_name="Late Comer")
    assert late.first_round == 2
    gone = t.entries.get(player=players[3])
    services.entry_withdraw(entry=gone)
    assert players[3].pk in [pk for x in seated(t, 1) for pk in x]  # round 1 stays
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    round2 = [pk for x in seated(t, 2) for pk in x]
    assert late.player_id in round2 and players[3].pk not in round2
    assert len(round2) == 16 and len(set(round2)) == 16
    # the withdrawn player's scores stay in the standings
    rows = {r.player.pk: r for r in selectors.standings(t).rows}
    assert rows[players[3].pk].played == 1 and rows[players[3].pk].withdrawn


def test_redraw_only_before_any_deal():
    t, _ = make_tournament(20)
    t = services.tournament_start(tournament=t)
    before = seated(t, 1)
    t = services.round_redraw(tournament=t)
    after = seated(t, 1)
    assert sorted(map(sorted, before)) != sorted(map(sorted, after))
    assert sorted(pk for x in after for pk in x) == sorted(pk for x in before for pk in x)
    play_table(Table.objects.filter(tournament=t, round=1).first(), confirm=False)
    with pytest.raises(TournamentError):
        services.round_redraw(tournament=t)


def test_the_plan_is_reproducible_from_the_seed():
    a, _ = make_tournament(24)
    b, _ = make_tournament(24)
    b.seed = a.seed
    b.save()
    a = services.tournament_start(tournament=a)
    b = services.tournament_start(tournament=b)
    index_a = {p: i for i, p in enumerate(sorted(e.player_id for e in a.entries.all()))}
    index_b = {p: i for i, p in enumerate(sorted(e.player_id for e in b.entries.all()))}
    shape_a = [[index_a[p] for p in x] for x in seated(a, 1)]
    shape_b = [[index_b[p] for p in x] for x in seated(b, 1)]
    assert shape_a == shape_b


def test_every_round_seats_each_present_player_once():
    t, players = make_tournament(22)
    t = services.tournament_start(tournament=t)
    for r in range(1, 6):
        counts = Counter(pk for x in seated(t, r) for pk in x)
        assert set(counts.values()) == {1} and len(counts) == 22
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    assert t.status == Status.FINISHED


def test_a_tournament_created_with_a_seed_keeps_it(db):
    fixed = services.tournament_create(name="Seeded", date=dt.date(2026, 12, 1), seed=20261206)
    drawn = services.tournament_create(name="Drawn", date=dt.date(2026, 12, 1))
    assert fixed.seed == 20261206
    assert drawn.seed != 20261206 and drawn.seed > 0
