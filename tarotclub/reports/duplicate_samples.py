"""Sample data for the duplicate printouts: the rulebook's worked examples and seeded
sessions of any size (`manage.py duplicate_samples` writes every PDF from them; the tests use
them too). Deterministic: the same seed gives the same session on every machine."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

from scoring import duplicate as rules
from scoring.movement import Movement, boards_of_set, default_movement, movement

from .duplicate import (
    Event,
    MatchBoard,
    Opposition,
    Quadrette,
    Quarter,
    TeamMatch,
    Triplette,
    TriplettePlay,
)

FIRST = (
    "Anne",
    "Bruno",
    "Claire",
    "Didier",
    "Élodie",
    "François",
    "Geneviève",
    "Henri",
    "Inès",
    "Jean-Baptiste",
    "Karin",
    "Lucas",
    "Marie-Christine",
    "Noël",
    "Océane",
    "Pieter",
    "Quentin",
    "Renée",
    "Sofie",
    "Thibault",
    "Ursula",
    "Victor",
    "Wim",
    "Xavier",
    "Yasmine",
    "Zoé",
)
LAST = (
    "Dupont",
    "Van den Berghe",
    "Martin",
    "De Smet",
    "Lefèvre",
    "Janssens",
    "Moreau",
    "Peeters",
    "Rousseau",
    "Vermeulen",
    "Fournier",
    "De Vries",
    "Girard",
    "Claes",
    "Bonnet",
    "Maes",
    "Mercier",
    "Willems",
    "Lambert",
    "Jacobs",
    "Faure",
    "Bakker",
)


def sample_event(title: str = "Duplicate du jeudi") -> Event:
    return Event(title=title, club="Tarot Club de Lille", date="27/11/2026", place="Salle Wazemmes")


def sample_names(m: Movement) -> dict:
    """A name for every player of the movement, all different."""
    out = {}
    for i, player in enumerate(m.players()):
        out[player] = f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // len(FIRST)) % len(LAST)]}"
    return out


def board_score(rng: random.Random) -> int:
    """A garde's board score (U, signed, 1.5): ±(25 + gap) × 2, sometimes a petit au bout."""
    won = rng.random() < 0.62
    gap = rng.choice((0, 1, 2, 3, 4, 5, 6, 8, 10, 11, 14, 16, 20, 24, 31))
    u = (25 + gap) * 2 + rng.choice((0, 0, 0, 20))
    return u if won else -u


def sample_scores(m: Movement, per_set: int, *, seed: int = 14, missing: int = 0) -> dict:
    """{(board, round): score} for every play of the session, leaving out the last `missing`
    plays (a session still being entered)."""
    rng = random.Random(seed)
    scores = {}
    for r in range(1, m.rounds + 1):
        for seating in m.seating(r):
            for board in boards_of_set(seating.board_set, per_set):
                scores[(board, r)] = board_score(rng)
    for key in list(scores)[len(scores) - missing :] if missing else ():
        del scores[key]
    return scores


def sample_session(tables: int, rounds: int | None = None, per_set: int = 4, *, seed: int = 14):
    """(movement, per_set, session, names, urls) for a seeded session on `movement(...)`."""
    m = movement(tables, rounds or tables)
    session = rules.grade_session(m, per_set, sample_scores(m, per_set, seed=seed))
    return m, per_set, session, sample_names(m), board_urls(tables * per_set)


def board_urls(boards: int) -> dict[int, str]:
    return {b: f"https://tarot.example/duplicate/7/board/{b}/" for b in range(1, boards + 1)}


#: G1 (duplicate.md 1.7): board 1, taker North, 5 tables, scores by round.
G1 = {1: 56, 2: 62, 3: -56, 4: -52, 5: 50}


def g1_session():
    """The rulebook's 5-table example (p. 18) on the spec's movement: board 1 graded G1."""
    m = default_movement(5, 5)
    session = rules.grade_session(m, 4, {(1, r): s for r, s in G1.items()})
    return m, 4, session, sample_names(m)


