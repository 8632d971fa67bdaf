"""What each printout shows, read from the database without a request.

The views and `bench/reports.py` both build their PDFs from these. Every builder takes a fixed
number of queries, whatever the number of tables or players.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from urllib.parse import quote

import segno
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from scoring import triplette as triplette_rules
from tarotclub.core.text import text_key
from tarotclub.games import house
from tarotclub.games.models import Game, Seat
from tarotclub.games.presenters import number as minus_number
from tarotclub.games.selectors import seat_players
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.kinds.tarot.presenters import deal_labels
from tarotclub.kinds.tarot.services import dealer_for
from tarotclub.players.models import Player
from tarotclub.players.selectors import short_labels
from tarotclub.tournaments import selectors as tournament_selectors
from tarotclub.tournaments.models import (
    SEAT_NAMES,
    TRIPLETTE_SEAT_NAMES,
    Badge,
    Entry,
    Line,
    Orientation,
    Table,
    Tournament,
    deals_for_table,
)
from tarotclub.tournaments.selectors import (  # noqa: F401
    PLANNED,
    SEATED,
    player_positions,
    round_state,
)

# --- which rounds can be printed ---------------------------------------------------------------


def _planned_tables(t: Tournament, round_number: int) -> list[list[int]]:
    return t.plan[round_number - t.current_round - 1]


def qr_image(url: str) -> str:
    """A QR code as a PNG data URI, one pixel per module: the stylesheet sizes it and keeps
    its edges sharp (`image-rendering: pixelated`). An image draws much faster than an SVG path
    of the same code, which counts on a round of 50 tables.

    Its white border (3 modules) keeps the caption under it from confusing a phone's camera.
    """
    return segno.make(url, error="m").png_data_uri(scale=1, border=3)


# --- the grid of a table sheet -----------------------------------------------------------------


@dataclass
class SheetPlayer:
    pk: int
    seat: str
    name: str
    label: str
    licence: str = ""
    # the starting position (duplicate.md 3.4, open question 22): table and seat of the
    # player's first round in the tournament
    start_table: int | None = None
    start_seat: str = ""
    initial: str = ""  # the seat's initial, where the phone's grid has no room for its name


@dataclass
class Cell:
    score: int | None = None
    running: int | None = None
    out: bool = False  # the dealer sits this deal out (tables of five in a tournament)

    @property
    def plus(self) -> int | None:
        """The score in the federation sheet's + column (0 counts as +; nothing if out)."""
        return self.score if self.score is not None and self.score >= 0 and not self.out else None

    @property
    def minus(self) -> int | None:
        """The score in the − column, without its sign."""
        return -self.score if self.score is not None and self.score < 0 else None


@dataclass
class GridRow:
    number: int
    dealer: str
    cells: list[Cell]
    taker: str = ""
    partner: str = ""
    contract: str = ""
    bouts: str = ""
    points: str = ""
    petit: str = ""
    poignees: str = ""
    chelem: str = ""
    result: str = ""
    won: bool | None = None

    def slots(self, partner: bool) -> list[Slot]:
        """The row's cells after its number, left to right; each run of empty cells is one
        blank slot over as many columns (the sheet's columns draw the rules between them).

        WeasyPrint styles, lays out and draws every cell: a box for each empty cell of a
        long casual sheet costs as much as a cell with a score (issue 12).
        """
        infos = [("who", self.dealer), ("who", self.taker)]
        if partner:
            infos.append(("who", self.partner))
        infos += [
            ("contract", self.contract),
            ("small", self.bouts),
            ("small", self.points),
            ("bonus", self.petit),
            ("bonus", self.poignees),
            ("bonus", self.chelem),
        ]
        slots: list[Slot] = []
        for css, text in infos:
            won = self.won if css == "contract" and text else None
            _add_slot(slots, Slot(css=css, text=text, won=won), empty=not text)
        for cell in self.cells:
            _add_slot(
                slots, Slot(css="score", cell=cell), empty=cell.score is None and not cell.out
            )
        return slots


@dataclass
class Slot:
    """A cell of a grid row, or (`blank` > 0) a run of that many empty cells."""

    css: str = ""
    text: str = ""
    won: bool | None = None
    cell: Cell | None = None
    blank: int = 0


def _add_slot(slots: list[Slot], slot: Slot, *, empty: bool) -> None:
    if not empty:
        slots.append(slot)
    elif slots and slots[-1].blank:
        slots[-1].blank += 1
    else:
        slots.append(Slot(blank=1))


