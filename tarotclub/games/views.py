"""Pages of a game at the table. Every page of a game is reached through its share token."""

from __future__ import annotations

from fractions import Fraction
from functools import wraps

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db.models import Max
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import RuleError
from tarotclub.core.forms import add_validation_error, parse_whole, posted_int, query_int
from tarotclub.players.models import Player
from tarotclub.players.services import player_create

from . import policy, selectors, services
from .forms import CONTRACT_LABELS, DealForm, NewGameForm
from .models import Deal, GameKind
from .presenters import breakdown, format_points, signed
from .tables import GameListTable, SheetTable

MAX_SEATS = 12


class _Gone(Exception):
    """The share link's game no longer exists, and there is something to tell about it."""

    def __init__(self, notice: policy.Gone):
        super().__init__(notice.title)
        self.notice = notice


def _game_or_404(token: str):
    game = selectors.game_by_token(token)
    if game is None:
        _raise_gone(token)
    return game


def _raise_gone(token: str):
    """A link whose game is gone: its notice (a redrawn table: where the players sit now)."""
    notice = policy.gone(token)
    if notice is None:
        raise Http404
    raise _Gone(notice)


def _gone_page(request, notice: policy.Gone, *, partial: bool = False):
    template = "games/_gone.html" if partial else "games/gone.html"
    # the live part is swapped in by htmx, which only swaps successful answers
    context = {"notice": notice, "partial": partial}
    return render(request, template, context, status=200 if partial else 410)