#: The ranking example of 1.9: overall % by line (12 players, 3 tables).
RANKING_EXAMPLE = {
    "N": (61, Fraction(97, 2), 40),
    "E": (55, 54, 41),
    "S": (70, 45, 44),
    "W": (50, 49, 30),
}


def ranking_example_session() -> rules.Session:
    """A Session holding only the example's overall percentages (no boards)."""
    overall = {
        (o, i): Fraction(v)
        for o, values in RANKING_EXAMPLE.items()
        for i, v in enumerate(values, 1)
    }
    records = {p: rules.Record(p, (), (), None, None, v) for p, v in overall.items()}
    lines = {o: {p: v for p, v in overall.items() if p[0] == o} for o in RANKING_EXAMPLE}
    return rules.Session(
        {}, records, rules.general_ranking(overall), rules.alternating_ranking(lines)
    )


def ranking_example_names() -> dict:
    return {(o, i): f"{o}{i}" for o in RANKING_EXAMPLE for i in (1, 2, 3)}


def quadrette_example() -> tuple[list[Quadrette], list[Opposition]]:
    """The worked quadrette result (2.5): A against B on boards 1–4, against C on 5–8."""
    teams = [
        Quadrette(
            "A", "Les Excuses", "Anne Dupont", ("Bruno Martin", "Claire Peeters", "Didier Maes")
        ),
        Quadrette(
            "B", "Petit au bout", "Élodie Claes", ("Henri Faure", "Inès Lambert", "Wim Bakker")
        ),
        Quadrette("C", "Les Gardes", "Lucas Moreau", ("Sofie Jacobs", "Noël Girard", "Zoé Bonnet")),
    ]
    rows = [
        (1, "B", 82, 66),
        (2, "B", -68, -58),
        (3, "B", 50, 50),
        (4, "B", 116, -52),
        (5, "C", 56, 106),
        (6, "C", -52, -52),
        (7, "C", 60, 50),
        (8, "C", 50, -56),
    ]
    return teams, [Opposition(b, "A", other, a, o) for b, other, a, o in rows]


#: The worked team-match quarter (2.5): (board, A contract, A score, B contract, B score).
QUARTER_EXAMPLE = (
    (1, "garde", 66, "garde_sans", 116),
    (2, "garde_contre", -168, "garde", -58),
    (3, "garde_sans", 148, "garde", 74),
    (4, "garde", 50, "garde", 50),
)


def team_match_example(*, quarters: int = 4, seed: int = 26) -> TeamMatch:
    """A 4-quarter match whose first quarter is the worked one; the others are seeded."""
    a = ("Anne Dupont", "Bruno Martin", "Claire Peeters", "Didier Maes", "Élodie Claes")
    b = ("Henri Faure", "Inès Lambert", "Wim Bakker", "Lucas Moreau", "Sofie Jacobs", "Zoé Bonnet")
    rng = random.Random(seed)
    out = [
        Quarter(1, a[0], b[0], "A", tuple(MatchBoard(*row) for row in QUARTER_EXAMPLE)),
    ]
    for n in range(2, quarters + 1):
        boards = []
        for k in range(4):
            board = (n - 1) * 4 + k + 1
            ca, cb = rng.choice(("garde", "garde_sans")), rng.choice(("garde", "garde_contre"))
            boards.append(MatchBoard(board, ca, board_score(rng), cb, board_score(rng)))
        out.append(Quarter(n, a[n - 1], b[n - 1], "B" if n % 2 == 0 else "A", tuple(boards)))
    return TeamMatch("Lille", "Gent", a, b, tuple(out), Decimal("0.000"), Decimal("0.000"))


TEAM_NAMES = ("Les Rois", "Petit Sec", "De Troeven", "Les Oudlers", "Garde Contre", "De Hond")


def _members(start: int) -> tuple[str, ...]:
    return tuple(
        f"{FIRST[(start + k) % len(FIRST)]} {LAST[(start + k) % len(LAST)]}" for k in range(3)
    )


