"""Pages of the other games (Fool's Faith, Death's Pot, Keys of the Kingdom, Cuckoo).

A game's pages are reached through its share token, like the French Tarot sheet; the list of
challenges needs a member's login; the standings are public.
"""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tarotclub.core.forms import add_validation_error, configure_table, posted_int, query_int
from tarotclub.games import selectors as game_selectors
from tarotclub.games.models import Change, GameKind

from . import presenters, rules, selectors, services
from .forms import FORMS, AwardForm, ChallengeForm, KeysForm, StandingsFilterForm
from .models import Challenge
from .tables import STANDINGS_TABLES, HistoryTable

ERR_NO_CHALLENGES = gettext_lazy(
    "The club's list of challenges is empty: a member adds challenges first."
)

ENTRY_TITLE = {
    rules.FOOLS_FAITH: gettext_lazy("Round %(n)s"),
    rules.DEATHS_POT: gettext_lazy("Deal %(n)s"),
    rules.KEYS: gettext_lazy("Game %(n)s"),
    rules.CUCKOO: gettext_lazy("Deal %(n)s"),
}
CORRECT_TITLE = {
    rules.FOOLS_FAITH: gettext_lazy("Correct round %(n)s"),
    rules.DEATHS_POT: gettext_lazy("Correct deal %(n)s"),
    rules.KEYS: gettext_lazy("Correct game %(n)s"),
    rules.CUCKOO: gettext_lazy("Correct deal %(n)s"),
}
NEW_BUTTON = {
    rules.FOOLS_FAITH: gettext_lazy("New round"),
    rules.DEATHS_POT: gettext_lazy("New deal"),
    rules.KEYS: gettext_lazy("Enter a game played"),
    rules.CUCKOO: gettext_lazy("New deal"),
}
SAVED = {
    rules.FOOLS_FAITH: gettext_lazy("Round %(n)s saved."),
    rules.DEATHS_POT: gettext_lazy("Deal %(n)s saved."),
    rules.KEYS: gettext_lazy("Game %(n)s saved."),
    rules.CUCKOO: gettext_lazy("Deal %(n)s saved."),
}
CORRECTED = {
    rules.FOOLS_FAITH: gettext_lazy("Round %(n)s corrected."),
    rules.DEATHS_POT: gettext_lazy("Deal %(n)s corrected."),
    rules.KEYS: gettext_lazy("Game %(n)s corrected."),
    rules.CUCKOO: gettext_lazy("Deal %(n)s corrected."),
}
UNDONE = {
    rules.FOOLS_FAITH: gettext_lazy("Round %(n)s undone."),
    rules.DEATHS_POT: gettext_lazy("Deal %(n)s undone."),
    rules.KEYS: gettext_lazy("Game %(n)s undone."),
    rules.CUCKOO: gettext_lazy("Deal %(n)s undone."),
}
UNDO_BUTTON = {
    rules.FOOLS_FAITH: gettext_lazy("Undo the last round"),
    rules.DEATHS_POT: gettext_lazy("Undo the last deal"),
    rules.KEYS: gettext_lazy("Undo the last game"),
    rules.CUCKOO: gettext_lazy("Undo the last deal"),
}
STANDINGS_NOTES = {
    rules.FOOLS_FAITH: gettext_lazy(
        "Games that ended with a winner. Challenge cards: the cards won; challenges received: "
        "the challenges the winners gave to the player (tap the number to read them)."
    ),
    rules.DEATHS_POT: gettext_lazy(
        "Every game with at least one deal, finished or not. Net balance: stakes won minus "
        "stakes paid, over all games; per game: the net balance divided by the games played. "
        "Pots taken: with Death or the most tricks."
    ),
    rules.KEYS: gettext_lazy(
        "Every game entered. Keys when losing: the average number of keys held at the end of "
        "the games lost."
    ),
    rules.CUCKOO: gettext_lazy(
        "Matches played to their end. Place: 1 for the winner (and for everybody in a draw); "
        "players who went out together share a place. Out first: went out before everybody else."
    ),
}


# --- helpers -----------------------------------------------------------------------------------


def _game_or_404(token: str):
    game = game_selectors.game_by_token(token)
    if game is None or game.kind not in rules.KINDS:
        raise Http404
    return game