@dataclass
class TableSheet:
    """One page (or more, for a long casual game) of deals with a ruled grid."""

    players: list[SheetPlayer]
    rows: list[GridRow]
    partner: bool  # five play each deal: a column for the called partner
    filled: bool
    table: int | None = None
    round: int | None = None
    rounds: int | None = None
    planned: int | None = None
    title: str = ""
    totals: list[int] | None = None
    zero_sum: bool | None = None
    url: str = ""
    qr: str = ""
    signatures: bool = True
    sits_out: bool = False
    locked: bool = False
    # Running totals and won/lost under each deal: on a casual game's long sheet; a table
    # sheet of a few deals has its totals row (and prints faster without them).
    details: bool = False
    # "House rules: …" when the game plays by rules other than the federation's, else "".
    house_rules: str = ""
    # A tournament table's sheet follows the federation's layout (duplicate.md 3.4): see
    # `federation_grid`.
    federation: bool = False
    date: object = None

    @cached_property
    def fed(self) -> FederationGrid:
        return federation_grid(self)

    @property
    def info_columns(self) -> int:
        """Columns before the scores: #, dealer, taker, (partner), contract … slam."""
        return 10 if self.partner else 9

    @property
    def columns(self) -> int:
        if self.federation:
            return self.fed.columns
        return self.info_columns + len(self.players)

    @cached_property
    def lines(self) -> list[tuple[GridRow, list[Slot]]]:
        """Each row with its cells (`GridRow.slots`), for the template."""
        return [(row, row.slots(self.partner)) for row in self.rows]

    @property
    def ruled(self) -> bool:
        """Some row has blank cells: the grid's columns draw the rules through them."""
        return any(slot.blank for _, slots in self.lines for slot in slots)

    @property
    def rules(self) -> str:
        """The grid's column lines as an image (for its blank cells)."""
        return grid_rules(len(self.players), partner=self.partner)

    @property
    def density(self) -> str:
        """How tall the rows can be for the sheet to stay on one page."""
        rows = len(self.rows)
        if rows <= 6:
            return "roomy"
        return "normal" if rows <= 8 else "tight" if rows <= 12 else "tiny"


# --- the federation's layout of a table sheet (duplicate.md 3.4) ---------------------------------

#: The columns' order on the federation's sheet: North, South, East, West (then the fifth seat,
#: and a triplette table's sixth), as seat positions (the planner's order is North, East, South,
#: West, Fifth).
FEDERATION_ORDER = (0, 2, 1, 3, 4, 5)
#: The seats' initials, in the planner's order (North, East, South, West, Fifth, Sixth).
SEAT_INITIALS = (
    pgettext_lazy("seat initial", "N"),
    pgettext_lazy("seat initial", "E"),
    pgettext_lazy("seat initial", "S"),
    pgettext_lazy("seat initial", "W"),
    pgettext_lazy("seat initial", "5"),
    pgettext_lazy("seat initial", "6"),
)


@dataclass
class FederationRow:
    number: int
    dealer: str
    taker: str
    contract: str
    detail: str
    cells: list[Cell]  # in the federation's order


@dataclass
class FederationTotal:
    plus: int
    minus: int

    @property
    def balance(self) -> int:
        """Total + minus total −: the player's net score on the sheet (bilan)."""
        return self.plus - self.minus


@dataclass
class FederationGrid:
    players: list[SheetPlayer]  # North, South, East, West, (Fifth)
    rows: list[FederationRow]
    totals: list[FederationTotal] | None  # None: nothing entered yet

    @property
    def score_columns(self) -> int:
        return 2 * len(self.players)

    @property
    def columns(self) -> int:
        return 4 + self.score_columns

    @property
    def balances_zero(self) -> bool | None:
        return None if self.totals is None else sum(x.balance for x in self.totals) == 0


def _detail(row: GridRow) -> str:
    """What the deal was, under its contract: bouts, points, bonuses ("" when not entered)."""
    if not row.bouts:
        return ""
    parts = [
        ngettext("%(n)s bout", "%(n)s bouts", int(row.bouts)) % {"n": row.bouts},
        _("%(points)s points") % {"points": row.points},
    ]
    if row.petit:
        parts.append(_("petit au bout: %(side)s") % {"side": row.petit})
    parts += [x for x in (row.poignees, row.chelem) if x]
    return " · ".join(parts)


