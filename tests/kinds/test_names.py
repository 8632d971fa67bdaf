"""The games' names and Cuckoo's cards in French and Dutch, and Fool's Faith's suggested
challenges in the language of whoever asks for them."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tarotclub.games import kinds
from tarotclub.kinds.cuckoo.labels import RANK_LABELS
from tarotclub.kinds.foolsfaith.models import Challenge
from tarotclub.kinds.foolsfaith.services import SUGGESTED_CHALLENGES

NAMES = {
    "foolsfaith": {"fr": "La Foi du Fou", "nl": "Het Geloof van de Dwaas"},
    "deathspot": {"fr": "Le Pot de la Mort", "nl": "De Pot van de Dood"},
    "keys": {"fr": "Les Clefs du Royaume", "nl": "De Sleutels van het Koninkrijk"},
    "cuckoo": {"fr": "Coucou", "nl": "Koekoek"},
}


@pytest.mark.parametrize("lang", ["fr", "nl"])
@pytest.mark.parametrize("identifier", sorted(NAMES))
def test_every_game_has_its_name_in_french_and_dutch(identifier, lang):
    with translation.override(lang):
        assert str(kinds.get(identifier).verbose_name) == NAMES[identifier][lang]
        assert dict(kinds.choices())[identifier] == NAMES[identifier][lang]


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_cuckoos_cards_are_named_in_french_and_dutch(lang):
    with translation.override("en"):
        english = {rank: str(label) for rank, label in RANK_LABELS.items()}
    with translation.override(lang):
        named = {rank: str(label) for rank, label in RANK_LABELS.items()}
    # every card but the Pot (French keeps "Pot") reads differently from the English
    differ = {rank for rank in named if named[rank] != english[rank]}
    assert differ >= set(RANK_LABELS) - {"pot"}
    assert named["cuckoo"] == NAMES["cuckoo"][lang]
    assert len(set(named.values())) == len(named)  # no two cards share a name


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["fr", "nl", "en"])
def test_the_suggested_challenges_come_in_the_askers_language(client, member, lang):
    client.force_login(member)
    client.cookies["django_language"] = lang
    client.post(reverse("foolsfaith:challenges"), {"suggest": "1"})
    stored = list(Challenge.objects.order_by("order").values_list("text", flat=True))
    with translation.override(lang):
        expected = [str(t) for t in SUGGESTED_CHALLENGES]
    assert stored == expected and len(stored) == 10
    if lang != "en":
        with translation.override("en"):
            assert stored[0] != str(SUGGESTED_CHALLENGES[0])


@pytest.mark.parametrize("lang", ["fr", "nl"])
def test_no_french_or_dutch_sentence_keeps_an_english_game_name(lang):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "locale" / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    english = ["Fool's Faith", "Death's Pot", "Keys of the Kingdom", "Cuckoo"]
    kept = []
    for entry in text.split("\n\n"):
        if entry.startswith("#~"):
            continue  # obsolete
        translated = entry.partition("\nmsgstr")[2]
        if any(name in translated for name in english):
            kept.append(entry.partition("msgid ")[2][:60])
    assert len(text) > 10_000 and kept == []
