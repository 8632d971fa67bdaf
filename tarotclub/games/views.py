"""The pages of a game, one set for every kind. Every page of a game is reached through its
share token; the game's kind (`kinds.Kind`) supplies what differs.
"""

from __future__ import annotations

from functools import lru_cache, wraps

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.generic import RedirectView

from tarotclub.core.decorators import director_required
from tarotclub.core.forms import (
    add_validation_error,
    configure_table,
    parse_whole,
    posted_int,
    posted_uuid,
    query_int,
)
from tarotclub.players.models import Player
from tarotclub.players.services import player_create

from . import house, kinds, policy, queued, selectors, services
from .forms import GameListFilterForm, HouseRulesForm, NewGameForm, StandingsFilterForm
from .models import ChangeAction
from .tables import GameListTable

# --- helpers -----------------------------------------------------------------------------------


class _Gone(Exception):
    """The share link's game no longer exists, and there is something to tell about it."""

    def __init__(self, notice: policy.Gone):
        super().__init__(notice.title)
        self.notice = notice


def game_or_404(token: str):
    """The game of a share link; a link whose game is gone says why (see `token_view`)."""
    game = selectors.game_by_token(token)
    if game is None:
        _raise_gone(token)
    if kinds.get(game.kind) is None:
        raise Http404
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


def _kind_or_404(identifier: str) -> kinds.Kind:
    kind = kinds.get(identifier)
    if kind is None:
        raise Http404
    return kind


def _is_director(request) -> bool:
    return policy.is_director(request.user)


def share_url(request, game) -> str:
    return request.build_absolute_uri(reverse("games:sheet", args=[game.token]))


def share_qr(request, game, *, scale: int = 4) -> str:
    """The share link as an inline SVG QR code."""
    return _qr_svg(share_url(request, game), scale)


@lru_cache(maxsize=1024)
def _qr_svg(url: str, scale: int) -> str:
    """Made once per link and size in each worker (some 17 % of a sheet's time otherwise):
    a link never changes, and the cache keyed by the whole URL gives each address of the
    site (the laptop's Wi-Fi address, localhost) its own code. Bounded: 1,024 links of some
    2 KB each."""
    return segno.make(url, error="m").svg_inline(scale=scale)


def _refused(request, game, verdict: policy.Verdict):
    """Back to the sheet, with the reason the write is refused."""
    messages.error(request, verdict.reason)
    return redirect("games:sheet", token=game.token)


class Moved(RedirectView):
    """A path that moved: 301 for a read, 308 for a POST (kept a POST). A share token that
    opens no game is a 404 here too, as it was."""

    permanent = True
    query_string = True

    def dispatch(self, request, *args, **kwargs):
        token = kwargs.get("token")
        missing = token is not None and selectors.game_by_token(token) is None
        if missing and policy.gone(token) is None:
            raise Http404
        response = super().dispatch(request, *args, **kwargs)
        if request.method not in ("GET", "HEAD") and response.status_code == 301:
            response.status_code = 308
        return response


# --- list and start ---------------------------------------------------------------------------


#: Games on a page of the list.
LIST_PAGE = 20


@login_required
def game_list(request):
    """Casual games, newest first, filtered (kind, player, status, dates) and paged."""
    may_see_archived = selectors.game_list(archived=True, user=request.user).exists()
    filters_given = any(k in request.GET for k in ("kind", "player", "status", "from", "to"))
    form = GameListFilterForm(
        request.GET if filters_given else None, may_see_archived=may_see_archived
    )
    filters = form.filters()
    table = GameListTable(
        selectors.game_list(user=request.user, **filters),
        link_players=request.user.is_authenticated,
    )
    configure_table(request, table, per_page=LIST_PAGE)
    table.summarise()
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "table": table,
        "form": form,
        "filtered": bool(filters and any(filters.values())),
        "archived": bool(filters.get("archived")),
        "query": query.urlencode(),
    }
    status = 400 if form.is_bound and not form.is_valid() else 200
    return render(request, "games/list.html", context, status=status)


@login_required
@require_POST
def game_archive(request, token: str):
    return _archive(request, token, archived=True)


@login_required
@require_POST
def game_restore(request, token: str):
    return _archive(request, token, archived=False)


