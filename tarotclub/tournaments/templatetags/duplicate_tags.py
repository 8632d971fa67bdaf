"""Duplicate figures in templates: grades to 1 decimal, percentages to 2 (duplicate.md, open
question 4), in the reader's language with the real minus sign (`games.presenters.figure`)."""

from __future__ import annotations

from django import template

from tarotclub.games import presenters

register = template.Library()


@register.filter
def figure(value, digits=0) -> str:
    """`{{ grade|figure:1 }}`: 66,7 in French; nothing for a missing value."""
    if value is None or value == "":
        return ""
    return presenters.figure(value, int(digits))


@register.filter
def pm(value) -> str:
    """`{{ total|pm }}`: match points to 3 decimals with their sign (+12,961, −3,162, 0,000)."""
    if value is None or value == "":
        return ""
    text = presenters.figure(value, 3)
    return f"+{text}" if value > 0 else text
