"""Writes to the roster. Each function is one transaction and validates its input."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from .models import Player

ERR_NAME_EMPTY = _("Give the player's name.")
ERR_NAME_TAKEN = _("There is already a player called %(name)s.")
ERR_NAME_LONG = _("A name has at most 80 characters.")
ERR_NICKNAME_LONG = _("A nickname has at most 40 characters.")
ERR_LICENCE = _("A licence number has only letters and digits (at most 20).")

_LICENCE_RE = re.compile(r"^[A-Za-z0-9-]{1,20}$")


def _clean(value: str | None) -> str:
    return " ".join((value or "").split())


def _validate(*, name: str, nickname: str, licence: str, exclude_pk: int | None = None) -> None:
    errors: dict[str, ValidationError] = {}
    if not name:
        errors["name"] = ValidationError(ERR_NAME_EMPTY, code="name_empty")
    elif len(name) > 80:
        errors["name"] = ValidationError(ERR_NAME_LONG, code="name_long")
    else:
        clash = Player.objects.filter(name__iexact=name)
        if exclude_pk is not None:
            clash = clash.exclude(pk=exclude_pk)
        if clash.exists():
            errors["name"] = ValidationError(
                ERR_NAME_TAKEN, code="name_taken", params={"name": name}
            )
    if len(nickname) > 40:
        errors["nickname"] = ValidationError(ERR_NICKNAME_LONG, code="nickname_long")
    if licence and not _LICENCE_RE.match(licence):
        errors["licence"] = ValidationError(ERR_LICENCE, code="licence")
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def player_create(
    *, name: str, nickname: str = "", licence: str = "", guest: bool = False, user=None
) -> Player:
    """Add a player (or a guest) to the roster."""
    name, nickname, licence = _clean(name), _clean(nickname), _clean(licence)
    _validate(name=name, nickname=nickname, licence=licence)
    return Player.objects.create(
        name=name, nickname=nickname, licence=licence, guest=guest, user=user
    )


@transaction.atomic
def player_update(
    *, player: Player, name: str, nickname: str = "", licence: str = "", active: bool = True
) -> Player:
    """Change a player's details; a guest who gets a licence stays a guest until made a member."""
    name, nickname, licence = _clean(name), _clean(nickname), _clean(licence)
    _validate(name=name, nickname=nickname, licence=licence, exclude_pk=player.pk)
    player = Player.objects.select_for_update().get(pk=player.pk)
    player.name, player.nickname, player.licence, player.active = name, nickname, licence, active
    player.save(update_fields=["name", "nickname", "licence", "active"])
    return player
