"""The director's pages (staff), and the public ones: standings, projector, where do I sit."""

from __future__ import annotations

import hashlib
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tarotclub.core.decorators import director_required
from tarotclub.core.forms import add_validation_error, posted_int, query_int
from tarotclub.games import house, kinds, policy
from tarotclub.games.forms import HouseRulesForm
from tarotclub.games.models import Game
from tarotclub.players.links import is_member
from tarotclub.players.models import Player

from . import bulk, selectors, services
from .forms import BulkForm, RankingForm, RegisterForm, TournamentForm
from .models import Entry, Ranking, Status, Table, Tournament
from .tables import entries_html, round_tables_html, standings_html


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def tournament_list(request):
    tournaments = Tournament.objects.all()[:100]
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


@director_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = {**form.cleaned_data, "tables": form.cleaned_data.get("tables") or 0}
            t = services.tournament_create(**data, created_by=request.user)
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            page = (
                "tournaments:triplette_teams"
                if t.triplette
                else "tournaments:quadrette_teams"
                if t.quadrette
                else "tournaments:manage"
            )
            return redirect(page, pk=t.pk)
    return render(request, "tournaments/new.html", {"form": form})


def _do(request, call, success: str | None = None) -> bool:
    try:
        call()
    except ValidationError as e:
        for m in e.messages:
            messages.error(request, m)
        return False
    if success:
        messages.success(request, success)
    return True


@director_required
@require_http_methods(["GET", "POST"])
def tournament_manage(request, pk: int):
    t, key = _keyed(pk)
    posted = request.method == "POST" and "register" in request.POST
    register = RegisterForm(request.POST, tournament=t) if posted else None
    if posted and register.is_valid():
        data = register.cleaned_data
        try:
            entry = services.entry_register(
                tournament=t,
                player=data["player"],
                guest_name=data["guest_name"],
                licence=data["licence"],
                team=data.get("team", ""),
                orientation=data.get("orientation", ""),
                start_table=data.get("start_table"),
                user=request.user,
            )
        except ValidationError as e:
            add_validation_error(register, e)
        else:
            if t.status == Status.RUNNING:
                msg = _("%(name)s is registered and sits from round %(n)s.") % {
                    "name": entry.player.name,
                    "n": entry.first_round,
                }
            else:
                msg = _("%(name)s is registered.") % {"name": entry.player.name}
            messages.success(request, msg)
            return redirect("tournaments:manage", pk=t.pk)
    if request.method == "POST":  # a refused registration: show the tournament as it is now
        t, key = _keyed(pk)

    def context():
        return {
            "t": t,
            "register": register or RegisterForm(None, tournament=t),
            "entries_count": Entry.objects.filter(tournament=t).count(),
            "entries_html": _fragment("entries", key, lambda: _entries_html(request, t)),
            "ranking_form": RankingForm(initial={"ranking": t.ranking}),
            "house_rules": house.line("tarot", house.read("tarot", t.house_rules)),
            "Status": Status,
            # the history page (core) lists this tournament's changes
            "history_url": reverse("history") + f"?tournament={t.pk}",
            "round_html": _round_section(request, t, key) if t.current_round else "",
            # entries phones sent after a sheet was confirmed: kept for the director
            "kept": selectors.kept_entries(t),
        }

    def respond():
        if register is not None:  # a refused registration: its errors, this once
            return _render(request, "tournaments/manage.html", context())
        return _page(request, "manage", key, "tournaments/manage.html", context)

    return _conditional(request, "manage", key, respond)


def _entries_html(request, t: Tournament) -> str:
    entries = selectors.director_entries(t)
    context = {"t": t, "entries_count": len(entries), "entries_items": entries_html(t, entries)}
    return render_to_string("tournaments/_entries.html", context, request=request)


