"""A team match (duplicate par équipes, duplicate.md 2.4): two teams of 4 to 6 players, 16 to
24 boards in 4 quarters, each team's attacker against the other team's defence on the same
boards, in an open and a closed room."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tarotclub.players.models import Player

A, B = "A", "B"
TEAMS = (A, B)
QUARTERS = (1, 2, 3, 4)


class Team(models.TextChoices):
    A = A, _("team A")
    B = B, _("team B")


class MatchContract(models.TextChoices):
    """The contracts of a team match (p. 25–26): no pass, no prise."""

    GARDE = "garde", _("garde")
    GARDE_SANS = "garde_sans", _("garde sans")
    GARDE_CONTRE = "garde_contre", _("garde contre")


def placing_team(number: int) -> str:
    """Team A places the players in the rooms for quarters 1 and 3, team B for 2 and 4 (p. 25);
    the same team's attacker chooses the quarter's series of boards."""
    return A if number % 2 else B


class TeamMatch(models.Model):
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    boards = models.PositiveSmallIntegerField(_("boards"))
    a_name = models.CharField(_("team A"), max_length=80)
    b_name = models.CharField(_("team B"), max_length=80)
    a_bonus = models.DecimalField(
        _("bonus of team A"), max_digits=6, decimal_places=3, default=Decimal("0.000")
    )
    b_bonus = models.DecimalField(
        _("bonus of team B"), max_digits=6, decimal_places=3, default=Decimal("0.000")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: Grows by one with each edit of the match (`match_edit`): an edit opened at an older
    #: revision is refused, so a second director's screen cannot overwrite a newer edit.
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-pk"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(boards__gte=16, boards__lte=24), name="match_boards_range"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def per_quarter(self) -> int:
        return self.boards // 4

    def quarter_boards(self, number: int) -> range:
        """The boards of quarter `number`: the 4 quarters share them evenly, in order."""
        per = self.per_quarter
        return range((number - 1) * per + 1, number * per + 1)

    def team_name(self, team: str) -> str:
        return self.a_name if team == A else self.b_name


class Member(models.Model):
    """A player of one team; `order` 0 is the captain. A player is in one team only."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="members")
    team = models.CharField(_("team"), max_length=1, choices=Team)
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT)
    order = models.PositiveSmallIntegerField(_("order"))

    class Meta:
        ordering = ["team", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="match_member_once"),
            models.UniqueConstraint(fields=["match", "team", "order"], name="match_member_order"),
        ]

    def __str__(self) -> str:
        return f"{self.team}{self.order}: {self.player_id}"


class Quarter(models.Model):
    """One quarter, as the two captains enter it: each team's attacker (a different player of
    the team in each quarter), whose attacker plays in the closed room (chosen by the placing
    team, `placed_by`), and the boards' results (`Result`)."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="quarters")
    number = models.PositiveSmallIntegerField(_("quarter"))
    a_attacker = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    b_attacker = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    #: The team that placed the players in the rooms (A for quarters 1 and 3, B for 2 and 4).
    placed_by = models.CharField(_("rooms placed by"), max_length=1, choices=Team)
    #: The team whose attacker plays in the closed room ("" until the placing team says).
    closed = models.CharField(_("closed room"), max_length=1, choices=Team, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_quarter_once"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1, number__lte=4), name="match_quarter_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id} Q{self.number}"


class Result(models.Model):
    """One team's result on one board: its attacker's contract and signed board score."""

    quarter = models.ForeignKey(Quarter, on_delete=models.CASCADE, related_name="results")
    team = models.CharField(_("team"), max_length=1, choices=Team)
    board = models.PositiveSmallIntegerField(_("board"))
    contract = models.CharField(_("contract"), max_length=12, choices=MatchContract)
    score = models.IntegerField(_("score"))
    #: The deal's facts when the score was worked out from them (`services.facts_score`):
    #: {"bouts", "points_half", "petit_au_bout", "poignees": [[seat, kind]], "chelem"};
    #: None when the board score was entered as it is.
    facts = models.JSONField(_("deal's facts"), null=True, blank=True)

    class Meta:
        ordering = ["board", "team"]
        constraints = [
            models.UniqueConstraint(fields=["quarter", "team", "board"], name="match_result_once"),
        ]

    def __str__(self) -> str:
        return f"{self.quarter_id} {self.team}{self.board}: {self.score}"
