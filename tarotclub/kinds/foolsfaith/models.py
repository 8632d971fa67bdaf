"""Fool's Faith challenges: the club's list, and who received which at the end of a game.

The rounds and deals of the other games are `games.Record` rows; this app adds no model for them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tarotclub.games.models import Game
from tarotclub.players.models import Player


class Challenge(models.Model):
    """A challenge card's text, such as "sing a song"; inactive ones are no longer offered."""

    text = models.CharField(_("challenge"), max_length=200)
    active = models.BooleanField(_("in use"), default=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["order", "pk"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self) -> str:
        return self.text


class ChallengeAward(models.Model):
    """One challenge card the winner of a Fool's Faith game gave to another player.

    `card` numbers the winner's cards (1, 2, …); `text` keeps the challenge as it read then,
    so that later edits of the list do not rewrite what somebody had to perform.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="challenge_awards")
    card = models.PositiveSmallIntegerField()
    challenge = models.ForeignKey(
        Challenge, on_delete=models.PROTECT, related_name="awards", verbose_name=_("challenge")
    )
    text = models.CharField(max_length=200)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="challenges_received")
    awarded_by = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="challenges_given"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "card"]
        verbose_name = _("challenge given")
        verbose_name_plural = _("challenges given")
        constraints = [
            models.UniqueConstraint(fields=["game", "card"], name="challengeaward_card_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.card}: {self.player_id} ← {self.text}"
