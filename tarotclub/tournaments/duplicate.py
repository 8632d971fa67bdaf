"""Duplicate tournaments (individual), read side: the stored movement, the boards each table
plays, the scores entered so far and their grading (`scoring.movement`, `scoring.duplicate`).

A duplicate table is a tournament table like a free-deal one (`models.Table`, its game of
French Tarot, its share link): its game's deals are the boards of its set, in order, and its
options say which board each deal is and who takes it under the imposed garde
(``{"deals": n, "boards": [...], "imposed": [[taker pk, "garde"], ...]}``). The board score is
the U of `scoring.fft` (duplicate.md 1.5, open question 8): the taker's score divided by 3.
Reads only: no write here (the writes are in `services`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F
from django.utils.translation import gettext as _

from scoring.duplicate import Session, grade_session, shared_places
from scoring.movement import (
    ORIENTATIONS,
    Movement,
    boards_of_set,
    dealer_of,
    leader_of,
    movement,
    taker_of,
)
from tarotclub.kinds.tarot.models import DealLine

from .models import Entry, Tournament

#: The contract every duplicate board is played in (duplicate.md 1.4, open question 10).
IMPOSED_CONTRACT = "garde"


def stored_movement(t: Tournament) -> Movement | None:
    """The movement stored when the tournament started (None before)."""
    data = t.movement or {}
    if not data:
        return None
    return Movement(
        int(data["tables"]),
        tuple(tuple(int(v) for v in row) for row in data["shifts"]),
        tuple(int(v) for v in data["sets"]),
    )


def new_movement(t: Tournament) -> Movement:
    """The movement for the tournament's tables and rounds (deterministic: `scoring`)."""
    return movement(t.table_count, t.rounds)


def movement_data(m: Movement) -> dict:
    return {"tables": m.tables, "shifts": [list(r) for r in m.shifts], "sets": list(m.sets)}


def seats_of(entries) -> dict[tuple[str, int], Entry]:
    """The movement's players, ("E", 3), to their entries (those seated)."""
    return {(e.orientation, e.start_table): e for e in entries if e.orientation and e.start_table}


def substitutes_of(entries) -> dict[tuple[str, int], Entry]:
    """The seats taken over by a substitute, ("E", 3), to the substitute's entry (who plays
    the seat from his `first_round` on, `Entry.replaces`)."""
    entries = list(entries)
    by_pk = {e.pk: e for e in entries}
    out = {}
    for e in entries:
        replaced = by_pk.get(e.replaces_id) if e.replaces_id else None
        if replaced is not None and replaced.orientation and replaced.start_table:
            out[(replaced.orientation, replaced.start_table)] = e
    return out


def seat_player(seats, subs, seat, round_number: int) -> Entry:
    """The entry playing `seat` in `round_number`: its own, or its substitute's from his round."""
    sub = subs.get(seat)
    if sub is not None and round_number >= sub.first_round:
        return sub
    return seats[seat]


def round_plan(m: Movement, entries, round_number: int) -> list[list[int]]:
    """Round `round_number`'s tables in order, each its player pks in N, E, S, W order (a
    substitute in the seat he took over from his round on)."""
    entries = list(entries)
    by_seat, subs = seats_of(entries), substitutes_of(entries)
    return [
        [seat_player(by_seat, subs, s.seats[o], round_number).player_id for o in ORIENTATIONS]
        for s in m.seating(round_number)
    ]


def board_count(t: Tournament) -> int:
    """The boards of the session: a set of `deals_per_round` boards for each table."""
    return t.table_count * t.deals_per_round


def board_dealer(t: Tournament, board: int) -> str:
    """The dealer marked on `board`: the director's (`Tournament.board_dealers`), else the
    default of `scoring.movement.dealer_of`. No query."""
    marked = (t.board_dealers or {}).get(str(board))
    return marked if marked in ORIENTATIONS else dealer_of(board)


def board_dealers(t: Tournament) -> dict[int, str]:
    """Every board's dealer orientation, {board: "E"}. No query."""
    return {b: board_dealer(t, b) for b in range(1, board_count(t) + 1)}