def _archive(request, token: str, *, archived: bool):
    game = selectors.game_by_token(token)
    if game is None:
        raise Http404
    service = services.game_archive if archived else services.game_restore
    try:
        service(game=game, user=request.user)
    except ValidationError as e:
        messages.error(request, " ".join(e.messages))
        return redirect("games:sheet", token=game.token)
    if archived:
        messages.success(
            request,
            _("%(game)s is archived: it is out of the lists and standings.") % {"game": game},
        )
        return redirect("games:list")
    messages.success(request, _("%(game)s is restored.") % {"game": game})
    return redirect("games:sheet", token=game.token)


def _seat_values(post, count: int) -> list[str]:
    return [(post.get(f"seat{i}") or "").strip()[:12] for i in range(1, count + 1)]


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request):
    """Pick the players in playing order and the first dealer; add a guest without leaving."""
    registered = kinds.all_kinds()
    kind = kinds.get(request.POST.get("kind") or request.GET.get("kind") or "") or registered[0]
    form = NewGameForm(request.POST or None, kind=kind)
    roster = list(Player.objects.filter(active=True).order_by("name"))
    high = kind.max_players
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
                    kind=kind.identifier,
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
        "required_seats": kind.min_players,
        "kind": kind.identifier,
        "kinds": kinds.choices(),
        "first_dealer": first_dealer,
        "errors": errors,
        "guest_name": guest_name,
    }
    return render(request, "games/new.html", context)


# --- the sheet ---------------------------------------------------------------------------------


def sheet_context(request, game, played=None, *, parts=None) -> dict:
    """The sheet's live part; `parts` (with `played`) is the kind's sheet as a poll after a
    change reads it (`Kind.sheet_changes`), else the kind's whole sheet."""
    kind = kinds.get(game.kind)
    played = played or kind.load(game)
    allowed = policy.verdicts(game, user=request.user, played=played)
    can_write = bool(allowed[policy.DEAL] or allowed[policy.CORRECT])
    link = None
    if allowed[policy.CORRECT]:

        def link(n):
            return reverse("games:deal_edit", args=[game.token, n])

    # the actions below the sheet that a write can make appear or go
    # (games/_sheet_live_action.html)
    can_undo = bool(allowed[policy.UNDO])
    may_set_house_rules = (
        request.user.is_authenticated
        and played.last_number == 0
        and house.rules_class(game.kind) is not None
        and bool(services.may_set_house_rules(game, user=request.user, entries=0))
    )
    context = {
        "game": game,
        "kind": kind,
        "played": played,
        "allowed": allowed,
        "can_write": can_write,
        "can_undo": can_undo,
        "may_set_house_rules": may_set_house_rules,
        # which of them the sheet shows, in its state: a poll sends them again only when it
        # differs from the phone's (game_poll)
        "live_actions": "".join(
            flag
            for flag, shown in (
                ("u", can_undo),
                ("h", may_set_house_rules),
                ("f", bool(allowed[policy.FINISH])),
            )
            if shown
        ),
        "is_director": _is_director(request),
        "house_rules": house.game_line(game),
        # read where shown (the page's heading), not for a poll's changes
        "tournament_table": SimpleLazyObject(lambda: selectors.tournament_table(game)),
        **(parts if parts is not None else kind.sheet(played, link=link)),
    }
    context.update(kind.sheet_extra(request, played))
    return context


#: A kind whose rules the phone has not (its state, who deals next) says its sheet is from
#: before the entries waiting on the phone (offline-app.js).
STATE_BEFORE_QUEUE = gettext_lazy(
    "Before the entries waiting on this phone: what follows (who deals, the scores) comes "
    "when they are sent."
)


