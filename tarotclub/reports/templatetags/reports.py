"""Template helpers of the printouts: signed scores, and the rounds a director can print."""

from __future__ import annotations

from django import template

from tarotclub.games.presenters import signed as _signed
from tarotclub.tournaments.selectors import printable_rounds

register = template.Library()


@register.filter
def signed(value) -> str:
    """+75, −25, 0 (a true minus sign, as on the screen)."""
    if value is None or value == "":
        return ""
    return _signed(int(value))


@register.simple_tag
def print_rounds(tournament) -> list[dict]:
    """[{number, seated, current}] for each round that has sheets or a seating plan to print."""
    return printable_rounds(tournament)
