"""The one error every service raises when it refuses a write."""

from __future__ import annotations

from django.core.exceptions import ValidationError


class Refused(ValidationError):
    """A refused write, with a message in the user's language; nothing was changed.

    Each app's services raise a subclass of it (`GameError`, `TournamentError`, ...), so a
    view catches one class whatever it called.
    """
