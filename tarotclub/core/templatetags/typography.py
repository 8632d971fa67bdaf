"""Template filters for text that must wrap only at spaces."""

import re

from django import template
from django.utils.safestring import SafeData, mark_safe

from tarotclub.core.text import no_break_hyphens

register = template.Library()
_TAG = re.compile(r"(<[^>]*>)")


@register.filter(is_safe=True)
def nobreak(value):
    """`{{ name|nobreak }}`: hyphens inside words do not break the line (see core.text).

    Markup already made safe keeps its tags as they are: only the text between them changes.
    """
    if isinstance(value, SafeData):
        parts = _TAG.split(str(value))
        return mark_safe("".join(p if i % 2 else no_break_hyphens(p) for i, p in enumerate(parts)))
    return no_break_hyphens(value)
