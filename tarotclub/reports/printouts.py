"""Every paper the site prints: one small class each, served by one PDF view (`views.pdf`).

A printout knows its template, its file name and its context; it is made from the URL's
arguments (`pk`, `round_number`, `player_pk`, `token`) and answers 404 for what does not exist.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarotclub.core.forms import query_int
from tarotclub.games import house
from tarotclub.games import selectors as game_selectors
from tarotclub.players.models import Player
from tarotclub.tournaments import selectors as tournament_selectors
from tarotclub.tournaments.models import Ranking, Status, Tournament

from . import documents
from .exports import filename
from .pdf import Pdf, render_pdf
from .tables import DealsTable

PRINTOUTS: dict[str, type[Printout]] = {}


def event(t: Tournament) -> dict:
    """What every page header of a tournament's printout says."""
    return {"event": t.name, "event_date": t.date, "event_place": t.place, "t": t}


class Printout:
    """One kind of paper. Subclasses set the attributes and write `context` and `name`."""

    identifier: ClassVar[str]
    template: ClassVar[str]
    director_only: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "identifier" in cls.__dict__:  # a printout, not a base for some (_OfTournament)
            PRINTOUTS[cls.identifier] = cls

    def __init__(self, request, **kwargs):
        self.request = request
        self.kwargs = kwargs
        self.base_url = request.build_absolute_uri("/") if request is not None else ""

    def context(self) -> dict:  # pragma: no cover - each printout writes it
        raise NotImplementedError

    def pdf(self) -> Pdf:
        """The paper: the template laid out by WeasyPrint (the standings and a free-deal round's
        table sheets are drawn: `reports.drawn`)."""
        return render_pdf(self.template, self.context(), request=self.request)

    def name(self) -> str:  # pragma: no cover - each printout writes it
        raise NotImplementedError


class _OfTournament(Printout):
    """A tournament's printout: its page header says the tournament's name, date and place."""

    def __init__(self, request, **kwargs):
        super().__init__(request, **kwargs)
        self.t = get_object_or_404(Tournament, pk=kwargs["pk"])

    def file(self, stem: str) -> str:
        return filename(stem, self.t.name, self.t.date, "pdf")


class _OfRound(_OfTournament):
    def __init__(self, request, **kwargs):
        super().__init__(request, **kwargs)
        self.round = kwargs["round_number"]
        self.state = tournament_selectors.round_state(self.t, self.round)
        if self.state is None:
            raise Http404


class StandingsPrintout(_OfTournament):
    """Drawn (`reports.drawn.standings_pdf`), not a template."""

    identifier = "standings"

    def pdf(self) -> Pdf:
        return standings_pdf(self.t)

    def name(self) -> str:
        return self.file("standings")


class TableSheetsPrintout(_OfRound):
    """One page per table: empty for paper scoring, or filled (?filled=1) once deals are in."""

    identifier = "table_sheets"
    template = "reports/table_sheets_pdf.html"
    director_only = True

    @property
    def filled(self) -> bool:
        return self.request.GET.get("filled") == "1" and self.state == tournament_selectors.SEATED

    def context(self) -> dict:
        return round_sheets_context(self.t, self.round, filled=self.filled, base_url=self.base_url)

    def pdf(self) -> Pdf:
        if self.t.triplette:  # a triplette's sheets are its own template
            return super().pdf()
        return round_sheets_pdf(self.t, self.round, filled=self.filled, base_url=self.base_url)

    def name(self) -> str:
        return self.file(f"sheets-filled-r{self.round}" if self.filled else f"sheets-r{self.round}")


class SeatingPrintout(_OfRound):
    identifier = "seating"
    template = "reports/seating_pdf.html"

    def context(self) -> dict:
        lines = documents.seating(self.t, self.round)
        if lines is None:
            raise Http404
        return {
            **event(self.t),
            "doc_title": _("Seating plan · round %(n)s") % {"n": self.round},
            "round": self.round,
            "groups": documents.seating_groups(lines),
            "count": len(lines),
            "planned_round": self.state == tournament_selectors.PLANNED,
        }

    def name(self) -> str:
        return self.file(f"seating-r{self.round}")


class PositionCardsPrintout(_OfTournament):
    """A position card per player: their table and seat for every round, several to a page
    with dashed lines to cut along (eight a page; four when the rounds are more than eight)."""

    identifier = "position_cards"
    template = "reports/position_cards_pdf.html"

    def context(self) -> dict:
        cards = tournament_selectors.position_cards(self.t)
        per_page = 8 if self.t.rounds <= 8 else 4
        pages = []
        for start in range(0, len(cards), per_page):
            page = cards[start : start + per_page]
            if len(page) % 2:
                page = [*page, None]  # the last card's neighbour: an empty box
            pages.append([page[i : i + 2] for i in range(0, len(page), 2)])
        return {
            **event(self.t),
            "doc_title": _("Position cards"),
            "pages": pages,
            "size": "eight" if per_page == 8 else "four",
            "planned": self.t.current_round < self.t.rounds,
        }

    def name(self) -> str:
        return self.file("position-cards")


