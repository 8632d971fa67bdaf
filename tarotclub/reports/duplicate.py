"""The duplicate tarot printouts and exports, made from pure data (issue 14).

Nothing here reads the database: every builder takes plain values, so the duplicate
tournament pages (whatever their models) and the tests call exactly the same functions.

- a `Movement` and the number of boards in a set (`per_set`), from `scoring.movement`;
- a graded `Session`, from `scoring.duplicate.grade_session`;
- `names`: a mapping from each player, ``(orientation, starting table)``, to the name printed
  (a player missing from it is printed by their code, "N3");
- an `Event`: the tournament's title, club, date and place as plain strings, for the page
  header of every page;
- for the diagrams and slips, the board numbers and a URL per board (for its QR code).

The documents (see `../shared/rules/duplicate.md`, sections 1.2–1.10 and 2.2–2.5):

==================  ============================================================================
`guide_cards`       one card per table and round: who sits where, the boards, where everyone
                    and the boards go next; eight cards an A4 page, with cut lines
`diagrams`          one page a board: the four hands' diagrams (78 cards to circle, in the
                    orientation's colour), the chien, the board's QR code
`slips`             the travelling slip of each board, two an A4 page: a line per play
                    (round, table, players by orientation, contract, + / − score, grades)
`grading_sheets`    each board's grading sheet (round, table, taker, won / lost, grades)
`rankings`          the general and the alternating ranking, the one that counts marked
`records`           each player's record (feuille de route), one a page
`triplettes`        the triplettes' results sheet (½ attack + ½ defence, both rankings)
`quadrettes`        the quadrettes' results sheet (match points, each team's boards)
`team_match`        a team match's results sheet (open and closed rooms, quarters, signatures)
==================  ============================================================================

Each returns a `reports.pdf.Pdf`. Grades are shown to 1 decimal and percentages to 2, in the
reader's language (1,5 in French and Dutch) with a real minus sign (`games.presenters.figure`).
The rows for CSV and Excel downloads (`general_rows`, `alternating_rows`, `grading_rows`) are
plain lists for `reports.exports.rows_response`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from scoring import duplicate as rules
from scoring.fft import CONTRACT_LABELS
from scoring.movement import ORIENTATIONS, Movement, boards_of_set, leader_of, taker_of
from tarotclub.games.presenters import compact_name, figure, signed

from .documents import qr_image
from .pdf import Pdf, html_to_pdf, page_counter_css

Player = tuple[str, int]

ORIENTATION_NAMES = {
    "N": gettext_lazy("North"),
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
}
#: The orientation's initial in the reader's language (Nord, Est, Sud, Ouest: N E S O).
ORIENTATION_LETTERS = {
    "N": pgettext_lazy("orientation initial", "N"),
    "E": pgettext_lazy("orientation initial", "E"),
    "S": pgettext_lazy("orientation initial", "S"),
    "W": pgettext_lazy("orientation initial", "W"),
}
#: The diagram's colour of each orientation (p. 14; the inks are in _style.html).
COLOURS = {
    "N": gettext_lazy("yellow"),
    "S": gettext_lazy("blue"),
    "E": gettext_lazy("red"),
    "W": gettext_lazy("green"),
}
#: The paper's order of the orientations (the slip, the score sheet): North, South, East, West.
PAPER_ORDER = ("N", "S", "E", "W")
#: Seated to the taker's left, facing, right (duplicate.md, the geometry table).
PLACES = (
    pgettext_lazy("defence place", "front"),
    pgettext_lazy("defence place", "middle"),
    pgettext_lazy("defence place", "back"),
)
SUITS = (("♠", False), ("♥", True), ("♦", True), ("♣", False))


@dataclass(frozen=True)
class Event:
    """What every page header says: the club, the tournament's title, its date and place, as
    the reader should see them (already formatted)."""

    title: str
    club: str
    date: str = ""
    place: str = ""
    colour: str = ""  # the tournament's colour on its slips and diagrams (boards shared, p. 15)


# --- figures ----------------------------------------------------------------------------------


def grade(value) -> str:
    """A grade to 1 decimal: 83,3 (French), 83.3 (English)."""
    return "" if value is None else figure(Fraction(value), 1)


def percent(value) -> str:
    """A percentage to 2 decimals: 54,69."""
    return "" if value is None else figure(Fraction(value), 2)


def points(value) -> str:
    """Match points to 3 decimals with their sign: +12,961, −3,162, 0,000."""
    text = figure(Decimal(value), 3)
    return f"+{text}" if Decimal(value) > 0 else text


def rounded(value, digits: int) -> float | None:
    """A Fraction as a spreadsheet number, rounded half up like the printouts."""
    if value is None:
        return None
    value = Fraction(value)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def code(player: Player) -> str:
    """A player's code: orientation initial and starting table, "N3" ("O3" for West in
    French)."""
    orientation, table = player[0], player[1]  # a substitute's key has his round third
    return f"{ORIENTATION_LETTERS[orientation]}{table}"


def name_of(names: Mapping[Hashable, str], player: Player) -> str:
    return names.get(player) or code(player)


def slip_name(name: str) -> str:
    """A name for a slip's narrow column: a word longer than 13 letters shortened
    ("Marie-Christine Lambert" → "Marie-C. Lambert"), hyphens that never break."""
    return compact_name(name, 13)


def _set_of_board(board: int, per_set: int) -> int:
    return (board - 1) // per_set + 1


def _tables_of_set(movement: Movement, board_set: int) -> list[tuple[int, int]]:
    """(round, table) where a set is played, round by round."""
    out = []
    for r in range(1, movement.rounds + 1):
        for t in range(1, movement.tables + 1):
            if movement.set_at(t, r) == board_set:
                out.append((r, t))
                break
    return out


def _range_text(numbers: Sequence[int]) -> str:
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def runs_text(numbers: Sequence[int]) -> str:
    """Numbers in runs: [1, 2, 3, 5] → "1–3, 5" (a guide card's narrow column)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def _context(event: Event, doc_title: str, **context) -> dict:
    place = " · ".join(x for x in (event.date, event.place) if x)
    return {
        "club_name": event.club,
        "page_counter": page_counter_css(),
        "event": event.title,
        "event_date": None,
        "event_place": place,
        "doc_title": doc_title,
        "tournament_colour": event.colour,
        **context,
    }


def _pdf(template: str, context: dict) -> Pdf:
    return html_to_pdf(render_to_string(template, context))


# --- guide cards (1.6) -------------------------------------------------------------------------


@dataclass
class GuideSeat:
    orientation: str
    code: str
    name: str
    takes: str  # the boards this seat takes, "3" or "3, 7"
    next_table: int | None
    deals: str = ""  # the boards this seat deals (their dealer marked), "1, 2"


@dataclass
class GuideCard:
    table: int
    round: int
    rounds: int
    boards: str
    seats: list[GuideSeat]
    boards_next: int | None  # the table that plays these boards next round


def guide_card_data(
    movement: Movement,
    per_set: int,
    names: Mapping,
    dealers: Mapping[int, str] | None = None,
    substitutes: Mapping | None = None,
) -> list[GuideCard]:
    """Every table's card of every round, round by round, in table order. `dealers` gives
    each board's dealer orientation: a seat's card then says which boards it deals.
    `substitutes` ({seat: from round}): a seat's name is its substitute's from his round."""
    cards = []
    for r in range(1, movement.rounds + 1):
        following = (
            {s.board_set: s.table for s in movement.seating(r + 1)} if r < movement.rounds else {}
        )
        for seating in movement.seating(r):
            boards = list(boards_of_set(seating.board_set, per_set))
            seats = [
                GuideSeat(
                    orientation=str(ORIENTATION_NAMES[o]),
                    code=code(seating.seats[o]),
                    name=name_of(names, rules.player_in(seating.seats[o], r, substitutes)),
                    takes=", ".join(str(b) for b in boards if taker_of(b) == o),
                    next_table=seating.next_table[o],
                    deals=runs_text([b for b in boards if (dealers or {}).get(b) == o]),
                )
                for o in PAPER_ORDER
            ]
            cards.append(
                GuideCard(
                    table=seating.table,
                    round=r,
                    rounds=movement.rounds,
                    boards=_range_text(boards),
                    seats=seats,
                    boards_next=following.get(seating.board_set),
                )
            )
    return cards


CARDS_PER_PAGE = 8


def guide_cards_context(
    *,
    movement: Movement,
    per_set: int,
    names: Mapping,
    event: Event,
    dealers: Mapping[int, str] | None = None,
    substitutes: Mapping | None = None,
):
    cards = guide_card_data(movement, per_set, names, dealers, substitutes)
    pages = [cards[i : i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    pages = [[page[i : i + 2] for i in range(0, len(page), 2)] for page in pages]
    return _context(event, _("Guide cards"), pages=pages, dealt=bool(dealers))


def guide_cards(
    *,
    movement: Movement,
    per_set: int,
    names: Mapping,
    event: Event,
    dealers: Mapping[int, str] | None = None,
) -> Pdf:
    """The guide cards, eight an A4 page, to cut along the dashed lines; with `dealers`
    (board → orientation), each seat's boards to deal."""
    context = guide_cards_context(
        movement=movement, per_set=per_set, names=names, event=event, dealers=dealers
    )
    return _pdf("reports/duplicate/guide_cards_pdf.html", context)


# --- diagrams (1.2, 1.3) -----------------------------------------------------------------------


def card_faces() -> list[str]:
    """1 … 10 and the four faces, in the reader's language (V C D R in French)."""
    return [str(n) for n in range(1, 11)] + [
        pgettext("card", "J"),
        pgettext("card", "C"),
        pgettext("card", "Q"),
        pgettext("card", "K"),
    ]


@dataclass
class CardCell:
    label: str
    key: str  # "S1" … "CK", "T1" … "T21", "EX": the key a prepared hand lists
    red: bool = False
    held: bool = False


@dataclass
class HandDiagram:
    key: str  # N, E, S, W: the band's colour in the stylesheet
    orientation: str
    name: str
    colour_name: str
    taker: bool
    dealer: bool
    rows: list[tuple[str, bool, list[CardCell]]]  # suit sign, red, cells
    leads: bool = False  # this hand leads the first trick (the dealer's right)


@dataclass
class BoardPage:
    board: int
    taker: str
    dealer: str
    url: str
    qr: str
    hands: list[HandDiagram]
    chien: list[tuple[str, str]]
    leader: str = ""  # who leads: the player to the dealer's right ("" with no dealer)


RANK_KEYS = [str(n) for n in range(1, 11)] + ["J", "C", "Q", "K"]
SUIT_KEYS = ("S", "H", "D", "C")


def _diagram_rows(held: set[str]) -> list[tuple[str, bool, list[CardCell]]]:
    faces = card_faces()
    rows = []
    for (sign, red), suit in zip(SUITS, SUIT_KEYS, strict=True):
        cells = [
            CardCell(label=face, key=suit + rank, red=red, held=suit + rank in held)
            for face, rank in zip(faces, RANK_KEYS, strict=True)
        ]
        rows.append((sign, red, cells))
    trumps = [CardCell(label=str(n), key=f"T{n}", held=f"T{n}" in held) for n in range(1, 22)]
    trumps.append(CardCell(label=pgettext("card", "Exc."), key="EX", held="EX" in held))
    rows.append((_("Trumps"), False, trumps[:11]))
    rows.append(("", False, trumps[11:]))
    return rows


def diagrams_context(
    *,
    boards: Sequence[int],
    urls: Mapping[int, str],
    event: Event,
    dealers: Mapping[int, str] | None = None,
    hands: Mapping[int, Mapping[str, Iterable[str]]] | None = None,
) -> dict:
    pages = []
    for board in boards:
        taker = taker_of(board)
        dealer = (dealers or {}).get(board, "")
        dealt = (hands or {}).get(board, {})
        diagrams = [
            HandDiagram(
                key=o,
                orientation=str(ORIENTATION_NAMES[o]),
                name=str(ORIENTATION_NAMES[o]),
                colour_name=str(COLOURS[o]),
                taker=o == taker,
                dealer=o == dealer,
                rows=_diagram_rows(set(dealt.get(o, ()))),
                leads=bool(dealer) and o == leader_of(dealer),
            )
            for o in PAPER_ORDER
        ]
        chien = list(dealt.get("chien", ()))
        url = urls.get(board, "")
        pages.append(
            BoardPage(
                board=board,
                taker=str(ORIENTATION_NAMES[taker]),
                dealer=str(ORIENTATION_NAMES[dealer]) if dealer else "",
                url=url,
                qr=qr_image(url) if url else "",
                hands=diagrams,
                chien=[_card_label(k) for k in chien] + [("", "")] * (6 - len(chien)),
                leader=str(ORIENTATION_NAMES[leader_of(dealer)]) if dealer else "",
            )
        )
    return _context(event, _("Board diagrams"), pages=pages)


def _card_label(key: str) -> tuple[str, str]:
    """A card's short name from its key, and what it is under it: ("♥D", ""), ("21",
    "trump"), ("Exc.", "")."""
    if key == "EX":
        return pgettext("card", "Exc."), ""
    if key.startswith("T"):
        return key[1:], _("trump")
    sign = SUITS[SUIT_KEYS.index(key[0])][0]
    return sign + card_faces()[RANK_KEYS.index(key[1:])], ""


def diagrams(
    *,
    boards: Sequence[int],
    urls: Mapping[int, str],
    event: Event,
    dealers: Mapping[int, str] | None = None,
    hands: Mapping[int, Mapping[str, Iterable[str]]] | None = None,
) -> Pdf:
    """One A4 page a board: its four diagrams to circle (cut apart, one into each hand's
    pocket), the chien and the board's QR code. `dealers` gives a board's dealer orientation
    when the director marked one; `hands` the cards of a prepared deal, `{board: {"N": keys,
    …, "chien": keys}}` with keys "S1" … "SK" (spades … "C" clubs; J C Q K faces), "T1" …
    "T21" and "EX", which are then printed circled."""
    context = diagrams_context(boards=boards, urls=urls, event=event, dealers=dealers, hands=hands)
    return _pdf("reports/duplicate/diagrams_pdf.html", context)


# --- travelling slips (1.5) --------------------------------------------------------------------


SLIP_LINES_HALF_PAGE = 8


@dataclass
class SlipLine:
    round: int
    table: int
    players: list[tuple[str, bool]]  # names in paper order, True for the taker's
    contract: str
    won: str = ""
    lost: str = ""
    attack: str = ""
    defence: str = ""


@dataclass
class Slip:
    board: int
    board_set: int
    taker: str
    dealer: str
    url: str
    qr: str
    lines: list[SlipLine]
    leader: str = ""  # who leads: the player to the dealer's right ("" with no dealer)

    @property
    def density(self) -> str:
        return "roomy" if len(self.lines) <= 6 else "normal" if len(self.lines) <= 8 else "full"


def _plays(session) -> dict[tuple[int, int], rules.Play]:
    if session is None:
        return {}
    return {(p.board, p.round): p for plays in session.boards.values() for p in plays}


def slips_context(
    *,
    movement: Movement,
    per_set: int,
    names: Mapping,
    event: Event,
    boards: Sequence[int],
    urls: Mapping[int, str],
    session: rules.Session | None = None,
    dealers: Mapping[int, str] | None = None,
    substitutes: Mapping | None = None,
) -> dict:
    played = _plays(session)
    contract = str(CONTRACT_LABELS["garde"]).capitalize()
    slips = []
    for board in boards:
        board_set = _set_of_board(board, per_set)
        taker = taker_of(board)
        lines = []
        for r, t in _tables_of_set(movement, board_set):
            seats = next(s for s in movement.seating(r) if s.table == t).seats
            line = SlipLine(
                round=r,
                table=t,
                players=[
                    (slip_name(name_of(names, rules.player_in(s, r, substitutes))), o == taker)
                    for o, s in ((o, seats[o]) for o in PAPER_ORDER)
                ],
                contract=contract,
            )
            play = played.get((board, r))
            if play is not None:
                if play.score >= 0:
                    line.won = signed(play.score)
                else:
                    line.lost = signed(play.score)
                line.attack, line.defence = grade(play.attack), grade(play.defence)
            lines.append(line)
        url = urls.get(board, "")
        dealer = (dealers or {}).get(board, "")
        slips.append(
            Slip(
                board=board,
                board_set=board_set,
                taker=str(ORIENTATION_NAMES[taker]),
                dealer=str(ORIENTATION_NAMES[dealer]) if dealer else "",
                url=url,
                qr=qr_image(url) if url else "",
                lines=lines,
                leader=str(ORIENTATION_NAMES[leader_of(dealer)]) if dealer else "",
            )
        )
    # two a page (half an A4 each) while a board is played at most 8 times, else one a page
    per_page = 2 if movement.rounds <= SLIP_LINES_HALF_PAGE else 1
    return _context(
        event,
        _("Travelling slips"),
        pages=[slips[i : i + per_page] for i in range(0, len(slips), per_page)],
        orientations=[str(ORIENTATION_NAMES[o]) for o in PAPER_ORDER],
    )


def slips(
    *,
    movement: Movement,
    per_set: int,
    names: Mapping,
    event: Event,
    boards: Sequence[int],
    urls: Mapping[int, str],
    session: rules.Session | None = None,
    dealers: Mapping[int, str] | None = None,
) -> Pdf:
    """The travelling slip of each board, two an A4 page (cut in half, folded into the board),
    or one a page when a board is played more than 8 times.

    A line per play, in the order the board travels, with the players of that table; with a
    `session`, the scores entered so far and their grades are printed in; `dealers` gives a
    board's dealer orientation when it is marked (else a blank to fill in)."""
    context = slips_context(
        movement=movement,
        per_set=per_set,
        names=names,
        event=event,
        boards=boards,
        urls=urls,
        session=session,
        dealers=dealers,
    )
    return _pdf("reports/duplicate/slips_pdf.html", context)


# --- grading sheets (1.7, 1.10) ----------------------------------------------------------------


@dataclass
class GradingLine:
    round: int
    table: int
    taker: str
    code: str
    won: str
    lost: str
    attack: str
    defence: str
    top: bool
    bottom: bool


@dataclass
class GradingSheet:
    board: int
    taker: str
    plays: int
    lines: list[GradingLine]


def grading_data(session: rules.Session, names: Mapping) -> list[GradingSheet]:
    sheets = []
    for board, plays in sorted(session.boards.items()):
        lines = [
            GradingLine(
                round=p.round,
                table=p.table,
                taker=name_of(names, p.taker),
                code=code(p.taker),
                won=signed(p.score) if p.score >= 0 else "",
                lost=signed(p.score) if p.score < 0 else "",
                attack=grade(p.attack),
                defence=grade(p.defence),
                top=p.attack == rules.TOP and len(plays) > 1,
                bottom=p.attack == 0,
            )
            for p in plays
        ]
        sheets.append(
            GradingSheet(board, str(ORIENTATION_NAMES[taker_of(board)]), len(plays), lines)
        )
    return sheets


def grading_context(*, session: rules.Session, names: Mapping, event: Event) -> dict:
    return _context(event, _("Grading sheets"), sheets=grading_data(session, names))


def grading_sheets(*, session: rules.Session, names: Mapping, event: Event) -> Pdf:
    """Each graded board's sheet, as the director grades it (1.7, p. 18)."""
    return _pdf(
        "reports/duplicate/grading_pdf.html",
        grading_context(session=session, names=names, event=event),
    )


# --- rankings (1.9) ----------------------------------------------------------------------------


@dataclass
class RankLine:
    rank: int
    tied: bool
    name: str
    code: str
    line: str
    line_rank: int
    attack: str
    defence: str
    overall: str
    tier_start: bool = False  # the first of a group of line places (alternating ranking)


def _line_ranks(session: rules.Session) -> dict:
    by_line: dict[str, list] = defaultdict(list)
    for player in session.general:
        by_line[player[0]].append(player)
    overall = {p: session.records[p].overall for p in session.general}
    out = {}
    for players in by_line.values():
        out.update(rules.shared_places(players, overall))
    return out


def ranking_data(session: rules.Session, names: Mapping) -> tuple[list[RankLine], list[RankLine]]:
    """(general, alternating) lines. Equal overall percentages share their rank in the general
    ranking (open question 5: no automatic tie-break); the alternating one gives places."""
    overall = {p: session.records[p].overall for p in session.general}
    general_ranks = rules.shared_places(session.general, overall)
    counts = defaultdict(int)
    for p in session.general:
        counts[general_ranks[p]] += 1
    line_ranks = _line_ranks(session)

    def line(player, rank, tied, tier_start=False) -> RankLine:
        record = session.records[player]
        return RankLine(
            rank=rank,
            tied=tied,
            name=name_of(names, player),
            code=code(player),
            line=str(ORIENTATION_NAMES[player[0]]),
            line_rank=line_ranks[player],
            attack=percent(record.attack),
            defence=percent(record.defence),
            overall=percent(record.overall),
            tier_start=tier_start,
        )

    general = [line(p, general_ranks[p], counts[general_ranks[p]] > 1) for p in session.general]
    alternating, seen = [], set()
    for place, p in enumerate(session.alternating, start=1):
        tier = line_ranks[p]
        alternating.append(line(p, place, False, tier_start=bool(seen) and tier not in seen))
        seen.add(tier)
    return general, alternating


def rankings_context(*, session: rules.Session, names: Mapping, event: Event, sessions: int = 1):
    general, alternating = ranking_data(session, names)
    counts = "alternating" if sessions == 1 else "general"
    return _context(
        event,
        _("Rankings"),
        general=general,
        alternating=alternating,
        counts=counts,
        order=[counts, "general" if counts == "alternating" else "alternating"],
        graded=len(session.boards),
    )


def rankings(*, session: rules.Session, names: Mapping, event: Event, sessions: int = 1) -> Pdf:
    """The alternating and the general ranking. For a one-session tournament the alternating
    ranking counts (homologation, p. 19) and comes first; for several sessions the general."""
    context = rankings_context(session=session, names=names, event=event, sessions=sessions)
    return _pdf("reports/duplicate/rankings_pdf.html", context)


# --- player records (feuille de route, 1.10) ---------------------------------------------------


@dataclass
class RecordLine:
    round: int
    table: int
    board: int
    role: str
    taker: str
    score: str
    grade: str
    took: bool


@dataclass
class PlayerRecord:
    name: str
    code: str
    orientation: str
    lines: list[RecordLine]
    attack: str
    defence: str
    overall: str
    general_rank: int | None
    alternating_place: int | None
    players: int
    took: int
    defended: int


def _place(taker: str, defender: str) -> str:
    """The defence place of `defender` against `taker`: front (the taker's left), middle
    (facing), back (the taker's right)."""
    step = (ORIENTATIONS.index(defender) - ORIENTATIONS.index(taker)) % 4
    return str(PLACES[step - 1])


def _rounds_of(movement: Movement, player, substitutes: Mapping | None) -> range:
    """The rounds `player` played: a substitute's (``("N", 3, 4)``) from his round on, a
    replaced player's up to the round before his substitute's, else every round."""
    if len(player) == 3:
        return range(player[2], movement.rounds + 1)
    start = (substitutes or {}).get(tuple(player))
    return range(1, (start or movement.rounds + 1))


def record_data(
    movement: Movement,
    per_set: int,
    session: rules.Session,
    names: Mapping,
    players=None,
    substitutes: Mapping | None = None,
) -> list[PlayerRecord]:
    """`substitutes`, {seat: from round}: as `scoring.duplicate.grade_session` took them."""
    played = _plays(session)
    overall = {p: session.records[p].overall for p in session.general}
    general_ranks = rules.shared_places(session.general, overall)
    places = {p: i for i, p in enumerate(session.alternating, start=1)}
    out = []
    for player in players if players is not None else movement.players():
        lines = []
        seat = (player[0], player[1])
        for r in _rounds_of(movement, player, substitutes):
            t = movement.table_of(seat, r)
            seats = next(s for s in movement.seating(r) if s.table == t).seats
            for board in boards_of_set(movement.set_at(t, r), per_set):
                taker = taker_of(board)
                play = played.get((board, r))
                took = taker == player[0]
                mine = None if play is None else play.attack if took else play.defence
                lines.append(
                    RecordLine(
                        round=r,
                        table=t,
                        board=board,
                        role=_("taker")
                        if took
                        else _("defence, %(place)s") % {"place": _place(taker, player[0])},
                        taker=""
                        if took
                        else name_of(names, rules.player_in(seats[taker], r, substitutes)),
                        score="" if play is None else signed(play.score),
                        grade=grade(mine),
                        took=took,
                    )
                )
        record = session.records.get(player)
        out.append(
            PlayerRecord(
                name=name_of(names, player),
                code=code(player),
                orientation=str(ORIENTATION_NAMES[player[0]]),
                lines=lines,
                attack=percent(record.attack if record else None),
                defence=percent(record.defence if record else None),
                overall=percent(record.overall if record else None),
                general_rank=general_ranks.get(player),
                alternating_place=places.get(player),
                players=len(session.records),
                took=len(record.took) if record else 0,
                defended=len(record.defended) if record else 0,
            )
        )
    return out


def records_context(
    *,
    movement,
    per_set,
    session,
    names,
    event: Event,
    players: Sequence[Player] | None = None,
    substitutes: Mapping | None = None,
) -> dict:
    return _context(
        event,
        _("Player records"),
        records=record_data(movement, per_set, session, names, players, substitutes),
    )


def records(
    *,
    movement: Movement,
    per_set: int,
    session: rules.Session,
    names: Mapping,
    event: Event,
    players: Sequence[Player] | None = None,
) -> Pdf:
    """Each player's record (feuille de route récapitulative), one a page: every board they
    played, as taker or in which defence place, its score and their grade, then their attack,
    defence and overall percentages and their places in both rankings. `players` prints only
    those (a player asks for theirs)."""
    context = records_context(
        movement=movement,
        per_set=per_set,
        session=session,
        names=names,
        event=event,
        players=players,
    )
    return _pdf("reports/duplicate/records_pdf.html", context)


# --- triplettes (2.2) --------------------------------------------------------------------------


@dataclass(frozen=True)
class Triplette:
    """A triplette: its key, name, starting line ("NS" or "EW", p. 20) and members."""

    key: Hashable
    name: str
    line: str
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class TriplettePlay:
    """One play of a board between two triplettes: the one seated North-South, the one seated
    East-West, and the board score written on the slip. The board's taker orientation (N, E,
    S, W in turn) says which of the two attacked."""

    board: int
    round: int
    table: int
    north_south: Hashable
    east_west: Hashable
    score: int


@dataclass
class TripletteLine:
    rank: int
    tied: bool
    name: str
    members: str
    line: str
    attack: str
    defence: str
    overall: str
    boards: int
    tier_start: bool = False


@dataclass
class TripletteResults:
    """Every triplette's exact percentages and both rankings (keys, best first)."""

    attack: dict[Hashable, Fraction | None]
    defence: dict[Hashable, Fraction | None]
    overall: dict[Hashable, Fraction]
    general: list[Hashable]
    alternating: list[Hashable]
    #: each triplette's boards, in board order: (play, attacked, its grade)
    boards: dict[Hashable, list[tuple[TriplettePlay, bool, Fraction]]] = field(default_factory=dict)


def _mean(grades: Sequence[Fraction]) -> Fraction | None:
    return sum(grades, Fraction(0)) / len(grades) if grades else None


@dataclass
class TripletteBoard:
    board: int
    round: int
    table: int
    role: str
    opponent: str
    score: str
    grade: str
    attacked: bool


LINE_NAMES = {"NS": gettext_lazy("North-South"), "EW": gettext_lazy("East-West")}


def triplette_results(
    teams: Sequence[Triplette], plays: Sequence[TriplettePlay]
) -> TripletteResults:
    """Grade each board among its plays (`grade_board`), give the attacking triplette the
    attack grade and the other the defence grade, then ½ attack + ½ defence
    (`overall_percentage(team="triplette")`) and both rankings (`general_ranking`, and
    `alternating_ranking` on the two starting lines)."""
    by_board: dict[int, list[TriplettePlay]] = defaultdict(list)
    for play in plays:
        by_board[play.board].append(play)
    attack: dict[Hashable, list[Fraction]] = defaultdict(list)
    defence: dict[Hashable, list[Fraction]] = defaultdict(list)
    played: dict[Hashable, list] = defaultdict(list)
    for board, lines in sorted(by_board.items()):
        grades = rules.grade_board([p.score for p in lines]) if len(lines) > 1 else [rules.TOP / 2]
        ns_attacks = taker_of(board) in ("N", "S")
        for play, g in zip(lines, grades, strict=True):
            attacker, defender = (
                (play.north_south, play.east_west)
                if ns_attacks
                else (play.east_west, play.north_south)
            )
            attack[attacker].append(g)
            defence[defender].append(rules.TOP - g)
            played[attacker].append((play, True, g))
            played[defender].append((play, False, rules.TOP - g))
    overall = {
        t.key: rules.overall_percentage(attack[t.key], defence[t.key], team="triplette")
        for t in teams
        if attack[t.key] or defence[t.key]
    }
    lines_of = {
        line: {t.key: overall[t.key] for t in teams if t.line == line and t.key in overall}
        for line in ("NS", "EW")
    }
    return TripletteResults(
        attack={t.key: _mean(attack[t.key]) for t in teams},
        defence={t.key: _mean(defence[t.key]) for t in teams},
        overall=overall,
        general=rules.general_ranking(overall),
        alternating=rules.alternating_ranking(lines_of),
        boards={t.key: played[t.key] for t in teams},
    )


def triplettes_context(*, teams, plays, event: Event, sessions: int = 1) -> dict:
    result = triplette_results(teams, plays)
    by_key = {t.key: t for t in teams}
    boards = defaultdict(int)
    for p in plays:
        boards[p.north_south] += 1
        boards[p.east_west] += 1
    ranks = rules.shared_places(result.general, result.overall)
    counts = defaultdict(int)
    for key in result.general:
        counts[ranks[key]] += 1

    def line(key, rank, tied, tier_start=False):
        t = by_key[key]
        return TripletteLine(
            rank=rank,
            tied=tied,
            name=t.name,
            members=", ".join(t.members),
            line=str(LINE_NAMES.get(t.line, t.line)),
            attack=percent(result.attack[key]),
            defence=percent(result.defence[key]),
            overall=percent(result.overall[key]),
            boards=boards[key],
            tier_start=tier_start,
        )

    general = [line(k, ranks[k], counts[ranks[k]] > 1) for k in result.general]
    alternating = [
        line(k, i, False, tier_start=i > 1 and i % 2 == 1)
        for i, k in enumerate(result.alternating, start=1)
    ]
    records = []
    for key in result.alternating:
        rows = []
        for play, attacked, g in result.boards[key]:
            other = play.east_west if play.north_south == key else play.north_south
            rows.append(
                TripletteBoard(
                    board=play.board,
                    round=play.round,
                    table=play.table,
                    role=_("attack") if attacked else _("defence"),
                    opponent=by_key[other].name,
                    score=signed(play.score),
                    grade=grade(g),
                    attacked=attacked,
                )
            )
        records.append((line(key, ranks[key], counts[ranks[key]] > 1), rows))
    return _context(
        event,
        _("Triplettes: results"),
        general=general,
        alternating=alternating,
        counts="alternating" if sessions == 1 else "general",
        order=["alternating", "general"] if sessions == 1 else ["general", "alternating"],
        records=records,
    )


def triplettes(
    *, teams: Sequence[Triplette], plays: Sequence[TriplettePlay], event: Event, sessions: int = 1
) -> Pdf:
    """The triplettes' results sheet: both rankings with attack, defence and overall % (the
    alternating one counts for one session, p. 21), then each triplette's record (every
    board, attacked or defended, against whom, its score and grade) for its captain."""
    context = triplettes_context(teams=teams, plays=plays, event=event, sessions=sessions)
    return _pdf("reports/duplicate/triplettes_pdf.html", context)


# --- quadrettes (2.3, 2.5) ---------------------------------------------------------------------


@dataclass(frozen=True)
class Quadrette:
    """A quadrette: key, name, the player who attacks all session, the three defenders."""

    key: Hashable
    name: str
    attacker: str = ""
    defenders: tuple[str, ...] = ()


@dataclass(frozen=True)
class Opposition:
    """One board of a head-to-head: `first_score` is what `first`'s attacker made against
    `second`'s defence, `second_score` what `second`'s attacker made against `first`'s, on the
    same board (p. 22–23)."""

    board: int
    first: Hashable
    second: Hashable
    first_score: int
    second_score: int


@dataclass
class QuadretteBoard:
    board: int
    opponent: str
    own: str
    theirs: str
    diff: str
    pm: str


@dataclass
class QuadretteLine:
    rank: int
    tied: bool
    name: str
    attacker: str
    defenders: str
    total: str
    total_value: Decimal
    boards: list[QuadretteBoard] = field(default_factory=list)
    against: list[tuple[str, str]] = field(default_factory=list)  # opponent, PM (not counted)


def quadrette_totals(teams: Sequence[Quadrette], oppositions: Sequence[Opposition]) -> dict:
    """Each quadrette's final result (`quadrette_result` of its score differences)."""
    diffs: dict[Hashable, list[int]] = {t.key: [] for t in teams}
    for o in oppositions:
        diffs[o.first].append(o.first_score - o.second_score)
        diffs[o.second].append(o.second_score - o.first_score)
    return {key: rules.quadrette_result(d) for key, d in diffs.items()}


def quadrettes_context(*, teams, oppositions, event: Event) -> dict:
    totals = quadrette_totals(teams, oppositions)
    by_key = {t.key: t for t in teams}
    order = sorted(totals, key=lambda k: (-totals[k], str(by_key[k].name)))
    ranks = rules.shared_places(order, totals)
    counts = defaultdict(int)
    for k in order:
        counts[ranks[k]] += 1
    lines = []
    for key in order:
        t = by_key[key]
        line = QuadretteLine(
            rank=ranks[key],
            tied=counts[ranks[key]] > 1,
            name=t.name,
            attacker=t.attacker,
            defenders=", ".join(t.defenders),
            total=points(totals[key]),
            total_value=totals[key],
        )
        against: dict[Hashable, Decimal] = {}
        mine = [o for o in oppositions if key in (o.first, o.second)]
        for o in sorted(mine, key=lambda o: o.board):
            own, theirs, other = (
                (o.first_score, o.second_score, o.second)
                if o.first == key
                else (o.second_score, o.first_score, o.first)
            )
            pm = rules.match_points(own - theirs)
            against[other] = against.get(other, Decimal("0.000")) + pm
            line.boards.append(
                QuadretteBoard(
                    board=o.board,
                    opponent=by_key[other].name,
                    own=signed(own),
                    theirs=signed(theirs),
                    diff=signed(own - theirs),
                    pm=points(pm),
                )
            )
        line.against = [(by_key[k].name, points(v)) for k, v in against.items()]
        lines.append(line)
    return _context(event, _("Quadrettes: results"), lines=lines)


def quadrettes(
    *, teams: Sequence[Quadrette], oppositions: Sequence[Opposition], event: Event
) -> Pdf:
    """The quadrettes' results sheet: the ranking by final match points, then each team's
    boards (its attacker's score, the opponent's, the difference, the match points) with the
    totals against each opponent, shown for checking (only the final total counts, p. 23)."""
    context = quadrettes_context(teams=teams, oppositions=oppositions, event=event)
    return _pdf("reports/duplicate/quadrettes_pdf.html", context)


# --- team match (2.4) --------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchBoard:
    """One board of a quarter: each team's contract (a `scoring.fft` contract, "garde",
    "garde_sans", "garde_contre") and the score its attacker made against the other team's
    defence."""

    board: int
    a_contract: str
    a_score: int
    b_contract: str
    b_score: int


@dataclass(frozen=True)
class Quarter:
    """A quarter: each team's attacker, whose attacker plays in the closed room ("A" or "B";
    the other plays in the open room), and its boards."""

    number: int
    a_attacker: str
    b_attacker: str
    closed: str
    boards: tuple[MatchBoard, ...]


@dataclass(frozen=True)
class TeamMatch:
    """A team match: the two teams' names, players (the captain first) and quarters, and the
    match-point bonus each starts with (p. 26; 0 unless the director sets one)."""

    a_name: str
    b_name: str
    a_players: tuple[str, ...]
    b_players: tuple[str, ...]
    quarters: tuple[Quarter, ...]
    a_bonus: Decimal = Decimal("0.000")
    b_bonus: Decimal = Decimal("0.000")


@dataclass
class MatchLine:
    board: int
    a_contract: str
    a_score: str
    b_contract: str
    b_score: str
    diff: str
    a_pm: str
    b_pm: str


@dataclass
class QuarterSheet:
    number: int
    a_attacker: str
    b_attacker: str
    closed_room: str
    open_room: str
    lines: list[MatchLine]
    a_total: str
    b_total: str


def team_match_totals(match: TeamMatch) -> tuple[Decimal, Decimal]:
    """Each team's match points over the 4 quarters (`team_match_points` of each board),
    bonus included."""
    a, b = Decimal(match.a_bonus), Decimal(match.b_bonus)
    for quarter in match.quarters:
        for board in quarter.boards:
            pa, pb = rules.team_match_points(board.a_score - board.b_score)
            a, b = a + pa, b + pb
    return a, b


def _contract(value: str) -> str:
    label = CONTRACT_LABELS.get(value)
    return str(label) if label is not None else value


def team_match_context(*, match: TeamMatch, event: Event) -> dict:
    quarters = []
    for q in match.quarters:
        a_attack = _("%(attacker)s (%(team)s) against the defence of %(other)s") % {
            "attacker": q.a_attacker,
            "team": match.a_name,
            "other": match.b_name,
        }
        b_attack = _("%(attacker)s (%(team)s) against the defence of %(other)s") % {
            "attacker": q.b_attacker,
            "team": match.b_name,
            "other": match.a_name,
        }
        lines, ta, tb = [], Decimal("0.000"), Decimal("0.000")
        for b in q.boards:
            pa, pb = rules.team_match_points(b.a_score - b.b_score)
            ta, tb = ta + pa, tb + pb
            lines.append(
                MatchLine(
                    board=b.board,
                    a_contract=_contract(b.a_contract),
                    a_score=signed(b.a_score),
                    b_contract=_contract(b.b_contract),
                    b_score=signed(b.b_score),
                    diff=signed(b.a_score - b.b_score),
                    a_pm=figure(pa, 3),
                    b_pm=figure(pb, 3),
                )
            )
        closed, open_ = (a_attack, b_attack) if q.closed == "A" else (b_attack, a_attack)
        quarters.append(
            QuarterSheet(
                q.number,
                q.a_attacker,
                q.b_attacker,
                closed,
                open_,
                lines,
                figure(ta, 3),
                figure(tb, 3),
            )
        )
    a, b = team_match_totals(match)
    winner = match.a_name if a > b else match.b_name if b > a else ""
    return _context(
        event,
        _("Team match: results sheet"),
        match=match,
        quarters=quarters,
        a_total=figure(a, 3),
        b_total=figure(b, 3),
        a_bonus=figure(match.a_bonus, 3),
        b_bonus=figure(match.b_bonus, 3),
        bonus=bool(match.a_bonus or match.b_bonus),
        winner=winner,
    )


def team_match(*, match: TeamMatch, event: Event) -> Pdf:
    """A team match's results sheet (p. 26): the teams and players, each quarter's rooms and
    boards with both teams' contracts and scores and the match points, the totals, the winner,
    and the boxes for both captains' and the director's signatures (for homologation)."""
    return _pdf(
        "reports/duplicate/team_match_pdf.html", team_match_context(match=match, event=event)
    )


# --- rows for CSV and Excel (reports.exports.rows_response) ------------------------------------


def general_rows(session: rules.Session, names: Mapping) -> tuple[list[str], list[list]]:
    """Rank (shared on a tie), player, code, line, attack %, defence %, overall % (numbers
    rounded to 2 decimals as printed; empty when a side has no board)."""
    general, _alt = ranking_data(session, names)
    return _ranking_rows(list(zip(general, session.general, strict=True)), session)


def alternating_rows(session: rules.Session, names: Mapping) -> tuple[list[str], list[list]]:
    """Place, player, code, line, place in the line, attack %, defence %, overall %."""
    _gen, alternating = ranking_data(session, names)
    lines = list(zip(alternating, session.alternating, strict=True))
    headers, rows = _ranking_rows(lines, session)
    headers[0] = _("Place")
    headers.insert(4, _("Place in line"))
    for (line, _player), row in zip(lines, rows, strict=True):
        row.insert(4, line.line_rank)
    return headers, rows


def _ranking_rows(lines, session) -> tuple[list[str], list[list]]:
    headers = [
        _("Rank"),
        _("Player"),
        _("Code"),
        _("Line"),
        _("Attack %"),
        _("Defence %"),
        _("Overall %"),
    ]
    rows = []
    for line, player in lines:
        record = session.records[player]
        rows.append(
            [
                line.rank,
                line.name,
                line.code,
                line.line,
                rounded(record.attack, 2),
                rounded(record.defence, 2),
                rounded(record.overall, 2),
            ]
        )
    return headers, rows


def grading_rows(session: rules.Session, names: Mapping) -> tuple[list[str], list[list]]:
    """A row per play: board, taker's orientation, round, table, taker, code, score (signed
    number), attack grade, defence grade (rounded to 1 decimal as printed)."""
    headers = [
        _("Board"),
        _("Taker's orientation"),
        pgettext("duplicate", "Round"),
        _("Table"),
        _("Taker"),
        _("Code"),
        _("Score"),
        _("Attack grade"),
        _("Defence grade"),
    ]
    rows = []
    for board, plays in sorted(session.boards.items()):
        for p in plays:
            rows.append(
                [
                    board,
                    str(ORIENTATION_NAMES[taker_of(board)]),
                    p.round,
                    p.table,
                    name_of(names, p.taker),
                    code(p.taker),
                    p.score,
                    rounded(p.attack, 1),
                    rounded(p.defence, 1),
                ]
            )
    return headers, rows


def triplette_cards(cards: Sequence[Mapping], *, event: Event) -> Pdf:
    """Each triplette's movement card (Howell, p. 21: the line of each round "from a card the
    director hands out"): its table, line, boards and opponent in every round; two cards a
    row, to cut along the dashed lines. `cards` as `tournaments.triplette.card_rows`."""
    cards = list(cards)
    pages = [cards[i : i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    pages = [[page[i : i + 2] for i in range(0, len(page), 2)] for page in pages]
    return _pdf(
        "reports/duplicate/triplette_cards_pdf.html",
        _context(event, _("Movement cards"), pages=pages),
    )
