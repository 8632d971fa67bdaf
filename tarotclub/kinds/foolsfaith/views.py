"""Fool's Faith's own pages: the club's list of challenges, and the winner giving cards.

The list needs a member's login; the cards are given through the game's share link.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from tarotclub.core.forms import add_validation_error
from tarotclub.games import kinds
from tarotclub.games import views as game_views

from . import services
from .forms import ChallengeForm
from .kind import FoolsFaith
from .models import Challenge

ERR_NO_CHALLENGES = gettext_lazy(
    "The club's list of challenges is empty: a member adds challenges first."
)


@require_POST
def challenges_give(request, token: str):
    """The winner of a Fool's Faith game gives their challenge cards."""
    game = game_views.game_or_404(token)
    kind = kinds.get(game.kind)
    if kind.identifier != FoolsFaith.identifier:
        messages.error(request, str(services.ERR_NOT_FOOLS_FAITH))
        return redirect("games:sheet", token=game.token)
    played = kind.load(game)
    context = kind.sheet_extra(request, played)
    form = context.get("award_form")
    if form is None:
        if not played.over:
            error = services.ERR_NO_WINNER if game.finished else services.ERR_NOT_OVER
        else:
            error = ERR_NO_CHALLENGES
        messages.error(request, str(error))
        return redirect("games:sheet", token=game.token)
    if form.is_valid():
        try:
            services.challenges_award(played=played, awards=form.awards(), user=request.user)
        except ValidationError as e:
            add_validation_error(form, e)
        else:
            messages.success(request, _("The challenge cards are given. Time to perform!"))
            return redirect("games:sheet", token=game.token)
    context = game_views.sheet_context(request, game, played)
    context["award_form"] = form
    context["share_url"] = game_views.share_url(request, game)
    context["qr_svg"] = game_views.share_qr(request, game)
    return render(request, "games/sheet.html", context, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def challenge_list(request):
    form = ChallengeForm(request.POST if "add" in request.POST else None)
    if request.method == "POST":
        if "suggest" in request.POST:
            added = services.challenges_suggest(user=request.user)
            if added:
                messages.success(request, _("The suggested challenges are in the list."))
            return redirect("foolsfaith:challenges")
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
                return redirect("foolsfaith:challenges")
    challenges = list(Challenge.objects.all())
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "kinds/foolsfaith/challenges.html",
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
                return redirect("foolsfaith:challenge_edit", pk=challenge.pk)
            messages.success(request, _("Challenge deleted."))
            return redirect("foolsfaith:challenges")
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
                return redirect("foolsfaith:challenges")
    return render(
        request,
        "kinds/foolsfaith/challenge_form.html",
        {"form": form, "challenge": challenge, "used": challenge.awards.exists()},
        status=400 if request.method == "POST" else 200,
    )
