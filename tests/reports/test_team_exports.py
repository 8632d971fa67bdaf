"""The team ranking of a free-deal teams event (duplicate.md 2.1) in the standings' CSV and
XLSX downloads: after the individual rows, a heading row, then one row per team."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.tournaments import selectors, services
from tests.tournaments.helpers import play_round
from tests.tournaments.test_teams import team_event

from .conftest import points_for
from .test_spreadsheets import csv_rows, xlsx_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairs():
    """8 pairs and 2 players alone, two rounds played."""
    names = {i: f"Team {i // 2}" for i in range(16)}
    names.update({16: "", 17: ""})
    t, players = team_event(names, rounds=2)
    t = services.tournament_start(tournament=t)
    play_round(t, points_for=points_for)
    t = services.tournament_next_round(tournament=t)
    play_round(t, points_for=points_for)
    return t


def split(rows):
    """The individual block and the team block, cut at the empty row between them."""
    blank = next(i for i, r in enumerate(rows) if all(c in (None, "") for c in r))
    return rows[:blank], rows[blank + 1 :]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_standings_download_holds_the_team_ranking(pairs, english_client, fmt):
    t = pairs
    response = english_client.get(reverse("reports:standings_export", args=[t.pk, fmt]))
    rows = (csv_rows if fmt == "csv" else xlsx_rows)(response)
    people, teams = split(rows)
    head = people[0]
    assert head == ["Rank", "Player", "Licence", "Team", "R1", "R2", "Total"]
    standings = selectors.standings(t)
    # each player's row says their team (the two alone: an empty cell)
    by_name = {r[1]: dict(zip(head, r, strict=True)) for r in people[1:]}
    assert len(by_name) == 18
    for row in standings.rows:
        assert (by_name[row.player.name]["Team"] or "") == row.team
    team_head = [c or "" for c in teams[0]]  # CSV: "" where XLSX has None
    assert team_head == ["Rank", "Team", "Players", "", "R1", "R2", "Total"]
    assert len(teams) == 1 + len(standings.teams) == 9
    totals = []
    for cells, team in zip(teams[1:], standings.teams, strict=True):
        cell = dict(zip(team_head, cells, strict=True))
        members = [r for r in standings.rows if r.team == team.name]
        assert cell["Rank"] == team.rank
        assert cell["Team"] == team.name
        assert cell["Players"] == ", ".join(r.player.name for r in team.members)
        # the team's figures are its members' sums, read from the players' own rows above
        for key in ("R1", "R2", "Total"):
            assert cell[key] == sum(by_name[r.player.name][key] for r in members)
        assert isinstance(cell["Total"], int | float)
        totals.append(cell["Total"])
    assert totals == sorted(totals, reverse=True)
    assert sum(totals) == -sum(by_name[n]["Total"] for n in by_name if not by_name[n]["Team"])


def test_without_teams_the_download_has_no_team_column_nor_block(english_client):
    t, _ = team_event({i: "" for i in range(8)}, rounds=1)
    t = services.tournament_start(tournament=t)
    play_round(t, points_for=points_for)
    rows = csv_rows(english_client.get(reverse("reports:standings_export", args=[t.pk, "csv"])))
    assert rows[0] == ["Rank", "Player", "Licence", "R1", "Total"]
    assert len(rows) == 9