def token_view(view=None, *, partial: bool = False):
    """A page reached through a share link: a link whose game is gone says why (never a 500)."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, token, *args, **kwargs):
            try:
                return view(request, token, *args, **kwargs)
            except _Gone as e:
                return _gone_page(request, e.notice, partial=partial)

        return wrapper

    return decorate(view) if view is not None else decorate


def _refused_by_service(token: str, error: ValidationError) -> None:
    """A service found the game gone under its lock (redrawn meanwhile): say so."""
    if getattr(error, "code", None) == "gone":
        _raise_gone(token)


def _is_director(request) -> bool:
    return policy.is_director(request.user)


def _verdicts(request, game, deal_count=None) -> dict[str, policy.Verdict]:
    return policy.verdicts(game, user=request.user, deal_count=deal_count)


def share_url(request, game) -> str:
    return request.build_absolute_uri(reverse("games:sheet", args=[game.token]))


# --- list and start ---------------------------------------------------------------------------


@login_required
def game_list(request):
    games = list(selectors.game_list()[:200])
    totals = selectors.game_totals([g for g in games if g.kind == GameKind.TAROT])
    rows = []
    for g in games:
        players = selectors.seat_players(g)
        if g.kind == GameKind.TAROT:
            shown = format_html_join(
                ", ", "{} {}", ((p.label, totals[g.pk].get(p.pk, 0)) for p in players)
            )
        else:
            shown = ", ".join(p.label for p in players)
        rows.append(
            {
                "created_at": g.created_at,
                "kind_label": g.get_kind_display(),
                "url": reverse("games:sheet", args=[g.token]),
                "players": shown,
                "finished": g.finished,
            }
        )
    ongoing = GameListTable([r for r in rows if not r["finished"]])
    finished = GameListTable([r for r in rows if r["finished"]])
    return render(request, "games/list.html", {"ongoing": ongoing, "finished": finished})


def _seat_values(post, count: int) -> list[str]:
    return [(post.get(f"seat{i}") or "").strip()[:12] for i in range(1, count + 1)]


def _kind(value) -> str:
    return value if value in services.TABLE_SIZES else GameKind.TAROT


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request):
    """Pick 3–5 players in playing order and the first dealer; add a guest without leaving."""
    kind = _kind(request.POST.get("kind") or request.GET.get("kind"))
    low, high = services.TABLE_SIZES[kind]
    form = NewGameForm(request.POST or None, kind=kind)
    roster = list(Player.objects.filter(active=True).order_by("name"))
    seats = _seat_values(request.POST, high) if request.method == "POST" else [""] * high
    first_dealer = request.POST.get("first_dealer", "1")
    errors: list[str] = []
    guest_name = ""
    if request.method == "POST" and "add_guest" in request.POST:
        guest_name = request.POST.get("guest_name", "")
        try:
            guest = player_create(name=guest_name, guest=True, user=request.user)
        except ValidationError as e:
            errors.extend(e.messages)
        else:
            roster = list(Player.objects.filter(active=True).order_by("name"))
            if "" in seats:
                seats[seats.index("")] = str(guest.pk)
            messages.success(request, _("Guest %(name)s added.") % {"name": guest.name})
            guest_name = ""
    elif request.method == "POST" and form.is_valid():
        chosen = [s for s in seats if s]
        by_pk = {str(p.pk): p for p in roster}
        dealer_index = (parse_whole(first_dealer) or 0) - 1
        filled = [i for i, s in enumerate(seats) if s]
        if any(s not in by_pk for s in chosen):
            errors.append(_("Choose the players from the list."))
        elif dealer_index not in filled:
            errors.append(_("The first dealer must be one of the players."))
        else:
            try:
                game = services.game_start(
                    players=[by_pk[s] for s in chosen],
                    first_dealer=filled.index(dealer_index),
                    created_by=request.user,
                    name=form.cleaned_data["name"],
                    kind=kind,
                    options=form.options(),
                )
            except ValidationError as e:
                errors.extend(e.messages)
            else:
                return redirect("games:sheet", token=game.token)
    context = {
        "form": form,
        "roster": roster,
        "seats": seats,
        "seat_numbers": list(range(1, high + 1)),
        "required_seats": low,
        "kind": kind,
        "kinds": GameKind.choices,
        "first_dealer": first_dealer,
        "errors": errors,
        "guest_name": guest_name,
    }
    return render(request, "games/new.html", context)


# --- the sheet ---------------------------------------------------------------------------------


def _tournament_table(game):
    """The tournament table this game is, if any (the relation lives in the tournaments app)."""
    try:
        return game.tournament_table
    except ObjectDoesNotExist:
        return None


def _sheet_context(request, game):
    sheet = selectors.game_sheet(game)
    table = SheetTable(sheet, link=lambda n: reverse("games:deal", args=[game.token, n]))
    planned = game.options.get("deals")
    allowed = _verdicts(request, game, sheet.deal_count)
    return {
        "game": game,
        "sheet": sheet,
        "table": table,
        "allowed": allowed,
        "can_write": bool(allowed[policy.DEAL] or allowed[policy.CORRECT]),
        "is_director": _is_director(request),
        "tournament_table": _tournament_table(game),
        "deals_planned": planned,
        "all_deals_in": bool(planned) and sheet.deal_count >= planned,
    }


@token_view
def game_sheet(request, token: str):
    game = _game_or_404(token)
    if game.kind != GameKind.TAROT:
        return redirect("variants:sheet", token=token)
    context = _sheet_context(request, game)
    context["share_url"] = share_url(request, game)
    context["qr_svg"] = segno.make(context["share_url"], error="m").svg_inline(scale=4)
    return render(request, "games/sheet.html", context)


@token_view(partial=True)
def game_poll(request, token: str):
    """The sheet's live part; 204 (nothing to swap) when nothing changed since `rev`."""
    game = _game_or_404(token)
    if request.GET.get("rev", "") == str(game.revision):
        return HttpResponse(status=204)
    return render(request, "games/_sheet.html", _sheet_context(request, game))


@token_view
def game_qr(request, token: str):
    game = _game_or_404(token)
    svg = segno.make(share_url(request, game), error="m").svg_inline(scale=8)
    return HttpResponse(svg, content_type="image/svg+xml")


# --- deals -------------------------------------------------------------------------------------


def _deal_form(game, *, dealer, data=None, initial=None):
    """The deal screen for a deal `dealer` deals: who plays it depends on the dealer."""
    players = selectors.seat_players(game)
    active = services.active_players(game, dealer, players)
    return DealForm(data, initial=initial, players=players, active=active)


def _preview(form, game, dealer):
    """Score the form's deal for the preview box: (breakdown, error message)."""
    if not form.is_valid():
        return None, None
    players = selectors.seat_players(game)
    try:
        result = services.deal_score(game, dealer, players, form.deal_input())
    except ValidationError as e:
        return None, " ".join(e.messages)
    names = {p.pk: p.label for p in players}
    return breakdown(result, names), None


def _refused(request, game, verdict: policy.Verdict):
    """Back to the sheet, with the reason the write is refused."""
    messages.error(request, verdict.reason)
    return redirect("games:sheet", token=game.token)


