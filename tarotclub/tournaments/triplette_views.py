"""Triplette tournaments' pages (duplicate.md 2.2): the director's teams page (register,
remove, the first attacker's colour), the guide cards and boards, the grading, the public
rankings, and the downloads (the results sheet in PDF, the rankings in CSV or Excel).

The figures come from `triplette.graded` (the movement stored at the start and the board
scores entered, graded by `reports.duplicate.triplette_results`). A constant number of queries.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import triplette as rules
from tarotclub.core.decorators import director_required
from tarotclub.core.forms import add_validation_error, posted_int, query_int

from . import triplette, triplette_services
from .duplicate_views import _orientation
from .forms import TripletteForm
from .models import Badge, Status, Tournament, TripletteMovementKind

BADGE_ORDER = {b: i for i, b in enumerate(rules.BADGES)}


def _triplette(pk: int) -> Tournament:
    t = get_object_or_404(Tournament, pk=pk)
    if not t.triplette:
        raise Http404
    return t


def _colour(badge: str) -> str:
    return str(Badge(badge).label) if badge in Badge.values else ""


def _team_rows(t: Tournament, entries) -> list[dict]:
    """The teams in name order: line, members with their badge (given at the start; before,
    the badges the start will give)."""
    rows = []
    for name, members in sorted(triplette.teams(entries).items(), key=lambda x: x[0].casefold()):
        if members[0].badge:
            badges = [m.badge for m in members]
        elif len(members) == rules.TEAM_SIZE:
            badges = rules.badges([m.player.name for m in members])
        else:
            badges = [""] * len(members)
        people = sorted(zip(badges, members, strict=True), key=lambda x: BADGE_ORDER.get(x[0], 9))
        rows.append(
            {
                "name": name,
                "line": members[0].get_line_display(),
                "table": members[0].start_table,
                "members": [
                    {"name": m.player.name, "badge": b, "colour": _colour(b)} for b, m in people
                ],
            }
        )
    return rows


@director_required
@require_http_methods(["GET", "POST"])
def teams(request, pk: int):
    """Register a triplette, remove one, draw the first attacker's colour again."""
    t = _triplette(pk)
    form = TripletteForm(request.POST if "register" in request.POST else None)
    if request.method == "POST":
        try:
            if "register" in request.POST:
                if form.is_valid():
                    data = form.cleaned_data
                    triplette_services.triplette_register(
                        tournament=t,
                        team=data["team"],
                        members=form.members(),
                        line=data["line"],
                        user=request.user,
                    )
                    messages.success(request, _("Triplette %(team)s is registered.") % data)
                    return redirect("tournaments:triplette_teams", pk=t.pk)
            elif "remove" in request.POST:
                team = request.POST.get("team", "")[:60]
                triplette_services.triplette_remove(tournament=t, team=team, user=request.user)
                messages.success(request, _("Triplette %(team)s is removed.") % {"team": team})
                return redirect("tournaments:triplette_teams", pk=t.pk)
            elif "movement" in request.POST:
                t = triplette_services.triplette_choose_movement(
                    tournament=t, kind=request.POST.get("movement", "")[:10], user=request.user
                )
                messages.success(
                    request,
                    _("The movement is now %(movement)s.")
                    % {"movement": t.get_triplette_movement_display()},
                )
                return redirect("tournaments:triplette_teams", pk=t.pk)
            elif "redraw" in request.POST:
                t = triplette_services.triplette_redraw_colour(
                    tournament=t, draws=posted_int(request, "draws", -1), user=request.user
                )
                messages.success(
                    request,
                    _("The first attacker's colour is now %(colour)s.")
                    % {"colour": _colour(t.first_colour)},
                )
                return redirect("tournaments:triplette_teams", pk=t.pk)
        except ValidationError as e:
            if "register" in request.POST:
                add_validation_error(form, e)
            else:
                messages.error(request, " ".join(e.messages))
                return redirect("tournaments:triplette_teams", pk=t.pk)
        t.refresh_from_db()
    entries = list(t.entries.select_related("player"))
    rows = _team_rows(t, entries)
    context = {
        "t": t,
        "form": form,
        "teams": rows,
        "count": len(rows),
        "colour": _colour(t.first_colour),
        "open": t.status == Status.REGISTRATION,
        "movements": [
            {
                "value": value,
                "label": label,
                "checked": value == t.triplette_movement,
                "possible": value != "howell"
                or len(rows) < 4
                or len(rows) % 2 == 1
                or triplette_services.howell_possible(len(rows)),
            }
            for value, label in TripletteMovementKind.choices
        ],
        "started": bool(t.movement),
    }
    return render(request, "tournaments/triplette/teams.html", context)


