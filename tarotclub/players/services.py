"""Writes to the roster. Each function is one transaction and validates its input.

Names and nicknames are cleaned (`core.text.clean_text`) and a name is refused when it looks
like another player's (same `name_key`: without case, accents or hidden characters).
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from tarotclub.core.history import field
from tarotclub.core.models import action, log_action
from tarotclub.core.text import clean_text

from .models import NAME_MAX, NICKNAME_MAX, Player, name_key

ERR_NAME_EMPTY = _("Give the player's name.")
ERR_NAME_TAKEN = _("There is already a player called %(name)s.")
ERR_NAME_LONG = _("A name has at most 80 characters.")
ERR_NICKNAME_LONG = _("A nickname has at most 40 characters.")
ERR_LICENCE = _("A licence number has only letters and digits (at most 20).")

_LICENCE_RE = re.compile(r"[A-Za-z0-9-]{1,20}")

PLAYER_CREATED = action("player.created", _("player added"))
PLAYER_RENAMED = action("player.renamed", _("player renamed"))
PLAYER_UPDATED = action("player.updated", _("player changed"))

#: What the history shows of a player, and the labels of its fields there.
SNAPSHOT_FIELDS = ("name", "nickname", "licence", "active", "guest")
field("name", _("name"))
field("nickname", _("nickname"))
field("licence", _("licence number"))
field("active", _("active"))
field("guest", _("guest"))


def snapshot(player: Player) -> dict:
    return {f: getattr(player, f) for f in SNAPSHOT_FIELDS}


def _name_clash(key: str, exclude_pk: int | None = None) -> Player | None:
    """The player whose name a person could not tell from a name with this key, if any."""
    clash = Player.objects.filter(name_key=key)
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    return clash.first()


def _taken(player: Player) -> ValidationError:
    return ValidationError(
        {"name": ValidationError(ERR_NAME_TAKEN, code="name_taken", params={"name": player.name})}
    )


def _validate(*, name: str, nickname: str, licence: str, exclude_pk: int | None = None) -> None:
    errors: dict[str, ValidationError] = {}
    if not name:
        errors["name"] = ValidationError(ERR_NAME_EMPTY, code="name_empty")
    elif len(name) > NAME_MAX:
        errors["name"] = ValidationError(ERR_NAME_LONG, code="name_long")
    else:
        clash = _name_clash(name_key(name), exclude_pk)
        if clash is not None:
            errors["name"] = _taken(clash).error_dict["name"][0]
    if len(nickname) > NICKNAME_MAX:
        errors["nickname"] = ValidationError(ERR_NICKNAME_LONG, code="nickname_long")
    if licence and not _LICENCE_RE.fullmatch(licence):
        errors["licence"] = ValidationError(ERR_LICENCE, code="licence")
    if errors:
        raise ValidationError(errors)


def _save(player: Player, **kwargs) -> None:
    """Save in a savepoint: a look-alike added meanwhile by another phone is refused with the
    message, and the caller's transaction stays usable."""
    try:
        with transaction.atomic():
            player.save(**kwargs)
    except IntegrityError:
        clash = _name_clash(name_key(player.name), player.pk)
        if clash is None:
            raise
        raise _taken(clash) from None


@transaction.atomic
def player_create(
    *,
    name: str,
    nickname: str = "",
    licence: str = "",
    guest: bool = False,
    account=None,
    user=None,
) -> Player:
    """Add a player (or a guest) to the roster; `account` is the login the player uses, if
    any; `user` is who adds them."""
    name, nickname, licence = clean_text(name), clean_text(nickname), clean_text(licence)
    _validate(name=name, nickname=nickname, licence=licence)
    player = Player(name=name, nickname=nickname, licence=licence, guest=guest, user=account)
    _save(player, force_insert=True)
    log_action(player, PLAYER_CREATED, user=user, after=snapshot(player))
    return player


@transaction.atomic
def player_update(
    *,
    player: Player,
    name: str,
    nickname: str = "",
    licence: str = "",
    active: bool = True,
    guest: bool | None = None,
    user=None,
) -> Player:
    """Change a player's details; `guest=False` makes a guest a member (None: unchanged).

    A guest who gets a licence stays a guest until made a member.
    """
    name, nickname, licence = clean_text(name), clean_text(nickname), clean_text(licence)
    _validate(name=name, nickname=nickname, licence=licence, exclude_pk=player.pk)
    player = Player.objects.select_for_update().get(pk=player.pk)
    before = snapshot(player)
    player.name, player.nickname, player.licence = name, nickname, licence
    player.active = bool(active)
    if guest is not None:
        player.guest = bool(guest)
    after = snapshot(player)
    if after == before:
        return player
    _save(player, update_fields=list(SNAPSHOT_FIELDS))
    code = PLAYER_RENAMED if after["name"] != before["name"] else PLAYER_UPDATED
    log_action(player, code, user=user, before=before, after=after)
    return player
