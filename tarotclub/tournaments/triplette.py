"""Triplette tournaments (duplicate in teams of 3, duplicate.md 2.2), read side: the teams,
who plays each board at each table, and the grading.

A triplette table is a tournament table like the individual's (`duplicate`): its game of
French Tarot seats the team seated North-South that round (3 players in badge order) then
the East-West one's 3, and its options give, for each deal, the board, the taker imposed
under the garde (the attacking team's current attacker, `scoring.triplette`), and the 4 who
play it (``"active"``: N, E, S, W; the kind scores those four and gives the two others 0).
The movement is the one the director chose (`scoring.triplette_movement`: Stay or Howell),
stored at the start as data (`stored_movement`); teams are keyed by their starting line and
table (`scoring.triplette.keys_of`). Grading is the results sheet's
(`reports.duplicate.triplette_results`, ½ attack + ½ defence). Reads only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext as _

from scoring import triplette as rules
from scoring import triplette_movement as moves
from scoring.movement import boards_of_set
from scoring.triplette_movement import Meeting, TripletteMovement

from . import duplicate
from .models import Entry, Tournament

IMPOSED_CONTRACT = duplicate.IMPOSED_CONTRACT


def teams(entries) -> dict[str, list[Entry]]:
    """The team name to its entries (badge order once the badges are given, else name)."""
    out: dict[str, list[Entry]] = {}
    for e in entries:
        if e.team:
            out.setdefault(e.team, []).append(e)
    order = {b: i for i, b in enumerate(rules.BADGES)}
    for members in out.values():
        members.sort(key=lambda e: (order.get(e.badge, 9), rules.surname_key(e.player.name)))
    return out


def stored_movement(t: Tournament) -> TripletteMovement | None:
    """The triplette movement stored at the start (None before). Tournaments started before
    the choice of movements stored the individual's: read through its North and East lines."""
    data = t.movement or {}
    if not data:
        return None
    if "kind" not in data:
        return rules.from_individual(duplicate.stored_movement(t))
    return _movement_from(
        str(data["kind"]),
        int(data["teams"]),
        int(data["sets"]),
        tuple(tuple(tuple(int(v) for v in m) for m in row) for row in data["rounds"]),
    )


@lru_cache(maxsize=64)
def _movement_from(kind: str, teams: int, sets: int, rounds) -> TripletteMovement:
    return TripletteMovement(
        kind, teams, sets, tuple(tuple(Meeting(*m) for m in row) for row in rounds)
    )


def movement_data(tm: TripletteMovement) -> dict:
    """The movement as stored: each round's tables as [table, set, N-S team, E-W team]."""
    return {
        "kind": tm.kind,
        "teams": tm.teams,
        "sets": tm.sets,
        "rounds": [[[m.table, m.board_set, m.ns, m.ew] for m in row] for row in tm.rounds],
    }


def most_rounds(kind: str, teams: int) -> int:
    """The most rounds a movement of `kind` has for `teams` teams."""
    return teams - 1 if kind == moves.HOWELL else teams // 2


def team_keys(entries) -> dict[tuple[str, int], tuple[str, list[Entry]]]:
    """The movement's team key, ("NS", 2), to (team name, members), once seated."""
    out = {}
    for name, members in teams(entries).items():
        first = members[0]
        if first.line and first.start_table:
            out[(first.line, first.start_table)] = (name, members)
    return out


def round_plan(m: TripletteMovement, entries, round_number: int) -> list[list[int]]:
    """Round `round_number`'s tables in order, each its 6 player pks: the N-S team then the
    E-W team, each in badge order."""
    keys = team_keys(entries)
    return [
        [e.player_id for e in keys[ns][1]] + [e.player_id for e in keys[ew][1]]
        for _table, _set, ns, ew in rules.table_teams(m, round_number)
    ]


def _first_colour(t: Tournament) -> str:
    return t.first_colour or rules.draw_first_colour(t.seed, t.colour_draws)


