"""What a person types, made safe to store (clean_text) and to compare (text_key)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tarotclub.core.text import clean_text, text_key

#: Every character that can hide in a name: zero-width, bidi controls, other format/controls.
HIDDEN = (
    "\u200b\u200c\u200d\u2060\ufeff"  # zero-width
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"  # bidi
    "\x00\x07\x1b\x7f\x9b\u00ad\u180e\u2061\u2064\U000e0001\U000e0041\ufe0f\u3164\u2800"
)
SPACES = " \t\n\r\x0b\x0c\x1c\x85\u00a0\u1680\u2000\u2007\u200a\u2028\u2029\u202f\u205f\u3000"

any_text = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.characters(),  # lone surrogates too
        st.sampled_from(HIDDEN + SPACES + "éeE\u0301\u0308\u0327ßẞİıﬁ’'-‐–"),
    ),
    max_size=60,
)


def is_hidden(ch: str) -> bool:
    return unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co"} or ch in HIDDEN


@given(any_text)
@example("e\u200b\u0301")  # a mark that a zero-width space kept from its letter
@example("\u0958")  # NFC decomposes this one (composition exclusion)
@example("a" + "\u0301" * 40)
def test_clean_text_is_idempotent_and_leaves_nothing_hidden(text):
    cleaned = clean_text(text)
    assert clean_text(cleaned) == cleaned
    assert unicodedata.is_normalized("NFC", cleaned)
    assert not any(is_hidden(ch) for ch in cleaned)
    assert cleaned == cleaned.strip()
    assert "  " not in cleaned
    assert not any(ch.isspace() and ch != " " for ch in cleaned)
    cleaned.encode("utf-8")  # storable: no lone surrogate


@given(any_text, st.integers(min_value=1, max_value=30))
def test_clean_text_keeps_to_the_length(text, max_length):
    cleaned = clean_text(text, max_length)
    assert len(cleaned) <= max_length
    assert clean_text(cleaned, max_length) == cleaned


@given(any_text)
def test_text_key_is_idempotent_and_equal_for_look_alikes(text):
    key = text_key(text)
    assert text_key(key) == key
    assert key == text_key(clean_text(text))
    assert text_key(text.upper()) == text_key(text.lower()) or not text.isascii()
    assert text_key(text.swapcase()) == key or not text.isascii()


@given(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=20),
    st.lists(st.sampled_from(HIDDEN), max_size=5),
    st.integers(min_value=0, max_value=20),
)
def test_hidden_characters_anywhere_give_the_same_key(name, hidden, where):
    where = min(where, len(name))
    spoofed = name[:where] + "".join(hidden) + name[where:]
    assert text_key(spoofed) == text_key(name)
    assert clean_text(spoofed) == clean_text(name)


@given(st.sampled_from(["Élodie Leroy", "François Dubois", "Jérôme Lefèvre", "Zoë Maes"]))
def test_accents_and_case_give_the_same_key(name):
    plain = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    variants = [name, name.lower(), name.upper(), plain, plain.lower(), plain.upper()]
    variants.append(unicodedata.normalize("NFD", name))
    assert {text_key(v) for v in variants} == {text_key(name)}


@pytest.mark.parametrize(
    "typed, stored",
    [
        ("  Jan   Peeters ", "Jan Peeters"),
        ("Claire\u200b Martin", "Claire Martin"),
        ("Claire\u200bMartin", "ClaireMartin"),
        ("\u202eniraM erialC", "niraM erialC"),
        ("Jan\tPeeters\r\n", "Jan Peeters"),
        ("Anne\u00a0Dubois", "Anne Dubois"),
        ("E\u0301lodie", "Élodie"),
        ("\ufeffBram", "Bram"),
        ("\u200b\u200d\u2060", ""),
        ("\u3164", ""),
        (None, ""),
    ],
)
def test_clean_text_examples(typed, stored):
    assert clean_text(typed) == stored


@pytest.mark.parametrize(
    "a, b",
    [
        ("élodie leroy", "Élodie Leroy"),
        ("Claire\u200b Martin", "Claire Martin"),
        ("ELODIE LEROY", "Élodie Leroy"),
        ("Strauß", "STRAUSS"),
        ("Jeanne d’Arc", "Jeanne d'Arc"),
        ("Anne‐Marie", "Anne-Marie"),
        ("ﬁlip", "Filip"),
        ("Ｊａｎ", "Jan"),
    ],
)
def test_look_alikes_share_a_key(a, b):
    assert text_key(a) == text_key(b)


@pytest.mark.parametrize(
    "a, b", [("Anne", "Anna"), ("Jan Peeters", "Jan Peters"), ("Anne-Marie", "Anne Marie")]
)
def test_different_names_keep_different_keys(a, b):
    assert text_key(a) != text_key(b)


# --- no_break_hyphens: a line wraps only at spaces -------------------------------------------


def test_hyphens_inside_words_do_not_break():
    from tarotclub.core.text import NON_BREAKING_HYPHEN, no_break_hyphens

    assert no_break_hyphens("Marie-Christine Vanderhaegen-Dubois") == (
        f"Marie{NON_BREAKING_HYPHEN}Christine Vanderhaegen{NON_BREAKING_HYPHEN}Dubois"
    )
    assert no_break_hyphens("QR-code:") == f"QR{NON_BREAKING_HYPHEN}code:"
    # a dash between spaces, a minus sign before a number and a lone hyphen stay as they are
    assert no_break_hyphens("Anne - Bram") == "Anne - Bram"
    assert no_break_hyphens("-12") == "-12"
    assert no_break_hyphens("-") == "-"


@given(st.text())
def test_no_break_hyphens_only_swaps_inner_hyphens(text):
    from tarotclub.core.text import NON_BREAKING_HYPHEN, no_break_hyphens

    out = no_break_hyphens(text)
    assert len(out) == len(text)
    assert out.replace(NON_BREAKING_HYPHEN, "-") == text.replace(NON_BREAKING_HYPHEN, "-")
    # no breakable hyphen is left between two word characters
    assert not re.search(r"\w-\w", out)


def test_the_nobreak_filter_keeps_markup_and_escapes_text():
    from django.template import engines
    from django.utils.safestring import mark_safe

    template = engines["django"].from_string(
        "{% load typography %}{{ name|nobreak }}|{{ safe|nobreak }}"
    )
    html = template.render(
        {"name": "<b>Jean-Luc</b>", "safe": mark_safe('<a data-x-y="a-b">Jean-Luc</a>')}
    )
    plain, safe = html.split("|")
    assert plain == "&lt;b&gt;Jean\u2011Luc&lt;/b&gt;"
    assert safe == '<a data-x-y="a-b">Jean\u2011Luc</a>'


def test_no_break_hyphens_keeps_the_tags_of_safe_markup():
    from django.utils.html import format_html

    from tarotclub.core.text import NON_BREAKING_HYPHEN, no_break_hyphens

    html = format_html('<span class="dp-name">{}</span> takes-all', "Marie-Christine")
    out = no_break_hyphens(html)
    nb = NON_BREAKING_HYPHEN
    assert out == f'<span class="dp-name">Marie{nb}Christine</span> takes{nb}all'
    assert hasattr(out, "__html__")  # still safe: not escaped a second time


@given(any_text)
@example("Jean-Baptiste <b>&</b> \"Fils\" 'Ô'")
def test_escaped_is_djangos_conditional_escape(text):
    from django.utils.html import conditional_escape
    from django.utils.safestring import SafeString, mark_safe

    from tarotclub.core.text import escaped

    for value in (text, mark_safe(text), 12, -3):
        found, expected = escaped(value), conditional_escape(value)
        assert found == expected and type(found) is type(expected) is SafeString


def test_escaped_reads_a_lazy_translation_as_django_does():
    from django.utils.html import conditional_escape
    from django.utils.translation import gettext_lazy, override

    from tarotclub.core.text import escaped

    with override("fr"):
        assert escaped(gettext_lazy("Standings")) == conditional_escape(gettext_lazy("Standings"))
        assert escaped(gettext_lazy("Standings")) == "Classement"


@given(any_text)
@example("Jean-Baptiste <b>&</b> Fils")
def test_a_players_name_is_the_markup_format_html_made(text):
    """`player_name` builds its link without format_html (a name a row of long lists): the
    same markup, for plain and already safe labels, as a link or not."""
    from django.utils.html import format_html
    from django.utils.safestring import SafeString, mark_safe

    from tarotclub.core.text import no_break_hyphens
    from tarotclub.players.links import player_name

    def before(pk, label, *, link, url):
        label = no_break_hyphens(label)
        if not link or pk is None:
            return format_html("{}", label)
        return format_html('<a class="player-link" href="{}">{}</a>', url(pk), label)

    def url(pk):
        return f"/players/{pk}/?a=1&b=<2>"

    for label in (text, mark_safe(f"<i>{text}</i>")):
        for pk, link in ((7, True), (7, False), (None, True)):
            found = player_name(pk, label, link=link, url=url)
            assert found == before(pk, label, link=link, url=url)
            assert type(found) is SafeString
