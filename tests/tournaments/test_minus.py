"""One minus sign on the tournament standings as on the sheets; the exports keep plain numbers."""

from __future__ import annotations

import pytest
from django.utils import translation

from tarotclub.games.presenters import MINUS
from tarotclub.tournaments import selectors
from tarotclub.tournaments.tables import StandingsTable

from .test_standings import play_deals

pytestmark = pytest.mark.django_db


def test_negative_totals_rounds_and_averages_print_a_minus_sign():
    t, _players = play_deals([(0, "prise", 40), (0, "prise", 40)])
    with translation.override("fr"):
        standings = selectors.standings(t)
        table = StandingsTable(standings, show_average=True)
        losing = [r for r in table.rows if r.record["total"] < 0]
        assert losing
        row = losing[0]
        assert row.get_cell("total").startswith(MINUS)
        assert row.get_cell("r1").startswith(MINUS)
        assert row.get_cell("average").startswith(MINUS) and "," in row.get_cell("average")
        assert "-" not in row.get_cell("total")
        assert row.get_cell_value("total") == row.record["total"]  # the export: a number
