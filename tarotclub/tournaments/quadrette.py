"""Quadrette tournaments (duplicate in teams of 4, duplicate.md 2.3 and 2.5), read side: the
teams, the oppositions of each round, who sits at each table, the boards entered and the
match points. Reads only (the writes are `quadrette_services` and `services`).

A quadrette is 4 entries with the same `team`: the attacker is the entry whose orientation
is South, the three defenders North, East and West, kept for the session. At the start each
team gets a number (`start_table`, in name order): its defence's table. The oppositions are
stored in the tournament's `movement` as ``{"teams": n, "oppositions": [[[a, b], ...] per
round]}`` (`scoring.quadrette.oppositions`). A quadrette table is a tournament table like the
individual's: its game of French Tarot seats N, E, S, W = the host's 3 defenders and the
visiting attacker South, and its options give the round's boards and the attacker imposed
as taker under the garde on each (open question 10).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import F

from scoring import quadrette as rules
from scoring.movement import boards_of_set, taker_of
from tarotclub.kinds.tarot.models import DealLine

from .duplicate import board_dealer
from .models import Entry, Tournament

IMPOSED_CONTRACT = "garde"
ORDER = {"S": 0, "N": 1, "E": 2, "W": 3}


def teams(entries) -> dict[str, list[Entry]]:
    """The team name to its entries: the attacker (South) first, then North, East, West."""
    out: dict[str, list[Entry]] = {}
    for e in entries:
        if e.team:
            out.setdefault(e.team, []).append(e)
    for members in out.values():
        members.sort(key=lambda e: (ORDER.get(e.orientation, 9), e.player.name))
    return out


def attacker(members: list[Entry]) -> Entry | None:
    return next((e for e in members if e.orientation == rules.ATTACK), None)


def numbered(entries) -> dict[int, tuple[str, list[Entry]]]:
    """Team number (its table) to (name, members), once the start numbered them."""
    out = {}
    for name, members in teams(entries).items():
        if members[0].start_table:
            out[members[0].start_table] = (name, members)
    return out


def schedule(t: Tournament) -> list[list[tuple[int, int]]] | None:
    """The oppositions stored at the start, round by round (None before)."""
    data = t.movement or {}
    if "oppositions" not in data:
        return None
    return [[(int(a), int(b)) for a, b in pairs] for pairs in data["oppositions"]]


def schedule_data(teams_count: int, rounds: int) -> dict:
    return {
        "teams": teams_count,
        "oppositions": [[list(p) for p in ps] for ps in rules.oppositions(teams_count, rounds)],
    }


def _seats(members: list[Entry]) -> dict[str, int]:
    return {e.orientation: e.player_id for e in members}


def round_plan(t: Tournament, entries, round_number: int) -> list[list[int]]:
    """Round `round_number`'s tables in order, each its 4 player pks in N, E, S, W order:
    the host team's defenders and the visiting team's attacker South."""
    by_number = numbered(entries)
    pairs = schedule(t)[round_number - 1]
    out = []
    for table in rules.round_tables(pairs, round_number, t.deals_per_round):
        host = _seats(by_number[table.host][1])
        visitor = _seats(by_number[table.visitor][1])
        out.append([host["N"], host["E"], visitor["S"], host["W"]])
    return out


def table_options(t: Tournament, round_number: int, table: int, seated: list[int]) -> dict:
    """A quadrette table's game options: the round's boards, the attacker (South) imposed as
    taker in garde on each, the dealer of each (`scoring.quadrette.turned_dealer`) and which
    teams meet there."""
    pairs = schedule(t)[round_number - 1]
    boards = list(boards_of_set(round_number, t.deals_per_round))
    visitor = rules.opponent(pairs, table)
    return {
        "deals": len(boards),
        "boards": boards,
        "imposed": [[seated[2], IMPOSED_CONTRACT] for _b in boards],
        "dealers": [rules.turned_dealer(board_dealer(t, b), taker_of(b)) for b in boards],
        "quadrette": {"host": table, "visitor": visitor},
    }


def board_scores(t: Tournament) -> dict[tuple[int, int, int], int]:
    """Every board score entered so far: {(round, table, board): U}, from the takers' lines
    (the U of `scoring.fft`, the taker's score divided by 3; open question 8). One query."""
    return _board_scores([t.pk]).get(t.pk, {})


def _board_scores(pks) -> dict[int, dict[tuple[int, int, int], int]]:
    """`board_scores` of each tournament of `pks`, in one query."""
    lines = (
        DealLine.objects.filter(deal__game__tournament_table__tournament__in=pks)
        .filter(player_id=F("deal__taker_id"))
        .values_list(
            "deal__game__tournament_table__tournament_id",
            "score",
            "deal__number",
            "deal__game__options",
            "deal__game__tournament_table__round",
            "deal__game__tournament_table__number",
        )
    )
    out: dict[int, dict[tuple[int, int, int], int]] = {}
    for pk, score, number, options, round_number, table in lines:
        boards = (options or {}).get("boards") or []
        if 1 <= number <= len(boards):
            out.setdefault(pk, {})[(round_number, table, boards[number - 1])] = score // 3
    return out


@dataclass(frozen=True)
class QuadretteGraded:
    """A quadrette tournament read for its pages: teams, oppositions, boards, match points."""

    tournament: Tournament
    schedule: list
    teams: dict  # number -> (name, members)
    played: list  # scoring.quadrette.QuadretteBoard, both sides of each board
    missing: list  # (round, table, board) not entered yet
    totals: dict[int, Decimal]

    def name(self, number: int) -> str:
        found = self.teams.get(number)
        return found[0] if found else f"#{number}"

    def people(self, number: int) -> tuple[str, list[str]]:
        """The team's attacker and defenders by name."""
        members = self.teams.get(number, ("", []))[1]
        a = attacker(members)
        return (a.player.name if a else "", [e.player.name for e in members if e is not a])

    def ranking(self) -> list[dict]:
        """Place (equal totals share it), team, attacker, defenders, boards counted, PM."""
        counted = {}
        for p in self.played:
            counted[p.team] = counted.get(p.team, 0) + 1
        rows = []
        for place, n in rules.ranking(self.totals):
            who, defenders = self.people(n)
            rows.append(
                {
                    "place": place,
                    "number": n,
                    "name": self.name(n),
                    "attacker": who,
                    "defenders": ", ".join(defenders),
                    "boards": counted.get(n, 0),
                    "pm": self.totals[n],
                }
            )
        return rows

    def report_teams(self):
        from tarotclub.reports.duplicate import Quadrette

        out = []
        for n in sorted(self.teams):
            who, defenders = self.people(n)
            out.append(Quadrette(n, self.name(n), who, tuple(defenders)))
        return out

    def report_oppositions(self):
        """Each board of each opposition once (the lower team number first)."""
        from tarotclub.reports.duplicate import Opposition

        return [
            Opposition(p.board, p.team, p.opponent, p.own, p.theirs)
            for p in self.played
            if p.team < p.opponent
        ]

    def team_boards(self, number: int) -> list:
        return sorted((p for p in self.played if p.team == number), key=lambda p: p.board)


def graded(t: Tournament) -> QuadretteGraded | None:
    """The tournament's teams, oppositions and match points (None before the start). Two
    queries, whatever the number of teams and boards."""
    sched = schedule(t)
    if sched is None:
        return None
    return _graded(t, sched, t.entries.select_related("player"), board_scores(t))


def graded_many(tournaments) -> dict[int, QuadretteGraded]:
    """`graded` of each started quadrette tournament of `tournaments`, by pk: two queries
    whatever their number (a player's page lists them all)."""
    started = {t.pk: (t, s) for t in tournaments if t.quadrette and (s := schedule(t))}
    if not started:
        return {}
    entries: dict[int, list[Entry]] = {}
    for e in Entry.objects.filter(tournament__in=started).select_related("player"):
        entries.setdefault(e.tournament_id, []).append(e)
    scores = _board_scores(list(started))
    return {
        pk: _graded(t, s, entries.get(pk, []), scores.get(pk, {})) for pk, (t, s) in started.items()
    }


def _graded(t: Tournament, sched, entries, scores) -> QuadretteGraded:
    by_number = numbered(entries)
    played, missing = rules.boards_played(sched, t.deals_per_round, scores)
    result = rules.totals(int(t.movement.get("teams", 0)) or len(by_number), played)
    return QuadretteGraded(t, sched, by_number, played, missing, result)


def team_of(g: QuadretteGraded, player_pk: int) -> int | None:
    """The number of the player's team, or None."""
    return next(
        (n for n, (_name, ms) in g.teams.items() if any(e.player_id == player_pk for e in ms)),
        None,
    )
