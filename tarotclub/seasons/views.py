"""A season's pages: the list, the standings (public, like a tournament's), the projector,
the downloads; defining, changing and deleting a season is for directors."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from tarotclub.core.decorators import director_required
from tarotclub.core.forms import add_validation_error, query_int
from tarotclub.players.links import is_member
from tarotclub.reports.exports import check_format, filename, rows_response

from . import selectors, services
from .forms import SeasonForm
from .models import Season
from .tables import export_rows, grid, value_display


def _season(pk: int) -> Season:
    return get_object_or_404(Season, pk=pk)


def season_list(request):
    return render(request, "seasons/list.html", {"seasons": selectors.season_list()[:100]})


def _save(request, form: SeasonForm, season: Season | None):
    data = dict(form.cleaned_data)
    try:
        if season is None:
            return services.season_create(**data, user=request.user)
        return services.season_update(season=season, **data, user=request.user)
    except ValidationError as e:
        add_validation_error(form, e)
        return None


@director_required
@require_http_methods(["GET", "POST"])
def season_new(request):
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        season = _save(request, form, None)
        if season is not None:
            messages.success(request, _("The season is defined."))
            return redirect("seasons:standings", pk=season.pk)
    return render(request, "seasons/form.html", {"form": form, "season": None})


@director_required
@require_http_methods(["GET", "POST"])
def season_edit(request, pk: int):
    season = _season(pk)
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_for(season))
    if request.method == "POST" and form.is_valid():
        saved = _save(request, form, season)
        if saved is not None:
            messages.success(request, _("The season is changed."))
            return redirect("seasons:standings", pk=saved.pk)
    return render(request, "seasons/form.html", {"form": form, "season": season})


@director_required
@require_http_methods(["GET", "POST"])
def season_delete(request, pk: int):
    season = _season(pk)
    if request.method == "POST":
        try:
            services.season_delete(season=season, user=request.user)
        except ValidationError as e:
            for m in e.messages:
                messages.error(request, m)
            return redirect("seasons:standings", pk=season.pk)
        messages.success(request, _("The season “%(name)s” is deleted.") % {"name": season.name})
        return redirect("seasons:list")
    return render(request, "seasons/confirm_delete.html", {"season": season})


def standings_context(season: Season, *, link_players: bool = False) -> dict:
    """The standings page's (and the PDF's) context; the names link to the players' pages
    when `link_players` (a member reads the page)."""
    standings = selectors.season_standings(season)
    table = grid(standings, link_players=link_players)
    return {
        "season": season,
        "standings": standings,
        "grid": table.html(empty=_("Nobody has played an evening of this season yet.")),
        "formula_text": formula_text(season),
        "kind_note": kind_note(season),
    }


def kind_note(season: Season) -> str:
    """What a season of a game other than French Tarot counts of each game (its kind says)."""
    kind = season.game_kind
    if season.is_tarot or kind is None:
        return ""
    return str(kind.season_note)


def formula_text(season: Season) -> str:
    """The season's ranking rule, said in a sentence."""
    if season.formula == "best":
        text = ngettext(
            "Ranked by the score of the best evening.",
            "Ranked by the sum of the best %(n)s evenings' scores.",
            season.best_n,
        ) % {"n": season.best_n}
    elif season.formula == "places":
        points = ", ".join(str(p) for p in season.points)
        if season.best_n:
            text = ngettext(
                "Ranked by points by place on each evening (%(points)s), best evening.",
                "Ranked by points by place on each evening (%(points)s), best %(n)s evenings.",
                season.best_n,
            ) % {"points": points, "n": season.best_n}
        else:
            text = _("Ranked by points by place on each evening (%(points)s).") % {"points": points}
    elif season.formula == "average":
        text = ngettext(
            "Ranked by the average score per round played; who attended fewer than %(n)s "
            "evening is listed after, unranked.",
            "Ranked by the average score per round played; who attended fewer than %(n)s "
            "evenings is listed after, unranked.",
            season.min_attendance,
        ) % {"n": season.min_attendance}
    else:
        text = _("Ranked by the total score of every evening.")
    return text


def season_standings(request, pk: int):
    context = standings_context(_season(pk), link_players=is_member(request.user))
    return render(request, "seasons/standings.html", context)


#: As the tournaments' projector: two columns of 15 a screen, the next screen every few seconds.
PROJECTOR_ROWS = 15
PROJECTOR_COLUMNS = 2
PROJECTOR_SECONDS = 8


def _projector_context(request, season: Season) -> dict:
    standings = selectors.season_standings(season)
    rows = [{"line": line, "value": value_display(standings, line)} for line in standings.lines]
    per_page = PROJECTOR_ROWS * PROJECTOR_COLUMNS
    pages = max(1, -(-len(rows) // per_page))
    page = query_int(request, "page", 1)
    page = page if 1 <= page <= pages else 1
    shown = rows[(page - 1) * per_page : page * per_page]
    return {
        "season": season,
        "standings": standings,
        "rows": shown,
        "columns": 1 if len(shown) <= PROJECTOR_ROWS else PROJECTOR_COLUMNS,
        "page": page,
        "pages": pages,
        "next_page": page % pages + 1,
        "per_page": per_page,
        "seconds": PROJECTOR_SECONDS,
    }


def season_projector(request, pk: int):
    season = _season(pk)
    return render(request, "seasons/projector.html", _projector_context(request, season))


@require_GET
def projector_screen(request, pk: int):
    season = _season(pk)
    return render(request, "seasons/_projector_screen.html", _projector_context(request, season))


def season_export(request, pk: int, fmt: str):
    check_format(fmt)
    season = _season(pk)
    headers, rows = export_rows(selectors.season_standings(season))
    return rows_response(
        headers,
        rows,
        fmt,
        name=filename("season", season.name, season.start, fmt),
        title=_("Season"),
    )
