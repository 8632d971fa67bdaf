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