def federation_grid(sheet: TableSheet) -> FederationGrid:
    """The sheet's grid in the federation's layout: a + and a − column per player, in the
    order North, South, East, West; a Total row (each player's sum of + and sum of −) and a
    Balance row (Total + minus Total −), once deals are in."""
    order = [i for i in FEDERATION_ORDER if i < len(sheet.players)]
    rows = [
        FederationRow(
            number=r.number,
            dealer=r.dealer,
            taker=r.taker,
            contract=r.contract,
            detail=_detail(r),
            cells=[r.cells[i] for i in order],
        )
        for r in sheet.rows
    ]
    totals = None
    if sheet.totals is not None:
        totals = []
        for i in order:
            cells = [r.cells[i] for r in sheet.rows]
            totals.append(
                FederationTotal(
                    plus=sum(c.plus or 0 for c in cells), minus=sum(c.minus or 0 for c in cells)
                )
            )
    return FederationGrid(players=[sheet.players[i] for i in order], rows=rows, totals=totals)


# The grid's columns before the scores (print.css, `table.grid .n` …): their widths, with the
# cells' padding and borders, in pt; the score columns share what is left.
GRID_INFO_WIDTHS_MM = {"n": 7, "who": 22, "contract": 22, "small": 13, "bonus": 19}
#: At five players the deal's columns narrow (print.css `.sheet.players-5`; the federation's
#: grid has its own widths): the score columns get the room a "+1760" and a "−1790" need.
GRID_INFO_WIDTHS_MM_FIVE = {"n": 7, "who": 18, "contract": 19, "small": 11, "bonus": 15}
GRID_PADDING_MM = 1.2
GRID_BORDER_PT = 0.35
_PT_PER_MM = 72 / 25.4


def grid_info_columns(partner: bool) -> list[str]:
    return ["n", "who", "who", *(["who"] if partner else []), "contract", "small", "small"] + [
        "bonus"
    ] * 3


@lru_cache(maxsize=16)
def grid_rules(players: int, *, partner: bool) -> str:
    """The lines between the grid's columns, as an SVG data URI the size of the table.

    A sheet's empty cells are a few blank cells (`GridRow.slots`) over which this image,
    the table's background, draws the column lines the cells' borders would draw: one image
    per layout (WeasyPrint reads it once), instead of a box for each empty cell. The lines
    are .7 pt strokes centred on the columns' edges, where two half-width borders meet. The
    score columns share the width left by the others: the k-th of n ends at
    k/n of the table's width plus (1 - k/n) of the other columns' width, in pixels (the
    SVG's unit, 0.75 pt) whatever the table's width.
    """
    px = 4 / 3  # pixels a point
    widths = GRID_INFO_WIDTHS_MM_FIVE if players >= 5 else GRID_INFO_WIDTHS_MM
    edges, x = [], 0.0
    for name in grid_info_columns(partner):
        x += widths[name] * _PT_PER_MM + 2 * GRID_PADDING_MM * _PT_PER_MM
        x += 2 * GRID_BORDER_PT
        edges.append(f'<line x1="{x * px:.3f}" x2="{x * px:.3f}" y2="100%"/>')
    for k in range(1, players):
        share = 100 * k / players
        shift = x * (1 - k / players) * px
        edges.append(
            f'<line x1="{share:.4f}%" x2="{share:.4f}%" y2="100%" '
            f'transform="translate({shift:.3f} 0)"/>'
        )
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" stroke="#1d1b16" '
        f'stroke-width="{2 * GRID_BORDER_PT * px:.4f}">{"".join(edges)}</svg>'
    )
    return "data:image/svg+xml," + quote(svg)


def _deal_row(deal: Deal, players: list[Player], labels: dict, out_pk, running) -> GridRow:
    scores = {line.player_id: line.score for line in deal.lines.all()}
    cells = []
    for p in players:
        score = scores.get(p.pk, 0)
        running[p.pk] += score
        cells.append(Cell(score=score, running=running[p.pk], out=p.pk == out_pk))
    said = deal_labels(deal, labels)
    return GridRow(
        number=deal.number,
        dealer=said.dealer,
        cells=cells,
        taker=said.taker,
        partner=said.partner,
        contract=said.contract,
        bouts=said.bouts,
        points=said.points,
        petit=said.petit_au_bout,
        poignees=said.poignees,
        chelem=said.chelem,
        won=deal.won,
    )


