"""The demo club loads the same way twice (moved out of test_demo_club.py, whose tests share
one load of the club: this one needs an empty database)."""

from __future__ import annotations

import pytest

from tarotclub.tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


def test_two_loads_of_the_demo_seat_the_same_tables():
    from tarotclub.demo.builders import demo_club

    def seating():
        return sorted(
            (t.tournament.name, t.round, t.number, tuple(s.player.name for s in t.game.seats.all()))
            for t in Table.objects.select_related("tournament", "game")
        )

    demo_club()
    first = seating()
    Tournament.objects.all().delete()
    demo_club()
    assert seating() == first