def offline_words(kind) -> dict[str, str]:
    """What the phone's queue says on the sheet (`static/js/offline.js`), in the page's
    language; placeholders are filled on the phone. Plurals: the form for one and the form
    for two (French, Dutch and English need no other)."""
    waiting = "%(count)s entry is waiting to be sent.", "%(count)s entries are waiting to be sent."
    entry = str(kind.words.entry)  # "Deal %(n)s", filled on the phone
    return {
        "entry": entry,
        "waiting-one": ngettext(*waiting, 1),
        "waiting-other": ngettext(*waiting, 2),
        "waiting-row": _("waiting to be sent"),
        "synced": _("Last synced at %(time)s."),
        "never": _("Not synced yet on this phone."),
        "offline": _("No connection: new entries are kept on this phone and sent when it returns."),
        "sending": _("Sending…"),
        "conflict": _("%(entry)s was entered from another phone meanwhile."),
        "theirs": _("On the sheet"),
        "mine": _("On this phone"),
        "as-next": _("Add mine as %(entry)s"),
        "discard": _("Discard mine"),
        "discard-sure": _("Discard your entry for good?"),
        "discard-yes": _("Yes, discard it"),
        "keep": _("Keep it"),
        "refused": _("%(entry)s was not added: %(reason)s"),
        "kept": _("It is kept for the director (or the game's owner), who can still add it."),
        "invalid": _("%(entry)s was refused: %(reason)s"),
        "correct": _("Correct it"),
        "forbidden": _(
            "%(entry)s could not be sent: the site refused this phone's request (after a long "
            "time offline, or with its cookies cleared or blocked). It stays on this phone. "
            "Reload this page while connected and tap “Send again”. If it is refused again, "
            "allow this site's cookies, or enter it from another phone."
        ),
        "send-again": _("Send again"),
        "state-before": str(STATE_BEFORE_QUEUE),
        "ok": _("OK"),
    }


@token_view
def game_sheet(request, token: str):
    game = game_or_404(token)
    context = sheet_context(request, game)
    context["share_url"] = share_url(request, game)
    context["qr_svg"] = share_qr(request, game)
    context["may_archive"] = bool(policy.may_archive(game, user=request.user))
    context["offline_words"] = offline_words(context["kind"])
    context["offline_scripts"] = " ".join(context["kind"].offline_scripts())
    # entries phones sent after the sheet closed, for its owner or a director to settle
    context["kept"] = (
        selectors.kept_entries(game) if policy.may_settle(game, user=request.user) else []
    )
    return render(request, "games/sheet.html", context)


def _whole(value: str) -> int | None:
    """A whole number from a query string, or None (str.isdigit alone takes "²")."""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


@token_view(partial=True)
def game_poll(request, token: str):
    """The sheet's live part; 204 (nothing to swap) when nothing changed since `rev`.

    After a change, a phone that says which revision it shows (`rev`) and how many entries
    (`n`) gets only what changed, swapped in out of band (``games/_sheet_changes.html``,
    with ``HX-Reswap: none``) where its kind can tell (`Kind.sheet_changes`); otherwise, and
    when its picture is too old or does not fit, the whole live part again. Either way the
    actions below the sheet that a write can make appear or go (undo, house rules, finish)
    come along, out of band, when they differ from the ones the phone says it shows (`a`).
    """
    found = selectors.revision_by_token(token)
    same = found is not None and request.GET.get("rev", "") == str(found[0])
    if same and kinds.get(found[1]) is not None:
        return HttpResponse(status=204)  # one cheap query when nothing changed
    game = game_or_404(token)
    since, shown = _whole(request.GET.get("rev", "")), _whole(request.GET.get("n", ""))
    if since is not None and shown is not None:
        changed = kinds.get(game.kind).sheet_changes(game, since=since, shown=shown)
        if changed is not None:
            played, parts = changed
            context = _with_actions(request, sheet_context(request, game, played, parts=parts))
            response = render(request, "games/_sheet_changes.html", context)
            response["HX-Reswap"] = "none"  # the out-of-band parts are the whole answer
            return response
    context = _with_actions(request, sheet_context(request, game))
    return render(request, "games/_sheet_poll.html", context)


def _with_actions(request, context: dict) -> dict:
    """A poll's answer sends the actions below the sheet when the phone shows others."""
    context["send_actions"] = request.GET.get("a") != context["live_actions"]
    return context


@token_view
def game_qr(request, token: str):
    game = game_or_404(token)
    return HttpResponse(share_qr(request, game, scale=8), content_type="image/svg+xml")


# --- entries: new, preview, correct, undo ----------------------------------------------------


def _entry_page(request, played, *, form, number, editing, preview=None, error=None, stale=""):
    game, kind = played.game, played.kind
    words = kind.words
    if editing and request.method == "GET" and not stale:
        # the correction screen opens with the entry's score as it stands
        preview, error = kind.stored_preview(played, number)
    if editing:
        action = reverse("games:deal_edit", args=[game.token, number])
    else:
        action = reverse("games:deal_new", args=[game.token])
    context = {
        "game": game,
        "kind": kind,
        "played": played,
        "form": form,
        "number": number,
        "title": (words.correct if editing else words.entry) % {"n": number},
        "editing": editing,
        "action": action,
        "preview_url": reverse("games:deal_preview", args=[game.token]) + f"?n={number}",
        "preview": preview,
        "preview_error": error,
        "preview_template": kind.preview_template(),
        "stale": stale,
        "offline_state": STATE_BEFORE_QUEUE,
        **kind.preview_extra(played, form),
        **kind.entry_context(played, number, editing=editing),
    }
    if editing:
        context["changes"] = _changes(kind, played, game.changes.filter(number=number))
    return render(request, "games/entry.html", context)


