"""A player's French Tarot statistics against a plain recount of the stored deals.

Random deals are entered through the service at random tables (3, 4, 5 players, and a table
of five where the dealer sits out); the page's figures (one query of compact rows, then the
pure `players.stats`) must equal a recount that reads every stored deal and line one by one.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarotclub.games.services import GameError, game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal
from tarotclub.players import selectors, stats
from tarotclub.players.services import player_create

pytestmark = pytest.mark.django_db

CONTRACTS = ["prise", "garde", "garde_sans", "garde_contre"]
deal_inputs = st.fixed_dictionaries(
    {
        "taker": st.integers(0, 4),
        "partner": st.one_of(st.none(), st.integers(0, 4)),
        "contract": st.sampled_from(CONTRACTS),
        "bouts": st.integers(0, 3),
        "points": st.integers(0, 182),
        "petit": st.sampled_from(["", "", "attack", "defence"]),
        "poignee": st.one_of(
            st.none(), st.tuples(st.integers(0, 4), st.sampled_from(["simple", "double"]))
        ),
        "chelem": st.sampled_from(["none"] * 6 + ["announced_made", "announced_failed"]),
    }
)
tables = st.sampled_from([(3, False), (4, False), (5, False), (5, True)])
games = st.lists(st.tuples(tables, st.lists(deal_inputs, max_size=8)), min_size=1, max_size=4)


def enter(game, players, spec) -> None:
    """Enter the deal if the rules allow it (a random deal that cannot happen is skipped)."""
    seated = players[: len(game.seats.all())]
    pick = lambda i: seated[i % len(seated)]  # noqa: E731
    partner = pick(spec["partner"]).pk if spec["partner"] is not None and len(seated) == 5 else None
    poignees = [(pick(spec["poignee"][0]).pk, spec["poignee"][1])] if spec["poignee"] else []
    bouts = spec["bouts"]
    low, high = 9 * bouts, 182 - 9 * (3 - bouts)
    try:
        with transaction.atomic():
            tarot.deal_add(
                game=game,
                data=tarot.DealInput(
                    taker=pick(spec["taker"]).pk,
                    partner=partner,
                    contract=spec["contract"],
                    bouts=bouts,
                    points=Fraction(low + spec["points"] % (high - low + 1), 2),
                    petit_au_bout=spec["petit"] or None,
                    poignees=poignees,
                    chelem=spec["chelem"],
                ),
            )
    except GameError:
        pass


def recount(player) -> dict:
    """The figures, read deal by deal from the stored rows (no shared code with the page)."""
    deals = []
    for deal in Deal.objects.filter(lines__player=player).order_by("created_at", "pk"):
        lines = {line.player_id: line.score for line in deal.lines.all()}
        if deal.game.dealer_sits_out and deal.dealer_id == player.pk:
            continue
        deals.append((deal, lines))
    out = {
        "deals": len(deals),
        "total": 0,
        "roles": {"taker": [0, 0], "partner": [0, 0], "defender": [0, 0]},
        "contracts": {c: [0, 0] for c in CONTRACTS},
        "petit": [0, 0],
        "poignees": {"simple": [0, 0], "double": [0, 0], "triple": [0, 0]},
        "announced": [0, 0],
        "by_size": {3: 0, 4: 0, 5: 0},
        "best": None,
        "worst": None,
        "run": 0,
    }
    takes = ""
    for deal, lines in deals:
        score = lines[player.pk]
        size = len(lines) - (1 if deal.game.dealer_sits_out else 0)
        out["by_size"][size] += 1
        out["total"] += score
        if deal.taker_id == player.pk:
            role = "taker"
        elif deal.partner_id == player.pk:
            role = "partner"
        else:
            role = "defender"
        out["roles"][role][0] += 1
        out["roles"][role][1] += score
        in_attack = role != "defender"
        mine_won = deal.won == in_attack
        if role == "taker":
            out["contracts"][deal.contract][0] += 1
            out["contracts"][deal.contract][1] += int(deal.won)
            takes += "W" if deal.won else "L"
        if deal.petit_au_bout:
            out["petit"][0] += 1
            out["petit"][1] += int((deal.petit_au_bout == "attack") == in_attack)
        for pk, kind in deal.poignees:
            if pk == player.pk:
                out["poignees"][kind][0] += 1
                out["poignees"][kind][1] += int(mine_won)
        if in_attack and deal.chelem.startswith("announced"):
            out["announced"][0] += 1
            out["announced"][1] += int(deal.chelem == "announced_made")
        out["best"] = score if out["best"] is None else max(out["best"], score)
        out["worst"] = score if out["worst"] is None else min(out["worst"], score)
    out["run"] = max((len(run) for run in takes.split("L")), default=0)
    return out


def figures(s: stats.TarotStats) -> dict:
    return {
        "deals": s.deals,
        "total": s.total,
        "roles": {r: [f.deals, f.total] for r, f in s.roles.items()},
        "contracts": {c: [f.taken, f.won] for c, f in s.contracts.items()},
        "petit": [s.petit_au_bout.count, s.petit_au_bout.success],
        "poignees": {k: [c.count, c.success] for k, c in s.poignees.items()},
        "announced": [s.chelem_announced.count, s.chelem_announced.success],
        "by_size": s.by_size,
        "best": s.best.score if s.best else None,
        "worst": s.worst.score if s.worst else None,
        "run": s.longest_won_run,
    }


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(played=games)
def test_the_figures_equal_a_recount_of_the_stored_deals(played):
    with transaction.atomic():
        players = [player_create(name=n) for n in ("Anne", "Bram", "Chloé", "Dirk", "Eva")]
        for (size, sits_out), specs in played:
            game = game_start(players=players[:size], dealer_sits_out=sits_out)
            for spec in specs:
                enter(game, players, spec)
        for player in players:
            rows = selectors.tarot_rows(player)
            assert figures(stats.tarot_stats(rows)) == recount(player)
            for size in (3, 4, 5):
                assert stats.tarot_stats(rows, size=size).deals == recount(player)["by_size"][size]
        transaction.set_rollback(True)


def row(score=0, *, role=stats.TAKER, won=True, day=None, deal=1, size=4, **kw):
    import datetime as dt

    return stats.DealRow(
        deal=deal,
        game=1,
        number=deal,
        day=day or dt.date(2026, 1, 1),
        size=size,
        role=role,
        contract=kw.pop("contract", "garde"),
        won=won,
        score=score,
        **kw,
    )


def test_a_run_of_won_takes_is_not_broken_by_deals_taken_by_others():
    rows = [
        row(50, won=True, deal=1),
        row(-20, role=stats.DEFENDER, won=True, deal=2),  # another player took and won
        row(50, won=True, deal=3),
        row(-100, won=False, deal=4),
        row(50, won=True, deal=5),
    ]
    assert stats.tarot_stats(rows).longest_won_run == 2


def test_averages_and_shares_per_role():
    rows = [
        row(60, deal=1),
        row(-20, role=stats.DEFENDER, deal=2),
        row(-30, role=stats.DEFENDER, deal=3, won=False),
        row(30, role=stats.PARTNER, deal=4, size=5),
    ]
    s = stats.tarot_stats(rows)
    assert s.share(stats.DEFENDER) == Fraction(1, 2)
    assert s.roles[stats.DEFENDER].average == -25
    assert s.roles[stats.DEFENDER].won == 1  # the defence beat the attack in deal 3
    assert s.roles[stats.PARTNER].average == 30
    assert s.best.deal == 1 and s.worst.deal == 3
    assert stats.tarot_stats(rows, size=5).deals == 1
    assert stats.tarot_stats(rows, size=5).by_size == {3: 0, 4: 3, 5: 1}


def test_the_cumulative_score_sums_each_day():
    import datetime as dt

    d1, d2 = dt.date(2026, 1, 1), dt.date(2026, 1, 8)
    rows = [row(10, day=d1, deal=1), row(-30, day=d1, deal=2), row(5, day=d2, deal=3)]
    assert stats.tarot_stats(rows).cumulative == [(d1, -20), (d2, -15)]


def test_head_to_head_counts_only_shared_deals():
    mine = [row(50, deal=1), row(-10, role=stats.DEFENDER, deal=2, won=False), row(5, deal=3)]
    theirs = [row(-50, role=stats.DEFENDER, deal=1), row(30, deal=2, won=False)]
    h = stats.head_to_head(mine, theirs)
    assert (h.deals, h.first_total, h.second_total) == (2, 40, -20)
    assert (h.first_ahead, h.second_ahead, h.together) == (1, 1, 0)