@token_view
@require_http_methods(["GET", "POST"])
def deal_new(request, token: str):
    game = _game_or_404(token)
    if game.kind != GameKind.TAROT:
        raise Http404
    count = game.deals.count()
    verdict = policy.check(game, policy.DEAL, user=request.user, deal_count=count)
    if not verdict:
        return _refused(request, game, verdict)
    number = count + 1
    dealer = services.dealer_for(game, number)
    form = _deal_form(game, data=request.POST or None, dealer=dealer)
    preview, preview_error = None, None
    if request.method == "POST":
        if "preview" in request.POST:
            preview, preview_error = _preview(form, game, dealer)
        elif form.is_valid():
            try:
                services.deal_record(
                    game=game,
                    data=form.deal_input(),
                    user=request.user,
                    expected_number=posted_int(request, "number", number),
                )
            except ValidationError as e:
                _refused_by_service(token, e)
                add_validation_error(form, e)
            else:
                messages.success(request, _("Deal %(n)s saved.") % {"n": number})
                return redirect("games:sheet", token=game.token)
    return render(
        request,
        "games/deal_form.html",
        {
            "game": game,
            "form": form,
            "number": number,
            "dealer": dealer,
            "preview": preview,
            "preview_error": preview_error,
            "action": reverse("games:deal_new", args=[game.token]),
            "preview_url": reverse("games:deal_preview", args=[game.token]) + f"?n={number}",
        },
    )


@token_view(partial=True)
@require_POST
def deal_preview(request, token: str):
    """htmx: the score that would be recorded, updated as the form changes."""
    game = _game_or_404(token)
    if game.kind != GameKind.TAROT:
        raise Http404
    number = query_int(request, "n")
    if number is None:
        number = game.deals.count() + 1
    last = game.deals.aggregate(m=Max("number"))["m"] or 0
    if not 1 <= number <= last + 1:
        number = last + 1
    dealer = services.dealer_for(game, number)
    form = _deal_form(game, data=request.POST, dealer=dealer)
    preview, preview_error = _preview(form, game, dealer)
    if preview is None and preview_error is None:
        missing = [str(e) for errs in form.errors.values() for e in errs]
        preview_error = missing[0] if missing else None
    return render(
        request,
        "games/_preview.html",
        {"preview": preview, "preview_error": preview_error, "incomplete": not form.is_valid()},
    )


def _deal_or_404(game, number) -> Deal:
    deal = (
        Deal.objects.filter(game=game, number=number)
        .select_related("dealer", "taker", "partner")
        .prefetch_related("lines")
        .first()
    )
    if deal is None:
        raise Http404
    return deal


def _stored_result(game, deal):
    players = selectors.seat_players(game)
    data = services.DealInput(
        taker=deal.taker_id,
        contract=deal.contract,
        bouts=deal.bouts,
        points=Fraction(deal.points_half, 2),
        partner=deal.partner_id,
        petit_au_bout=deal.petit_au_bout or None,
        poignees=tuple((pk, kind) for pk, kind in deal.poignees),
        chelem=deal.chelem,
    )
    try:
        return services.deal_score(game, deal.dealer, players, data)
    except (ValidationError, RuleError):
        return None


@token_view
def deal_detail(request, token: str, number: int):
    game = _game_or_404(token)
    deal = _deal_or_404(game, number)
    players = selectors.seat_players(game)
    names = {p.pk: p.label for p in players}
    result = _stored_result(game, deal)
    lines = {line.player_id: line.score for line in deal.lines.all()}
    history = []
    for change in selectors.deal_history(deal):
        history.append(
            {
                "change": change,
                "before": _describe_snapshot(change.before, names),
                "after": _describe_snapshot(change.after, names),
            }
        )
    last_number = game.deals.aggregate(m=Max("number"))["m"]
    allowed = _verdicts(request, game)
    return render(
        request,
        "games/deal_detail.html",
        {
            "game": game,
            "deal": deal,
            "breakdown": breakdown(result, names) if result else None,
            "scores": [(p, lines.get(p.pk, 0)) for p in players],
            "history": history,
            "allowed": allowed,
            "is_last": deal.number == last_number,
        },
    )


