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


def places(values: dict) -> dict:
    """Places at a table from each player's figure (higher is better): 1 for the best,
    players level share a place (1, 1, 3)."""
    return {pk: 1 + sum(1 for v in values.values() if v > value) for pk, value in values.items()}