def game_grid(game: Game, *, filled: bool) -> TableSheet:
    """The grid of a game: its deals when `filled`, and empty rows up to the deals planned.

    Uses the prefetched seats (with players) and deals (with lines) when there are some.
    """
    players = seat_players(game)
    labels = {p.pk: p.label for p in players}
    planned = game.options.get("deals") or 0
    rows: list[GridRow] = []
    running = {p.pk: 0 for p in players}
    deals = list(game.deals.all()) if filled else []
    for deal in deals:
        out = deal.dealer_id if game.dealer_sits_out else None
        rows.append(_deal_row(deal, players, labels, out, running))
    for number in range(len(rows) + 1, planned + 1):
        dealer = dealer_for(game, number, players) if players else None
        out = dealer.pk if dealer and game.dealer_sits_out else None
        rows.append(
            GridRow(
                number=number,
                dealer=dealer.label if dealer else "",
                cells=[Cell(out=p.pk == out) for p in players],
            )
        )
    totals = [running[p.pk] for p in players] if filled and deals else None
    return TableSheet(
        players=[SheetPlayer(pk=p.pk, seat="", name=p.name, label=p.label) for p in players],
        rows=rows,
        partner=len(players) == 5 and not game.dealer_sits_out,
        filled=filled,
        planned=planned or None,
        totals=totals,
        zero_sum=(sum(totals) == 0) if totals is not None else None,
        sits_out=game.dealer_sits_out,
        locked=game.locked,
        house_rules=house.game_line(game),
    )


def _games_prefetch(filled: bool) -> list:
    prefetch = [
        Prefetch("game__seats", queryset=Seat.objects.select_related("player").order_by("position"))
    ]
    if filled:
        prefetch.append(
            Prefetch(
                "game__deals", queryset=Deal.objects.order_by("number").prefetch_related("lines")
            )
        )
    return prefetch


def _licences(t: Tournament) -> dict[int, str]:
    return {
        pk: licence or player_licence
        for pk, licence, player_licence in Entry.objects.filter(tournament=t).values_list(
            "player_id", "licence", "player__licence"
        )
    }


def _starts(positions) -> dict[int, tuple[int, str]]:
    """Player pk → (table, seat name) of their first round."""
    starts = {}
    for pk, rounds in positions.items():
        number, position = rounds[min(rounds)]
        starts[pk] = (number, str(SEAT_NAMES[position]))
    return starts


def _federation(sheet: TableSheet, t: Tournament, starts) -> TableSheet:
    """A tournament table's sheet in the federation's layout, with the starting positions."""
    sheet.federation = True
    sheet.date = t.date
    for position, p in enumerate(sheet.players):
        p.start_table, p.start_seat = starts.get(p.pk, (None, ""))
        p.initial = str(SEAT_INITIALS[position])
    return sheet


def _sheet_url(base_url: str, game: Game) -> str:
    return base_url.rstrip("/") + reverse("games:sheet", args=[game.token])


def _seated_sheet(t: Tournament, table: Table, licences, *, filled: bool, base_url: str):
    """A seated table's sheet with its share link (reports/drawn.py draws its QR code)."""
    sheet = game_grid(table.game, filled=filled)
    for position, p in enumerate(sheet.players):
        p.seat = str(SEAT_NAMES[position])
        p.licence = licences.get(p.pk, "")
    sheet.table, sheet.round, sheet.rounds = table.number, table.round, t.rounds
    sheet.url = _sheet_url(base_url, table.game)
    return sheet


def _planned_sheet(t: Tournament, round_number: int, number: int, seated: list[int], players):
    """An empty sheet from the plan: dealers in seat order, no game yet (so no QR code)."""
    people = [players[pk] for pk in seated]
    labels = short_labels(people)
    five_sits_out = len(people) == 5
    deals = deals_for_table(t, len(people))
    rows = []
    for n in range(1, deals + 1):
        dealer = people[(n - 1) % len(people)]
        rows.append(
            GridRow(
                number=n,
                dealer=labels[dealer.pk],
                cells=[Cell(out=five_sits_out and p.pk == dealer.pk) for p in people],
            )
        )
    return TableSheet(
        players=[
            SheetPlayer(
                pk=p.pk, seat=str(SEAT_NAMES[i]), name=p.name, label=labels[p.pk], licence=""
            )
            for i, p in enumerate(people)
        ],
        rows=rows,
        partner=False,
        filled=False,
        table=number,
        round=round_number,
        rounds=t.rounds,
        planned=deals,
        sits_out=five_sits_out,
        house_rules=house.line("tarot", house.read("tarot", t.house_rules)),
    )


