"""How the tournament pages show a name: a hyphenated word never breaks at its hyphen."""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe


def unbroken(text) -> SafeString:
    """`text` escaped, each word holding a hyphen kept on one line ("Castelnau-Lafontaine"
    wraps before or after it, never at its hyphen); the line still wraps at spaces."""
    words = str(text).split(" ")
    out = [
        format_html('<span class="nobr">{}</span>', w) if "-" in w else conditional_escape(w)
        for w in words
    ]
    return mark_safe(" ".join(out))  # noqa: S308 (every part escaped above)
