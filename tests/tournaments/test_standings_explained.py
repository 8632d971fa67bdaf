"""The standings page says how it ranks: balances per round (the score sheet's), summed or
averaged, and why tables of 3 or 5 compare with tables of 4 (duplicate.md 3.3)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.tournaments import services

from .helpers import make_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("ranking", "allow_three", "says"),
    [
        ("total", False, ["adds up the balances"]),
        ("average", False, ["average balance per round played"]),
        ("average", True, ["average balance per round played"]),
    ],
)
def test_the_page_explains_the_ranking(client, ranking, allow_three, says):
    t, _ = make_tournament(6, rounds=2, deals=1, ranking=ranking, allow_three=allow_three)
    services.tournament_start(tournament=t)
    page = client.get(reverse("tournaments:standings", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    text = text.replace("&#x27;", "'")
    assert "balance on their table's score sheet" in text
    assert "at a table of 3 as at a table of 4" in text
    for phrase in says:
        assert phrase in text
    others = {"adds up the balances", "average balance per round played"} - set(says)
    assert not any(phrase in text for phrase in others)