@lru_cache(maxsize=16)
def _schedule(m: TripletteMovement, per_set: int) -> dict[tuple[int, int], list]:
    """`scoring.triplette.schedule` by (round, table), worked out once per movement (a round
    of 30 tables asks for it 30 times)."""
    out: dict[tuple[int, int], list] = {}
    for d in rules.schedule(m, per_set):
        out.setdefault((d.round, d.table), []).append(d)
    return out


def table_options(
    t: Tournament, m: TripletteMovement, round_number: int, table: int, seated
) -> dict:
    """A triplette table's game options: boards, the imposed taker, the four of each board and
    its dealer."""
    ns, ew = list(seated[:3]), list(seated[3:])
    first = _first_colour(t)
    deals = _schedule(m, t.deals_per_round).get((round_number, table), [])
    imposed, active = [], []
    for d in deals:
        attackers, defenders = (ns, ew) if d.attacking == d.north_south else (ew, ns)
        attacker = attackers[rules.BADGES.index(rules.attacker_badge(first, d.k))]
        at = rules.seats(d.board, attacker, defenders)
        imposed.append([attacker, IMPOSED_CONTRACT])
        active.append([at[o] for o in ("N", "E", "S", "W")])
    return {
        "deals": len(deals),
        "boards": [d.board for d in deals],
        "imposed": imposed,
        "active": active,
        # the dealer marked on each board: the four seated on it sit at its orientations
        "dealers": [duplicate.board_dealer(t, d.board) for d in deals],
        "triplette": True,
    }


@dataclass(frozen=True)
class TripletteGraded:
    """A triplette tournament read for its pages: movement, teams, plays, grading."""

    tournament: Tournament
    movement: TripletteMovement
    keys: dict  # team key -> (name, members)
    plays: list  # reports.duplicate.TriplettePlay
    results: object  # reports.duplicate.TripletteResults
    scores: dict[tuple[int, int], int]

    def teams(self):
        """The teams as the results sheet takes them (`reports.duplicate.Triplette`)."""
        return [
            _triplette(key, name, members) for key, (name, members) in sorted(self.keys.items())
        ]

    def name(self, key) -> str:
        found = self.keys.get(key)
        return found[0] if found else f"{key[0]} {key[1]}"

    def counts(self) -> str:
        """The ranking that counts: alternating for one session (p. 21)."""
        return "alternating"


def graded(t: Tournament) -> TripletteGraded | None:
    """The tournament's teams, plays and grading (None before the start). Two queries."""
    m = stored_movement(t)
    if m is None:
        return None
    entries = list(t.entries.select_related("player"))
    return _graded(t, m, entries, duplicate.board_scores(t))


def graded_many(tournaments) -> dict[int, TripletteGraded]:
    """`graded` of each started triplette tournament of `tournaments`, by pk: two queries
    whatever their number (a player's page lists them all)."""
    started = {t.pk: (t, m) for t in tournaments if t.triplette and (m := stored_movement(t))}
    if not started:
        return {}
    entries: dict[int, list[Entry]] = {}
    for e in Entry.objects.filter(tournament__in=started).select_related("player"):
        entries.setdefault(e.tournament_id, []).append(e)
    scores = duplicate._board_scores(list(started))
    return {
        pk: _graded(t, m, entries.get(pk, []), scores.get(pk, {})) for pk, (t, m) in started.items()
    }


def _graded(t: Tournament, m: TripletteMovement, entries, scores) -> TripletteGraded:
    from tarotclub.reports.duplicate import TriplettePlay, triplette_results

    keys = team_keys(entries)
    plays = []
    for r in range(1, len(m.rounds) + 1):
        for table, board_set, ns, ew in rules.table_teams(m, r):
            for b in boards_of_set(board_set, t.deals_per_round):
                if (b, r) in scores:
                    plays.append(TriplettePlay(b, r, table, ns, ew, scores[(b, r)]))
    teams_list = [_triplette(key, name, members) for key, (name, members) in sorted(keys.items())]
    results = triplette_results(teams_list, plays)
    return TripletteGraded(t, m, keys, plays, results, scores)


