"""A game at one table, whatever its kind: its seats, its records, its history.

French Tarot keeps its deals in typed rows of its own (`tarotclub.kinds.tarot.models`); the
other kinds keep each entry as a `Record`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tarotclub.players.models import Player


def new_token() -> str:
    return secrets.token_urlsafe(18)


def empty_tally() -> dict:
    """The tally of a game without entries (see `Game.tally`)."""
    return {"rev": 0, "count": 0, "totals": {}}


def kind_choices():
    """The registered game kinds (`games.kinds`), read when the choices are needed."""
    from .kinds import choices

    return choices()


class Game(models.Model):
    kind = models.CharField(_("game"), max_length=12, choices=kind_choices, default="tarot")
    name = models.CharField(_("name"), max_length=100, blank=True)
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # Tournament tables of five in a four-player event: the dealer sits out and scores 0.
    dealer_sits_out = models.BooleanField(default=False)
    # A confirmed tournament sheet: the share link can read it but not change it.
    locked = models.BooleanField(default=False)
    options = models.JSONField(default=dict, blank=True)
    # A game started by mistake, put away by its creator or a director: out of the lists and
    # standings, kept with its history, and restorable.
    archived_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Bumped by every write, so a phone can ask cheaply whether anything changed.
    revision = models.PositiveIntegerField(default=0)
    # What a poll after a change, and a tournament's standings (a player's score in a round is
    # their total at that round's table), show without reading every entry: the number of
    # entries and each player's total ({"rev": revision, "count": n, "totals": {"<pk>": total}}),
    # kept by the services of a kind with stored scores in the write that bumps the revision.
    # Trusted only while "rev" is the game's revision (any other write leaves it stale, and
    # the readers then count and sum the entries themselves).
    tally = models.JSONField(default=empty_tally, editable=False)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.name or f"{self.get_kind_display()} #{self.pk}"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def archived(self) -> bool:
        return self.archived_at is not None

    @property
    def current_tally(self) -> dict | None:
        """`tally` while it is the current one (else None: count and sum the entries)."""
        tally = self.tally
        if isinstance(tally, dict) and tally.get("rev") == self.revision:
            return tally
        return None


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.position}: {self.player_id}"


class Record(models.Model):
    """One entry (a round, a deal, a whole game) of a replayed kind, as entered."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="records")
    number = models.PositiveIntegerField()
    data = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    # The id the phone made for this entry (a UUID): a retry is saved once (`record_add`).
    client_id = models.UUIDField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="record_number_unique"),
            models.UniqueConstraint(fields=["game", "client_id"], name="record_client_id_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.number}"


class RefusedEntry(models.Model):
    """An entry a phone sent from its queue after its sheet stopped taking entries (confirmed
    by the director, finished...): kept, never dropped, for the game's owner or the director
    to add as the next entry or to discard (`services.refused_entry_accept` / `_discard`)."""

    class Outcome(models.TextChoices):
        WAITING = "", _("waiting")
        ACCEPTED = "accepted", _("added")
        DISCARDED = "discarded", _("discarded")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="refused_entries")
    client_id = models.UUIDField(editable=False)
    number = models.PositiveIntegerField()  # the entry the phone was making
    data = models.JSONField()  # the form's fields as the phone sent them
    text = models.CharField(max_length=300, blank=True)  # the entry in words, as sent
    reason = models.CharField(max_length=300)  # why the sheet refused it, as the phone was told
    created_at = models.DateTimeField(auto_now_add=True)
    outcome = models.CharField(max_length=10, choices=Outcome, default="", blank=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    settled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["game", "created_at", "pk"]
        verbose_name = _("refused entry")
        verbose_name_plural = _("refused entries")
        constraints = [
            models.UniqueConstraint(fields=["game", "client_id"], name="refused_client_id_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.number} ({self.client_id})"


class ChangeAction(models.TextChoices):
    RECORDED = "recorded", _("entered")
    CORRECTED = "corrected", _("corrected")
    UNDONE = "undone", _("undone")
    FINISHED = "finished", _("game finished")
    LOCKED = "locked", _("sheet confirmed")
    UNLOCKED = "unlocked", _("sheet unlocked")
    ARCHIVED = "archived", _("game archived")
    RESTORED = "restored", _("game restored")


class ChangeQuerySet(models.QuerySet):
    def delete(self):
        raise PermissionError("A game's history is never deleted.")

    def update(self, **kwargs):
        raise PermissionError("A game's history is never changed.")


class Change(models.Model):
    """Every write to a game: who, when, what it was before and after. Never changed nor
    deleted (but see `Game` deletion: it cascades, so only games without history are deleted)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    number = models.PositiveIntegerField(null=True, blank=True)  # the deal or round number
    action = models.CharField(max_length=12, choices=ChangeAction)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField(auto_now_add=True)

    objects = ChangeQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.game_id} · {self.action} · {self.number or ''}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise PermissionError("A game's history is never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("A game's history is never deleted.")


class ClubRules(models.Model):
    """The club's house rules for one game kind: what a new game or tournament copies when
    it starts (the copy is the game's own, so changing these never rewrites a past game).
    ``rules`` is the kind's house rules as stored data (``scoring.<kind>.Rules.as_dict``);
    no row means the rules as written (the federation's for French Tarot)."""

    kind = models.CharField(_("game"), max_length=12, unique=True)
    rules = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("house rules")
        verbose_name_plural = _("house rules")

    def __str__(self) -> str:
        return self.kind