@director_required
@require_http_methods(["GET", "POST"])
def entries_bulk(request, pk: int):
    """Paste a list of players; "preview" shows what registering them does; "confirm" does it.

    The confirmation page carries the same text: the service reads and matches it again, so
    what is registered is what the roster says at that moment.
    """
    t = _tournament(pk)
    if t.status == Status.FINISHED:
        messages.error(request, services.ERR_FINISHED)
        return redirect("tournaments:manage", pk=t.pk)
    form = BulkForm(request.POST or None)
    context = {"t": t, "form": form, "line_errors": [], "preview": None}
    if request.method == "POST" and form.is_valid():
        lines, errors = bulk.parse(form.cleaned_data["names"])
        if errors:
            context["line_errors"] = errors
        elif "confirm" in request.POST:
            try:
                result = services.entries_register_bulk(
                    tournament=t, lines=lines, user=request.user
                )
            except ValidationError as e:
                add_validation_error(form, e)
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(n)s player registered (new guests: %(guests)s; "
                        "already registered: %(skipped)s).",
                        "%(n)s players registered (new guests: %(guests)s; "
                        "already registered: %(skipped)s).",
                        result.registered,
                    )
                    % {"n": result.registered, "guests": result.guests, "skipped": result.skipped},
                )
                return redirect("tournaments:manage", pk=t.pk)
        else:
            context["preview"] = selectors.bulk_preview(t, lines)
    return render(request, "tournaments/bulk.html", context)


#: How often the director's page asks for its round's tables again (seconds).
POLL_SECONDS = 15


def _round_context(request, t: Tournament) -> dict:
    """The round the director looks at (`?round=`, else the current one) and its tables."""
    shown = query_int(request, "round")
    chosen = shown is not None and 1 <= shown <= t.current_round
    round_number = shown if chosen else t.current_round
    tables = selectors.round_tables(t, round_number) if round_number else []
    is_current = round_number == t.current_round
    return {
        "t": t,
        "tables": tables,
        "shown_round": round_number,
        "follows_current": not chosen,  # the poll shows whatever round is current then
        "is_current": is_current,
        "rounds": list(range(1, t.current_round + 1)),
        "poll_seconds": POLL_SECONDS,
        "all_confirmed": all(x["state"] == "confirmed" for x in tables),
        # a free-deal round nobody has started may be redrawn (a duplicate movement never is)
        "round_untouched": is_current
        and not (t.duplicate or t.triplette or t.quadrette)
        and bool(tables)
        and all(x["state"] == "not_started" for x in tables),
        "tables_html": round_tables_html(t, tables, csrf_input=_CSRF_INPUT),
        # the cached section holds a placeholder for each reader's own token
        "csrf_token": _CSRF_PLACEHOLDER,
    }


def _round_section(request, t: Tournament, key: str) -> str:
    """The director's round section (cached for the revision, the round asked for), with the
    CSRF placeholder still in it: the response replaces it (`_with_csrf`)."""
    shown = query_int(request, "round")
    chosen = shown if shown is not None and 1 <= shown <= t.current_round else ""
    html = _fragment(
        "round_tables",
        key,
        lambda: render_to_string(
            "tournaments/_round_tables.html", _round_context(request, t), request=request
        ),
        chosen,
    )
    return html