def round_sheets(
    t: Tournament, round_number: int, *, filled: bool = False, base_url: str = ""
) -> list[TableSheet] | None:
    """One sheet per table of the round (None when the round has nothing to print).

    A seated round's sheets carry each table's share link (`base_url` makes it absolute), whose
    QR code `reports.drawn` draws (a triplette's sheets carry it as an image); a planned
    round's sheets are empty and have no link yet.
    """
    if t.triplette:
        return triplette_round_sheets(t, round_number, filled=filled, base_url=base_url)
    state = round_state(t, round_number)
    if state == SEATED:
        tables = (
            Table.objects.filter(tournament=t, round=round_number)
            .select_related("game")
            .prefetch_related(*_games_prefetch(filled))
            .order_by("number")
        )
        licences = _licences(t)
        starts = _starts(player_positions(t))
        return [
            _federation(
                _seated_sheet(t, table, licences, filled=filled, base_url=base_url), t, starts
            )
            for table in tables
        ]
    if state == PLANNED:
        plan = _planned_tables(t, round_number)
        players = Player.objects.in_bulk([pk for table in plan for pk in table])
        licences = _licences(t)
        starts = _starts(player_positions(t))
        sheets = []
        for number, seated in enumerate(plan, start=1):
            sheet = _planned_sheet(t, round_number, number, seated, players)
            for p in sheet.players:
                p.licence = licences.get(p.pk, "")
            sheets.append(_federation(sheet, t, starts))
        return sheets
    return None


def table_sheet(table: Table, *, base_url: str = "", qr: bool = True) -> TableSheet:
    """The filled sheet of one tournament table (`qr`: a triplette's, with its QR code as an
    image, for paper; a free-deal table's is drawn with its QR code by reports/drawn.py)."""
    table = (
        Table.objects.filter(pk=table.pk)
        .select_related("game", "tournament")
        .prefetch_related(*_games_prefetch(True))
        .get()
    )
    t = table.tournament
    if t.triplette:
        return _seated_triplette(t, table, _triplette_entries(t), True, base_url, qr=qr)
    sheet = _seated_sheet(t, table, _licences(t), filled=True, base_url=base_url)
    return _federation(sheet, t, _starts(player_positions(t)))


def casual_sheet(game: Game, *, base_url: str = "") -> TableSheet:
    """The score sheet of a game outside a tournament: every deal, totals, its QR code."""
    game = (
        Game.objects.filter(pk=game.pk)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number").prefetch_related("lines")),
        )
        .get()
    )
    sheet = game_grid(game, filled=True)
    sheet.title = str(game)
    sheet.signatures = False
    sheet.details = True
    sheet.url = _sheet_url(base_url, game)
    sheet.qr = qr_image(sheet.url)
    return sheet


# --- the seating plan --------------------------------------------------------------------------


@dataclass
class SeatingLine:
    name: str
    licence: str
    table: int
    seat: str
    team: str = ""  # a triplette's team and the member's badge ("Team 1 · Blue")


@dataclass
class SeatingGroup:
    letter: str
    lines: list[SeatingLine] = field(default_factory=list)


def seating(t: Tournament, round_number: int) -> list[SeatingLine] | None:
    """Every player of the round in alphabetical order with table and seat (None: no round).
    A triplette player has a line and a team instead of a seat: 4 of the 6 at a table play
    each board, the defenders seated by their captain (duplicate.md 2.2)."""
    state = round_state(t, round_number)
    licences = _licences(t)
    seat_names = TRIPLETTE_SEAT_NAMES if t.triplette else SEAT_NAMES
    if state == SEATED:
        seated = Seat.objects.filter(
            game__tournament_table__tournament=t, game__tournament_table__round=round_number
        ).values_list("player_id", "player__name", "game__tournament_table__number", "position")
    elif state == PLANNED:
        plan = _planned_tables(t, round_number)
        names = dict(
            Player.objects.filter(pk__in=[pk for x in plan for pk in x]).values_list("pk", "name")
        )
        seated = [
            (pk, names[pk], n, pos)
            for n, pks in enumerate(plan, start=1)
            for pos, pk in enumerate(pks)
        ]
    else:
        return None
    teams = _triplette_entries(t) if t.triplette else {}
    lines = []
    for pk, name, n, pos in seated:
        team, badge, _licence = teams.get(pk, ("", "", ""))
        lines.append(
            SeatingLine(
                name=name,
                licence=licences.get(pk, ""),
                table=n,
                seat=str(seat_names[pos]),
                team=" · ".join(v for v in (team, _colour(badge)) if v),
            )
        )
    lines.sort(key=lambda x: (text_key(x.name), x.name))
    return lines


def seating_groups(lines: list[SeatingLine]) -> list[SeatingGroup]:
    """The lines under their initial letter (A, B, …), as on a wall list."""
    groups: list[SeatingGroup] = []
    for line in lines:
        letter = (text_key(line.name)[:1] or "?").upper()
        if not groups or groups[-1].letter != letter:
            groups.append(SeatingGroup(letter=letter))
        groups[-1].lines.append(line)
    return groups