def _kind_label(kind: str) -> str:
    return str(GameKind(kind).label)


def share_url(request, game) -> str:
    return request.build_absolute_uri(reverse("variants:sheet", args=[game.token]))


def _refused(request, game, gs=None):
    gs = gs or selectors.game_state(game)
    if gs.stopped:
        messages.error(request, str(services.ERR_STOPPED))
    else:
        messages.error(request, str(services.ERR_FINISHED))
    return redirect("variants:sheet", token=game.token)


def _form_class(kind):
    return FORMS[kind]


def _make_form(game, players, data=None, initial=None, state=None):
    cls = _form_class(game.kind)
    kwargs = {"players": players, "initial": initial or {}}
    if game.kind == rules.CUCKOO:
        kwargs["state"] = state
    return cls(data, **kwargs)


def _award_context(request, gs):
    """The challenge cards of a finished Fool's Faith game: given, and the form to give them."""
    if gs.game.kind != rules.FOOLS_FAITH or not gs.over:
        return {}
    state = gs.state
    winner = state.winner
    count = state.cards[winner]
    awards = list(gs.game.challenge_awards.select_related("player").order_by("card"))
    challenges = list(Challenge.objects.filter(active=True))
    others = [p for p in gs.players if p.pk != winner]
    form = None
    if challenges:
        initial = {}
        for a in awards:
            initial[f"challenge_{a.card}"] = a.challenge_id
            initial[f"player_{a.card}"] = a.player_id
        form = AwardForm(
            request.POST if request.method == "POST" and "award" in request.POST else None,
            count=count,
            challenges=challenges,
            players=others,
            initial=initial,
        )
    names = gs.names
    return {
        "award_winner": names[winner],
        "award_count": count,
        "awards": [(a, names.get(a.player_id, a.player.short_name)) for a in awards],
        "award_form": form,
    }


def _sheet_context(request, game):
    gs = selectors.game_state(game)
    can_write = not game.finished
    context = {
        "game": game,
        "gs": gs,
        "kind": game.kind,
        "kind_label": _kind_label(game.kind),
        "can_write": can_write,
        "new_label": NEW_BUTTON[game.kind],
        "undo_label": UNDO_BUTTON[game.kind],
        "can_undo": bool(gs.records) and not gs.stopped,
    }
    if gs.state is not None:
        context["summary"] = presenters.summary(game.kind, gs.state, gs.players)
        rows = presenters.rows(game.kind, gs.state, gs.players)
        link = None
        if can_write:

            def link(n):
                return reverse("variants:record_edit", args=[game.token, n])

        context["table"] = HistoryTable(
            rows, players=gs.players, link=link, dealer=game.kind != rules.KEYS
        )
    context.update(_award_context(request, gs))
    return context


# --- the sheet ---------------------------------------------------------------------------------


def game_sheet(request, token: str):
    game = game_selectors.game_by_token(token)
    if game is None:
        raise Http404
    if game.kind not in rules.KINDS:
        return redirect("games:sheet", token=token)
    context = _sheet_context(request, game)
    context["share_url"] = share_url(request, game)
    context["qr_svg"] = segno.make(context["share_url"], error="m").svg_inline(scale=4)
    return render(request, "variants/sheet.html", context)


def game_poll(request, token: str):
    """The sheet's live part; 204 (nothing to swap) when nothing changed since `rev`."""
    game = _game_or_404(token)
    if request.GET.get("rev", "") == str(game.revision):
        return HttpResponse(status=204)
    return render(request, "variants/_sheet.html", _sheet_context(request, game))


@require_POST
def challenges_give(request, token: str):
    """The winner of a Fool's Faith game gives their challenge cards."""
    game = _game_or_404(token)
    gs = selectors.game_state(game)
    context = _award_context(request, gs)
    form = context.get("award_form")
    if form is None:
        if game.kind != rules.FOOLS_FAITH:
            error = services.ERR_NOT_FOOLS_FAITH
        elif not gs.over:
            error = services.ERR_NO_WINNER if game.finished else services.ERR_NOT_OVER
        else:
            error = ERR_NO_CHALLENGES
        messages.error(request, str(error))
        return redirect("variants:sheet", token=game.token)
    if form.is_valid():
        try:
            services.challenges_award(game=game, awards=form.awards(), user=request.user)
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            messages.success(request, _("The challenge cards are given. Time to perform!"))
            return redirect("variants:sheet", token=game.token)
    context = _sheet_context(request, game)
    context["award_form"] = form
    context["share_url"] = share_url(request, game)
    context["qr_svg"] = segno.make(context["share_url"], error="m").svg_inline(scale=4)
    return render(request, "variants/sheet.html", context, status=400)


