"""French Tarot's deals, typed: each with its score lines, so totals are a sum in the database.

These tables were made by the `games` app (``games_deal``, ``games_dealline``) and keep their
names: the models moved here without copying any data.
"""

from __future__ import annotations

from django.db import models

from tarotclub.games.models import Game
from tarotclub.players.models import Player


class Deal(models.Model):
    """One French Tarot deal as entered; its score is computed by `scoring.fft`."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    dealer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    taker = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    partner = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    contract = models.CharField(max_length=12)
    bouts = models.PositiveSmallIntegerField()
    points_half = models.PositiveSmallIntegerField(help_text="attack's card points × 2")
    petit_au_bout = models.CharField(max_length=8, blank=True)
    poignees = models.JSONField(default=list, blank=True)  # [[player_id, "simple"], ...]
    chelem = models.CharField(max_length=20, default="none")
    # House rules: the misères declared, [[player_id, "tete" | "atout"], ...] in seat order.
    miseres = models.JSONField(default=list, blank=True)
    # From the score, kept for the sheet: did the attack win, and by how much.
    won = models.BooleanField(default=False)
    gap = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=1)
    # The game's revision that last wrote this deal: a poll asks for the deals written since.
    revision = models.PositiveIntegerField(default=0)
    # The id the phone made for this entry (a UUID): a retry of the same entry, sent again
    # after the network dropped, is recognised and saved once (`services.deal_add`).
    client_id = models.UUIDField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "games_deal"
        ordering = ["game", "number"]
        indexes = [models.Index(fields=["game", "revision"], name="deal_game_revision")]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_number_unique"),
            models.UniqueConstraint(fields=["game", "client_id"], name="deal_client_id_unique"),
            models.CheckConstraint(
                condition=models.Q(points_half__lte=182), name="deal_points_range"
            ),
            models.CheckConstraint(condition=models.Q(bouts__lte=3), name="deal_bouts_range"),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.number}"


class DealLine(models.Model):
    """A player's score for one deal, so that totals are a sum in the database."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="deal_lines")
    score = models.IntegerField()

    class Meta:
        db_table = "games_dealline"
        constraints = [
            models.UniqueConstraint(fields=["deal", "player"], name="dealline_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.deal_id}: {self.player_id} {self.score:+d}"