def _saving(request) -> bool:
    """A POST that saves (not the Preview button): read only what saving needs."""
    return request.method == "POST" and "preview" not in request.POST


def _refused_by_policy(request, game, error: ValidationError, action: str):
    """The service refused the write under its lock (`require`): back to the sheet, as the
    view's own check does."""
    if getattr(error, "code", None) != action:
        return None
    messages.error(request, " ".join(error.messages))
    return redirect("games:sheet", token=game.token)


def _rebound(form, refused):
    """`form` (bound to the same data) with the errors `refused` showed."""
    form.is_valid()
    for name, errors in refused.errors.items():
        for error in errors:
            if error not in form.errors.get(name, []):
                form.add_error(name if name in form.fields else None, error)
    return form


@token_view
@require_http_methods(["GET", "POST"])
def deal_new(request, token: str):
    game = game_or_404(token)
    kind = kinds.get(game.kind)
    saving = _saving(request)
    # A new entry's page and its save read the seats and the count only (`load_for_write`);
    # saving does not check the policy here: the service checks it under the game's lock, so
    # the page's check would only read the same things twice.
    played = kind.load_for_write(game)
    if not saving:
        verdict = policy.check(game, policy.DEAL, user=request.user, played=played)
        if not verdict:
            return _refused(request, game, verdict)
    # Saving: the form is for the entry the phone was making (the page's hidden `number`);
    # the service counts the entries under the game's lock and refuses any other number, so
    # the entries are not counted here too.
    posted = posted_int(request, "number", None) if saving else None
    number = played.next_number if posted is None else posted
    if saving and queued.is_queued(request):
        return _queued_send(request, token, played, number)
    form = kind.entry_form(played, number, data=request.POST or None)
    preview, error = None, None
    if request.method == "POST":
        if "preview" in request.POST:
            # The Preview button (no script): the form shows its own errors.
            preview, error = kind.preview(played, form, number) if form.is_valid() else (None, None)
        elif form.is_valid():
            try:
                entry = kind.add(
                    played=played,
                    form=form,
                    user=request.user,
                    expected_number=posted_int(request, "number", number),
                    client_id=posted_uuid(request, "client_id"),
                )
            except ValidationError as e:
                _refused_by_service(token, e)
                refused = _refused_by_policy(request, game, e, policy.DEAL)
                if refused is not None:
                    return refused
                add_validation_error(form, e)
            else:
                # a double tap (the same id again) finds the entry saved by the first tap
                messages.success(request, kind.words.saved % {"n": entry.number})
                return redirect("games:sheet", token=game.token)
    if saving:
        # not saved: show the form again with the whole sheet, as a plain page does
        if getattr(played, "light", False):
            played = kind.load(game)
        verdict = policy.check(game, policy.DEAL, user=request.user, played=played)
        if not verdict:
            return _refused(request, game, verdict)
        if played.next_number != number:
            # the phone was making another entry than the next one (another phone was quicker):
            # the form again, for the next entry, with what was entered and why it was refused
            number = played.next_number
            form = _rebound(kind.entry_form(played, number, data=request.POST), form)
    response = _entry_page(
        request, played, form=form, number=number, editing=False, preview=preview, error=error
    )
    if request.method == "POST" and (form.errors or error):
        response.status_code = 400
    return response


