"""A club's season: each player's results over many evenings, ranked by the season's formula.

Pure Python, no Django. An evening is a tournament (or a date of casual games); a player's
result on an evening is their score there, their place among that evening's players, and the
rounds they played. `rank(...)` turns those results into the season's standings.

Formulas:

- TOTAL: the sum of the evenings' scores;
- BEST: the sum of the best N evenings' scores;
- PLACES: points by place (``points[place - 1]``, 0 past the table's end), optionally the
  best N evenings' points;
- AVERAGE: the total score divided by the rounds played; a player who attended fewer than
  the minimum number of evenings is listed after the ranked ones, unranked.

Ties are broken by the evenings won (place 1, shared places count), then the best single
evening (in the formula's unit: points for PLACES, the score otherwise), then the name.
Players equal on everything but the name share their rank.

The same formulas rank a season of any game kind. What an evening adds up is each game's
figure for the player (`casual_results`): French Tarot and Death's Pot count their score
(SCORE); the games whose standings are places (Fool's Faith, Keys of the Kingdom, Cuckoo)
count the players one finished ahead of at the table (BEATEN, `beaten`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

TOTAL = "total"
BEST = "best"
PLACES = "places"
AVERAGE = "average"
FORMULAS = (TOTAL, BEST, PLACES, AVERAGE)

#: What a game gives a player in a season: its score, or the players they finished ahead of.
SCORE = "score"
BEATEN = "beaten"
FIGURES = (SCORE, BEATEN)

DEFAULT_POINTS = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


@dataclass(frozen=True)
class Result:
    """One player's result on one evening."""

    score: int
    place: int
    rounds: int = 1


@dataclass
class Line:
    """One player's line of the season's standings."""

    player: Hashable
    name: str
    results: dict[Hashable, Result]
    values: dict[Hashable, int]  # each evening's figure in the formula's unit
    counted: frozenset  # the evenings that count (best N), all of them otherwise
    value: Fraction  # the ranking figure
    wins: int
    best: int | None
    rounds: int
    ranked: bool = True
    rank: int | None = None
    tied: bool = False

    @property
    def attended(self) -> int:
        return len(self.results)


@dataclass(frozen=True)
class Formula:
    kind: str = TOTAL
    best_n: int | None = None  # BEST (required) and PLACES (optional)
    points: tuple[int, ...] = DEFAULT_POINTS
    min_attendance: int = 0  # AVERAGE

    def __post_init__(self):
        if self.kind not in FORMULAS:
            raise ValueError(f"unknown formula {self.kind!r}")
        if self.kind == BEST and not self.best_n:
            raise ValueError("the best-N formula needs N")
        if self.best_n is not None and self.best_n < 1:
            raise ValueError("N must be at least 1")


def places(scores: Mapping[Hashable, object]) -> dict[Hashable, int]:
    """Competition ranking, highest first: equal scores share a place (1, 1, 3)."""
    ordered = sorted(scores.values(), reverse=True)
    first: dict[object, int] = {}
    for i, s in enumerate(ordered, start=1):
        first.setdefault(s, i)
    return {k: first[s] for k, s in scores.items()}


def place_points(place: int, points: tuple[int, ...]) -> int:
    return points[place - 1] if 1 <= place <= len(points) else 0


def _evening_value(result: Result, formula: Formula) -> int:
    if formula.kind == PLACES:
        return place_points(result.place, formula.points)
    return result.score


def _counted(values: dict[Hashable, int], n: int | None, order: list) -> frozenset:
    """The N best evenings (on equal values, the earlier evening), or all of them."""
    if n is None or n >= len(values):
        return frozenset(values)
    position = {e: i for i, e in enumerate(order)}
    best = sorted(values, key=lambda e: (-values[e], position.get(e, 0)))
    return frozenset(best[:n])


def line(
    player: Hashable,
    name: str,
    results: Mapping[Hashable, Result],
    formula: Formula,
    order: list | None = None,
) -> Line:
    """One player's figures (not yet ranked)."""
    results = dict(results)
    order = order if order is not None else list(results)
    values = {e: _evening_value(r, formula) for e, r in results.items()}
    n = formula.best_n if formula.kind in (BEST, PLACES) else None
    counted = _counted(values, n, order)
    rounds = sum(r.rounds for r in results.values())
    if formula.kind == AVERAGE:
        total = sum(r.score for r in results.values())
        value = Fraction(total, rounds) if rounds else Fraction(0)
    else:
        value = Fraction(sum(values[e] for e in counted))
    ranked = formula.kind != AVERAGE or (
        len(results) >= max(formula.min_attendance, 1) and rounds > 0
    )
    return Line(
        player=player,
        name=name,
        results=results,
        values=values,
        counted=counted,
        value=value,
        wins=sum(1 for r in results.values() if r.place == 1),
        best=max(values.values()) if values else None,
        rounds=rounds,
        ranked=ranked,
    )


