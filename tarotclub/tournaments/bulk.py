"""Reading a pasted list of players for a registration in bulk (no database).

One player a line: "Name;licence", "Name, licence", "Name<TAB>licence", "Name 1234567" or
only "Name". After a comma or a space, what follows is a licence only when it looks like one
(letters, digits and hyphens, with at least one digit): "Martin, Anne" is a name. Blank lines
are skipped. The paste is bounded (`MAX_LINES`, `MAX_CHARS`); every bad line is reported with
its number and nothing is read from a paste that has one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import clean_text
from tarotclub.players.models import NAME_MAX, name_key

MAX_LINES = 250
MAX_CHARS = 20_000

ERR_TOO_MANY = _("Paste at most %(max)s lines at once (%(count)s given).")
ERR_TOO_LONG = _("Paste at most %(max)s characters at once.")
ERR_EMPTY = _("Paste at least one name.")
ERR_NAME_EMPTY = _("No name before the licence.")
ERR_NAME_LONG = _("A name has at most 80 characters.")
ERR_LICENCE = _("A licence number has only letters and digits (at most 20).")
ERR_TWICE = _("This name is already on line %(line)s.")
ERR_LICENCE_TWICE = _("This licence is already on line %(line)s.")

_LICENCE = re.compile(r"[A-Za-z0-9-]{1,20}")
_LOOKS_LIKE_LICENCE = re.compile(r"(?=[A-Za-z0-9-]*\d)[A-Za-z0-9-]{1,20}")


@dataclass(frozen=True)
class Line:
    number: int  # in the paste, from 1
    name: str
    licence: str
    key: str  # the name's key (players.models.name_key)
    #: When the licence was only guessed (after a comma or a space): the whole line's key.
    #: A roster player called so ("Player 0042") is that player, without a licence.
    whole_key: str = ""


@dataclass(frozen=True)
class LineError:
    number: int  # 0: the whole paste
    text: str
    code: str
    message: str


def _split(raw: str) -> tuple[str, str, bool]:
    """(name, licence, explicit): ';' and a tab always separate; a comma or the last space
    only before something that looks like a licence."""
    for sep in (";", "\t"):
        if sep in raw:
            name, _sep, licence = raw.partition(sep)
            return name, licence, True
    for sep in (",", " "):
        head, found, tail = raw.strip().rpartition(sep)
        if found and head.strip() and _LOOKS_LIKE_LICENCE.fullmatch(tail.strip()):
            # "Louis XIV" has no digit: a name; "Anne Martin 1234567" has a licence
            return head, tail, False
    return raw, "", False


def parse(text: str) -> tuple[list[Line], list[LineError]]:
    """The players a paste names, or the reasons it cannot be read (then no line at all)."""
    text = text or ""
    if len(text) > MAX_CHARS:
        message = ERR_TOO_LONG % {"max": MAX_CHARS}
        return [], [LineError(0, "", "too_long", str(message))]
    raw_lines = text.splitlines()
    filled = [(i, raw) for i, raw in enumerate(raw_lines, start=1) if clean_text(raw)]
    if len(filled) > MAX_LINES:
        message = ERR_TOO_MANY % {"max": MAX_LINES, "count": len(filled)}
        return [], [LineError(0, "", "too_many", str(message))]
    lines: list[Line] = []
    errors: list[LineError] = []
    keys: dict[str, int] = {}
    licences: dict[str, int] = {}
    for number, raw in filled:
        shown = clean_text(raw, 120)
        name_part, licence_part, explicit = _split(raw)
        name, licence = clean_text(name_part), clean_text(licence_part)

        def refuse(code, message, number=number, shown=shown):
            errors.append(LineError(number, shown, code, str(message)))

        if not name:
            refuse("name_empty", ERR_NAME_EMPTY)
            continue
        if len(name) > NAME_MAX:
            refuse("name_long", ERR_NAME_LONG)
            continue
        if licence and not _LICENCE.fullmatch(licence):
            refuse("licence", ERR_LICENCE)
            continue
        key = name_key(name)
        if not key:
            refuse("name_empty", ERR_NAME_EMPTY)
            continue
        if key in keys:
            refuse("twice", ERR_TWICE % {"line": keys[key]})
            continue
        if licence and licence.upper() in licences:
            refuse("licence_twice", ERR_LICENCE_TWICE % {"line": licences[licence.upper()]})
            continue
        keys[key] = number
        if licence:
            licences[licence.upper()] = number
        whole = name_key(clean_text(raw)) if licence and not explicit else ""
        lines.append(Line(number=number, name=name, licence=licence, key=key, whole_key=whole))
    if errors:
        return [], errors
    if not lines:
        return [], [LineError(0, "", "empty", str(ERR_EMPTY))]
    return lines, []
