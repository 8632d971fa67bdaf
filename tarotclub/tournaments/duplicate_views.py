"""Duplicate tournaments' pages: boards and guide cards, grading, rankings, player records
(the director's), the travelling slip (a table's, through its share link), and downloads.

Reads only: every figure comes from `duplicate.graded` (the movement stored at the start and
the board scores entered, graded by `scoring.duplicate`). A constant number of queries.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tarotclub.core.decorators import director_required
from tarotclub.core.forms import query_int
from tarotclub.games.models import Game

from . import duplicate
from .models import Orientation, Table, Tournament


def _graded(pk: int) -> tuple[Tournament, duplicate.Graded | None]:
    t = get_object_or_404(Tournament, pk=pk)
    if not t.duplicate:
        raise Http404
    return t, duplicate.graded(t)


def _orientation(o: str) -> str:
    return str(Orientation(o).label)


@director_required
def boards(request, pk: int):
    """The boards (number, taker's orientation, where each is played) and the guide cards of
    one round (`?round=`)."""
    t, g = _graded(pk)
    context = {"t": t, "g": g}
    if g is not None:
        m = g.movement
        asked = query_int(request, "round")
        shown = asked if asked is not None and 1 <= asked <= m.rounds else max(t.current_round, 1)
        recorded: dict[int, int] = {}
        for board, _round in g.scores:
            recorded[board] = recorded.get(board, 0) + 1
        per = t.deals_per_round
        context["boards"] = [
            {
                "number": b,
                "taker": _orientation(duplicate.taker_of(b)),
                "set": (b - 1) // per + 1,
                "plays": duplicate.board_plays(t, m, b),
                "recorded": recorded.get(b, 0),
            }
            for b in g.boards
        ]
        context["shown_round"] = shown
        context["rounds"] = list(range(1, m.rounds + 1))
        context["cards"] = [
            {
                "table": s.table,
                "set": s.board_set,
                "boards": list(duplicate.boards_of_set(s.board_set, per)),
                "seats": [
                    {
                        "orientation": _orientation(o),
                        "name": g.name(s.seats[o]),
                        "seat": g.label(s.seats[o]),
                        "next": s.next_table[o],
                    }
                    for o in duplicate.ORIENTATIONS
                ],
            }
            for s in m.seating(shown)
        ]
    return render(request, "tournaments/duplicate/boards.html", context)


@director_required
def grading(request, pk: int):
    """Every board's grading sheet (1.7, 1.10): plays ranked by signed score, grades."""
    t, g = _graded(pk)
    sheets = []
    if g is not None:
        for b in g.boards:
            rows = duplicate.grading_rows(g, b)
            sheets.append({"number": b, "taker": _orientation(duplicate.taker_of(b)), "rows": rows})
    return render(request, "tournaments/duplicate/grading.html", {"t": t, "g": g, "sheets": sheets})


def rankings_context(t: Tournament, g: duplicate.Graded | None, *, director: bool) -> dict:
    """The general and alternating rankings (1.9), the one that counts first and marked."""
    if g is None:
        return {"t": t, "g": None, "rankings": []}
    rankings = [
        {
            "key": "alternating",
            "title": _("Alternating ranking"),
            "rows": duplicate.ranking_rows(g, "alternating"),
        },
        {
            "key": "general",
            "title": _("General ranking"),
            "rows": duplicate.ranking_rows(g, "general"),
        },
    ]
    counts = g.counts()
    for r in rankings:
        r["counts"] = r["key"] == counts
    rankings.sort(key=lambda r: not r["counts"])
    return {"t": t, "g": g, "rankings": rankings, "director": director}


def rankings(request, t: Tournament):
    """The public page of a duplicate tournament (its standings): the rankings."""
    g = duplicate.graded(t)
    context = rankings_context(t, g, director=request.user.is_staff)
    return render(request, "tournaments/duplicate/rankings.html", context)


def _seat(seat: str) -> tuple[str, int]:
    if len(seat) < 2 or seat[0] not in duplicate.ORIENTATIONS or not seat[1:].isdigit():
        raise Http404
    return seat[0], int(seat[1:])


@director_required
def record(request, pk: int, seat: str):
    """A player's record (feuille de route, 1.10): boards, scores, grades, percentages."""
    t, g = _graded(pk)
    player = _seat(seat)
    if g is None or player not in g.session.records:
        raise Http404
    context = {
        "t": t,
        "g": g,
        "name": g.name(player),
        "seat": g.label(player),
        "orientation": _orientation(player[0]),
        "rec": g.session.records[player],
        "rows": duplicate.record_rows(g, player),
    }
    return render(request, "tournaments/duplicate/record.html", context)


def slip(request, token: str, board: int):
    """A board's travelling slip (1.5), through the table's share link: the table's own score,
    and every score recorded for the board once the table has entered its own."""
    game = get_object_or_404(Game, token=token[:32])
    table = Table.objects.filter(game=game).select_related("tournament").first()
    boards = (game.options or {}).get("boards") or []
    if table is None or board not in boards:
        raise Http404
    if table.tournament.quadrette:  # compared within the table's opposition only (2.3)
        from .quadrette_views import slip as quadrette_slip

        return quadrette_slip(request, table, game, board)
    if not table.tournament.duplicate:
        raise Http404
    t = table.tournament
    number = boards.index(board) + 1
    g = duplicate.graded(t)
    own = g.scores.get((board, table.round)) if g is not None else None
    lines = []
    if own is not None:
        for round_number, at in duplicate.board_plays(t, g.movement, board):
            score = g.scores.get((board, round_number))
            if score is not None:
                lines.append(
                    {
                        "round": round_number,
                        "table": at,
                        "won": score if score >= 0 else None,
                        "lost": -score if score < 0 else None,
                        "own": round_number == table.round,
                    }
                )
    context = {
        "t": t,
        "table": table,
        "game": game,
        "board": board,
        "number": number,
        "taker": _orientation(duplicate.taker_of(board)),
        "own": own,
        "lines": lines,
    }
    return render(request, "tournaments/duplicate/slip.html", context)