def dealing(t: Tournament, board: int) -> tuple[str, str]:
    """(dealer, leader) orientations of `board`: the player to the dealer's right leads."""
    dealer = board_dealer(t, board)
    return dealer, leader_of(dealer)


def dealer_marked(t: Tournament, board: int) -> bool:
    """Whether the director marked this board's dealer (else it is the default)."""
    return str(board) in (t.board_dealers or {})


def table_options(
    t: Tournament, m: Movement, round_number: int, table: int, seated: list[int]
) -> dict:
    """A duplicate table's game options: its boards, the taker imposed on each and the
    dealer marked on each (an orientation: the table's phone shows who deals and leads)."""
    boards = list(boards_of_set(m.set_at(table, round_number), t.deals_per_round))
    takers = [seated[ORIENTATIONS.index(taker_of(b))] for b in boards]
    return {
        "deals": len(boards),
        "boards": boards,
        "imposed": [[pk, IMPOSED_CONTRACT] for pk in takers],
        "dealers": [board_dealer(t, b) for b in boards],
    }


def board_scores(t: Tournament) -> dict[tuple[int, int], int]:
    """Every board score entered so far: {(board, round): U}, from the takers' lines.

    One query. The board of a deal is its number's place in its table's boards."""
    return _board_scores([t.pk]).get(t.pk, {})


def _board_scores(pks) -> dict[int, dict[tuple[int, int], int]]:
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
        )
    )
    out: dict[int, dict[tuple[int, int], int]] = {}
    for pk, score, number, options, round_number in lines:
        boards = (options or {}).get("boards") or []
        if 1 <= number <= len(boards):
            out.setdefault(pk, {})[(boards[number - 1], round_number)] = score // 3
    return out


@dataclass(frozen=True)
class Graded:
    """A duplicate tournament read for its pages: movement, players, grading."""

    tournament: Tournament
    movement: Movement
    session: Session
    entries: dict[tuple, Entry]  # movement player (or substitute) -> entry (with its player)
    scores: dict[tuple[int, int], int]
    substitutes: dict[tuple[str, int], int] = None  # seat -> the round its substitute took it

    def players(self) -> list[tuple]:
        """Every player of the session: the movement's, then the substitutes."""
        subs = self.substitutes or {}
        return list(self.movement.players()) + [(*seat, r) for seat, r in subs.items()]

    def note(self, player) -> str:
        """For a player who did not play the whole session: which rounds (else "")."""
        subs = self.substitutes or {}
        if len(player) == 3:
            return _("substitute from round %(round)s") % {"round": player[2]}
        start = subs.get(tuple(player))
        if start is None:
            return ""
        if start == 2:
            return _("played round 1")
        return _("played rounds 1–%(last)s") % {"last": start - 1}

    def full_name(self, player) -> str:
        """The name, with the note of a player who did not play the whole session."""
        note = self.note(player)
        return f"{self.name(player)} ({note})" if note else self.name(player)

    def code(self, player) -> str:
        """The record page's key: "N3", a substitute's "N3-4" (seat and first round)."""
        return self.label(player) + (f"-{player[2]}" if len(player) == 3 else "")

    @property
    def boards(self) -> list[int]:
        per = self.tournament.deals_per_round
        return list(range(1, self.movement.tables * per + 1))

    def name(self, player) -> str:
        entry = self.entries.get(player)
        return entry.player.name if entry is not None else f"{player[0]}{player[1]}"

    def label(self, player) -> str:
        """The player's seat: "N3" (orientation and starting table)."""
        return f"{player[0]}{player[1]}"

    def counts(self) -> str:
        """The ranking that counts (duplicate.md 1.9): alternating for one session."""
        return "alternating"


def graded(t: Tournament) -> Graded | None:
    """The tournament's movement, players and grading (None before the start). Two queries."""
    m = stored_movement(t)
    if m is None:
        return None
    people, subs = _people(t.entries.select_related("player"))
    scores = board_scores(t)
    session = grade_session(m, t.deals_per_round, scores, substitutes=subs)
    return Graded(t, m, session, people, scores, subs)


