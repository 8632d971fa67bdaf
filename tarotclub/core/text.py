"""Text a person types: made safe to store (`clean_text`) and to compare (`text_key`).

A name typed on a phone may carry characters nobody sees: zero-width spaces, right-to-left
overrides, a byte-order mark pasted from a spreadsheet. Two names that look the same must be
the same name, and a name must show as it was typed, never reversed or hidden. Every app that
stores a name or other free text a person types cleans it with `clean_text`; every duplicate
check or name search compares `text_key`s.

Pure Python, no Django: usable from anywhere, tested without a database.
"""

from __future__ import annotations

import html
import re
import unicodedata

from django.utils.html import conditional_escape
from django.utils.safestring import SafeData, SafeString, mark_safe

#: Default-ignorable code points (Unicode's DerivedCoreProperties), a few blank-looking letters
#: (Hangul fillers, the blank Braille pattern) and the non-characters: none belongs in a name.
_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors, vowel separator
    (0x200B, 0x200F),  # zero-width space, non-joiner, joiner; LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated formats
    (0x2800, 0x2800),  # Braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFDD0, 0xFDEF),  # non-characters
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # zero-width no-break space, byte-order mark
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),  # reserved specials
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical format controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement
)
#: Control (Cc), format (Cf), surrogate (Cs) and private-use (Co) characters are dropped.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})
#: Combining marks kept on one letter: enough for any language (Vietnamese uses two), not for
#: "zalgo" text that spills over the rows above and below it.
MAX_MARKS = 4

_SPACES = re.compile(r"\s+")
#: Look-alike punctuation a key treats as one: apostrophes and hyphens.
_KEY_PUNCTUATION = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201b\u2032\u02bc\u02bb\u00b4\u0060\uff07", "'"),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d", "-"),
    }
)


def _invisible(code: int) -> bool:
    if (code & 0xFFFE) == 0xFFFE:  # U+xFFFE, U+xFFFF: non-characters in every plane
        return True
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def _visible_chars(text: str):
    """Whitespace as one space; what is invisible, or a control, dropped."""
    for ch in text:
        if ch.isspace():
            yield " "
        elif unicodedata.category(ch) in _DROPPED_CATEGORIES or _invisible(ord(ch)):
            continue
        else:
            yield ch


def _cap_marks(text: str) -> str:
    out: list[str] = []
    marks = 0
    for ch in text:
        if unicodedata.category(ch) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out)


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFC", "".join(_visible_chars(text)))
    text = unicodedata.normalize("NFC", _cap_marks(text))
    return _SPACES.sub(" ", text).strip()


def clean_text(value: object, max_length: int | None = None) -> str:
    """`value` as it should be stored: Unicode NFC; zero-width, bidi and other control or format
    characters removed; each run of whitespace one space; no space at either end; at most
    `max_length` characters (cut at the end; a form or service that must refuse longer text
    checks the length of the cleaned text first).

    Idempotent: clean_text(clean_text(x)) == clean_text(x). None gives "".
    """
    if value is None:
        return ""
    text = _clean(str(value))
    if max_length is not None:
        while len(text) > max_length:
            text = _clean(text[:max_length])
    return text


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me"))


def text_key(value: object) -> str:
    """What two texts share when a person would call them the same: cleaned, compatibility
    decomposed (ﬁ → fi, full-width letters → plain), without accents, case-folded (ß → ss),
    one kind of apostrophe and hyphen, spaces collapsed.

    "élodie leroy", "ÉLODIE LEROY" and "Elodie\u200b Leroy" all give "elodie leroy".
    Compare keys, or search with `needle in key`, never the raw texts.
    """
    text = _fold(_fold(clean_text(value)).casefold())
    text = text.translate(_KEY_PUNCTUATION)
    return _SPACES.sub(" ", "".join(_visible_chars(text))).strip()


#: A hyphen between two letters or digits ("QR-code", "Marie-Christine"), where a browser
#: would break a line and split the word in two.
_BREAKABLE_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")
NON_BREAKING_HYPHEN = "\u2011"


def no_break_hyphens(value: object) -> str:
    """The text with each hyphen inside a word made non-breaking (U+2011), so that a line
    wraps only at spaces and no word ("Jean-Baptiste", "QR-code") is split over two lines."""
    if isinstance(value, SafeData):
        # Markup already made safe keeps its tags (and their attributes) as they are: only
        # the text between them changes.
        parts = _TAG.split(str(value))
        return mark_safe(
            "".join(
                p if i % 2 else _BREAKABLE_HYPHEN.sub(NON_BREAKING_HYPHEN, p)
                for i, p in enumerate(parts)
            )
        )
    return _BREAKABLE_HYPHEN.sub(NON_BREAKING_HYPHEN, str(value))


_TAG = re.compile(r"(<[^>]*>)")


def escaped(value: object) -> SafeString:
    """Django's `conditional_escape`, the same result, made quicker for a plain string (a name
    in a list of 2,000): `conditional_escape` first asks every argument whether it is a lazy
    translation, and that was a third of a long list's time."""
    if type(value) is str:
        return SafeString(html.escape(value))
    return conditional_escape(value)