@director_required
def boards(request, pk: int):
    """The guide cards of one round (`?round=`): each table's boards, its two teams, who
    attacks each board, where the East-West team goes next (in Howell, both teams); and every
    board's plays."""
    t = _triplette(pk)
    g = triplette.graded(t)
    context = {"t": t, "g": g}
    if g is not None:
        m = g.movement
        asked = query_int(request, "round")
        count = len(m.rounds)
        shown = asked if asked is not None and 1 <= asked <= count else max(t.current_round, 1)
        names = {e.player_id: e.player.name for _n, ms in g.keys.values() for e in ms}
        games = {
            tb.number: tb.game
            for tb in t.tables.filter(round=shown).select_related("game").order_by("number")
        }
        following = {}
        if shown < len(m.rounds):
            following = {
                team: table
                for table, _s, ns, ew in rules.table_teams(m, shown + 1)
                for team in (ns, ew)
            }
        cards = []
        for table, board_set, ns, ew in rules.table_teams(m, shown):
            options = games[table].options if table in games else None
            if options is None:  # a round not seated yet: the same options as it will have
                seated = (
                    [e.player_id for e in g.keys[ns][1] + g.keys[ew][1]]
                    if ns in g.keys and ew in g.keys
                    else None
                )
                options = triplette.table_options(t, m, shown, table, seated) if seated else {}
            deals = [
                {
                    "board": b,
                    "taker": _orientation(rules.taker_of(b)),
                    "attacker": names.get(taker, "?"),
                    "team": g.name(ns if rules.attacking_line(b) == "NS" else ew),
                }
                for b, (taker, _c) in zip(
                    options.get("boards", []), options.get("imposed", []), strict=True
                )
            ]
            cards.append(
                {
                    "table": table,
                    "set": board_set,
                    "ns": g.name(ns),
                    "ew": g.name(ew),
                    "next": following.get(ew),
                    "ns_next": following.get(ns) if m.kind == "howell" else None,
                    "deals": deals,
                }
            )
        context.update(
            cards=cards,
            shown_round=shown,
            rounds=list(range(1, len(m.rounds) + 1)),
            first=_colour(t.first_colour),
            howell=m.kind == "howell",
        )
    return render(request, "tournaments/triplette/boards.html", context)


@director_required
def grading(request, pk: int):
    """Every board's grading sheet: the plays ranked by signed score, attack and defence."""
    t = _triplette(pk)
    g = triplette.graded(t)
    sheets = []
    if g is not None:
        for b in triplette.boards(g):
            sheets.append(
                {
                    "number": b,
                    "taker": _orientation(rules.taker_of(b)),
                    "rows": triplette.grading_rows(g, b),
                }
            )
    return render(request, "tournaments/triplette/grading.html", {"t": t, "g": g, "sheets": sheets})


def _team_key(seat: str) -> tuple[str, int]:
    """ "NS2" → ("NS", 2); anything else is not found."""
    line, number = seat[:2], seat[2:]
    if line not in rules.LINES or not number.isdigit() or len(number) > 3:
        raise Http404
    return line, int(number)


