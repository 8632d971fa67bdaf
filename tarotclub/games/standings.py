"""Helpers for the kinds' standings: one line of figures per player, rates as exact ratios."""

from __future__ import annotations

from fractions import Fraction


def player_line(lines: dict, player, **zeros) -> dict:
    """The player's line in `lines` (made with these zeros the first time)."""
    if player.pk not in lines:
        lines[player.pk] = {"pk": player.pk, "player": player.short_name, **zeros}
    return lines[player.pk]


def ratio(num, den) -> float | None:
    """num / den, or None when there is nothing to divide by."""
    return float(Fraction(num, den)) if den else None
