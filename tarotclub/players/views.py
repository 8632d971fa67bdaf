from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tarotclub.core.forms import add_validation_error, configure_table

from . import selectors, services
from .forms import PlayerForm, other_player_form, stats_filter_form
from .models import Player
from .tables import PlayerTable


@login_required
def player_list(request):
    search = request.GET.get("q", "")[:80]
    table = PlayerTable(selectors.player_list(search=search))
    configure_table(request, table, per_page=50)
    look_alikes = list(selectors.look_alikes()[:20])
    return render(
        request, "players/list.html", {"table": table, "q": search, "look_alikes": look_alikes}
    )


@login_required
def player_new(request):
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player = services.player_create(
                name=data["name"],
                nickname=data["nickname"],
                licence=data["licence"],
                guest=data["guest"],
                user=request.user,
            )
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            messages.success(request, _("%(name)s joined the roster.") % {"name": player.name})
            return redirect("players:list")
    return render(request, "players/form.html", {"form": form, "title": _("New player")})


@login_required
def player_edit(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    initial = {
        "name": player.name,
        "nickname": player.nickname,
        "licence": player.licence,
        "active": player.active,
        "guest": player.guest,
    }
    form = PlayerForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.player_update(player=player, **data, user=request.user)
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            messages.success(request, _("Saved."))
            return redirect("players:list")
    return render(
        request, "players/form.html", {"form": form, "title": player.name, "player": player}
    )


def _filters(request):
    """The page's filters from ?from=&to=&size=, and the form showing them; bad input is
    reported by the form and filters nothing."""
    form = stats_filter_form(request.GET or None)
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        return form, d.get("from"), d.get("to"), d.get("size")
    return form, None, None, None


@login_required
def player_detail(request, pk: int):
    """A player's page, for members: their games and tournaments, their statistics."""
    from tarotclub.ratings import presenters as ratings
    from tarotclub.ratings.services import ratings_refresh

    from . import pages

    player = get_object_or_404(Player, pk=pk)
    form, date_from, date_to, size = _filters(request)
    ratings_refresh()  # derived data: brought up to date with the games first
    context = pages.player_page(player, date_from=date_from, date_to=date_to, size=size)
    context["rating"] = ratings.player_rating(player)
    filtered = bool(date_from or date_to or size)
    return render(
        request,
        "players/detail.html",
        {**context, "player": player, "form": form, "filtered": filtered},
    )


@login_required
def player_versus(request, pk: int):
    """Two players' results when they sat at the same table (?other=<pk>)."""
    from . import pages

    player = get_object_or_404(Player, pk=pk)
    form = other_player_form(request.GET or None, player=player)
    context = {"player": player, "form": form, "result": None}
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        other = d["other"]
        context.update(
            pages.versus_page(player, other, date_from=d.get("from"), date_to=d.get("to")),
            other=other,
            filtered=bool(d.get("from") or d.get("to")),
        )
    return render(request, "players/versus.html", context)
