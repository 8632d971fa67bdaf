"""A player's name as a link to their page, for the pages members see.

Pages a phone opens from a table's share link (no account) keep plain names: the player
pages are for members only. Each caller says whether the viewer is a member.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.safestring import SafeString

from tarotclub.core.text import escaped, no_break_hyphens


def player_url(pk: int) -> str:
    return reverse("players:detail", args=[pk])


def player_name(pk: int | None, label: str, *, link: bool, url=player_url) -> SafeString:
    """`label` (escaped, hyphens kept together), as a link to player `pk`'s page when `link`.
    `url(pk)` makes the page's address (`player_urls()` for a long list)."""
    text = escaped(no_break_hyphens(label))
    if not link or pk is None:
        return text
    # (format_html's markup, built without its checks: a long list has a name a row)
    return SafeString(f'<a class="player-link" href="{escaped(url(pk))}">{text}</a>')


_SENTINEL = 987654321  # stands for a pk in a URL reversed once


def player_urls():
    """`url(pk)`, the same as `player_url`, reversed once for a whole list of names."""
    head, tail = player_url(_SENTINEL).rsplit(str(_SENTINEL), 1)
    return lambda pk: f"{head}{pk}{tail}"


def is_member(user) -> bool:
    """Player pages are for anybody logged in (see `players.views`)."""
    return bool(user is not None and user.is_authenticated)