def _people(entries) -> tuple[dict[tuple, Entry], dict[tuple[str, int], int]]:
    """The movement's players and the substitutes (``("N", 3, from round)``) to their
    entries, and the substitutes as `scoring.duplicate.grade_session` takes them."""
    entries = list(entries)
    people: dict[tuple, Entry] = dict(seats_of(entries))
    subs = {}
    for seat, sub in substitutes_of(entries).items():
        subs[seat] = sub.first_round
        people[(*seat, sub.first_round)] = sub
    return people, subs


def graded_many(tournaments) -> dict[int, Graded]:
    """`graded` of each started duplicate tournament of `tournaments`, by pk: two queries
    whatever their number (a player's page lists them all)."""
    started = {t.pk: (t, m) for t in tournaments if t.duplicate and (m := stored_movement(t))}
    if not started:
        return {}
    entries: dict[int, list[Entry]] = {}
    for e in Entry.objects.filter(tournament__in=started).select_related("player"):
        entries.setdefault(e.tournament_id, []).append(e)
    scores = _board_scores(list(started))
    out = {}
    for pk, (t, m) in started.items():
        found = scores.get(pk, {})
        people, subs = _people(entries.get(pk, []))
        session = grade_session(m, t.deals_per_round, found, substitutes=subs)
        out[pk] = Graded(t, m, session, people, found, subs)
    return out


def board_plays(t: Tournament, m: Movement, board: int) -> list[tuple[int, int]]:
    """Where a board is played: (round, table) in round order."""
    per = t.deals_per_round
    board_set = (board - 1) // per + 1
    out = []
    for r in range(1, m.rounds + 1):
        for s in m.seating(r):
            if s.board_set == board_set:
                out.append((r, s.table))
    return out


# --- what the pages and downloads show (rows of plain values) --------------------------------


def ranking_rows(g: Graded, which: str) -> list[dict]:
    """The general or alternating ranking: place, player, seat, attack %, defence %, overall %
    (Fractions, or None for a side with no graded board)."""
    order = g.session.general if which == "general" else g.session.alternating
    records = g.session.records
    overall = {p: records[p].overall for p in order}
    if which == "general":
        shared = shared_places(order, overall)
        places = [shared[p] for p in order]
    else:
        places = list(range(1, len(order) + 1))
    return [
        {
            "place": place,
            "player": p,
            "name": g.name(p) + (" *" if g.note(p) else ""),
            "full_name": g.full_name(p),
            "seat": g.label(p),
            "code": g.code(p),  # the record page's key
            "note": g.label(p),
            "played": g.note(p),  # the rounds of one who did not play the whole session
            "entry": g.entries.get(p),
            "attack": records[p].attack,
            "defence": records[p].defence,
            "overall": records[p].overall,
        }
        for place, p in zip(places, order, strict=True)
    ]


def grading_rows(g: Graded, board: int) -> list[dict]:
    """One board's grading sheet (1.10): a line per play, in round order."""
    return [
        {
            "round": play.round,
            "table": play.table,
            "taker": g.full_name(play.taker),
            "won": play.score if play.score >= 0 else None,
            "lost": -play.score if play.score < 0 else None,
            "score": play.score,
            "attack": play.attack,
            "defence": play.defence,
        }
        for play in g.session.boards.get(board, ())
    ]


def record_rows(g: Graded, player) -> list[dict]:
    """A player's record (feuille de route): every board played, in round order."""
    record = g.session.records.get(player)
    if record is None:
        return []
    rows = [(p, True) for p in record.took] + [(p, False) for p in record.defended]
    rows.sort(key=lambda x: (x[0].round, x[0].board))
    return [
        {
            "round": play.round,
            "table": play.table,
            "board": play.board,
            "took": took,
            "score": play.score,
            "grade": play.attack if took else play.defence,
        }
        for play, took in rows
    ]
