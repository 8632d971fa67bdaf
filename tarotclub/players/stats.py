"""A player's French Tarot statistics, from compact rows: pure Python, no Django.

The selector (`players.selectors.tarot_rows`) reads one `DealRow` per deal the player played
in one query; everything here is computed from those rows, so the tests can feed random deals
and compare with a plain recount of the stored ones.

Vocabulary: the *attack* is the taker and, at five, the called partner; the player's *side*
wins when the attack wins and they were in it, or the attack loses and they defended.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.fft import Chelem, Contract, Poignee, Side

TAKER = "taker"
PARTNER = "partner"
DEFENDER = "defender"
ROLES = (TAKER, PARTNER, DEFENDER)
CONTRACTS = tuple(c.value for c in Contract)
POIGNEES = tuple(p.value for p in Poignee)
SIZES = (3, 4, 5)


@dataclass(frozen=True)
class DealRow:
    """One deal as one player played it."""

    deal: int  # the deal's pk
    game: int  # the game's pk
    number: int  # the deal's number in its game
    day: dt.date
    size: int  # players in the deal (a dealer sitting out does not count)
    role: str  # TAKER, PARTNER or DEFENDER
    contract: str
    won: bool  # the attack won the contract
    score: int  # the player's score for the deal
    petit_au_bout: str = ""  # "", "attack" or "defence": the side that took it
    poignees: tuple[str, ...] = ()  # the poignées this player declared
    chelem: str = Chelem.NONE.value

    @property
    def attack(self) -> bool:
        return self.role in (TAKER, PARTNER)

    @property
    def side_won(self) -> bool:
        return self.won if self.attack else not self.won


def role_of(player: int, *, taker: int, partner: int | None) -> str:
    """The player's role in a deal they played (a taker who calls themselves plays alone)."""
    if player == taker:
        return TAKER
    if partner is not None and player == partner:
        return PARTNER
    return DEFENDER


def declared(poignees: Iterable, player: int) -> tuple[str, ...]:
    """The poignées of a stored deal's list ([[player pk, kind], ...]) that `player` declared."""
    return tuple(str(kind) for pk, kind in (poignees or ()) if pk == player)


@dataclass
class RoleFigures:
    deals: int = 0
    total: int = 0
    won: int = 0  # deals the player's side won

    @property
    def average(self) -> Fraction | None:
        return Fraction(self.total, self.deals) if self.deals else None


@dataclass
class ContractFigures:
    contract: str
    taken: int = 0
    won: int = 0

    @property
    def rate(self) -> Fraction | None:
        return Fraction(self.won, self.taken) if self.taken else None


@dataclass
class Count:
    """How often something happened, and how often it went the player's way."""

    count: int = 0
    success: int = 0

    @property
    def rate(self) -> Fraction | None:
        return Fraction(self.success, self.count) if self.count else None


@dataclass
class TarotStats:
    deals: int = 0
    total: int = 0
    roles: dict[str, RoleFigures] = field(default_factory=lambda: {r: RoleFigures() for r in ROLES})
    contracts: dict[str, ContractFigures] = field(
        default_factory=lambda: {c: ContractFigures(c) for c in CONTRACTS}
    )
    #: Deals with a petit au bout: count, and success = the player's side took it.
    petit_au_bout: Count = field(default_factory=Count)
    #: Poignées the player declared, by kind: success = the player's side won the contract.
    poignees: dict[str, Count] = field(default_factory=lambda: {p: Count() for p in POIGNEES})
    #: Slams the player's attack announced: success = made.
    chelem_announced: Count = field(default_factory=Count)
    #: Slams made without announcing them, by the player's attack.
    chelem_unannounced: int = 0
    #: Defence slams in deals the player played: success = the player defended.
    chelem_defence: Count = field(default_factory=Count)
    best: DealRow | None = None
    worst: DealRow | None = None
    longest_won_run: int = 0  # the most takes won in a row
    by_size: dict[int, int] = field(default_factory=lambda: dict.fromkeys(SIZES, 0))
    cumulative: list[tuple[dt.date, int]] = field(default_factory=list)  # per day

    def share(self, role: str) -> Fraction | None:
        return Fraction(self.roles[role].deals, self.deals) if self.deals else None

    @property
    def takes(self) -> int:
        return self.roles[TAKER].deals

    @property
    def contracts_taken(self) -> list[ContractFigures]:
        return [c for c in self.contracts.values() if c.taken]


