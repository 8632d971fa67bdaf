"""What every kind's sheet is made of: the boxes on top, and one row per entry.

A kind builds a `Summary` (one `PlayerCard` per player, then a few lines: who deals next, the
pot, who rests, ...) and a list of `Row`s (one per entry, with a `Cell` per player); the
shared templates and `tables.HistoryTable` show them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.html import format_html

from tarotclub.core.text import no_break_hyphens

MINUS = "−"  # U+2212, the minus sign every page and printout uses


def signed(value: int) -> str:
    """+5, −3, 0."""
    return f"+{value}" if value > 0 else (f"{MINUS}{-value}" if value < 0 else "0")


def number(value: int) -> str:
    """−3, 5: a real minus sign, like `signed`, but no plus."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def compact_name(label, longest: int = 9) -> str:
    """A player's label for a narrow column: a long hyphenated first name keeps its first part
    and the initial of the rest ("Marie-Christine" → "Marie-C."), a long word its first
    letters ("Maximilien" → "Maximil."); it never breaks at its hyphen. The full name goes in
    the column's title."""
    words = []
    for word in str(label).split(" "):
        head, dash, rest = word.partition("-")
        if dash and rest and len(word) > longest:
            word = f"{head}-{rest[0]}."
        if len(word) > longest:  # "Bartholomeus" → "Barthol."
            word = word[: longest - 2] + "."
        words.append(word)
    return no_break_hyphens(" ".join(words))


def compact_names(players) -> dict:
    """pk → `compact_name` of each player's label, unless two would read the same."""
    labels = {p.pk: p.label if hasattr(p, "label") else p.short_name for p in players}
    compact = {pk: compact_name(label) for pk, label in labels.items()}
    if len(set(compact.values())) < len(compact):
        return {pk: no_break_hyphens(label) for pk, label in labels.items()}
    return compact


def figure(value, digits: int = 0) -> str:
    """A figure in the reader's language, rounded half up to `digits` decimals (never
    truncated), with a real minus sign: −12.3, 67, 0 (a value that rounds to 0 has no sign)."""
    from decimal import ROUND_HALF_UP, Decimal

    from django.utils.formats import number_format

    if isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        exact = Decimal(str(value))
    rounded = exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    text = number_format(abs(rounded), decimal_pos=digits)
    return f"{MINUS}{text}" if rounded < 0 else text


def join_names(pks: Sequence, names: Mapping) -> str:
    return ", ".join(names.get(pk, "?") for pk in pks)


@dataclass
class PlayerCard:
    """One player's box on top of the sheet."""

    pk: int
    label: str
    value: str
    sub: str = ""
    css: str = ""
    title: str = ""  # the full name, where `label` is a short one
    compact: str = ""  # the label as a narrow box shows it (`compact_name`)


@dataclass
class Summary:
    cards: list[PlayerCard]
    lines: list[str] = field(default_factory=list)
    over: bool = False
    headline: str = ""  # "Game over: Anne won." when the game is over
    winner: int | None = None

    @property
    def cols(self) -> str:
        """The boxes in even rows on a phone (as many columns as the choice buttons)."""
        from .forms import choice_cols

        return choice_cols(len(self.cards))


@dataclass
class Cell:
    main: str
    sub: str = ""
    css: str = ""


@dataclass
class Row:
    number: int
    dealer: str
    summary: str
    cells: dict[int, Cell]


def html_cell(cell: Cell):
    template = '<span class="{}">{}</span><br><small class="muted">{}</small>'
    return format_html(template, cell.css, cell.main, cell.sub)