def team_of(g: TripletteGraded, player_pk: int):
    """The key of the player's team, or None."""
    return next(
        (
            k
            for k, (_n, members) in g.keys.items()
            if any(e.player_id == player_pk for e in members)
        ),
        None,
    )


def _triplette(key, name, members):
    from tarotclub.reports.duplicate import Triplette

    return Triplette(key, name, key[0], tuple(e.player.name for e in members))


def ranking_rows(g: TripletteGraded, which: str) -> list[dict]:
    """The general or alternating ranking of the teams: place, name, line, members, %."""
    from scoring.duplicate import shared_places

    res = g.results
    order = res.general if which == "general" else res.alternating
    if which == "general":
        shared = shared_places(order, res.overall)
        places = [shared[k] for k in order]
    else:
        places = list(range(1, len(order) + 1))
    return [
        {
            "place": place,
            "key": key,
            "code": f"{key[0]}{key[1]}",
            "name": g.name(key),
            "line": _("North-South") if key[0] == "NS" else _("East-West"),
            "note": _("North-South") if key[0] == "NS" else _("East-West"),
            "members": ", ".join(e.player.name for e in g.keys.get(key, ("", []))[1]),
            "attack": res.attack.get(key),
            "defence": res.defence.get(key),
            "overall": res.overall.get(key),
        }
        for place, key in zip(places, order, strict=True)
    ]


def grading_rows(g: TripletteGraded, board: int) -> list[dict]:
    """One board's grading sheet: a line per play in round order, attack and defence grades."""
    from scoring.duplicate import TOP, grade_board

    lines = sorted((p for p in g.plays if p.board == board), key=lambda p: p.round)
    grades = grade_board([p.score for p in lines]) if len(lines) > 1 else [TOP / 2] * len(lines)
    ns_attacks = rules.attacking_line(board) == "NS"
    return [
        {
            "round": p.round,
            "table": p.table,
            "attack_team": g.name(p.north_south if ns_attacks else p.east_west),
            "defence_team": g.name(p.east_west if ns_attacks else p.north_south),
            "won": p.score if p.score >= 0 else None,
            "lost": -p.score if p.score < 0 else None,
            "attack": grade,
            "defence": TOP - grade,
        }
        for p, grade in zip(lines, grades, strict=True)
    ]


def boards(g: TripletteGraded) -> list[int]:
    return list(range(1, g.movement.sets * g.tournament.deals_per_round + 1))


def card_rows(g: TripletteGraded) -> list[dict]:
    """Each team's movement card, in name order: its name, starting line and members, and for
    each round its table, line, set, boards and opponent (`TripletteMovement.card`)."""
    m, per = g.movement, g.tournament.deals_per_round
    key_of = rules.keys_of(m)
    number_of = {key: n for n, key in key_of.items()}
    out = []
    for key in sorted(g.keys, key=lambda k: (g.keys[k][0].casefold(), k)):
        name, members = g.keys[key]
        lines = [
            {
                "round": c.round,
                "table": c.table,
                "line": _("North-South") if c.line == "NS" else _("East-West"),
                "set": c.board_set,
                "boards": _range(boards_of_set(c.board_set, per)),
                "opponent": g.name(key_of[c.opponent]),
            }
            for c in m.card(number_of[key])
        ]
        out.append(
            {
                "name": name,
                "line": _("North-South") if key[0] == "NS" else _("East-West"),
                "members": ", ".join(e.player.name for e in members),
                "rounds": lines,
            }
        )
    return out


def _range(boards: range) -> str:
    return f"{boards[0]}–{boards[-1]}" if len(boards) > 1 else str(boards[0])