def filter_rows(
    rows: Iterable[DealRow],
    *,
    size: int | None = None,
    date_from: dt.date | None = None,
    date_to: dt.date | None = None,
) -> list[DealRow]:
    return [
        r
        for r in rows
        if (size is None or r.size == size)
        and (date_from is None or r.day >= date_from)
        and (date_to is None or r.day <= date_to)
    ]


def tarot_stats(rows: Sequence[DealRow], *, size: int | None = None) -> TarotStats:
    """The figures of these rows (in the order played), restricted to a table size if given;
    `by_size` always counts every row given."""
    stats = TarotStats()
    for r in rows:
        if r.size in stats.by_size:
            stats.by_size[r.size] += 1
    run = 0
    daily: dict[dt.date, int] = {}
    for r in rows:
        if size is not None and r.size != size:
            continue
        stats.deals += 1
        stats.total += r.score
        role = stats.roles[r.role]
        role.deals += 1
        role.total += r.score
        role.won += r.side_won
        if r.role == TAKER:
            figures = stats.contracts.setdefault(r.contract, ContractFigures(r.contract))
            figures.taken += 1
            figures.won += r.won
            run = run + 1 if r.won else 0
            stats.longest_won_run = max(stats.longest_won_run, run)
        if r.petit_au_bout:
            stats.petit_au_bout.count += 1
            mine = Side.ATTACK.value if r.attack else Side.DEFENCE.value
            stats.petit_au_bout.success += r.petit_au_bout == mine
        for kind in r.poignees:
            count = stats.poignees.setdefault(kind, Count())
            count.count += 1
            count.success += r.side_won
        if r.attack and r.chelem in (Chelem.ANNOUNCED_MADE, Chelem.ANNOUNCED_FAILED):
            stats.chelem_announced.count += 1
            stats.chelem_announced.success += r.chelem == Chelem.ANNOUNCED_MADE
        if r.attack and r.chelem == Chelem.UNANNOUNCED_MADE:
            stats.chelem_unannounced += 1
        if r.chelem == Chelem.DEFENCE:
            stats.chelem_defence.count += 1
            stats.chelem_defence.success += not r.attack
        if stats.best is None or r.score > stats.best.score:
            stats.best = r
        if stats.worst is None or r.score < stats.worst.score:
            stats.worst = r
        daily[r.day] = daily.get(r.day, 0) + r.score
    running = 0
    for day in sorted(daily):
        running += daily[day]
        stats.cumulative.append((day, running))
    return stats


@dataclass
class HeadToHead:
    """Two players' results in the deals they played at the same table."""

    deals: int = 0
    games: int = 0
    first_total: int = 0
    second_total: int = 0
    first_ahead: int = 0  # deals where the first scored more than the second
    second_ahead: int = 0
    together: int = 0  # deals where they were on the same side
    together_won: int = 0


def head_to_head(first: Sequence[DealRow], second: Sequence[DealRow]) -> HeadToHead:
    """From each player's rows, the deals they share (the same deal pk)."""
    theirs = {r.deal: r for r in second}
    result = HeadToHead()
    games = set()
    for mine in first:
        other = theirs.get(mine.deal)
        if other is None:
            continue
        games.add(mine.game)
        result.deals += 1
        result.first_total += mine.score
        result.second_total += other.score
        result.first_ahead += mine.score > other.score
        result.second_ahead += other.score > mine.score
        if mine.attack == other.attack:
            result.together += 1
            result.together_won += mine.side_won
    result.games = len(games)
    return result


# --- the other games -------------------------------------------------------------------------


def cumulative(points: Iterable[tuple[dt.date, int | Fraction]]) -> list[tuple[dt.date, int]]:
    """(day, value) pairs in any order → one point per day: the running total at its end."""
    daily: dict[dt.date, int | Fraction] = {}
    for day, value in points:
        daily[day] = daily.get(day, 0) + value
    running: int | Fraction = 0
    out = []
    for day in sorted(daily):
        running += daily[day]
        out.append((day, running))
    return out


@dataclass
class Meetings:
    """Two players' results at the same table, from each result's places (1 = best)."""

    results: int = 0  # results where both had a place
    first_ahead: int = 0
    second_ahead: int = 0
    level: int = 0


def meetings(results: Iterable[dict[int, int]], first: int, second: int) -> Meetings:
    out = Meetings()
    for places in results:
        if first not in places or second not in places:
            continue
        out.results += 1
        a, b = places[first], places[second]
        out.first_ahead += a < b
        out.second_ahead += b < a
        out.level += a == b
    return out
