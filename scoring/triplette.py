"""Triplettes in duplicate: badges, the attack rotation, and how a triplette table maps onto
the individual movement's seats (`../shared/rules/duplicate.md` 2.2, p. 20–21).

**Teams and movements.** A triplette session of T tables has 2T teams; which two meet at each
table in each round, on which lines, with which set, is a `scoring.triplette_movement`
movement (Stay or Howell), chosen by the director. A team is keyed by where it sits in round 1,
``("NS", i)`` or ``("EW", j)`` (its starting line and table): stable for the whole session even
when Howell changes its line. Tournaments started before the choice existed stored the
individual's movement read through its North and East lines: `from_individual` reads it as a
triplette movement (North-South team i, East-West team T + j). A table holds one North-South
and one East-West team (Inferred, 2.2).

**Who sits where on one board.** Each board marks its taker's orientation (N, E, S, W in turn,
`movement.taker_of`). A board marked N or S is attacked by the North-South team, one marked E
or W by the East-West team (p. 20). 4 of the 6 play it (Inferred): the attacking team's current
attacker sits at the marked orientation; the 3 players of the other team defend, at the
front, middle and back places of that taker (the vocabulary's geometry table). The defending
captain may seat his players as he likes (p. 20): the site does not need to know where, only
who defends; we list them in badge order (Bleu, Blanc, Rouge) front, middle, back.

**Badges and rotation.** Members attack in the alphabetical order of their surnames, with the
badges Bleu (1st), Blanc (2nd), Rouge (3rd). The director draws the colour of the first
attacker before the tournament; the order then runs Bleu → Blanc → Rouge → Bleu (p. 20). The
rotation moves on by one at each board the team attacks (Inferred), in the order it plays
them: by round, then by board number. The surname is the last word of the name (Inferred:
the site keeps one name field); ties by the whole name.

Pure Python: no Django, no I/O.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from . import RuleError, _
from .movement import Movement, boards_of_set, taker_of
from .triplette_movement import STAY, Meeting, TripletteMovement

#: The badges in attack order (p. 20).
BADGES = ("bleu", "blanc", "rouge")
LINES = ("NS", "EW")
TEAM_SIZE = 3

#: The front, middle and back places of each taker's seat (vocabulary, geometry table).
DEFENCE_PLACES = {
    "N": ("E", "S", "W"),
    "E": ("S", "W", "N"),
    "S": ("W", "N", "E"),
    "W": ("N", "E", "S"),
}

ERR_TEAM_SIZE = _("A triplette has exactly 3 players (here %(count)s).")
ERR_BADGE = _("The first attacker's colour is Bleu, Blanc or Rouge.")

#: A team's stable key: its starting line and starting table, ("NS", 2) or ("EW", 1): where
#: it sits in round 1. In Howell a team's line may change later; its key does not (and its
#: starting line is the one the alternating ranking uses, open question 6).
Team = tuple[str, int]


def surname_key(name: str) -> tuple[str, str]:
    """The key that puts names in the alphabetical order of their surnames (the last word),
    without case or accents; the whole name breaks ties."""

    def plain(text: str) -> str:
        decomposed = unicodedata.normalize("NFKD", text)
        return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()

    words = str(name).split()
    return plain(words[-1] if words else ""), plain(" ".join(words))


def badges(names: Sequence[str]) -> list[str]:
    """Each member's badge, in the order of `names`: Bleu, Blanc, Rouge by surname (p. 20)."""
    names = list(names)
    if len(names) != TEAM_SIZE:
        raise RuleError(ERR_TEAM_SIZE, count=len(names))
    order = sorted(range(TEAM_SIZE), key=lambda i: (surname_key(names[i]), i))
    out = [""] * TEAM_SIZE
    for badge, i in zip(BADGES, order, strict=True):
        out[i] = badge
    return out


def draw_first_colour(seed: int, draw: int = 0) -> str:
    """The first attacker's colour drawn with the tournament's seed; `draw` counts redraws
    (the same seed and count give the same colour on every machine)."""
    return random.Random(f"triplette-colour:{seed}:{draw}").choice(BADGES)


def attacker_badge(first_colour: str, k: int) -> str:
    """The badge of the member attacking the team's k-th attacked board (k from 0)."""
    if first_colour not in BADGES:
        raise RuleError(ERR_BADGE)
    return BADGES[(BADGES.index(first_colour) + k) % TEAM_SIZE]


