from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import clean_text, text_key

NAME_MAX = 80
NICKNAME_MAX = 40
KEY_MAX = 255
#: Ends the key of a player whose name looked like an earlier player's when keys were first
#: computed (migration 0003): "claire martin⁣17". A format character, so no cleaned name's key
#: ever holds it. Such a player keeps their name until a director renames them.
LOOK_ALIKE_MARK = "\u2063"
#: A marked key: the name's key cut to this length, the mark, the player's pk.
LOOK_ALIKE_BASE = KEY_MAX - 21


def look_alike_key(key: str, pk: int) -> str:
    return f"{key[:LOOK_ALIKE_BASE]}{LOOK_ALIKE_MARK}{pk}"


def name_key(text: object) -> str:
    """The key two names share when a person cannot tell them apart (see core.text.text_key)."""
    return text_key(text)[:KEY_MAX]


def _with_keys(player: "Player") -> "Player":
    """Clean the names (idempotent) and derive their keys; a look-alike keeps its marked key
    while its name stays the same."""
    player.name = clean_text(player.name, NAME_MAX)
    player.nickname = clean_text(player.nickname, NICKNAME_MAX)
    key = name_key(player.name)
    base, mark, _pk = (player.name_key or "").partition(LOOK_ALIKE_MARK)
    if not (mark and base == key[:LOOK_ALIKE_BASE]):
        player.name_key = key
    player.nickname_key = name_key(player.nickname)
    return player


_MAX = {"name": NAME_MAX, "nickname": NICKNAME_MAX}


class PlayerQuerySet(models.QuerySet):
    """Keeps the stored keys right for the writes that skip `Player.save`."""

    def bulk_create(self, objs, *args, **kwargs):
        return super().bulk_create([_with_keys(p) for p in objs], *args, **kwargs)

    def update(self, **kwargs):
        for field in ("name", "nickname"):
            if field in kwargs:
                if not isinstance(kwargs[field], str):
                    raise TypeError(f"Player.{field} is updated with a text, not an expression")
                kwargs[field] = clean_text(kwargs[field], _MAX[field])
                kwargs[f"{field}_key"] = name_key(kwargs[field])
        return super().update(**kwargs)


class Player(models.Model):
    """Somebody on the club's roster, or a guest added at a table.

    `name_key` is what makes two names the same name: without case, accents or hidden
    characters (`name_key`), unique on every database. Every duplicate check and name search
    compares keys; `save`, `bulk_create` and `update` keep them in step with the names.
    """

    name = models.CharField(_("name"), max_length=NAME_MAX)
    nickname = models.CharField(_("nickname"), max_length=NICKNAME_MAX, blank=True)
    licence = models.CharField(_("licence number"), max_length=20, blank=True)
    active = models.BooleanField(_("active"), default=True)
    guest = models.BooleanField(_("guest"), default=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    name_key = models.CharField(max_length=KEY_MAX, default="", editable=False)
    nickname_key = models.CharField(max_length=KEY_MAX, default="", blank=True, editable=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name_key", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(Lower("name"), name="player_name_unique_ci"),
            models.UniqueConstraint(fields=["name_key"], name="player_name_key_unique"),
        ]

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args, **kwargs):
        _with_keys(self)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            extra = {f"{f}_key" for f in ("name", "nickname") if f in update_fields}
            kwargs["update_fields"] = {*update_fields, *extra}
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("players:detail", args=[self.pk])

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.nickname})" if self.nickname else self.name

    @property
    def short_name(self) -> str:
        return self.nickname or self.name

    @property
    def looks_alike(self) -> bool:
        """True for a player whose name looked like an earlier player's before keys existed."""
        return LOOK_ALIKE_MARK in self.name_key