@director_required
def record(request, pk: int, seat: str):
    """A triplette's record (feuille de route, 1.10), as its captain asks for it: every board
    attacked or defended, against whom, the score and the grade, and the percentages."""
    t = _triplette(pk)
    g = triplette.graded(t)
    key = _team_key(seat)
    if g is None or key not in g.keys:
        raise Http404
    res = g.results
    rows = []
    for play, attacked, grade in sorted(
        res.boards.get(key, []), key=lambda x: (x[0].round, x[0].board)
    ):
        other = play.east_west if play.north_south == key else play.north_south
        rows.append(
            {
                "round": play.round,
                "table": play.table,
                "board": play.board,
                "attacked": attacked,
                "opponent": g.name(other),
                "score": play.score,
                "grade": grade,
            }
        )
    members = g.keys[key][1]
    context = {
        "t": t,
        "name": g.name(key),
        "line": members[0].get_line_display(),
        "members": [{"name": e.player.name, "colour": _colour(e.badge)} for e in members],
        "attack": res.attack.get(key),
        "defence": res.defence.get(key),
        "overall": res.overall.get(key),
        "rows": rows,
    }
    return render(request, "tournaments/triplette/record.html", context)


def rankings(request, t: Tournament):
    """The public page of a triplette tournament (its standings): both rankings of the teams,
    the alternating one first and marked (it counts for one session, p. 21)."""
    g = triplette.graded(t)
    rankings = []
    if g is not None:
        rankings = [
            {
                "key": "alternating",
                "title": _("Alternating ranking"),
                "rows": triplette.ranking_rows(g, "alternating"),
            },
            {
                "key": "general",
                "title": _("General ranking"),
                "rows": triplette.ranking_rows(g, "general"),
            },
        ]
        for r in rankings:
            r["counts"] = r["key"] == g.counts()
        rankings.sort(key=lambda r: not r["counts"])
    context = {"t": t, "g": g, "rankings": rankings, "director": request.user.is_staff}
    return render(request, "tournaments/triplette/rankings.html", context)


def _event(t: Tournament):
    from tarotclub.reports.duplicate import Event

    return Event(
        title=t.name,
        club=settings.CLUB_NAME,
        date=date_format(t.date, "DATE_FORMAT"),
        place=t.place,
    )


@director_required
def results_pdf(request, pk: int):
    """The triplettes' results sheet (`reports.duplicate.triplettes`): both rankings and each
    team's record."""
    from tarotclub.reports.duplicate import triplettes
    from tarotclub.reports.exports import filename
    from tarotclub.reports.pdf import pdf_response

    t = _triplette(pk)
    g = triplette.graded(t)
    if g is None:
        raise Http404
    pdf = triplettes(teams=g.teams(), plays=g.plays, event=_event(t))
    return pdf_response(pdf, filename("triplettes", t.name, t.date, "pdf"))


def export(request, pk: int, fmt: str):
    """The teams' rankings as CSV or Excel: one row a team in the alternating ranking's
    order, the general ranking's place beside it, attack, defence and overall %."""
    from tarotclub.reports.exports import check_format, filename, rows_response
    from tarotclub.reports.spreadsheets import _percent

    fmt = check_format(fmt)
    t = _triplette(pk)
    g = triplette.graded(t)
    if g is None:
        raise Http404
    general = {r["key"]: r["place"] for r in triplette.ranking_rows(g, "general")}
    headers = [
        _("Alternating ranking"),
        _("General ranking"),
        _("Team"),
        _("Line"),
        _("Players"),
        _("Attack %"),
        _("Defence %"),
        _("Overall %"),
    ]
    rows = [
        [
            r["place"],
            general[r["key"]],
            r["name"],
            r["line"],
            r["members"],
            _percent(r["attack"]),
            _percent(r["defence"]),
            _percent(r["overall"]),
        ]
        for r in triplette.ranking_rows(g, "alternating")
    ]
    name = filename("triplettes", t.name, t.date, fmt)
    return rows_response(headers, rows, fmt, name=name, title=_("Rankings"))


@director_required
def cards_pdf(request, pk: int):
    """Each team's movement card (Howell, p. 21: "from a card the director hands out"): its
    table, line, set of boards and opponent in every round, one card a team."""
    from tarotclub.reports.duplicate import triplette_cards
    from tarotclub.reports.exports import filename
    from tarotclub.reports.pdf import pdf_response

    t = _triplette(pk)
    g = triplette.graded(t)
    if g is None:
        raise Http404
    pdf = triplette_cards(triplette.card_rows(g), event=_event(t))
    return pdf_response(pdf, filename("movement-cards", t.name, t.date, "pdf"))
