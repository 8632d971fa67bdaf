"""A club's season: its dates, the evenings that count, and the formula that ranks them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring import season as rules
from tarotclub.tournaments.models import Tournament


class Formula(models.TextChoices):
    TOTAL = rules.TOTAL, _("total score")
    BEST = rules.BEST, _("sum of the best N evenings")
    PLACES = rules.PLACES, _("points by place")
    AVERAGE = rules.AVERAGE, _("average per round, with a minimum attendance")


def kind_choices():
    """The registered game kinds (`games.kinds`), read when the choices are needed."""
    from tarotclub.games.kinds import choices

    return choices()


TAROT = "tarot"


def default_points() -> list[int]:
    return list(rules.DEFAULT_POINTS)


class Season(models.Model):
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("game"), max_length=12, choices=kind_choices, default=TAROT)
    start = models.DateField(_("from"))
    end = models.DateField(_("to"))
    formula = models.CharField(
        _("ranking formula"), max_length=10, choices=Formula, default=Formula.TOTAL
    )
    best_n = models.PositiveSmallIntegerField(_("best N evenings"), null=True, blank=True)
    points = models.JSONField(_("points by place"), default=default_points, blank=True)
    min_attendance = models.PositiveSmallIntegerField(_("minimum attendance"), default=1)
    include_casual = models.BooleanField(_("casual games count"), default=False)
    tournaments = models.ManyToManyField(
        Tournament, verbose_name=_("tournaments"), blank=True, related_name="seasons"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-start", "-pk"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="season_dates_order"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def game_kind(self):
        """The season's game kind (`games.kinds.Kind`), or None if it is no longer installed."""
        from tarotclub.games import kinds

        return kinds.get(self.kind)

    @property
    def is_tarot(self) -> bool:
        return self.kind == TAROT

    def rule(self) -> rules.Formula:
        """The formula as `scoring.season` computes it."""
        return rules.Formula(
            kind=self.formula,
            best_n=self.best_n if self.formula in (Formula.BEST, Formula.PLACES) else None,
            points=tuple(self.points or rules.DEFAULT_POINTS),
            min_attendance=self.min_attendance if self.formula == Formula.AVERAGE else 0,
        )