class PlayerSheetPrintout(_OfTournament):
    identifier = "player_sheet"
    template = "reports/player_pdf.html"

    def __init__(self, request, **kwargs):
        super().__init__(request, **kwargs)
        self.player = get_object_or_404(Player, pk=kwargs["player_pk"])

    def context(self) -> dict:
        sheet = documents.player_sheet(self.t, self.player)
        if sheet is None:
            raise Http404
        return {
            **event(self.t),
            "doc_title": _("Player's sheet"),
            "sheet": sheet,
            "finished": self.t.status == Status.FINISHED,
        }

    def name(self) -> str:
        return self.file(f"player-{slugify(self.player.name)}")


class DealsPrintout(_OfTournament):
    """Every deal of the tournament (or of one round, ?round=N), as on the deals page."""

    identifier = "deals"
    template = "reports/deals_pdf.html"

    @property
    def round(self) -> int | None:
        number = query_int(self.request, "round")
        return number if number is not None and 1 <= number <= self.t.current_round else None

    def context(self) -> dict:
        table = DealsTable(documents.tournament_deals(self.t, self.round))
        return {**event(self.t), "doc_title": _("Deals"), "table": table, "round": self.round}

    def name(self) -> str:
        return self.file(f"deals-r{self.round}" if self.round else "deals")


class GameSheetPrintout(Printout):
    """A game's score sheet; a tournament table's is its filled table sheet."""

    identifier = "game_sheet"
    template = "reports/game_sheet_pdf.html"

    def __init__(self, request, **kwargs):
        super().__init__(request, **kwargs)
        game = game_selectors.game_by_token(kwargs["token"])
        if game is None or game.kind != "tarot":
            raise Http404
        self.game = game
        self.table = game_selectors.tournament_table(game)
        if self.table is not None:
            self.template = "reports/table_sheets_pdf.html"

    def context(self) -> dict:
        if self.table is not None:
            t = self.table.tournament
            return {
                **event(t),
                "doc_title": _("Table sheet · round %(n)s") % {"n": self.table.round},
                "sheets": [documents.table_sheet(self.table, base_url=self.base_url)],
            }
        return {
            "event": str(self.game),
            "event_date": timezone.localdate(self.game.created_at),
            "doc_title": _("Score sheet"),
            "game": self.game,
            "sheet": documents.casual_sheet(self.game, base_url=self.base_url),
        }

    def pdf(self) -> Pdf:
        if self.table is None or self.table.tournament.triplette:
            return super().pdf()
        from . import drawn

        t = self.table.tournament
        sheet = documents.table_sheet(self.table, base_url=self.base_url)
        title = _("Table sheet · round %(n)s") % {"n": self.table.round}
        return drawn.sheets_pdf([sheet], **drawn_frame(t, title))

    def name(self) -> str:
        if self.table is not None:
            t = self.table.tournament
            stem = f"sheet-r{self.table.round}-t{self.table.number}"
            return filename(stem, t.name, t.date, "pdf")
        return filename("sheet", str(self.game), timezone.localdate(self.game.created_at), "pdf")


# --- contexts the bench renders too --------------------------------------------------------------


def standings_paper(t: Tournament) -> dict:
    """What the standings' paper says (drawn by `reports.drawn.standings_pdf`)."""
    standings = tournament_selectors.standings(t)
    columns, lines = documents.standings_lines(standings, show_average=t.ranking == Ranking.AVERAGE)
    count = len(standings.rows)
    lead = [ngettext("%(n)s player", "%(n)s players", count) % {"n": count}]
    if standings.round_numbers:
        lead.append(
            _("after round %(n)s of %(total)s")
            % {"n": len(standings.round_numbers), "total": t.rounds}
        )
    if t.ranking == Ranking.AVERAGE:
        lead.append(_("ranked by the average per round played"))
    return {
        "title": _("Final standings") if t.status == Status.FINISHED else _("Standings"),
        "lead": " · ".join(lead),
        "house_rules": house.line("tarot", house.read("tarot", t.house_rules)),
        "columns": columns,
        "lines": lines,
        "teams": standings.teams,
        "ties": any(r.tied for r in standings.rows),
    }


def standings_pdf(t: Tournament) -> Pdf:
    """The standings, drawn (`reports.drawn`): 200 players in a tenth of WeasyPrint's time."""
    from . import drawn

    return drawn.standings_pdf(standings_paper(t), **drawn_frame(t, _("Standings")))


def drawn_frame(t: Tournament, doc_title: str) -> dict:
    """What a drawn paper's page header says (as reports/base_pdf.html's)."""
    parts = [t.name]
    if t.date:
        parts.append(date_format(t.date, "DATE_FORMAT"))
    if t.place:
        parts.append(t.place)
    return {"club": settings.CLUB_NAME, "event": " · ".join(parts), "doc_title": doc_title}