def triplette_example(teams: int = 3, *, seed: int = 21, per_set: int = 4):
    """`teams` (odd, at most 3) North-South and as many East-West triplettes over `teams`
    rounds: in round r the N-S triplette i meets the E-W one i + r at table i, on set i + 2r,
    so each set is played once a round, and every triplette plays every set once against
    different opponents."""
    rng = random.Random(seed)
    ns = [
        Triplette(f"NS{i}", TEAM_NAMES[i - 1], "NS", _members(3 * i)) for i in range(1, teams + 1)
    ]
    ew = [
        Triplette(f"EW{i}", TEAM_NAMES[teams + i - 1], "EW", _members(3 * (teams + i)))
        for i in range(1, teams + 1)
    ]
    plays = []
    for r in range(teams):
        for i in range(teams):
            board_set = (i + 2 * r) % teams + 1
            for board in boards_of_set(board_set, per_set):
                plays.append(
                    TriplettePlay(
                        board, r + 1, i + 1, ns[i].key, ew[(i + r) % teams].key, board_score(rng)
                    )
                )
    return ns + ew, plays


def sample_documents(tables: int, *, rounds: int | None = None, per_set: int = 4) -> dict:
    """{file stem: a function making that PDF} for a seeded session of `tables` tables."""
    from . import duplicate as docs

    m, per_set, session, names, urls = sample_session(tables, rounds, per_set)
    event = sample_event()
    boards = sorted(urls)
    t = f"{tables}t"
    return {
        f"guide-cards-{t}": lambda: docs.guide_cards(
            movement=m, per_set=per_set, names=names, event=event
        ),
        f"diagrams-{t}": lambda: docs.diagrams(boards=boards, urls=urls, event=event),
        f"slips-{t}": lambda: docs.slips(
            movement=m, per_set=per_set, names=names, event=event, boards=boards, urls=urls
        ),
        f"slips-filled-{t}": lambda: docs.slips(
            movement=m,
            per_set=per_set,
            names=names,
            event=event,
            boards=boards,
            urls=urls,
            session=session,
        ),
        f"grading-{t}": lambda: docs.grading_sheets(session=session, names=names, event=event),
        f"rankings-{t}": lambda: docs.rankings(session=session, names=names, event=event),
        f"records-{t}": lambda: docs.records(
            movement=m, per_set=per_set, session=session, names=names, event=event
        ),
    }


def example_documents() -> dict:
    """{file stem: a function making that PDF} for the rulebook's worked examples."""
    from . import duplicate as docs

    event = sample_event()
    gm, gper, gsession, gnames = g1_session()
    teams, oppositions = quadrette_example()
    triplettes, plays = triplette_example()
    prepared = {
        1: {
            "N": [
                "S1",
                "S7",
                "SK",
                "H3",
                "HQ",
                "D2",
                "D10",
                "DJ",
                "C5",
                "CC",
                "T1",
                "T4",
                "T9",
                "T12",
                "T16",
                "T18",
                "T21",
                "EX",
            ],
            "chien": ["H1", "D5", "C9", "T3", "T10", "SQ"],
        }
    }
    return {
        "g1-grading": lambda: docs.grading_sheets(session=gsession, names=gnames, event=event),
        "g1-slip": lambda: docs.slips(
            movement=gm,
            per_set=gper,
            names=gnames,
            event=event,
            boards=[1],
            urls=board_urls(1),
            session=gsession,
        ),
        "prepared-diagram": lambda: docs.diagrams(
            boards=[1], urls=board_urls(1), event=event, dealers={1: "W"}, hands=prepared
        ),
        "ranking-example": lambda: docs.rankings(
            session=ranking_example_session(), names=ranking_example_names(), event=event
        ),
        "triplettes": lambda: docs.triplettes(teams=triplettes, plays=plays, event=event),
        "quadrettes": lambda: docs.quadrettes(teams=teams, oppositions=oppositions, event=event),
        "team-match": lambda: docs.team_match(match=team_match_example(), event=event),
    }
