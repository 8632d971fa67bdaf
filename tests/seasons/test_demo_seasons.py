"""The demo club's seasons (moved out of test_views.py, whose tests want a database without the
demo club): the club is loaded once for both (tests/shared_data.py), some 12 s a load."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.seasons import selectors
from tests.shared_data import loaded_once

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """What demo_club() returns; the tests only read its two seasons."""
    from tarotclub.demo.builders import demo_club

    yield from loaded_once(django_db_blocker, demo_club)


def test_the_demo_club_has_a_season_of_six_evenings(client, built):
    standings = selectors.season_standings(built["season"])
    assert len(standings.evenings) == 6
    assert sum(1 for e in standings.evenings if e.tournament) == 2
    assert all(line.values for line in standings.lines) and len(standings.lines) >= 10
    assert client.get(reverse("seasons:standings", args=[built["season"].pk])).status_code == 200


def test_the_demo_club_has_a_keys_season_of_four_evenings(client, built):
    season = built["kind_season"]
    assert season.kind == "keys"
    standings = selectors.season_standings(season)
    assert len(standings.evenings) == 4
    assert len(standings.lines) == 5 and all(line.values for line in standings.lines)
    assert any(line.value for line in standings.lines)
    html = client.get(reverse("seasons:standings", args=[season.pk])).content.decode()
    assert "Keys of the Kingdom" in html