# --- records -----------------------------------------------------------------------------------


def _initial_for_new(game, players, gs):
    if game.kind == rules.KEYS:
        previous = gs.records[-1].data if gs.records else None
        return KeysForm.initial_suits(players, previous)
    return {}


def _preview(game, gs, data, number):
    """What the sheet would say with this record: (row text, lines, headline) or an error."""
    datas = [r.data for r in gs.records]
    new = rules.to_json(data)
    if number <= len(datas):
        datas[number - 1] = new
    else:
        datas.append(new)
    try:
        state = services.replay(game, datas, gs.players)
    except ValidationError as e:
        return None, " ".join(e.messages)
    row = presenters.rows(game.kind, state, gs.players)[number - 1]
    summary = presenters.summary(game.kind, state, gs.players)
    # what comes next (who deals, what the round is worth); a Keys log has no "next"
    upcoming = summary.lines[0] if summary.lines and game.kind != rules.KEYS else ""
    return {"row": row, "summary": summary, "next": upcoming}, None


def _record_page(request, game, *, form, number, editing, stale=None, preview=None, error=None):
    gs = selectors.game_state(game)
    titles = CORRECT_TITLE if editing else ENTRY_TITLE
    state = selectors.state_before(game, number) if editing else gs.state
    summary = presenters.summary(game.kind, state, gs.players) if state is not None else None
    if editing:
        action = reverse("variants:record_edit", args=[game.token, number])
    else:
        action = reverse("variants:record_new", args=[game.token])
    context = {
        "game": game,
        "kind": game.kind,
        "kind_label": _kind_label(game.kind),
        "form": form,
        "number": number,
        "title": titles[game.kind] % {"n": number},
        "editing": editing,
        "summary": summary,
        "action": action,
        "preview_url": reverse("variants:record_preview", args=[game.token]) + f"?n={number}",
        "preview": preview,
        "preview_error": error,
        "stale": stale,
    }
    if editing:
        names = gs.names
        context["changes"] = [
            _change_item(c, game.kind, names)
            for c in Change.objects.filter(game=game, number=number).select_related("user")
        ]
    return render(request, "variants/record_form.html", context)


@require_http_methods(["GET", "POST"])
def record_new(request, token: str):
    game = _game_or_404(token)
    if game.finished:
        return _refused(request, game)
    gs = selectors.game_state(game)
    number = len(gs.records) + 1
    initial = _initial_for_new(game, gs.players, gs)
    form = _make_form(game, gs.players, request.POST or None, initial=initial, state=gs.state)
    preview, error = None, None
    if request.method == "POST" and form.is_valid():
        if "preview" in request.POST:
            preview, error = _preview(game, gs, form.record_data(), number)
        else:
            try:
                services.record_add(
                    game=game,
                    data=form.record_data(),
                    user=request.user,
                    expected_number=posted_int(request, "number", number),
                )
            except ValidationError as e:
                add_validation_error(form, e)
            else:
                messages.success(request, SAVED[game.kind] % {"n": number})
                return redirect("variants:sheet", token=game.token)
    status = 400 if request.method == "POST" and (form.errors or error) else 200
    response = _record_page(
        request, game, form=form, number=number, editing=False, preview=preview, error=error
    )
    response.status_code = status
    return response


@require_POST
def record_preview(request, token: str):
    """htmx: what the sheet will say once this record is saved, as the form changes."""
    game = _game_or_404(token)
    gs = selectors.game_state(game)
    number = query_int(request, "n")
    if number is None:
        number = len(gs.records) + 1
    if not 1 <= number <= len(gs.records) + 1:
        number = len(gs.records) + 1
    state = selectors.state_before(game, number) if number <= len(gs.records) else gs.state
    form = _make_form(game, gs.players, request.POST, state=state)
    preview, error = None, None
    if form.is_valid():
        if not form.unfinished():
            preview, error = _preview(game, gs, form.record_data(), number)
    else:
        errors = [str(e) for errs in form.errors.values() for e in errs]
        error = errors[0] if errors else None
    return render(
        request,
        "variants/_preview.html",
        {"preview": preview, "preview_error": error, "incomplete": not form.is_valid()},
    )