def tie_key(row: Line) -> tuple:
    """What ranks a line, best first; equal keys share a rank."""
    return (-row.value, -row.wins, -(row.best if row.best is not None else -(10**12)))


def rank(
    results: Mapping[Hashable, Mapping[Hashable, Result]],
    formula: Formula,
    *,
    names: Mapping[Hashable, str],
    order: list | None = None,
    name_key: Callable[[str], object] = str.casefold,
) -> list[Line]:
    """The season's standings: ranked lines first, then the unranked ones (rank None).

    `results` is {player: {evening: Result}}; `order` lists the evenings in date order (it
    settles which of two equal evenings counts in a best-N); `names` gives each player's name.
    """
    lines = [
        line(player, names[player], evenings, formula, order)
        for player, evenings in results.items()
        if evenings
    ]
    lines.sort(key=lambda r: (not r.ranked, tie_key(r), name_key(r.name), r.name))
    previous: Line | None = None
    position = 0
    for row in lines:
        if not row.ranked:
            continue
        position += 1
        if previous is not None and tie_key(previous) == tie_key(row):
            row.rank = previous.rank
            row.tied = previous.tied = True
        else:
            row.rank = position
        previous = row
    return lines


# A tournament's places, as its own standings rank it -------------------------------------------


@dataclass
class Entrant:
    """A tournament's registered player: their totals per table played (game → total)."""

    player: Hashable
    name: str
    tables: dict[Hashable, int] = field(default_factory=dict)  # game → total at that table


def tournament_results(
    entrants: list[Entrant],
    table_players: Mapping[Hashable, list[Hashable]],
    *,
    by_average: bool = False,
) -> dict[Hashable, Result]:
    """Each entrant who played a round: their total, place and rounds, ranked as the
    tournament's own standings rank them (total or average per round played, then rounds
    topped at one's table, then the best round; equal on all of them → the same place).

    Each table is one round, so a player's tables are their rounds. `table_players` lists the
    players seated at each table (game).
    """
    totals = {e.player: e.tables for e in entrants}
    tops: dict[Hashable, int] = {}
    for game, players in table_players.items():
        scores = {p: totals.get(p, {}).get(game, 0) for p in players}
        if any(scores.values()):
            top = max(scores.values())
            for p, s in scores.items():
                if s == top:
                    tops[p] = tops.get(p, 0) + 1

    def key(e: Entrant):
        played = list(e.tables.values())
        total = sum(played)
        if by_average:
            primary = Fraction(total, len(played)) if played else Fraction(-(10**9))
        else:
            primary = total
        best = max(played) if played else -(10**9)
        return (-primary, -tops.get(e.player, 0), -best)

    ordered = sorted(entrants, key=key)  # the name orders a tie's lines, not its place
    out: dict[Hashable, Result] = {}
    previous = None
    for i, e in enumerate(ordered, start=1):
        k = key(e)
        place = previous[1] if previous is not None and previous[0] == k else i
        previous = (k, place)
        if e.tables:
            out[e.player] = Result(score=sum(e.tables.values()), place=place, rounds=len(e.tables))
    return out


def beaten(places_at_table: Mapping[Hashable, int]) -> dict[Hashable, int]:
    """The players each one finished ahead of at a table ({player: place}, 1 = best, ties
    share a place): a winner of five beats four, two players sharing a place beat neither."""
    return {
        p: sum(1 for other in places_at_table.values() if other > place)
        for p, place in places_at_table.items()
    }


def casual_results(games: Mapping[Hashable, Mapping[Hashable, int]]) -> dict[Hashable, Result]:
    """An evening of casual games ({game: {player: total}}): each player's total over the
    games they sat at, their place among the evening's players, and the games as rounds."""
    score: dict[Hashable, int] = {}
    rounds: dict[Hashable, int] = {}
    for totals in games.values():
        for p, s in totals.items():
            score[p] = score.get(p, 0) + s
            rounds[p] = rounds.get(p, 0) + 1
    place = places(score)
    return {p: Result(score=score[p], place=place[p], rounds=rounds[p]) for p in score}


def parse_points(text: str) -> tuple[int, ...]:
    """ "25, 20, 16" → (25, 20, 16). Raises ValueError on anything but whole numbers >= 0 that
    never go up from one place to the next."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    if not parts:
        raise ValueError("empty")
    values = tuple(int(p) for p in parts)
    if any(v < 0 for v in values):
        raise ValueError("negative")
    if any(b > a for a, b in zip(values, values[1:], strict=False)):
        raise ValueError("increasing")
    return values
