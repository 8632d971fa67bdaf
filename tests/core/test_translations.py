"""French, Dutch and English ship complete: no empty or fuzzy entry, placeholders kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*\}")


def entries(path: Path):
    """(flags, msgid, msgstrs) of every entry but the header, from a .po file."""
    text = path.read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        flags = " ".join(line for line in lines if line.startswith("#,"))
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) "(.*)"$', line)
            if match:
                key = match.group(1)
                fields[key] = match.group(2)
            elif line.startswith('"') and key:
                fields[key] += line[1:-1]
        if fields.get("msgid"):
            strs = [v for k, v in fields.items() if k.startswith("msgstr")]
            yield flags, fields["msgid"], fields.get("msgid_plural"), strs


@pytest.mark.parametrize("lang", ["fr", "nl", "en"])
def test_catalogue_is_complete(lang):
    found = list(entries(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    assert len(found) > 500
    for flags, msgid, plural, strs in found:
        assert "fuzzy" not in flags, msgid
        assert strs and all(strs), f"untranslated: {msgid!r}"
        for s in strs:
            if plural is None:
                assert sorted(PLACEHOLDER.findall(s)) == sorted(PLACEHOLDER.findall(msgid)), (
                    lang,
                    msgid,
                    s,
                )
            else:  # a plural form may leave out the number it counts ("the best evening")
                given, named = set(PLACEHOLDER.findall(s)), set(PLACEHOLDER.findall(plural))
                assert given <= named and len(named - given) <= 1, (lang, msgid, s)


@pytest.mark.parametrize(
    "lang, expected",
    [("fr", "Nouvelle donne"), ("nl", "Nieuw spel"), ("en", "New deal")],
)
def test_compiled_catalogue_is_used(lang, expected):
    with translation.override(lang):
        assert translation.gettext("New deal") == expected
