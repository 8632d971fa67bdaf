"""Template filters for text that must wrap only at spaces."""

from django import template

from tarotclub.core.text import no_break_hyphens

register = template.Library()


@register.filter(is_safe=True)
def nobreak(value):
    """`{{ name|nobreak }}`: hyphens inside words do not break the line (see core.text);
    markup already made safe keeps its tags as they are."""
    return no_break_hyphens(value)
