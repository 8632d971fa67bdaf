"""Ratings: each player's French Tarot skill as an estimate with its uncertainty.

The model is Weng and Lin's Bayesian approximation with the Plackett-Luce ranking model, as
the `openskill` library implements it (`openskill.models.PlackettLuce`, its defaults: a new
player starts at mu = 25 with sigma = 25/3). Each rated game is one table: every player is
their own team, ranked by their total score at the table (the highest total first); equal
totals share a place, which the model treats as a draw between them.

The displayed rating is the conservative estimate mu - 3 sigma (openskill's "ordinal"): a
newcomer starts at 0 and climbs as their results make the estimate surer. Pure Python: no
Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from . import RuleError, _

ERR_TABLE_SIZE = _("A rated game needs at least two players.")
ERR_TOTAL = _("A player's total must be a whole number.")


@dataclass(frozen=True)
class Skill:
    """A skill estimate: mean `mu` and its uncertainty `sigma` (one standard deviation)."""

    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        """The conservative estimate shown to players (mu - 3 sigma)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Table:
    """One rated game: its key (e.g. the game's id) and each player's total at the table."""

    key: Hashable
    totals: Mapping[Hashable, int]


@dataclass(frozen=True)
class Update:
    """One player's rating change from one game."""

    table: Hashable
    player: Hashable
    place: int  # 1 = the highest total; equal totals share the better place
    size: int  # players at the table
    before: Skill
    after: Skill


@lru_cache(maxsize=1)
def model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def initial() -> Skill:
    """A newcomer's skill: the model's defaults."""
    m = model()
    return Skill(m.mu, m.sigma)


def places(totals: Mapping[Hashable, int]) -> dict[Hashable, int]:
    """Competition ranking by total, highest first: 1 + the number of strictly higher totals."""
    return {p: 1 + sum(1 for other in totals.values() if other > t) for p, t in totals.items()}


def _check(table: Table) -> None:
    totals = table.totals
    if len(totals) < 2:
        raise RuleError(ERR_TABLE_SIZE)
    for value in totals.values():
        if not isinstance(value, int) or isinstance(value, bool):
            raise RuleError(ERR_TOTAL)


def rate(
    tables: Iterable[Table], *, start: Mapping[Hashable, Skill] | None = None
) -> tuple[list[Update], dict[Hashable, Skill]]:
    """Rate the games in the order given, each from the skills after the ones before.

    `start` holds the skills before the first game (anyone missing starts at `initial()`).
    Returns each player's update for each game, in order, and everyone's skill at the end.
    """
    m = model()
    skills: dict[Hashable, Skill] = dict(start or {})
    fresh = initial()
    updates: list[Update] = []
    for table in tables:
        _check(table)
        players = list(table.totals)
        place = places(table.totals)
        before = [skills.get(p, fresh) for p in players]
        teams = [[m.create_rating([s.mu, s.sigma])] for s in before]
        rated = m.rate(teams, ranks=[place[p] for p in players])
        for p, old, (new,) in zip(players, before, rated, strict=True):
            after = Skill(new.mu, new.sigma)
            skills[p] = after
            updates.append(Update(table.key, p, place[p], len(players), old, after))
    return updates, skills


__all__ = [
    "ERR_TABLE_SIZE",
    "Skill",
    "Table",
    "Update",
    "initial",
    "places",
    "rate",
]