def _describe_snapshot(snapshot, names) -> str:
    if not snapshot:
        return ""
    points = format_points(snapshot["points_half"] / 2)
    scores = ", ".join(
        f"{names.get(int(pk), '?')} {signed(score)}" for pk, score in snapshot["scores"].items()
    )
    return _("%(taker)s, %(contract)s, %(bouts)s bouts, %(points)s points — %(scores)s") % {
        "taker": names.get(snapshot["taker"], "?"),
        "contract": CONTRACT_LABELS.get(snapshot["contract"], snapshot["contract"]),
        "bouts": snapshot["bouts"],
        "points": points,
        "scores": scores,
    }


@token_view
@require_http_methods(["GET", "POST"])
def deal_edit(request, token: str, number: int):
    game = _game_or_404(token)
    deal = _deal_or_404(game, number)
    verdict = policy.check(game, policy.CORRECT, user=request.user)
    if not verdict:
        return _refused(request, game, verdict)
    initial = DealForm.initial_from_deal(deal)
    form = _deal_form(game, data=request.POST or None, initial=initial, dealer=deal.dealer)
    preview, preview_error, stale = None, None, None
    if request.method == "POST":
        if "preview" in request.POST:
            preview, preview_error = _preview(form, game, deal.dealer)
        elif form.is_valid():
            expected = form.cleaned_data.get("version") or 0
            try:
                services.deal_correct(
                    deal=deal,
                    data=form.deal_input(),
                    expected_version=expected,
                    user=request.user,
                )
            except services.StaleDealError as e:
                stale = e.deal
                # show the newer version in the form, so nothing is overwritten silently
                form = _deal_form(
                    game, initial=DealForm.initial_from_deal(stale), dealer=deal.dealer
                )
                form.stale_message = e.messages[0]
            except ValidationError as e:
                _refused_by_service(token, e)
                add_validation_error(form, e)
            else:
                messages.success(request, _("Deal %(n)s corrected.") % {"n": number})
                return redirect("games:sheet", token=game.token)
    names = {p.pk: p.label for p in selectors.seat_players(game)}
    stale_result = _stored_result(game, stale) if stale else None
    return render(
        request,
        "games/deal_form.html",
        {
            "game": game,
            "form": form,
            "number": number,
            "dealer": deal.dealer,
            "editing": True,
            "preview": preview,
            "preview_error": preview_error,
            "stale": stale,
            "stale_breakdown": breakdown(stale_result, names) if stale_result else None,
            "action": reverse("games:deal_edit", args=[game.token, number]),
            "preview_url": reverse("games:deal_preview", args=[game.token]) + f"?n={number}",
        },
    )


@token_view
@require_http_methods(["GET", "POST"])
def deal_undo(request, token: str):
    game = _game_or_404(token)
    verdict = policy.check(game, policy.UNDO, user=request.user)
    if not verdict:
        return _refused(request, game, verdict)
    last = game.deals.select_related("taker").order_by("-number").first()
    if request.method == "POST":
        number = posted_int(request, "number", -1)
        try:
            services.deal_undo_last(game=game, number=number, user=request.user)
        except ValidationError as e:
            _refused_by_service(token, e)
            messages.error(request, " ".join(e.messages))
        else:
            messages.success(request, _("Deal %(n)s undone.") % {"n": number})
        return redirect("games:sheet", token=game.token)
    return render(request, "games/confirm_undo.html", {"game": game, "deal": last})


@token_view
@require_http_methods(["GET", "POST"])
def game_finish(request, token: str):
    game = _game_or_404(token)
    verdict = policy.check(game, policy.FINISH, user=request.user)
    if not verdict:
        return _refused(request, game, verdict)
    if request.method == "POST":
        try:
            services.game_finish(game=game, user=request.user)
        except ValidationError as e:
            _refused_by_service(token, e)
            messages.error(request, " ".join(e.messages))
        else:
            messages.success(request, _("The game is finished. Its sheet stays readable here."))
        return redirect("games:sheet", token=game.token)
    return render(
        request, "games/confirm_finish.html", {"game": game, **_sheet_context(request, game)}
    )


@token_view
def game_history(request, token: str):
    game = _game_or_404(token)
    names = {p.pk: p.label for p in selectors.seat_players(game)}
    changes = [
        {
            "change": c,
            "before": _describe_snapshot(c.before, names),
            "after": _describe_snapshot(c.after, names),
        }
        for c in game.changes.select_related("user")
    ]
    return render(request, "games/history.html", {"game": game, "changes": changes})