# --- a player's own sheet ----------------------------------------------------------------------


@dataclass
class Opponent:
    name: str
    seat: str
    score: int


@dataclass
class PlayerRound:
    round: int
    table: int
    seat: str
    opponents: list[Opponent]
    deals: list[int]
    score: int
    running: int
    confirmed: bool
    planned: int


@dataclass
class PlayerSheet:
    player: Player
    entry: Entry
    rounds: list[PlayerRound]
    standing: tournament_selectors.StandingRow | None
    players: int


def player_sheet(t: Tournament, player: Player) -> PlayerSheet | None:
    """The player's tables, opponents and scores round by round (None: not in this tournament)."""
    seat_names = TRIPLETTE_SEAT_NAMES if t.triplette else SEAT_NAMES  # a line (2.2)
    entry = Entry.objects.filter(tournament=t, player=player).select_related("player").first()
    if entry is None:
        return None
    tables = list(
        Table.objects.filter(tournament=t, game__seats__player=player)
        .select_related("game")
        .prefetch_related(
            Prefetch(
                "game__seats", queryset=Seat.objects.select_related("player").order_by("position")
            )
        )
        .order_by("round")
    )
    lines = defaultdict(list)  # (game, player) → scores in deal order
    for game_id, player_id, score in (
        DealLine.objects.filter(deal__game__in=[x.game_id for x in tables])
        .order_by("deal__number")
        .values_list("deal__game_id", "player_id", "score")
    ):
        lines[(game_id, player_id)].append(score)
    rounds = []
    running = 0
    for table in tables:
        seats = list(table.game.seats.all())
        mine = next(s for s in seats if s.player_id == player.pk)
        score = sum(lines[(table.game_id, player.pk)])
        running += score
        rounds.append(
            PlayerRound(
                round=table.round,
                table=table.number,
                seat=str(seat_names[mine.position]),
                opponents=[
                    Opponent(
                        name=s.player.name,
                        seat=str(seat_names[s.position]),
                        score=sum(lines[(table.game_id, s.player_id)]),
                    )
                    for s in seats
                    if s.player_id != player.pk
                ],
                deals=lines[(table.game_id, player.pk)],
                score=score,
                running=running,
                confirmed=table.game.locked,
                planned=table.game.options.get("deals") or 0,
            )
        )
    standings = tournament_selectors.standings(t)
    standing = next((r for r in standings.rows if r.player.pk == player.pk), None)
    return PlayerSheet(
        player=entry.player,
        entry=entry,
        rounds=rounds,
        standing=standing,
        players=len(standings.rows),
    )


# --- every deal of a tournament ----------------------------------------------------------------


def deal_fields(deal, said) -> dict:
    """A stored deal's own columns, from the deal and its `deal_labels`: who dealt, took and
    was called, the contract, bouts, points, result, margin and bonuses."""
    return {
        "dealer": said.dealer,
        "taker": said.taker,
        "partner": said.partner,
        "contract": said.contract,
        "bouts": deal.bouts,
        "points": Fraction(deal.points_half, 2),
        "won": deal.won,
        "gap": deal.gap,
        "petit_au_bout": said.petit_au_bout,
        "poignees": said.poignees,
        "chelem": said.chelem,
    }


def tournament_deals(t: Tournament, round_number: int | None = None) -> list[dict]:
    """One dict per deal, in round, table and deal order, for `DealsTable`.

    `seats` lists (name, score) by seat position.
    """
    deals = (
        Deal.objects.filter(game__tournament_table__tournament=t)
        .select_related("game__tournament_table")
        .prefetch_related("lines")
        .order_by("game__tournament_table__round", "game__tournament_table__number", "number")
    )
    seats = Seat.objects.filter(game__tournament_table__tournament=t)
    if round_number is not None:
        deals = deals.filter(game__tournament_table__round=round_number)
        seats = seats.filter(game__tournament_table__round=round_number)
    by_game: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game_id, player_id, name in seats.order_by("position").values_list(
        "game_id", "player_id", "player__name"
    ):
        by_game[game_id].append((player_id, name))
    rows = []
    for deal in deals:
        names = dict(by_game[deal.game_id])
        scores = {line.player_id: line.score for line in deal.lines.all()}
        table = deal.game.tournament_table
        said = deal_labels(deal, names)
        rows.append(
            {
                "round": table.round,
                "table": table.number,
                "number": deal.number,
                **deal_fields(deal, said),
                "seats": [(name, scores.get(pk, 0)) for pk, name in by_game[deal.game_id]],
            }
        )
    return rows


