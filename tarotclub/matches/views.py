"""A team match's pages: the list and the results (public, like a tournament's standings), the
results sheet (PDF) and its downloads; creating a match and entering its quarters is for
directors."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from scoring import duplicate as rules
from scoring.fft import CONTRACT_LABELS
from tarotclub.core.decorators import director_required
from tarotclub.core.forms import add_validation_error
from tarotclub.reports import duplicate as docs
from tarotclub.reports.exports import check_format, filename, rows_response
from tarotclub.reports.pdf import pdf_response

from . import selectors, services
from .forms import MatchEditForm, MatchForm, QuarterForm
from .models import QUARTERS, TeamMatch


def _match(pk: int) -> TeamMatch:
    return get_object_or_404(TeamMatch, pk=pk)


def _event(match: TeamMatch) -> docs.Event:
    return docs.Event(
        title=match.name,
        club=settings.CLUB_NAME,
        date=formats.date_format(match.date, "DATE_FORMAT"),
    )


@require_GET
def match_list(request):
    return render(request, "matches/list.html", {"matches": selectors.match_list()[:100]})


@director_required
@require_http_methods(["GET", "POST"])
def match_new(request):
    form = MatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create(**form.service_data(), user=request.user)
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            messages.success(request, _("The team match is created."))
            return redirect("matches:quarter", pk=match.pk, number=1)
    return render(request, "matches/new.html", {"form": form})


@director_required
@require_http_methods(["GET", "POST"])
def match_edit(request, pk: int):
    match = _match(pk)
    sheet = selectors.match_sheet(match)
    form = MatchEditForm(request.POST or None, match=match, teams=sheet.teams)
    stale = ""
    if request.method == "POST" and form.is_valid():
        try:
            services.match_edit(match=match, **form.service_data(), user=request.user)
        except ValidationError as e:
            if getattr(e, "code", None) != "stale":
                add_validation_error(form, e)
            else:
                # the newer version, to be checked and changed again
                stale = e.messages[0]
                match.refresh_from_db()
                sheet = selectors.match_sheet(match)
                form = MatchEditForm(match=match, teams=sheet.teams)
        else:
            messages.success(request, _("The team match is corrected."))
            return redirect("matches:results", pk=match.pk)
    context = {"form": form, "match": match, "sheet": sheet, "stale": stale}
    return render(request, "matches/edit.html", context)


def _quarter_forms(sheet, number: int, data=None, posted: str = "") -> dict:
    state = sheet.quarters[number - 1]
    forms_ = {}
    stored = {t: None for t in "AB"}
    for team in "AB":
        results = sheet.results.get((number, team), [])
        if results:
            attacker = state.attacker_pks.get(team)
            stored[team] = QuarterForm.initial_for(
                number=number, team=team, attacker=attacker, closed=state.closed, results=results
            )
        forms_[team] = QuarterForm(
            data if posted == team else None,
            match=sheet.match,
            number=number,
            team=team,
            players=sheet.teams[team],
            initial=stored[team],
        )
    return forms_


@director_required
@require_http_methods(["GET", "POST"])
def match_quarter(request, pk: int, number: int):
    match = _match(pk)
    if number not in QUARTERS:
        messages.error(request, _("A team match has 4 quarters, numbered 1 to 4."))
        return redirect("matches:results", pk=match.pk)
    sheet = selectors.match_sheet(match)
    posted = request.POST.get("team", "") if request.method == "POST" else ""
    if request.method == "POST" and posted not in ("A", "B"):
        messages.error(request, _("Say which team enters its quarter: A or B."))
        posted = ""
    forms_ = _quarter_forms(sheet, number, request.POST, posted)
    preview = False
    if posted:
        form = forms_[posted]
        if form.is_valid() and "preview" in request.POST:
            # the scores worked out from the facts, shown to be checked; nothing is saved
            preview = posted
        elif form.is_valid():
            try:
                services.quarter_record(match=match, **form.service_data(), user=request.user)
            except ValidationError as e:
                add_validation_error(form, e)
            else:
                messages.success(
                    request,
                    _("Quarter %(number)s of %(team)s is recorded.")
                    % {"number": number, "team": match.team_name(posted)},
                )
                return redirect("matches:quarter", pk=match.pk, number=number)
    state = sheet.quarters[number - 1]
    return render(
        request,
        "matches/quarter.html",
        {
            "match": match,
            "sheet": sheet,
            "state": state,
            "number": number,
            "quarters": QUARTERS,
            "teams": [(t, match.team_name(t), forms_[t]) for t in "AB"],
            "placing_name": match.team_name(state.placed_by),
            "preview": preview,
        },
    )


def results_context(sheet) -> dict:
    context = docs.team_match_context(match=sheet.data, event=_event(sheet.match))
    entered = {q.number for q in sheet.data.quarters}
    diff_a, diff_b = docs.team_match_totals(sheet.data)
    placed = {s.number: sheet.match.team_name(s.placed_by) for s in sheet.quarters}
    return {
        **context,
        "quarter_rows": [(q, placed[q.number]) for q in context["quarters"]],
        "sheet": sheet,
        "tm": sheet.match,
        "states": sheet.quarters,
        "entered": entered,
        "complete": sheet.complete,
        "draw": sheet.complete and diff_a == diff_b,
    }


@require_GET
def match_results(request, pk: int):
    match = _match(pk)
    sheet = selectors.match_sheet(match)
    return render(request, "matches/results.html", results_context(sheet))


@require_GET
def match_pdf(request, pk: int):
    match = _match(pk)
    sheet = selectors.match_sheet(match)
    document = docs.team_match(match=sheet.data, event=_event(match))
    return pdf_response(document, filename("team-match", match.name, match.date, "pdf"))


def export_rows(sheet) -> tuple[list[str], list[list]]:
    """A row per board of the quarters both teams have entered: quarter, board, each team's
    contract and signed score, the difference A − B and each team's match points (numbers);
    then the bonuses and the totals."""
    data = sheet.data
    headers = [
        _("Quarter"),
        _("Board"),
        _("Contract of %(team)s") % {"team": data.a_name},
        _("Score of %(team)s") % {"team": data.a_name},
        _("Contract of %(team)s") % {"team": data.b_name},
        _("Score of %(team)s") % {"team": data.b_name},
        _("Difference"),
        _("Match points of %(team)s") % {"team": data.a_name},
        _("Match points of %(team)s") % {"team": data.b_name},
    ]
    rows = []
    for q in data.quarters:
        for b in q.boards:
            pa, pb = rules.team_match_points(b.a_score - b.b_score)
            rows.append(
                [
                    q.number,
                    b.board,
                    str(CONTRACT_LABELS[b.a_contract]),
                    b.a_score,
                    str(CONTRACT_LABELS[b.b_contract]),
                    b.b_score,
                    b.a_score - b.b_score,
                    float(pa),
                    float(pb),
                ]
            )
    total_a, total_b = docs.team_match_totals(data)
    blank = ["", "", "", "", "", "", ""]
    rows.append([_("Bonus"), *blank[1:], float(data.a_bonus), float(data.b_bonus)])
    rows.append([_("Total"), *blank[1:], float(total_a), float(total_b)])
    return headers, rows


@require_GET
def match_export(request, pk: int, fmt: str):
    check_format(fmt)
    match = _match(pk)
    headers, rows = export_rows(selectors.match_sheet(match))
    return rows_response(
        headers,
        rows,
        fmt,
        name=filename("team-match", match.name, match.date, fmt),
        title=_("Team match"),
    )
