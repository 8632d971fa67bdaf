"""PDFs to hand out or pin up, and spreadsheets of the standings and the deals.

Public: standings, seating plans, players' sheets, deals, a game's sheet (through its token).
Directors only: the tables' sheets of a round (with each table's QR code).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tarotclub.core.decorators import director_required
from tarotclub.core.forms import configure_table, query_int
from tarotclub.games import selectors as game_selectors
from tarotclub.kinds.tarot import selectors as tarot_selectors
from tarotclub.kinds.tarot.tables import SheetTable
from tarotclub.players.models import Player
from tarotclub.tournaments import selectors as tournament_selectors
from tarotclub.tournaments.models import Ranking, Status, Tournament
from tarotclub.tournaments.tables import StandingsTable

from . import documents
from .exports import check_format, export_response, filename
from .pdf import pdf_response, render_pdf, render_pdf_split
from .tables import DealsTable


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def _event(t: Tournament) -> dict:
    """What every page header of a tournament's printout says."""
    return {"event": t.name, "event_date": t.date, "event_place": t.place, "t": t}


def _round_or_404(t: Tournament, round_number: int) -> str:
    state = documents.round_state(t, round_number)
    if state is None:
        raise Http404
    return state


def _standings_table(t: Tournament):
    standings = tournament_selectors.standings(t)
    return standings, StandingsTable(standings, show_average=t.ranking == Ranking.AVERAGE)


# --- tournaments -------------------------------------------------------------------------------


def standings_context(t: Tournament) -> dict:
    standings, table = _standings_table(t)
    return {
        **_event(t),
        "doc_title": _("Standings"),
        "standings": standings,
        "table": table,
        "finished": t.status == Status.FINISHED,
        "ties": any(r.tied for r in standings.rows),
    }


def standings_pdf(request, pk: int):
    t = _tournament(pk)
    pdf = render_pdf("reports/standings_pdf.html", standings_context(t), request=request)
    return pdf_response(pdf, filename("standings", t.name, t.date, "pdf"))


def standings_export(request, pk: int, fmt: str):
    check_format(fmt)
    t = _tournament(pk)
    table = _standings_table(t)[1]
    return export_response(
        table, fmt, name=filename("standings", t.name, t.date, fmt), title=_("Standings")
    )


def _deals_round(request, t: Tournament) -> int | None:
    number = query_int(request, "round")
    return number if number is not None and 1 <= number <= t.current_round else None


def deals_page(request, pk: int):
    """Every deal of the tournament (or of one round), as in the spreadsheet."""
    t = _tournament(pk)
    round_number = _deals_round(request, t)
    table = DealsTable(documents.tournament_deals(t, round_number))
    configure_table(request, table, per_page=100)
    return render(
        request,
        "reports/deals.html",
        {
            "t": t,
            "table": table,
            "round": round_number,
            "rounds": list(range(1, t.current_round + 1)),
        },
    )


def deals_export(request, pk: int, fmt: str):
    check_format(fmt)
    t = _tournament(pk)
    round_number = _deals_round(request, t)
    table = DealsTable(documents.tournament_deals(t, round_number))
    kind = f"deals-r{round_number}" if round_number else "deals"
    return export_response(table, fmt, name=filename(kind, t.name, t.date, fmt), title=_("Deals"))


def round_sheets_context(t: Tournament, round_number: int, *, filled: bool, base_url: str):
    sheets = documents.round_sheets(t, round_number, filled=filled, base_url=base_url)
    if not sheets:
        raise Http404
    return {
        **_event(t),
        "doc_title": _("Table sheets · round %(n)s") % {"n": round_number},
        "sheets": sheets,
    }


@director_required
def round_sheets_pdf(request, pk: int, round_number: int):
    """One page per table: empty for paper scoring, or filled (?filled=1) once deals are in."""
    t = _tournament(pk)
    state = _round_or_404(t, round_number)
    filled = request.GET.get("filled") == "1" and state == documents.SEATED
    context = round_sheets_context(t, round_number, filled=filled, base_url=_base_url(request))
    pdf = render_pdf_split("reports/table_sheets_pdf.html", context, key="sheets", request=request)
    kind = f"sheets-filled-r{round_number}" if filled else f"sheets-r{round_number}"
    return pdf_response(pdf, filename(kind, t.name, t.date, "pdf"))


def seating_context(t: Tournament, round_number: int) -> dict:
    lines = documents.seating(t, round_number)
    if lines is None:
        raise Http404
    return {
        **_event(t),
        "doc_title": _("Seating plan · round %(n)s") % {"n": round_number},
        "round": round_number,
        "groups": documents.seating_groups(lines),
        "count": len(lines),
        "planned_round": documents.round_state(t, round_number) == documents.PLANNED,
    }


def seating_pdf(request, pk: int, round_number: int):
    t = _tournament(pk)
    _round_or_404(t, round_number)
    pdf = render_pdf("reports/seating_pdf.html", seating_context(t, round_number), request=request)
    return pdf_response(pdf, filename(f"seating-r{round_number}", t.name, t.date, "pdf"))


def players_page(request, pk: int):
    """Every registered player with a link to their own sheet."""
    t = _tournament(pk)
    entries = t.entries.select_related("player").order_by("player__name")
    entries = sorted(entries, key=lambda e: (documents.fold(e.player.name), e.player.name))
    return render(request, "reports/players.html", {"t": t, "entries": entries})


def player_pdf(request, pk: int, player_pk: int):
    t = _tournament(pk)
    player = get_object_or_404(Player, pk=player_pk)
    sheet = documents.player_sheet(t, player)
    if sheet is None:
        raise Http404
    context = {
        **_event(t),
        "doc_title": _("Player's sheet"),
        "sheet": sheet,
        "finished": t.status == Status.FINISHED,
    }
    pdf = render_pdf("reports/player_pdf.html", context, request=request)
    return pdf_response(pdf, filename(f"player-{slugify(player.name)}", t.name, t.date, "pdf"))


# --- a game through its token ------------------------------------------------------------------


def _tarot_game_or_404(token: str):
    game = game_selectors.game_by_token(token)
    if game is None or game.kind != "tarot":
        raise Http404
    return game


def game_sheet_pdf(request, token: str):
    """The score sheet as a PDF; a tournament table's is its filled table sheet."""
    game = _tarot_game_or_404(token)
    table = game_selectors.tournament_table(game)
    if table is not None:
        t = table.tournament
        context = {
            **_event(t),
            "doc_title": _("Table sheet · round %(n)s") % {"n": table.round},
            "sheets": [documents.table_sheet(table, base_url=_base_url(request))],
        }
        pdf = render_pdf("reports/table_sheets_pdf.html", context, request=request)
        name = filename(f"sheet-r{table.round}-t{table.number}", t.name, t.date, "pdf")
        return pdf_response(pdf, name)
    created = timezone.localdate(game.created_at)
    context = {
        "event": str(game),
        "event_date": created,
        "doc_title": _("Score sheet"),
        "game": game,
        "sheet": documents.casual_sheet(game, base_url=_base_url(request)),
    }
    pdf = render_pdf("reports/game_sheet_pdf.html", context, request=request)
    return pdf_response(pdf, filename("sheet", str(game), created, "pdf"))


def game_deals_export(request, token: str, fmt: str):
    """The deals of a game from the on-screen score sheet's table (plain values)."""
    check_format(fmt)
    game = _tarot_game_or_404(token)
    table = SheetTable(tarot_selectors.game_sheet(game))
    created = timezone.localdate(game.created_at)
    return export_response(
        table, fmt, name=filename("deals", str(game), created, fmt), title=_("Deals")
    )