def attack_order(names: Sequence[str], first_colour: str, count: int) -> list[str]:
    """The names of the attackers of the team's first `count` attacked boards.

    The spec's example: Dupont (Bleu), Martin (Blanc), Roux (Rouge), Blanc drawn → Martin,
    Roux, Dupont, Martin, …"""
    by_badge = dict(zip(badges(names), names, strict=True))
    return [by_badge[attacker_badge(first_colour, k)] for k in range(count)]


def attacking_line(board: int) -> str:
    """The line that attacks a board: N-S for takers marked N or S, E-W otherwise (p. 20)."""
    return "NS" if taker_of(board) in ("N", "S") else "EW"


@dataclass(frozen=True)
class TripletteDeal:
    """One board at one table in one round: who attacks and who defends."""

    round: int
    table: int
    board: int
    north_south: Team
    east_west: Team
    attacking: Team
    defending: Team
    k: int  # the board is the attacking team's k-th attacked board (from 0)


def from_individual(m: Movement) -> TripletteMovement:
    """The movement of a triplette tournament started before the choice of movements: the
    individual's movement read through its North and East lines (North-South team i is team i,
    East-West team j is team T + j)."""
    T = m.tables
    rounds = []
    for r in range(1, m.rounds + 1):
        rounds.append(
            tuple(
                Meeting(s.table, s.board_set, s.seats["N"][1], T + s.seats["E"][1])
                for s in m.seating(r)
            )
        )
    return TripletteMovement(STAY, 2 * T, T, tuple(rounds))


def keys_of(tm: TripletteMovement) -> dict[int, Team]:
    """Each team number of the movement to its key: its line and table in round 1."""
    out: dict[int, Team] = {}
    for meeting in tm.rounds[0]:
        out[meeting.ns] = ("NS", meeting.table)
        out[meeting.ew] = ("EW", meeting.table)
    return out


def table_teams(tm: TripletteMovement, round: int) -> list[tuple[int, int, Team, Team]]:
    """Round `round`'s tables in order: (table, set, team seated N-S, team seated E-W), each
    team by its key."""
    keys = keys_of(tm)
    return [
        (meeting.table, meeting.board_set, keys[meeting.ns], keys[meeting.ew])
        for meeting in tm.rounds[round - 1]
    ]


def schedule(tm: TripletteMovement, per_set: int) -> list[TripletteDeal]:
    """Every board of the session as played, by round, table and board, with the index of
    each attacked board in its team's rotation (the team seated on the board's attacking line
    that round attacks it)."""
    attacked: dict[Team, int] = {}
    out = []
    for r in range(1, len(tm.rounds) + 1):
        rows = []
        for table, board_set, ns, ew in table_teams(tm, r):
            for board in boards_of_set(board_set, per_set):
                rows.append((table, board, ns, ew))
        # a team's rotation runs in the order it plays its boards: round, then board
        for table, board, ns, ew in sorted(rows, key=lambda x: (x[0], x[1])):
            attacking, defending = (ns, ew) if attacking_line(board) == "NS" else (ew, ns)
            k = attacked.get(attacking, 0)
            attacked[attacking] = k + 1
            out.append(TripletteDeal(r, table, board, ns, ew, attacking, defending, k))
    return out


def seats(board: int, attacker, defenders: Sequence) -> dict[str, object]:
    """Who sits at each orientation on `board`: the attacker at the taker's orientation, the
    3 defenders (in the order given) at its front, middle and back places."""
    defenders = list(defenders)
    if len(defenders) != TEAM_SIZE:
        raise RuleError(ERR_TEAM_SIZE, count=len(defenders))
    taker = taker_of(board)
    out = {taker: attacker}
    out.update(zip(DEFENCE_PLACES[taker], defenders, strict=True))
    return out


def teams_of(tm: TripletteMovement) -> list[Team]:
    return [(line, t) for line in LINES for t in range(1, tm.tables + 1)]


__all__ = [
    "BADGES",
    "DEFENCE_PLACES",
    "LINES",
    "TripletteDeal",
    "attack_order",
    "attacker_badge",
    "attacking_line",
    "badges",
    "draw_first_colour",
    "from_individual",
    "keys_of",
    "schedule",
    "seats",
    "surname_key",
    "table_teams",
    "teams_of",
]
