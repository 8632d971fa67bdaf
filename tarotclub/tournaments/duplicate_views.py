"""Duplicate tournaments' pages: boards and guide cards, grading, rankings, player records
(the director's), the travelling slip (a table's, through its share link), and downloads.

Reads only: every figure comes from `duplicate.graded` (the movement stored at the start and
the board scores entered, graded by `scoring.duplicate`). A constant number of queries.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.duplicate import player_in
from tarotclub.core.decorators import director_required
from tarotclub.core.forms import add_validation_error, query_int
from tarotclub.games.models import Game
from tarotclub.kinds.tarot.labels import dealing_text

from . import duplicate, duplicate_services
from .forms import BoardDealerForm, SubstituteForm
from .models import Entry, Orientation, Status, Table, Tournament


def _graded(pk: int) -> tuple[Tournament, duplicate.Graded | None]:
    t = get_object_or_404(Tournament, pk=pk)
    if not t.duplicate:
        raise Http404
    return t, duplicate.graded(t)


def _orientation(o: str) -> str:
    return str(Orientation(o).label)


def _played_boards(scores) -> dict[int, int]:
    """How many plays of each board have a score."""
    recorded: dict[int, int] = {}
    for board, _round in scores:
        recorded[board] = recorded.get(board, 0) + 1
    return recorded


@director_required
def boards(request, pk: int):
    """The boards (number, taker's orientation, dealer and who leads, where each is played)
    and the guide cards of one round (`?round=`). The boards are listed from the creation on,
    so that the director may mark their dealers before preparing them."""
    t = get_object_or_404(Tournament, pk=pk)
    if not t.duplicate:
        raise Http404
    g = duplicate.graded(t)
    context = {"t": t, "g": g}
    per = t.deals_per_round
    recorded = _played_boards(g.scores) if g is not None else {}
    editable = t.status != Status.FINISHED
    context["boards"] = [
        {
            "number": b,
            "taker": _orientation(duplicate.taker_of(b)),
            "dealer": _orientation(dealer),
            "leader": _orientation(duplicate.leader_of(dealer)),
            "marked": duplicate.dealer_marked(t, b),
            "set": (b - 1) // per + 1,
            "plays": duplicate.board_plays(t, g.movement, b) if g is not None else [],
            "recorded": recorded.get(b, 0),
            "editable": editable and not recorded.get(b),
        }
        for b, dealer in duplicate.board_dealers(t).items()
    ]
    if g is not None:
        m = g.movement
        asked = query_int(request, "round")
        shown = asked if asked is not None and 1 <= asked <= m.rounds else max(t.current_round, 1)
        context["shown_round"] = shown
        context["rounds"] = list(range(1, m.rounds + 1))
        context["cards"] = [
            {
                "table": s.table,
                "set": s.board_set,
                "boards": list(duplicate.boards_of_set(s.board_set, per)),
                "dealing": [
                    {"board": b, "text": dealing_text(duplicate.board_dealer(t, b))}
                    for b in duplicate.boards_of_set(s.board_set, per)
                ],
                "seats": [
                    {
                        "orientation": _orientation(o),
                        "name": g.name(player_in(s.seats[o], shown, g.substitutes)),
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
@require_http_methods(["GET", "POST"])
def board_dealer(request, pk: int, board: int):
    """Mark a board's dealer (duplicate.md 1.2), until the board has a result."""
    t = get_object_or_404(Tournament, pk=pk)
    if not t.duplicate or not 1 <= board <= duplicate.board_count(t):
        raise Http404
    choices = [
        (
            o,
            _("%(dealer)s (%(leader)s leads)")
            % {"dealer": _orientation(o), "leader": _orientation(duplicate.leader_of(o))},
        )
        for o in duplicate.ORIENTATIONS
    ]
    current = duplicate.board_dealer(t, board)
    form = BoardDealerForm(
        request.POST if request.method == "POST" else None,
        choices=choices,
        initial={"dealer": current, "was": current},
    )
    if request.method == "POST" and form.is_valid():
        try:
            duplicate_services.board_set_dealer(
                tournament=t,
                board=board,
                dealer=form.cleaned_data["dealer"],
                was=form.cleaned_data["was"] or None,
                user=request.user,
            )
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            messages.success(
                request,
                _("Board %(board)s: %(dealing)s.")
                % {"board": board, "dealing": dealing_text(form.cleaned_data["dealer"])},
            )
            return redirect(
                reverse("tournaments:duplicate_boards", args=[t.pk]) + f"#board-{board}"
            )
        t.refresh_from_db()
        current = duplicate.board_dealer(t, board)
    played = any(b == board for b, _r in duplicate.board_scores(t))
    context = {
        "t": t,
        "form": form,
        "board": board,
        "taker": _orientation(duplicate.taker_of(board)),
        "dealing": dealing_text(current),
        "played": played,
        "finished": t.status == Status.FINISHED,
    }
    return render(request, "tournaments/duplicate/board_dealer.html", context)


def _first_free_round(t: Tournament) -> int:
    """The round a substitute is offered to start from: the current one while it has no deal
    (the service says which table has begun), else the next one."""
    return min(max(t.current_round, 2), t.rounds)


@director_required
@require_http_methods(["GET", "POST"])
def substitute(request, pk: int, entry_pk: int):
    """Seat a substitute in the seat of a duplicate player who withdraws."""
    t = get_object_or_404(Tournament, pk=pk)
    if not t.duplicate:
        raise Http404
    entry = (
        Entry.objects.filter(pk=entry_pk, tournament=t, replaces__isnull=True)
        .exclude(orientation="")
        .select_related("player")
        .first()
    )
    if entry is None:
        raise Http404
    form = SubstituteForm(
        request.POST if request.method == "POST" else None,
        tournament=t,
        initial={"from_round": _first_free_round(t)},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sub = duplicate_services.entry_substitute(
                tournament=t,
                entry=entry,
                player=data["player"],
                guest_name=data["guest_name"],
                from_round=data["from_round"],
                user=request.user,
            )
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            messages.success(
                request,
                _("%(substitute)s plays in the seat of %(name)s (%(seat)s) from round %(n)s.")
                % {
                    "substitute": sub.player.name,
                    "name": entry.player.name,
                    "seat": f"{entry.orientation}{entry.start_table}",
                    "n": sub.first_round,
                },
            )
            return redirect("tournaments:manage", pk=t.pk)
    current = entry.substitutes.select_related("player").first()
    context = {
        "t": t,
        "entry": entry,
        "form": form,
        "current": current,
        "seat": f"{entry.orientation}{entry.start_table}",
        "open": t.status == Status.RUNNING and current is None,
    }
    return render(request, "tournaments/duplicate/substitute.html", context)


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


def _seat(seat: str) -> tuple:
    """A record's key: a seat, "N3", or a substitute's seat and first round, "N3-4"."""
    head, _sep, start = seat.partition("-")
    if len(head) < 2 or head[0] not in duplicate.ORIENTATIONS or not head[1:].isdigit():
        raise Http404
    if _sep and not (start.isdigit() and len(start) <= 3):
        raise Http404
    return (head[0], int(head[1:])) + ((int(start),) if _sep else ())


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
        "note": g.note(player),
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
        "dealing": dealing_text(duplicate.board_dealer(t, board)),
        "own": own,
        "lines": lines,
    }
    return render(request, "tournaments/duplicate/slip.html", context)