def _reload_when_not_directing(view):
    """An htmx poll from a page whose session has ended (or lost its staff rights) asks the
    browser to reload the whole page, instead of swapping a login page into the section."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.headers.get("HX-Request") and not request.user.is_staff:
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        return view(request, *args, **kwargs)

    return wrapper


@_reload_when_not_directing
@director_required
@require_GET
def manage_tables(request, pk: int):
    """The director's page's round section alone, for htmx to poll (and swap in place)."""
    t, key = _keyed(pk)
    return _conditional(
        request,
        "manage_tables",
        key,
        lambda: HttpResponse(_with_csrf(request, _round_section(request, t, key))),
    )


@director_required
@require_http_methods(["GET", "POST"])
def entry_withdraw(request, pk: int, entry_pk: int):
    """GET: what withdrawing (or, before the start, removing) the player does; POST: do it."""
    t = _tournament(pk)
    entry = Entry.objects.filter(pk=entry_pk, tournament=t).select_related("player").first()
    if entry is None:
        if not selectors.entry_was_removed(t, entry_pk):
            raise Http404
        # removed during registration, by a first tap or another screen
        messages.error(request, services.ERR_ENTRY_GONE)
        return redirect("tournaments:manage", pk=t.pk)
    removing = t.status == Status.REGISTRATION
    if request.method == "GET":
        if t.status == Status.FINISHED or entry.withdrawn:
            return redirect("tournaments:manage", pk=t.pk)
        return render(
            request,
            "tournaments/confirm_withdraw.html",
            {"t": t, "entry": entry, "removing": removing, "next_round": t.current_round + 1},
        )
    _do(
        request,
        lambda: services.entry_withdraw(
            entry=entry, from_round=posted_int(request, "from_round", -1), user=request.user
        ),
        (_("%(name)s is no longer registered.") if removing else _("%(name)s has withdrawn."))
        % {"name": entry.player.name},
    )
    return redirect("tournaments:manage", pk=t.pk)


@director_required
@require_POST
def tournament_start(request, pk: int):
    t = _tournament(pk)
    _do(
        request,
        lambda: services.tournament_start(
            tournament=t, from_round=posted_int(request, "from_round", -1), user=request.user
        ),
        _("Round 1 is seated."),
    )
    return redirect("tournaments:manage", pk=t.pk)


@director_required
@require_http_methods(["GET", "POST"])
def tournament_next_round(request, pk: int):
    """Next round; with tables still open, a confirmation page names them first."""
    t = _tournament(pk)
    if t.status != Status.RUNNING:
        finished = t.status == Status.FINISHED
        messages.error(request, services.ERR_FINISHED if finished else services.ERR_NOT_RUNNING)
        return redirect("tournaments:manage", pk=t.pk)
    still_open = services.open_tables(t, t.current_round)
    force = request.POST.get("force") == "1"
    if request.method == "POST" and (force or not still_open):
        try:
            moved = services.tournament_next_round(
                tournament=t,
                force=force,
                from_round=posted_int(request, "from_round", -1),
                user=request.user,
            )
        except ValidationError as e:
            for m in e.messages:
                messages.error(request, m)
        else:
            messages.success(
                request,
                _("The tournament is finished.")
                if moved.status == Status.FINISHED
                else _("Round %(n)s is seated.") % {"n": moved.current_round},
            )
        return redirect("tournaments:manage", pk=t.pk)
    return render(request, "tournaments/confirm_next.html", {"t": t, "open": still_open})


@director_required
@require_http_methods(["GET", "POST"])
def tournament_reopen(request, pk: int):
    """GET: what reopening a finished tournament means; POST: reopen it (history entry)."""
    t = _tournament(pk)
    if request.method == "POST":
        _do(
            request,
            lambda: services.tournament_reopen(tournament=t, user=request.user),
            _("The tournament is open again at round %(n)s.") % {"n": t.current_round},
        )
        return redirect("tournaments:manage", pk=t.pk)
    if t.status != Status.FINISHED:
        messages.error(request, services.ERR_NOT_FINISHED)
        return redirect("tournaments:manage", pk=t.pk)
    return render(request, "tournaments/confirm_reopen.html", {"t": t})


@director_required
@require_POST
def round_redraw(request, pk: int):
    t = _tournament(pk)
    _do(
        request,
        lambda: services.round_redraw(
            tournament=t,
            from_round=posted_int(request, "from_round", -1),
            draw=posted_int(request, "draw", -1),
            user=request.user,
        ),
        _("The round has been redrawn."),
    )
    return redirect("tournaments:manage", pk=t.pk)


@director_required
def tournament_house_rules(request, pk: int):
    """French Tarot's house rules the tournament's tables play by, until it starts."""
    t = _tournament(pk)
    if t.status != Status.REGISTRATION:
        messages.error(request, str(services.ERR_NOT_REGISTRATION))
        return redirect("tournaments:manage", pk=t.pk)
    kind = kinds.get("tarot")
    form = HouseRulesForm(
        request.POST or None, kind=kind, initial_rules=house.read("tarot", t.house_rules)
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_set_house_rules(tournament=t, rules=form.rules(), user=request.user)
        except ValidationError as e:
            form.add_error(None, e)
        else:
            messages.success(request, _("The tournament's house rules are saved."))
            return redirect("tournaments:manage", pk=t.pk)
    return render(
        request,
        "tournaments/house_rules.html",
        {"t": t, "form": form, "kind": kind, "title": _("House rules of the tournament")},
    )


@director_required
@require_POST
def tournament_ranking(request, pk: int):
    t = _tournament(pk)
    form = RankingForm(request.POST)
    if form.is_valid():
        _do(
            request,
            lambda: services.tournament_update(
                tournament=t, ranking=form.cleaned_data["ranking"], user=request.user
            ),
            _("Saved."),
        )
    else:
        messages.error(request, _("Choose one of the rankings."))
    return redirect("tournaments:manage", pk=t.pk)


@director_required
@require_POST
def table_unlock(request, pk: int, table_pk: int):
    t = _tournament(pk)
    table = get_object_or_404(Table, pk=table_pk, tournament=t)
    _do(
        request,
        lambda: services.table_unlock(table=table, user=request.user),
        _("Table %(n)s can be changed again.") % {"n": table.number},
    )
    return redirect("tournaments:manage", pk=t.pk)


@require_http_methods(["GET", "POST"])
def table_confirm(request, token: str):
    """The table confirms its sheet (through its share link): GET shows the totals being
    confirmed and what it means; POST confirms."""
    game = Game.objects.filter(token=token[:32]).select_related("tournament_table").first()
    if game is None:
        notice = policy.gone(token)
        if notice is None:
            raise Http404
        return render(request, "games/gone.html", {"notice": notice}, status=410)
    table = Table.objects.filter(game=game).select_related("tournament").first()
    if table is None:  # a casual game: nothing to confirm
        messages.error(request, policy.check(game, policy.CONFIRM, user=request.user).reason)
        return redirect("games:sheet", token=game.token)
    if request.method == "GET":
        verdict = policy.check(game, policy.CONFIRM, user=request.user)
        if not verdict:
            messages.error(request, verdict.reason)
            return redirect("games:sheet", token=game.token)
        return render(
            request,
            "tournaments/confirm_sheet.html",
            {"table": table, "game": game, "totals": selectors.table_totals(game)},
        )
    _do(
        request,
        lambda: services.table_confirm(table=table, user=request.user),
        _("The sheet of table %(n)s is confirmed. Thank you!") % {"n": table.number},
    )
    return redirect("games:sheet", token=game.token)


# --- public pages ------------------------------------------------------------------------------
#
# Issue 12: the standings, the projector (page and screen) and the director's round section are
# rendered once per revision of the tournament (`selectors.tournament_with_key`: one query, no
# lock) and language, then served from the cache; a browser that already has the page gets a
# 304. What is per reader (the menu, the messages, the CSRF token) stays out of the cached
# fragments: a fragment with a form holds a placeholder that each response replaces with its
# own token.

#: How long a rendered fragment stays in the cache. Any write moves the key, so this only
#: bounds how long a fragment nobody asks for any more takes space.
FRAGMENT_SECONDS = 600
#: Stands for the reader's CSRF token in a cached fragment (`{% csrf_token %}` prints it).
_CSRF_PLACEHOLDER = "__csrf_token_of_this_response__"
_CSRF_INPUT = f'<input type="hidden" name="csrfmiddlewaretoken" value="{_CSRF_PLACEHOLDER}">'


def _keyed(pk: int) -> tuple[Tournament, str]:
    found = selectors.tournament_with_key(pk)
    if found is None:
        raise Http404
    return found


def _fragment(name: str, key: str, build, *parts) -> str:
    """The fragment `name` of the tournament's revision `key` in the current language (and
    `parts`, e.g. the page shown), rendered by `build()` when the cache does not have it."""
    digest = hashlib.sha256(
        "|".join([name, key, get_language() or "", *map(str, parts)]).encode()
    ).hexdigest()[:32]
    cache_key = f"tournaments:{digest}"
    html = cache.get(cache_key)
    if html is None:
        html = build()
        cache.set(cache_key, str(html), FRAGMENT_SECONDS)
    return mark_safe(html)


def _reader(member: bool) -> str:
    """The part of a fragment's key for what differs by reader: a member's names are links."""
    return "member" if member else "anonymous"


def _with_csrf(request, html: str) -> str:
    """A cached fragment with this reader's own CSRF token in place of the placeholder."""
    return mark_safe(html.replace(_CSRF_PLACEHOLDER, get_token(request)))


