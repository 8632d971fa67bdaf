from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tarotclub.core.forms import add_validation_error, configure_table

from . import selectors, services
from .forms import PlayerForm
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
    return render(request, "players/form.html", {"form": form, "title": player.name})