# --- a triplette table's sheet (duplicate.md 2.2) ------------------------------------------------
#
# A triplette table holds one North-South and one East-West team; on each board 4 of the 6
# play: the attacking team's attacker by the rotation at the board's taker orientation, and
# the other team's 3 in defence (their captain seats them as he likes, p. 20). So the sheet
# names the two lines and their teams (members with badges), and for each board its taker's
# orientation, the attacking team and attacker, and the defending team: no seat per person.


@dataclass
class TripletteMember:
    pk: int
    name: str
    colour: str  # the badge's colour, Bleu / Blanc / Rouge ("" before the start)
    licence: str = ""


@dataclass
class TripletteSide:
    line: str  # "NS" or "EW"
    label: str  # North-South / East-West
    team: str
    members: list[TripletteMember]


@dataclass
class TripletteRow:
    number: int  # the deal's number at this table
    board: int
    taker: str  # the orientation marked on the board (North …)
    line: str  # the attacking line, "NS" or "EW"
    attack_team: str
    attacker: str
    colour: str  # the attacker's badge
    defence_team: str
    contract: str
    defenders: list[str] = field(default_factory=list)  # the other team's 3, badge order
    score: int | None = None  # the board score (U, signed), once entered
    detail: str = ""

    @property
    def plus(self) -> int | None:
        return self.score if self.score is not None and self.score >= 0 else None

    @property
    def minus(self) -> int | None:
        return -self.score if self.score is not None and self.score < 0 else None


@dataclass
class TripletteSheet:
    """One triplette table's sheet for one round: its two teams and its boards."""

    sides: list[TripletteSide]  # North-South, then East-West
    rows: list[TripletteRow]
    filled: bool
    table: int
    round: int
    rounds: int
    date: object = None
    url: str = ""
    qr: str = ""
    locked: bool = False
    triplette: bool = True
    signatures: bool = True

    @property
    def planned(self) -> int:
        return len(self.rows)

    @property
    def signers(self) -> list[TripletteMember]:
        return [m for side in self.sides for m in side.members]

    @property
    def density(self) -> str:
        rows = len(self.rows)
        return "roomy" if rows <= 6 else "normal" if rows <= 8 else "tight"


def _triplette_entries(t: Tournament) -> dict[int, tuple[str, str, str]]:
    """Player pk → (team, badge, licence). One query."""
    return {
        pk: (team, badge, licence or own)
        for pk, team, badge, licence, own in Entry.objects.filter(tournament=t).values_list(
            "player_id", "team", "badge", "licence", "player__licence"
        )
    }


def _colour(badge: str) -> str:
    return str(Badge(badge).label) if badge in Badge.values else ""


def _triplette_sheet(
    t: Tournament, number: int, round_number: int, seated, names, entries, options, deals
) -> TripletteSheet:
    """The sheet of a table seating `seated` (6 pks: N-S then E-W) with its game `options`
    (`tournaments.triplette.table_options`) and its `deals` entered (by number)."""
    from tarotclub.kinds.tarot.labels import CONTRACT_LABELS
    from tarotclub.tournaments.triplette import IMPOSED_CONTRACT

    rules = triplette_rules

    def member(pk):
        _team, badge, licence = entries.get(pk, ("", "", ""))
        return TripletteMember(
            pk=pk, name=names.get(pk, "?"), colour=_colour(badge), licence=licence
        )

    halves = {"NS": list(seated[:3]), "EW": list(seated[3:])}
    team = {line: entries.get(pks[0], ("",))[0] if pks else "" for line, pks in halves.items()}
    sides = [
        TripletteSide(
            line=line,
            label=str(Line(line).label),
            team=team[line],
            members=[member(pk) for pk in halves[line]],
        )
        for line in rules.LINES
    ]
    rows = []
    boards = options.get("boards") or []
    imposed = options.get("imposed") or []
    for i, board in enumerate(boards, start=1):
        attacker = imposed[i - 1][0] if i - 1 < len(imposed) else None
        line = rules.attacking_line(board)
        other = "EW" if line == "NS" else "NS"
        contract = imposed[i - 1][1] if i - 1 < len(imposed) else IMPOSED_CONTRACT
        deal = deals.get(i)
        row = TripletteRow(
            number=i,
            board=board,
            taker=str(Orientation(rules.taker_of(board)).label),
            line=line,
            attack_team=team[line],
            attacker=names.get(attacker, "?"),
            colour=_colour(entries.get(attacker, ("", "", ""))[1]),
            defence_team=team[other],
            defenders=[names.get(pk, "?") for pk in halves[other]],
            contract=str(CONTRACT_LABELS.get(contract, contract)),
        )
        if deal is not None:
            taker_line = next((x for x in deal.lines.all() if x.player_id == deal.taker_id), None)
            if taker_line is not None:
                row.score = taker_line.score // 3
            said = deal_labels(deal, names)
            row.contract = said.contract
            row.detail = _detail(
                GridRow(
                    number=i,
                    dealer="",
                    cells=[],
                    bouts=said.bouts,
                    points=said.points,
                    petit=said.petit_au_bout,
                    poignees=said.poignees,
                    chelem=said.chelem,
                )
            )
        rows.append(row)
    return TripletteSheet(
        sides=sides,
        rows=rows,
        filled=bool(deals),
        table=number,
        round=round_number,
        rounds=t.rounds,
        date=t.date,
    )


