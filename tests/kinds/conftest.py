"""Games of the other kinds, and English for the messages the tests compare."""

from __future__ import annotations

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def start(member):
    """start(kind, players, first_dealer=0, **options) → a Game of that kind."""
    from tarotclub.games.services import game_start

    def make(kind, players, first_dealer=0, **options):
        return game_start(
            players=players,
            kind=kind,
            first_dealer=first_dealer,
            created_by=member,
            options=options,
        )

    return make


@pytest.fixture
def three(make_players):
    return make_players("Anne", "Bram", "Chloé")


@pytest.fixture
def ff(start, three):
    return start("foolsfaith", three)


@pytest.fixture
def dp(start, three):
    return start("deathspot", three, stake=1)


@pytest.fixture
def kk(start, three):
    return start("keys", three)


@pytest.fixture
def ck(start, three):
    return start("cuckoo", three, lives=2)