def _render(request, template: str, context: dict) -> HttpResponse:
    """`render`, for a page that holds cached fragments: their CSRF placeholders replaced."""
    return HttpResponse(_with_csrf(request, render_to_string(template, context, request=request)))


def _plain_query(request) -> bool:
    """Only the pages' own parameters, as small numbers: a page is cached whole only then (the
    page holds its own address, and made-up queries must not fill the cache)."""
    return all(
        name in ("page", "round")
        and len(values) == 1
        and values[0].isdigit()
        and len(values[0]) < 5
        for name, values in request.GET.lists()
    )


def _page(request, name: str, key: str, template: str, context) -> HttpResponse:
    """The whole page `template` with `context()`, rendered once per revision, language,
    address and kind of reader (anonymous, signed in, director: what the menu shows), then
    served from the cache with this reader's own CSRF token. A page with messages waiting is
    rendered afresh (and not cached): they are shown once."""
    if len(messages.get_messages(request)) or not _plain_query(request):
        return _render(request, template, context())
    user = request.user
    html = _fragment(
        f"page:{name}",
        key,
        lambda: render_to_string(
            template, {**context(), "csrf_token": _CSRF_PLACEHOLDER}, request=request
        ),
        request.get_full_path(),
        "signed-in" if user.is_authenticated else "",
        "staff" if user.is_staff else "",
    )
    return HttpResponse(_with_csrf(request, html))


