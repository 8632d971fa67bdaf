"""Template helpers of the printouts: the rounds a director can print (signed scores: the
games' `scores` library)."""

from __future__ import annotations

from django import template

from tarotclub.tournaments.selectors import printable_rounds

register = template.Library()


@register.simple_tag
def print_rounds(tournament) -> list[dict]:
    """[{number, seated, current}] for each round that has sheets or a seating plan to print."""
    return printable_rounds(tournament)
