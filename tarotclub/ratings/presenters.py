"""A player's rating as their page shows it: the figures and the chart of its history."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tarotclub.core.charts import line_chart
from tarotclub.games.presenters import figure

from . import selectors


def player_rating(player) -> dict | None:
    """The player's rating, its place on the leaderboard and its history as a chart; None
    before their first rated game. Three queries."""
    current = selectors.current(player)
    if current is None:
        return None
    history = selectors.history(player)
    ahead = selectors.ahead_of(current)
    points = [(e.at, round(e.rating, 2)) for e in history]
    chart = line_chart(
        [(_("Rating"), points)],
        title=_("Rating after each rated game"),
        x_label=_("Date"),
        y_label=_("Rating"),
    )
    return {
        "current": current,
        "rating": figure(current.rating, 1),  # a real minus sign, the reader's decimal mark
        "mu": figure(current.mu, 1),
        "sigma": figure(current.sigma, 1),
        "rank": ahead + 1,
        "chart": chart,
        "games": len(history),
    }