def _etag(request, name: str, key: str) -> str | None:
    """The page's ETag: the tournament's revision, and all that the rest of the page depends
    on (language, who reads it, their CSRF cookie, the query). None while messages wait to be
    shown: that page is new."""
    if len(messages.get_messages(request)):
        return None
    user = request.user
    parts = [
        name,
        key,
        get_language() or "",
        str(user.pk or ""),
        "staff" if user.is_staff else "",
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
        request.GET.urlencode(),
        "htmx" if request.headers.get("HX-Request") else "",
    ]
    return '"' + hashlib.sha256("|".join(parts).encode()).hexdigest()[:32] + '"'


def _conditional(request, name: str, key: str, respond):
    """A 304 when the browser's copy (If-None-Match) is this revision's, else `respond()`
    with the ETag. The page is private (it may name the reader) and always revalidated."""
    etag = _etag(request, name, key) if request.method in ("GET", "HEAD") else None
    if etag is not None:
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            not_modified["ETag"] = etag
            patch_cache_control(not_modified, private=True, no_cache=True)
            return not_modified
    response = respond()
    if etag is not None and response.status_code == 200:
        response["ETag"] = etag
        patch_cache_control(response, private=True, no_cache=True)
    return response


def tournament_standings(request, pk: int):
    t, key = _keyed(pk)
    if t.duplicate:  # graded, not summed: the duplicate rankings
        from .duplicate_views import rankings

        return rankings(request, t)
    if t.triplette:  # the teams' rankings
        from .triplette_views import rankings as triplette_rankings

        return triplette_rankings(request, t)
    if t.quadrette:  # the teams' ranking by match points
        from .quadrette_views import results as quadrette_results

        return quadrette_results(request, t)

    member = is_member(request.user)

    def build():
        standings = selectors.standings(t)
        html = standings_html(
            standings, show_average=t.ranking == Ranking.AVERAGE, link_players=member
        )
        if standings.teams:  # free-deal teams: their ranking beside the individual one
            html += render_to_string("tournaments/_teams.html", {"teams": standings.teams})
        return mark_safe(html)

    return _conditional(
        request,
        "standings",
        key,
        lambda: _page(
            request,
            "standings",
            key,
            "tournaments/standings.html",
            # a member reads the names as links to the players' pages, anybody else not
            lambda: {"t": t, "table_html": _fragment("standings", key, build, _reader(member))},
        ),
    )