@require_http_methods(["GET", "POST"])
def record_edit(request, token: str, number: int):
    game = _game_or_404(token)
    record = game.records.filter(number=number).first()
    if record is None:
        raise Http404
    if game.finished:
        return _refused(request, game)
    gs = selectors.game_state(game)
    state = selectors.state_before(game, number)
    cls = _form_class(game.kind)
    initial = {**cls.initial_from(record.data), "version": record.version}
    form = _make_form(game, gs.players, request.POST or None, initial=initial, state=state)
    stale, preview, error = None, None, None
    if request.method == "POST" and form.is_valid():
        if "preview" in request.POST:
            preview, error = _preview(game, gs, form.record_data(), number)
        else:
            try:
                services.record_correct(
                    record=record,
                    data=form.record_data(),
                    expected_version=form.cleaned_data.get("version") or 0,
                    user=request.user,
                )
            except services.StaleRecordError as e:
                stale = {
                    "message": e.messages[0],
                    "text": presenters.describe(game.kind, e.record.data, gs.names),
                }
                fresh = {**cls.initial_from(e.record.data), "version": e.record.version}
                form = _make_form(game, gs.players, None, initial=fresh, state=state)
            except ValidationError as e:
                add_validation_error(form, e)
            else:
                messages.success(request, CORRECTED[game.kind] % {"n": number})
                return redirect("variants:sheet", token=game.token)
    status = 400 if request.method == "POST" and (form.errors or error or stale) else 200
    if stale:
        status = 409
    response = _record_page(
        request,
        game,
        form=form,
        number=number,
        editing=True,
        stale=stale,
        preview=preview,
        error=error,
    )
    response.status_code = status
    return response


@require_http_methods(["GET", "POST"])
def record_undo(request, token: str):
    game = _game_or_404(token)
    gs = selectors.game_state(game)
    if gs.stopped:
        return _refused(request, game, gs)
    if request.method == "POST":
        number = posted_int(request, "number", -1)
        try:
            reopened = services.record_undo_last(game=game, number=number, user=request.user)
        except ValidationError as e:
            messages.error(request, " ".join(e.messages))
        else:
            messages.success(request, UNDONE[game.kind] % {"n": number})
            if reopened:
                messages.info(request, _("The game is open again."))
        return redirect("variants:sheet", token=game.token)
    if not gs.records:
        messages.error(request, str(services.ERR_NO_RECORD))
        return redirect("variants:sheet", token=game.token)
    last = gs.records[-1]
    has_awards = gs.over and game.challenge_awards.exists()
    return render(
        request,
        "variants/confirm_undo.html",
        {
            "game": game,
            "record": last,
            "title": ENTRY_TITLE[game.kind] % {"n": last.number},
            "text": presenters.describe(game.kind, last.data, gs.names),
            "reopens": gs.over,
            "has_awards": has_awards,
        },
    )


@require_http_methods(["GET", "POST"])
def game_finish(request, token: str):
    """Finish a game by hand: Death's Pot and Keys have no end; the others can be stopped."""
    game = _game_or_404(token)
    if game.finished:
        messages.error(request, _("This game is already finished."))
        return redirect("variants:sheet", token=game.token)
    if request.method == "POST":
        try:
            services.game_stop(game=game, user=request.user)
        except ValidationError as e:
            messages.error(request, " ".join(e.messages))
        else:
            messages.success(request, _("The game is finished. Its sheet stays readable here."))
        return redirect("variants:sheet", token=game.token)
    gs = selectors.game_state(game)
    summary = presenters.summary(game.kind, gs.state, gs.players) if gs.state else None
    return render(
        request,
        "variants/confirm_finish.html",
        {
            "game": game,
            "summary": summary,
            "ends_by_rules": game.kind in (rules.FOOLS_FAITH, rules.CUCKOO),
        },
    )


