"""Each player's French Tarot rating, derived from the rated games (`scoring.ratings`).

Everything here is derived data: it is rebuilt from the games' stored deals by
`services.ratings_refresh`, never entered by hand, so it has no history of its own (the
games' history is the record). A rated game is a French Tarot game, not archived, with at
least one deal, that is over: a casual game once finished, a tournament table once its sheet
is confirmed (`selectors.rated_games`).
"""

from __future__ import annotations

from django.db import models

from tarotclub.games.models import Game
from tarotclub.players.models import Player


class RatingEvent(models.Model):
    """One player's rating change from one rated game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_events")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_events")
    # The game's place in the rating order (its start, then its id): copied here so that the
    # history is read in order without a join.
    at = models.DateTimeField()
    revision = models.PositiveIntegerField()  # the game's revision these figures were made from
    place = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_event_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "at", "game"], name="rating_event_player_at"),
            models.Index(fields=["at", "game"], name="rating_event_at"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.game_id}: {self.rating:.1f}"

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def change(self) -> float:
        return self.rating - (self.mu_before - 3 * self.sigma_before)


class PlayerRating(models.Model):
    """A player's rating after their last rated game (what the leaderboard lists)."""

    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(db_index=True)  # mu - 3 sigma, the conservative estimate
    games = models.PositiveIntegerField()
    last_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.1f}"


class RatingState(models.Model):
    """One row, locked by whoever brings the ratings up to date, so two never do it at once."""

    refreshed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"ratings refreshed at {self.refreshed_at}"