def _queued_send(request, token: str, played, number: int):
    """An entry sent from a phone's queue: one JSON answer (`queued`), never a page."""
    game, kind = played.game, played.kind
    client_id = posted_uuid(request, "client_id")
    form = kind.entry_form(played, number, data=request.POST)
    if not form.is_valid():
        return queued.answer(
            queued.INVALID, _("This entry needs fixing."), errors=queued.form_errors(form)
        )
    try:
        entry = kind.add(
            played=played, form=form, user=request.user, expected_number=number, client_id=client_id
        )
    except ValidationError as e:
        code = getattr(e, "code", None)
        if code == "gone":
            notice = policy.gone(token)
            return queued.answer(queued.GONE, notice.message if notice else services.ERR_GONE)
        if code == policy.DEAL and client_id is not None:
            reason = " ".join(e.messages)
            services.refused_entry_keep(
                game=game,
                client_id=client_id,
                number=number,
                data=request.POST,
                reason=reason,
                text=request.POST.get("summary", ""),
                user=request.user,
            )
            return queued.answer(queued.LOCKED, reason, kept=True)
        if code == policy.DEAL:
            return queued.answer(queued.LOCKED, " ".join(e.messages), kept=False)
        if code == "taken":
            full = kind.load(game)
            theirs = None
            if full.entry(number) is not None:
                theirs = {"number": number, "text": kind.describe_entry(full, number)}
            return queued.answer(
                queued.CONFLICT,
                " ".join(e.messages),
                number=number,
                next=full.next_number,
                theirs=theirs,
            )
        add_validation_error(form, e)
        return queued.answer(queued.INVALID, " ".join(e.messages), errors=queued.form_errors(form))
    status = queued.DUPLICATE if entry.sent_before else queued.SAVED
    return queued.answer(status, kind.words.saved % {"n": entry.number}, number=entry.number)


@token_view(partial=True)
@require_POST
def deal_preview(request, token: str):
    """htmx: what saving would give, updated as the form changes."""
    game = game_or_404(token)
    kind = kinds.get(game.kind)
    played = kind.load(game)
    number = query_int(request, "n")
    if number is None:
        number = played.next_number
    if not 1 <= number <= played.next_number:
        number = played.next_number
    form = kind.entry_form(played, number, data=request.POST)
    preview, error = kind.preview(played, form, number, live=True)
    context = {
        "preview": preview,
        "preview_error": error,
        "incomplete": not form.is_valid(),
        # nobody pressed Save yet: what is missing is a hint, not an error
        "live": True,
        **kind.preview_extra(played, form),
    }
    return render(request, kind.preview_template(), context)


@token_view
@require_http_methods(["GET", "POST"])
def deal_edit(request, token: str, number: int):
    game = game_or_404(token)
    kind = kinds.get(game.kind)
    saving = _saving(request)
    played = kind.load_for_write(game) if saving else kind.load(game)
    if not saving:
        if played.entry(number) is None:
            raise Http404
        verdict = policy.check(game, policy.CORRECT, user=request.user, played=played)
        if not verdict:
            return _refused(request, game, verdict)
    elif number < 1:
        raise Http404
    form = kind.entry_form(played, number, data=request.POST or None)
    preview, error, stale = None, None, ""
    status = 200
    if request.method == "POST":
        if "preview" in request.POST:
            # The Preview button (no script): the form shows its own errors.
            preview, error = kind.preview(played, form, number) if form.is_valid() else (None, None)
        elif form.is_valid():
            try:
                kind.correct(
                    played=played,
                    number=number,
                    form=form,
                    user=request.user,
                )
            except services.StaleError as e:
                # show the newer version in the form, so nothing is overwritten silently
                played = kind.load(game)
                stale = kind.describe_stale(played, e.entry)
                form = kind.entry_form(played, number)
                form.stale_message = e.messages[0]
                status = 409
                saving = False
            except ValidationError as e:
                _refused_by_service(token, e)
                if getattr(e, "code", None) == "no_such_deal":
                    raise Http404 from None
                refused = _refused_by_policy(request, game, e, policy.CORRECT)
                if refused is not None:
                    return refused
                add_validation_error(form, e)
            else:
                messages.success(request, kind.words.corrected % {"n": number})
                return redirect("games:sheet", token=game.token)
        if status == 200 and (form.errors or error):
            status = 400
    if saving:
        # not saved: show the form again with the whole sheet, as a plain page does
        if getattr(played, "light", False):
            played = kind.load(game)
        if played.entry(number) is None:
            raise Http404
        verdict = policy.check(game, policy.CORRECT, user=request.user, played=played)
        if not verdict:
            return _refused(request, game, verdict)
    response = _entry_page(
        request,
        played,
        form=form,
        number=number,
        editing=True,
        preview=preview,
        error=error,
        stale=stale,
    )
    response.status_code = status
    return response