def _change_item(change, kind, names):
    before = change.before or {}
    after = change.after or {}
    return {
        "change": change,
        "before": presenters.describe(kind, before["data"], names) if "data" in before else "",
        "after": presenters.describe(kind, after["data"], names) if "data" in after else "",
        "reopened": bool(before.get("reopened")),
        "awards_taken": before.get("awards") or [],
    }


def game_history(request, token: str):
    game = _game_or_404(token)
    names = {p.pk: p.label for p in game_selectors.seat_players(game)}
    changes = [_change_item(c, game.kind, names) for c in game.changes.select_related("user")]
    return render(
        request,
        "variants/history.html",
        {"game": game, "changes": changes, "entry_title": ENTRY_TITLE[game.kind]},
    )


# --- challenges --------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def challenge_list(request):
    form = ChallengeForm(request.POST if "add" in request.POST else None)
    if request.method == "POST":
        if "suggest" in request.POST:
            added = services.challenges_suggest(user=request.user)
            if added:
                messages.success(request, _("The suggested challenges are in the list."))
            return redirect("variants:challenges")
        if form.is_valid():
            try:
                services.challenge_create(
                    text=form.cleaned_data["text"],
                    order=form.cleaned_data.get("order"),
                    user=request.user,
                )
            except ValidationError as e:
                add_validation_error(form, e)
            else:
                messages.success(request, _("Challenge added."))
                return redirect("variants:challenges")
    challenges = list(Challenge.objects.all())
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "variants/challenges.html",
        {"form": form, "challenges": challenges},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def challenge_edit(request, pk: int):
    challenge = get_object_or_404(Challenge, pk=pk)
    initial = {"text": challenge.text, "order": challenge.order, "active": challenge.active}
    form = ChallengeForm(request.POST if "save" in request.POST else None, initial=initial)
    if request.method == "POST":
        if "delete" in request.POST:
            try:
                services.challenge_delete(challenge=challenge, user=request.user)
            except ValidationError as e:
                messages.error(request, " ".join(e.messages))
                return redirect("variants:challenge_edit", pk=challenge.pk)
            messages.success(request, _("Challenge deleted."))
            return redirect("variants:challenges")
        if form.is_valid():
            d = form.cleaned_data
            try:
                services.challenge_update(
                    challenge=challenge,
                    text=d["text"],
                    active=d["active"],
                    order=d["order"] if d["order"] is not None else challenge.order,
                    user=request.user,
                )
            except ValidationError as e:
                add_validation_error(form, e)
            else:
                messages.success(request, _("Challenge saved."))
                return redirect("variants:challenges")
    return render(
        request,
        "variants/challenge_form.html",
        {"form": form, "challenge": challenge, "used": challenge.awards.exists()},
        status=400 if request.method == "POST" else 200,
    )


# --- standings ---------------------------------------------------------------------------------


def standings_index(request):
    kinds = [(k, _kind_label(k)) for k in rules.KINDS]
    ongoing = []
    if request.user.is_authenticated:
        ongoing = [(g, game_selectors.seat_players(g)) for g in selectors.games_in_progress()]
    return render(request, "variants/standings_index.html", {"kinds": kinds, "ongoing": ongoing})


def standings(request, kind: str):
    if kind not in rules.KINDS:
        raise Http404
    form = StandingsFilterForm(request.GET or None)
    date_from = date_to = None
    if form.is_bound and form.is_valid():
        date_from, date_to = form.cleaned_data.get("from"), form.cleaned_data.get("to")
    result = selectors.standings(kind, date_from, date_to)
    table = STANDINGS_TABLES[kind](result.rows)
    configure_table(request, table)
    recent = []
    if request.user.is_authenticated:
        for gs in result.states[:30]:
            summary = presenters.summary(kind, gs.state, gs.players)
            recent.append({"gs": gs, "summary": summary})
    return render(
        request,
        "variants/standings.html",
        {
            "kind": kind,
            "kind_label": _kind_label(kind),
            "kinds": [(k, _kind_label(k)) for k in rules.KINDS],
            "form": form,
            "table": table,
            "note": STANDINGS_NOTES[kind],
            "recent": recent,
            "filtered": bool(date_from or date_to),
        },
        status=400 if form.is_bound and not form.is_valid() else 200,
    )
