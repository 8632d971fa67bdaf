"""PDFs to hand out or pin up, and spreadsheets of the standings and the deals.

Public: standings, seating plans, players' sheets, deals, a game's sheet (through its token).
Directors only: the tables' sheets of a round (with each table's QR code).
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tarotclub.core.decorators import director_required
from tarotclub.core.forms import configure_table, query_int
from tarotclub.core.text import text_key
from tarotclub.games import selectors as game_selectors
from tarotclub.tournaments.models import Table, Tournament

from . import documents, printouts, spreadsheets
from .exports import check_format, filename, rows_response
from .pdf import pdf_response
from .tables import DealsTable


def pdf(request, printout: str, **kwargs):
    """Every printout (`printouts.PRINTOUTS`), made from the URL's arguments."""
    kind = printouts.PRINTOUTS[printout]
    if kind.director_only and not request.user.is_staff:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    made = kind(request, **kwargs)
    return pdf_response(made.pdf(), made.name())


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def standings_export(request, pk: int, fmt: str):
    check_format(fmt)
    t = _tournament(pk)
    headers, rows = spreadsheets.standings(t)
    return rows_response(
        headers, rows, fmt, name=filename("standings", t.name, t.date, fmt), title=_("Standings")
    )


@director_required
def duplicate_export(request, pk: int, what: str, fmt: str):
    """A duplicate tournament's rankings or every board's grading, as CSV or Excel."""
    from tarotclub.tournaments import duplicate

    check_format(fmt)
    t = _tournament(pk)
    g = duplicate.graded(t) if t.duplicate else None
    if g is None or what not in ("rankings", "grading"):
        raise Http404
    if what == "rankings":
        headers, rows = spreadsheets.duplicate_rankings(g)
        title = _("Rankings")
    else:
        headers, rows = spreadsheets.duplicate_grading(g)
        title = _("Grading")
    return rows_response(headers, rows, fmt, name=filename(what, t.name, t.date, fmt), title=title)


def _deals_round(request, t: Tournament) -> int | None:
    number = query_int(request, "round")
    return number if number is not None and 1 <= number <= t.current_round else None


def deals_page(request, pk: int):
    """Every deal of the tournament (or of one round, or one table), as in the spreadsheet.

    Each table's number links to that table's deals; for a director, to the table's sheet
    (its share link, which the public page never shows).
    """
    t = _tournament(pk)
    round_number = _deals_round(request, t)
    rows = documents.tournament_deals(t, round_number)
    table_number = query_int(request, "table") if round_number else None
    if table_number is not None and any(r["table"] == table_number for r in rows):
        rows = [r for r in rows if r["table"] == table_number]
    else:
        table_number = None
    deals_url = reverse("reports:deals", args=[t.pk])
    if request.user.is_staff:
        tokens = dict(
            ((r, n), token)
            for r, n, token in Table.objects.filter(tournament=t).values_list(
                "round", "number", "game__token"
            )
        )

        def table_link(record):
            token = tokens.get((record["round"], record["table"]))
            return reverse("games:sheet", args=[token]) if token else None
    else:

        def table_link(record):
            return f"{deals_url}?round={record['round']}&table={record['table']}"

    table = DealsTable(rows, table_link=table_link)
    configure_table(request, table, per_page=100)
    return render(
        request,
        "reports/deals.html",
        {
            "t": t,
            "table": table,
            "round": round_number,
            "table_number": table_number,
            "rounds": list(range(1, t.current_round + 1)),
        },
    )


def deals_export(request, pk: int, fmt: str):
    check_format(fmt)
    t = _tournament(pk)
    round_number = _deals_round(request, t)
    headers, rows = spreadsheets.tournament_deals(documents.tournament_deals(t, round_number))
    kind = f"deals-r{round_number}" if round_number else "deals"
    return rows_response(
        headers, rows, fmt, name=filename(kind, t.name, t.date, fmt), title=_("Deals")
    )


def players_page(request, pk: int):
    """Every registered player with a link to their own sheet."""
    t = _tournament(pk)
    entries = t.entries.select_related("player").order_by("player__name")
    entries = sorted(entries, key=lambda e: (text_key(e.player.name), e.player.name))
    return render(request, "reports/players.html", {"t": t, "entries": entries})


def _tarot_game_or_404(token: str):
    game = game_selectors.game_by_token(token)
    if game is None or game.kind != "tarot":
        raise Http404
    return game


def score_sheet(request, token: str):
    """A tournament table's score sheet on screen, in the federation's layout (duplicate.md
    3.4): the printed sheet's + and − columns, Total and Balance, for a phone."""
    game = _tarot_game_or_404(token)
    table = game_selectors.tournament_table(game)
    if table is None:
        raise Http404
    sheet = documents.table_sheet(table, qr=False)
    return render(
        request,
        "reports/triplette_score_sheet.html"
        if getattr(sheet, "triplette", False)
        else "reports/score_sheet.html",
        {"game": game, "table": table, "t": table.tournament, "sheet": sheet},
    )


def game_deals_export(request, token: str, fmt: str):
    """The deals of a game from the on-screen score sheet's table (plain values)."""
    check_format(fmt)
    game = _tarot_game_or_404(token)
    headers, rows = spreadsheets.game_deals(game)
    created = timezone.localdate(game.created_at)
    return rows_response(
        headers, rows, fmt, name=filename("deals", str(game), created, fmt), title=_("Deals")
    )


@never_cache
@director_required
@require_http_methods(["GET", "POST"])
def club_export(request):
    """Directors download the whole club's data (GET: the page; POST: the file)."""
    from django.contrib.auth import get_user_model
    from django.http import HttpResponse

    from tarotclub.core.models import log_action

    from . import club

    if request.method == "GET":
        return render(request, "reports/club_export.html")
    fmt = request.POST.get("format", "")
    if fmt not in ("json", "xlsx"):
        return render(
            request,
            "reports/club_export.html",
            {"error": _("Choose the JSON file or the workbook.")},
            status=400,
        )
    data = club.club_data()
    if fmt == "json":
        content, kind = club.club_json(data), "application/json"
    else:
        content = club.club_workbook(data)
        kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    account = get_user_model()._default_manager.get(pk=request.user.pk)
    log_action(account, club.EXPORT_DOWNLOADED, user=account, after={"format": fmt})
    response = HttpResponse(content, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="{club.export_file_name(fmt)}"'
    response["Cache-Control"] = "no-store, private"
    return response