@token_view
def deal_detail(request, token: str, number: int):
    """One entry: what was entered, its score and its changes."""
    game = game_or_404(token)
    kind = kinds.get(game.kind)
    played = kind.load(game)
    if played.entry(number) is None:
        raise Http404
    context = {
        "game": game,
        "kind": kind,
        "number": number,
        "title": kind.words.entry % {"n": number},
        "text": kind.describe_entry(played, number),
        "changes": _changes(kind, played, game.changes.filter(number=number)),
        "allowed": policy.verdicts(game, user=request.user, played=played),
        "is_last": number == played.last_number,
        "correct_label": kind.words.correct % {"n": number},
        "undo_label": kind.words.undo,
        **kind.detail_context(played, number),
    }
    return render(request, "games/entry_detail.html", context)


@token_view
@require_http_methods(["GET", "POST"])
def deal_undo(request, token: str):
    game = game_or_404(token)
    kind = kinds.get(game.kind)
    played = kind.load(game)
    verdict = policy.check(game, policy.UNDO, user=request.user, played=played)
    if not verdict:
        return _refused(request, game, verdict)
    if request.method == "POST":
        number = posted_int(request, "number", -1)
        try:
            note = kind.undo(played=played, number=number, user=request.user)
        except ValidationError as e:
            _refused_by_service(token, e)
            messages.error(request, " ".join(e.messages))
        else:
            messages.success(request, kind.words.undone % {"n": number})
            if note:
                messages.info(request, note)
        return redirect("games:sheet", token=game.token)
    if not played.entries:
        messages.error(request, str(services.ERR_NO_RECORD))
        return redirect("games:sheet", token=game.token)
    number = played.last_number
    return render(
        request,
        "games/confirm_undo.html",
        {
            "game": game,
            "kind": kind,
            "number": number,
            "question": kind.words.undo_question % {"n": number},
            "text": kind.describe_entry(played, number),
            **kind.undo_context(played),
        },
    )


def _kept_or_404(request, token: str, pk: int):
    game = game_or_404(token)
    entry = selectors.kept_entry(game, pk)
    if entry is None or not policy.may_settle(game, user=request.user):
        raise Http404
    return game, entry


@login_required
@token_view
@require_POST
def kept_accept(request, token: str, pk: int):
    """Add an entry the sheet refused (sent from a phone's queue once it was closed) as the
    next entry."""
    game, entry = _kept_or_404(request, token, pk)
    try:
        added = services.refused_entry_accept(entry=entry, user=request.user)
    except ValidationError as e:
        messages.error(request, " ".join(e.messages))
    else:
        words = kinds.get(game.kind).words
        messages.success(request, words.saved % {"n": added.number})
    return redirect("games:sheet", token=game.token)


@login_required
@token_view
@require_http_methods(["GET", "POST"])
def kept_discard(request, token: str, pk: int):
    """Discard an entry the sheet refused, once asked to confirm."""
    game, entry = _kept_or_404(request, token, pk)
    if request.method == "POST":
        try:
            services.refused_entry_discard(entry=entry, user=request.user)
        except ValidationError as e:
            messages.error(request, " ".join(e.messages))
        else:
            messages.success(request, _("The kept entry is discarded."))
        return redirect("games:sheet", token=game.token)
    return render(request, "games/confirm_discard.html", {"game": game, "entry": entry})


@token_view
@require_http_methods(["GET", "POST"])
def game_finish(request, token: str):
    game = game_or_404(token)
    if game.finished:
        messages.error(request, _("This game is already finished."))
        return redirect("games:sheet", token=game.token)
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
    return render(request, "games/confirm_finish.html", sheet_context(request, game))


@login_required
@token_view
def game_house_rules(request, token: str):
    """The house rules one game plays by: its creator or a director chooses them before the
    first entry (the game started with the club's)."""
    game = game_or_404(token)
    kind = kinds.get(game.kind)
    verdict = services.may_set_house_rules(
        game, user=request.user, entries=kind.count_entries(game)
    )
    if not verdict:
        return _refused(request, game, verdict)
    form = HouseRulesForm(request.POST or None, kind=kind, initial_rules=house.of_game(game))
    if request.method == "POST" and form.is_valid():
        try:
            services.game_set_house_rules(game=game, rules=form.rules(), user=request.user)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("The game's house rules are saved."))
            return redirect("games:sheet", token=game.token)
    context = {
        "game": game,
        "kind": kind,
        "form": form,
        "federation": kind.identifier == "tarot",
        "title": _("House rules of this game"),
        "back": reverse("games:sheet", args=[game.token]),
    }
    return render(request, "games/house_rules.html", context)


