"""The club's change history for what is not a game's own deal or record.

A game's deals and records keep their history in `games.Change`. Everything else that changes
what a standings page shows (a player renamed, an entry removed, a round redrawn, a tournament
finished, challenges given again, ...) leaves a `LogEntry` through `log_action`, in the same
transaction as the write. Entries are never changed or deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _

#: Every action an app logs, with its label for the history page: {code: translated label}.
#: Apps declare theirs with `action(...)` at import time.
ACTIONS: dict[str, object] = {}


def action(code: str, label) -> str:
    """Declare a history action (`label` is a lazy translation); returns the code to log."""
    ACTIONS[code] = label
    return code


class LogEntryQuerySet(models.QuerySet):
    def delete(self):
        raise PermissionError("The change history is never deleted.")

    def for_object(self, obj) -> LogEntryQuerySet:
        return self.filter(
            content_type=ContentType.objects.get_for_model(type(obj)), object_id=obj.pk
        )


class LogEntry(models.Model):
    """Who did what to which object, when, and what it was before and after (JSON)."""

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(_("what"), max_length=40)
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    object_id = models.PositiveBigIntegerField()
    subject = GenericForeignKey("content_type", "object_id")
    #: What the object was called when it happened (it may be renamed or gone since).
    object_repr = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    objects = LogEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["content_type", "object_id", "-at"])]
        verbose_name = _("history entry")
        verbose_name_plural = _("history")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not kwargs.get("force_insert"):
            raise PermissionError("A history entry is never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("The change history is never deleted.")

    @property
    def action_label(self):
        return ACTIONS.get(self.action, self.action)


def acting_user(user):
    """The account behind a write, or None for a phone on a share link."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def log_action(
    obj, code: str, *, user=None, before=None, after=None, repr_: str | None = None
) -> LogEntry:
    """Record one write to `obj` in the history. Call it inside the write's transaction."""
    if code not in ACTIONS:
        raise ValueError(f"undeclared history action {code!r}")
    return LogEntry.objects.create(
        content_type=ContentType.objects.get_for_model(type(obj)),
        object_id=obj.pk,
        object_repr=(repr_ if repr_ is not None else str(obj))[:200],
        action=code,
        user=acting_user(user),
        before=before,
        after=after,
    )
