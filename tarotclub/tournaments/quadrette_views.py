"""Quadrette tournaments' pages (duplicate.md 2.3, 2.5): the director's teams page (register,
remove, start), the oppositions and the boards still missing, the public results (the
ranking by final match points, each team's boards), and the downloads (the results sheet in
PDF, the ranking in CSV or Excel).

The figures come from `quadrette.graded` (the oppositions stored at the start and the board
scores entered, in match points by `scoring.quadrette`). A constant number of queries.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import quadrette as rules
from tarotclub.core.decorators import director_required
from tarotclub.core.forms import add_validation_error, query_int

from . import quadrette, quadrette_services
from .forms import QuadretteForm
from .models import Status, Table, Tournament
from .triplette_views import _event

SEAT_LABELS = {"S": "attacker", "N": "north", "E": "east", "W": "west"}


def _quadrette(pk: int) -> Tournament:
    t = get_object_or_404(Tournament, pk=pk)
    if not t.quadrette:
        raise Http404
    return t


def _team_rows(entries) -> list[dict]:
    """The teams in name order: number (once started), attacker, defenders by seat."""
    rows = []
    for name, members in sorted(quadrette.teams(entries).items(), key=lambda x: x[0].casefold()):
        a = quadrette.attacker(members)
        rows.append(
            {
                "name": name,
                "number": members[0].start_table,
                "attacker": a.player.name if a else "",
                "defenders": [
                    {"seat": e.get_orientation_display(), "name": e.player.name}
                    for e in members
                    if e is not a
                ],
            }
        )
    return rows


@director_required
@require_http_methods(["GET", "POST"])
def teams(request, pk: int):
    """Register a quadrette, remove one; the start button."""
    t = _quadrette(pk)
    form = QuadretteForm(request.POST if "register" in request.POST else None)
    if request.method == "POST":
        try:
            if "register" in request.POST:
                if form.is_valid():
                    data = form.cleaned_data
                    quadrette_services.quadrette_register(
                        tournament=t,
                        team=data["team"],
                        attacker=data["attacker"],
                        defenders=form.defenders(),
                        user=request.user,
                    )
                    messages.success(request, _("Quadrette %(team)s is registered.") % data)
                    return redirect("tournaments:quadrette_teams", pk=t.pk)
            elif "remove" in request.POST:
                team = request.POST.get("team", "")[:60]
                quadrette_services.quadrette_remove(tournament=t, team=team, user=request.user)
                messages.success(request, _("Quadrette %(team)s is removed.") % {"team": team})
                return redirect("tournaments:quadrette_teams", pk=t.pk)
        except ValidationError as e:
            if "register" in request.POST:
                add_validation_error(form, e)
            else:
                messages.error(request, " ".join(e.messages))
                return redirect("tournaments:quadrette_teams", pk=t.pk)
        t.refresh_from_db()
    rows = _team_rows(t.entries.select_related("player"))
    context = {
        "t": t,
        "form": form,
        "teams": rows,
        "count": len(rows),
        "open": t.status == Status.REGISTRATION,
    }
    return render(request, "tournaments/quadrette/teams.html", context)


@director_required
def boards(request, pk: int):
    """One round's oppositions (`?round=`): at each table the host's defence and the visiting
    attacker, its share link, and the boards it has still to enter; the count missing."""
    t = _quadrette(pk)
    g = quadrette.graded(t)
    context = {"t": t, "g": g}
    if g is not None:
        rounds = len(g.schedule)
        asked = query_int(request, "round")
        shown = asked if asked is not None and 1 <= asked <= rounds else max(t.current_round, 1)
        games = {
            tb.number: tb.game
            for tb in Table.objects.filter(tournament=t, round=shown).select_related("game")
        }
        missing: dict[int, list[int]] = {}
        for r, table, board in g.missing:
            if r == shown:
                missing.setdefault(table, []).append(board)
        by_table = {
            x.table: x for x in rules.round_tables(g.schedule[shown - 1], shown, t.deals_per_round)
        }
        oppositions = []
        for a, b in g.schedule[shown - 1]:
            tables = []
            for n in (a, b):
                x = by_table[n]
                game = games.get(n)
                tables.append(
                    {
                        "number": n,
                        "host": g.name(x.host),
                        "attacker": g.people(x.visitor)[0],
                        "visitor": g.name(x.visitor),
                        "token": game.token if game else "",
                        "missing": missing.get(n, []),
                    }
                )
            oppositions.append({"a": g.name(a), "b": g.name(b), "tables": tables})
        context.update(
            shown_round=shown,
            rounds=list(range(1, rounds + 1)),
            oppositions=oppositions,
            boards=list(by_table[1].boards) if by_table else [],
            missing_round=sum(len(v) for v in missing.values()),
            missing_all=len(g.missing),
            seated=shown <= t.current_round,
        )
    return render(request, "tournaments/quadrette/boards.html", context)


def slip(request, table: Table, game, board: int):
    """A quadrette board's travelling slip, through the table's share link: the table's own
    score, and once it is entered the other table of the opposition's, with the difference
    and the match points of this table's defence's team (the attacker, South, writes the
    score; the defenders check it, p. 22)."""
    t = table.tournament
    scores = quadrette.board_scores(t)
    own = scores.get((table.round, table.number, board))
    lines, pm = [], None
    sched = quadrette.schedule(t) or []
    other = rules.opponent(sched[table.round - 1], table.number) if sched else None
    if own is not None and other is not None:
        theirs = scores.get((table.round, other, board))
        for at, score in sorted(((table.number, own), (other, theirs))):
            if score is not None:
                lines.append(
                    {
                        "round": table.round,
                        "table": at,
                        "won": score if score >= 0 else None,
                        "lost": -score if score < 0 else None,
                        "own": at == table.number,
                    }
                )
        if theirs is not None:
            # the host's attacker played at the other table: its score minus this table's
            from scoring.duplicate import match_points

            pm = match_points(theirs - own)
    boards = (game.options or {}).get("boards") or []
    context = {
        "t": t,
        "table": table,
        "game": game,
        "board": board,
        "number": boards.index(board) + 1,
        "taker": _("South"),
        "own": own,
        "lines": lines,
        "pm": pm,
        "host": quadrette_name(t, table.number),
    }
    return render(request, "tournaments/duplicate/slip.html", context)


def quadrette_name(t: Tournament, number: int) -> str:
    e = t.entries.filter(start_table=number).exclude(team="").only("team").first()
    return e.team if e else ""


def _team_boards(g, number: int) -> list[dict]:
    return [
        {
            "round": p.round,
            "board": p.board,
            "opponent": g.name(p.opponent),
            "own": p.own,
            "theirs": p.theirs,
            "diff": p.diff,
            "pm": p.pm,
        }
        for p in g.team_boards(number)
    ]


def results(request, t: Tournament):
    """The public page of a quadrette tournament (its standings): the ranking by final match
    points, and each team's boards (its attacker's score, the opponent's, the difference,
    the match points)."""
    g = quadrette.graded(t)
    context = {"t": t, "g": g}
    if g is not None:
        rows = g.ranking()
        for r in rows:
            r["played"] = _team_boards(g, r["number"])
        context.update(rows=rows, missing=len(g.missing))
    return render(request, "tournaments/quadrette/results.html", context)


@director_required
def results_pdf(request, pk: int):
    """The quadrettes' results sheet (`reports.duplicate.quadrettes`)."""
    from tarotclub.reports.duplicate import quadrettes
    from tarotclub.reports.exports import filename
    from tarotclub.reports.pdf import pdf_response

    t = _quadrette(pk)
    g = quadrette.graded(t)
    if g is None:
        raise Http404
    pdf = quadrettes(teams=g.report_teams(), oppositions=g.report_oppositions(), event=_event(t))
    return pdf_response(pdf, filename("quadrettes", t.name, t.date, "pdf"))


def export(request, pk: int, fmt: str):
    """The ranking as CSV or Excel: one row a team, place, name, attacker, defenders, boards
    counted, final match points."""
    from tarotclub.reports.exports import check_format, filename, rows_response

    fmt = check_format(fmt)
    t = _quadrette(pk)
    g = quadrette.graded(t)
    if g is None:
        raise Http404
    headers = [
        _("Rank"),
        _("Team"),
        _("Attacker"),
        _("Defenders"),
        _("Boards"),
        _("Match points"),
    ]
    rows = [
        [r["place"], r["name"], r["attacker"], r["defenders"], r["boards"], float(r["pm"])]
        for r in g.ranking()
    ]
    name = filename("quadrettes", t.name, t.date, fmt)
    return rows_response(headers, rows, fmt, name=name, title=_("Ranking"))