@director_required
def club_house_rules(request):
    """The club's house rules for each game: what a new game or tournament starts with."""
    defaults = house.club_defaults_all()
    forms_by_kind = [
        HouseRulesForm(
            request.POST or None if request.POST.get("kind") == k.identifier else None,
            kind=k,
            initial_rules=defaults[k.identifier],
            prefix=k.identifier,
        )
        for k in kinds.all_kinds()
        if k.identifier in defaults
    ]
    if request.method == "POST":
        form = next((f for f in forms_by_kind if f.is_bound), None)
        if form is None:
            messages.error(request, _("Choose one of the games."))
        elif form.is_valid():
            try:
                services.club_rules_set(
                    kind=form.kind.identifier, rules=form.rules(), user=request.user
                )
            except ValidationError as e:
                form.add_error(None, e)
            else:
                messages.success(
                    request,
                    _("House rules of %(game)s saved: new games start with them.")
                    % {"game": form.kind.verbose_name},
                )
                return redirect("games:club_house_rules")
    lines = {k: house.line(k, rules) for k, rules in defaults.items()}
    context = {
        "forms": [(f, lines.get(f.kind.identifier, "")) for f in forms_by_kind],
        "title": _("House rules of the club"),
    }
    return render(request, "games/club_house_rules.html", context)


def _changes(kind, played, changes):
    items = []
    for change in changes.select_related("user"):
        before, after = kind.describe_change(change, played.names)
        items.append(
            {
                "change": change,
                "entry": kind.words.entry % {"n": change.number} if change.number else "",
                "before": before,
                "after": after,
                "reopened": bool((change.before or {}).get("reopened")),
                "awards_taken": (change.before or {}).get("awards") or [],
            }
        )
    return items


@token_view
def game_history(request, token: str):
    game = game_or_404(token)
    kind = kinds.get(game.kind)
    played = kind.load(game)
    return render(
        request,
        "games/history.html",
        {
            "game": game,
            "kind": kind,
            "changes": _changes(kind, played, game.changes.all()),
            "ChangeAction": ChangeAction,
        },
    )


# --- standings over many games -----------------------------------------------------------------


def standings_index(request):
    ongoing = []
    if request.user.is_authenticated:
        ongoing = [
            (g, selectors.seat_players(g)) for g in selectors.games_in_progress(kinds.all_kinds())
        ]
    links = [link for kind in kinds.all_kinds() for link in kind.links()]
    return render(
        request,
        "games/standings_index.html",
        {"kinds": kinds.all_kinds(), "ongoing": ongoing, "links": links},
    )


def standings(request, kind: str):
    kind = _kind_or_404(kind)
    form = StandingsFilterForm(request.GET or None)
    date_from = date_to = None
    if form.is_bound and form.is_valid():
        date_from, date_to = form.cleaned_data.get("from"), form.cleaned_data.get("to")
    rows, table_class, played = kind.standings(date_from, date_to)
    table = table_class(rows, link_players=request.user.is_authenticated)
    configure_table(request, table)
    recent = []
    if request.user.is_authenticated:
        recent = [kind.recent_line(p) for p in played[:30]]
    return render(
        request,
        "games/standings.html",
        {
            "kind": kind,
            "kinds": kinds.all_kinds(),
            "form": form,
            "table": table,
            "note": kind.standings_note,
            "recent": recent,
            "filtered": bool(date_from or date_to),
        },
        status=400 if form.is_bound and not form.is_valid() else 200,
    )


@require_GET
def offline_text(request, language: str, kind: str):
    """The sentences of a kind's preview on the phone in `language` (`Kind.offline_text`), as
    a script: the same for every game, kept by the browser and the service worker for a year
    under its versioned address (``?v=``), so each entry page does not carry them."""
    found = kinds.get(kind)
    if language not in dict(settings.LANGUAGES) or found is None or found.offline_text() is None:
        raise Http404
    script, version = kinds.offline_script(kind, language)
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    if request.GET.get("v") == version:
        response["Cache-Control"] = "public, max-age=31536000, immutable"
    else:  # an old or missing version: this answer is not kept
        response["Cache-Control"] = "no-cache"
    return response