#: The projector shows this many standings a screen (two columns of 15 rows, sized by the
#: stylesheet to the screen's height), and moves to the next screen every few seconds.
PROJECTOR_ROWS = 15
PROJECTOR_COLUMNS = 2
PROJECTOR_SECONDS = 8


def _projector_context(request, t: Tournament) -> dict:
    standings = selectors.standings(t)
    rows = standings.rows
    per_page = PROJECTOR_ROWS * PROJECTOR_COLUMNS
    pages = max(1, -(-len(rows) // per_page))
    page = query_int(request, "page", 1)
    page = page if 1 <= page <= pages else 1
    shown = rows[(page - 1) * per_page : page * per_page]
    progress = (
        selectors.round_progress(t, t.current_round)
        if t.current_round
        else {"tables": 0, "confirmed": 0, "done": 0, "planned": 0}
    )
    return {
        "t": t,
        "rows": shown,
        "columns": 1 if len(shown) <= PROJECTOR_ROWS else PROJECTOR_COLUMNS,
        "page": page,
        "pages": pages,
        "next_page": page % pages + 1,
        "per_page": per_page,
        "seconds": PROJECTOR_SECONDS,
        "show_average": t.ranking == Ranking.AVERAGE,
        "tables_count": progress["tables"],
        "tables_confirmed": progress["confirmed"],
        "deals_done": progress["done"],
        "deals_planned": progress["planned"],
    }


def _projector_screen(request, t: Tournament, key: str) -> str:
    """The screen's fragment for the asked page (its rows and the progress line), the names
    as links for a member (`{% player %}` reads the request's user)."""
    page = query_int(request, "page", 1)
    page = page if 1 <= page <= 9999 else 1  # beyond the last page: the first (as shown)
    return _fragment(
        "projector",
        key,
        lambda: render_to_string(
            "tournaments/_projector_screen.html", _projector_context(request, t), request=request
        ),
        page,
        _reader(is_member(request.user)),
    )


def tournament_projector(request, pk: int):
    """The standings for the wall: one screen of them, htmx swaps in the next every few
    seconds (read afresh each time); no meta refresh."""
    t, key = _keyed(pk)
    if t.duplicate or t.triplette or t.quadrette:  # no summed standings: the rankings
        return redirect("tournaments:standings", pk=t.pk)
    return _conditional(
        request,
        "projector",
        key,
        lambda: _page(
            request,
            "projector",
            key,
            "tournaments/projector.html",
            lambda: {"t": t, "screen_html": _projector_screen(request, t, key)},
        ),
    )


@require_GET
def projector_screen(request, pk: int):
    """One screen of the projector (a fragment), for htmx."""
    t, key = _keyed(pk)
    return _conditional(
        request,
        "projector_screen",
        key,
        lambda: HttpResponse(_projector_screen(request, t, key)),
    )


def tournament_where(request, pk: int):
    t = _tournament(pk)
    query = request.GET.get("q", "")[:40]
    found = selectors.find_seat(t, query)
    return render(request, "tournaments/where.html", {"t": t, "q": query, "found": found})


def position_card(request, pk: int, player_pk: int):
    """A player's position card: their table and seat for every round (the printed card's)."""
    t = _tournament(pk)
    # the player by primary key first: a number past what the column holds is a 404 there
    player = get_object_or_404(Player, pk=player_pk)
    card = selectors.position_card(t, player.pk)
    if card is None:
        raise Http404
    return render(request, "tournaments/position_card.html", {"t": t, "card": card})