def round_sheets_pdf(t: Tournament, round_number: int, *, filled: bool, base_url: str) -> Pdf:
    """A free-deal round's sheets in the federation's layout, drawn (`reports.drawn`): a
    page per table, made in a fraction of the time WeasyPrint takes for 50 tables."""
    from . import drawn

    sheets = documents.round_sheets(t, round_number, filled=filled, base_url=base_url)
    if not sheets:
        raise Http404
    title = _("Table sheets · round %(n)s") % {"n": round_number}
    return drawn.sheets_pdf(sheets, **drawn_frame(t, title))


def round_sheets_context(t: Tournament, round_number: int, *, filled: bool, base_url: str):
    sheets = documents.round_sheets(t, round_number, filled=filled, base_url=base_url)
    if not sheets:
        raise Http404
    return {
        **event(t),
        "doc_title": _("Table sheets · round %(n)s") % {"n": round_number},
        "sheets": sheets,
    }


# --- duplicate tournaments (reports/duplicate.py builds each paper from the graded session) ----


class _OfDuplicate(_OfTournament):
    """A started duplicate tournament's paper; 404 for a free-deal one or before the start."""

    director_only = True
    stem: ClassVar[str]

    def __init__(self, request, **kwargs):
        super().__init__(request, **kwargs)
        from tarotclub.tournaments import duplicate as graded_tournament

        self.g = graded_tournament.graded(self.t) if self.t.duplicate else None
        if self.g is None:
            raise Http404

    @property
    def names(self) -> dict:
        # a player who did not play the whole session (a substitute) with the rounds played
        return {player: self.g.full_name(player) for player in self.g.players()}

    @property
    def plain_names(self) -> dict:
        """The names alone (a seat's card or slip names who sits there in its round)."""
        return {player: self.g.name(player) for player in self.g.players()}

    @property
    def event(self):
        from django.conf import settings
        from django.utils.formats import date_format

        from .duplicate import Event

        return Event(
            title=self.t.name,
            club=settings.CLUB_NAME,
            date=date_format(self.t.date, "DATE_FORMAT"),
            place=self.t.place,
        )

    @property
    def dealers(self) -> dict[int, str]:
        """Each board's dealer orientation: marked by the director, else the default."""
        from tarotclub.tournaments import duplicate as graded_tournament

        return graded_tournament.board_dealers(self.t)

    def board_urls(self) -> dict[int, str]:
        """Each board's QR code: the director's board list at that board."""
        from django.urls import reverse

        page = self.request.build_absolute_uri(
            reverse("tournaments:duplicate_boards", args=[self.t.pk])
        )
        return {board: f"{page}#board-{board}" for board in self.g.boards}

    def name(self) -> str:
        return self.file(self.stem)


class GuideCardsPrintout(_OfDuplicate):
    identifier = "duplicate_guide_cards"
    template = "reports/duplicate/guide_cards_pdf.html"
    stem = "guide-cards"

    def context(self) -> dict:
        from .duplicate import guide_cards_context

        return guide_cards_context(
            movement=self.g.movement,
            per_set=self.t.deals_per_round,
            names=self.plain_names,
            event=self.event,
            dealers=self.dealers,
            substitutes=self.g.substitutes,
        )


class DiagramsPrintout(_OfDuplicate):
    identifier = "duplicate_diagrams"
    template = "reports/duplicate/diagrams_pdf.html"
    stem = "diagrams"

    def context(self) -> dict:
        from .duplicate import diagrams_context

        return diagrams_context(
            boards=self.g.boards, urls=self.board_urls(), event=self.event, dealers=self.dealers
        )


class SlipsPrintout(_OfDuplicate):
    identifier = "duplicate_slips"
    template = "reports/duplicate/slips_pdf.html"
    stem = "slips"

    def context(self) -> dict:
        from .duplicate import slips_context

        return slips_context(
            movement=self.g.movement,
            per_set=self.t.deals_per_round,
            names=self.plain_names,
            event=self.event,
            boards=self.g.boards,
            urls=self.board_urls(),
            session=self.g.session,
            dealers=self.dealers,
            substitutes=self.g.substitutes,
        )


class GradingPrintout(_OfDuplicate):
    identifier = "duplicate_grading"
    template = "reports/duplicate/grading_pdf.html"
    stem = "grading"

    def context(self) -> dict:
        from .duplicate import grading_context

        return grading_context(session=self.g.session, names=self.names, event=self.event)


class RankingsPrintout(_OfDuplicate):
    identifier = "duplicate_rankings"
    template = "reports/duplicate/rankings_pdf.html"
    stem = "rankings"
    director_only = False  # as public as the rankings page

    def context(self) -> dict:
        from .duplicate import rankings_context

        return rankings_context(session=self.g.session, names=self.names, event=self.event)


class RecordsPrintout(_OfDuplicate):
    identifier = "duplicate_records"
    template = "reports/duplicate/records_pdf.html"
    stem = "records"

    def context(self) -> dict:
        from .duplicate import records_context

        return records_context(
            movement=self.g.movement,
            per_set=self.t.deals_per_round,
            session=self.g.session,
            names=self.names,
            event=self.event,
            players=self.g.players(),
            substitutes=self.g.substitutes,
        )