def triplette_round_sheets(
    t: Tournament, round_number: int, *, filled: bool = False, base_url: str = ""
) -> list[TripletteSheet] | None:
    """A triplette round's sheets, one a table (None: nothing to print). Seated: from the
    tables' games; planned: from the plan and the stored movement. A fixed number of queries."""
    from tarotclub.tournaments import triplette

    state = round_state(t, round_number)
    entries = _triplette_entries(t)
    if state == SEATED:
        tables = (
            Table.objects.filter(tournament=t, round=round_number)
            .select_related("game")
            .prefetch_related(*_games_prefetch(filled))
            .order_by("number")
        )
        return [_seated_triplette(t, table, entries, filled, base_url) for table in tables]
    if state == PLANNED:
        m = triplette.stored_movement(t)
        plan = _planned_tables(t, round_number)
        names = dict(
            Player.objects.filter(pk__in=[pk for x in plan for pk in x]).values_list("pk", "name")
        )
        sheets = []
        for number, seated in enumerate(plan, start=1):
            options = triplette.table_options(t, m, round_number, number, seated) if m else {}
            sheets.append(
                _triplette_sheet(t, number, round_number, seated, names, entries, options, {})
            )
        return sheets
    return None


def _seated_triplette(t, table: Table, entries, filled: bool, base_url: str, qr: bool = True):
    seats = list(table.game.seats.all())
    seated = [s.player_id for s in seats]
    names = {s.player_id: s.player.name for s in seats}
    deals = {d.number: d for d in table.game.deals.all()} if filled else {}
    sheet = _triplette_sheet(
        t, table.number, table.round, seated, names, entries, table.game.options or {}, deals
    )
    sheet.filled = filled
    sheet.locked = table.game.locked
    sheet.url = _sheet_url(base_url, table.game)
    return sheet


# --- the standings: a row of plain values a player, drawn by reports/drawn.py ------------------


@dataclass(frozen=True)
class StandingsColumn:
    css: str  # rank, name, licence, round, total, average
    label: str  # its heading
    numeric: bool  # right-aligned


@dataclass(frozen=True)
class StandingsLine:
    values: list[str]  # one a column
    withdrawn: bool


def standings_lines(
    standings, *, show_average: bool
) -> tuple[list[StandingsColumn], list[StandingsLine]]:
    """The standings' columns and a line of values a player, in rank order: the same values
    as the site's table (`tournaments.tables.standings_html`), as plain text."""
    rounds = standings.round_numbers
    columns = [
        StandingsColumn("rank", _("Rank"), True),
        StandingsColumn("name", _("Player"), False),
        StandingsColumn("licence", _("Licence"), False),
        *(StandingsColumn("round", _("R%(n)s") % {"n": r}, True) for r in rounds),
        StandingsColumn("total", _("Total"), True),
    ]
    if show_average:
        columns.append(StandingsColumn("average", _("Average"), True))
    lines = []
    for row in standings.rows:
        values = [
            f"{row.rank}=" if row.tied else str(row.rank),
            _one_line(row.player.name),
            _one_line(row.licence) or "—",
            *("–" if row.rounds.get(r) is None else minus_number(row.rounds[r]) for r in rounds),
            minus_number(row.total),
        ]
        if show_average:
            values.append(_one_line(row.average_display) or "—")
        lines.append(StandingsLine(values, row.withdrawn))
    return columns, lines


def _one_line(text: str) -> str:
    """A value on one line: its line breaks and tabs as spaces."""
    return " ".join(str(text).split()) if text else ""
