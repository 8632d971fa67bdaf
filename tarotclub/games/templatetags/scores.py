"""Scores in templates, with the one minus sign every page uses (`games.presenters.MINUS`)."""

from __future__ import annotations

from django import template

from tarotclub.games import presenters

register = template.Library()


@register.filter
def score(value) -> str:
    """−25, 75, 0 (no plus sign); anything not a whole number is shown as it is."""
    return presenters.number(value) if isinstance(value, int) else value


@register.filter
def signed_score(value) -> str:
    """+75, −25, 0; nothing for a missing score; anything else is shown as it is."""
    if value is None or value == "":
        return ""
    return presenters.signed(value) if isinstance(value, int) else value
