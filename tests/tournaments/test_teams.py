"""Free-deal teams of 2 or 4 (duplicate.md 2.1): registration, seating apart, team ranking."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from tarotclub.players.models import Player
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import Entry, Table

from .helpers import play_round

pytestmark = pytest.mark.django_db


def team_event(names, *, rounds=3):
    """A tournament whose players register with the given team names ("" plays alone)."""
    t = services.tournament_create(
        name="Pairs cup", date=dt.date(2026, 12, 1), rounds=rounds, deals_per_round=1
    )
    players = Player.objects.bulk_create(Player(name=f"Pair player {i:02d}") for i in names)
    for p, team in zip(players, names.values(), strict=True):
        services.entry_register(tournament=t, player=p, team=team)
    return t, players


def tables_of(t, round_number):
    return [
        [s.player_id for s in table.game.seats.all()]
        for table in Table.objects.filter(tournament=t, round=round_number).prefetch_related(
            "game__seats"
        )
    ]


def test_teammates_never_share_a_table_and_the_team_scores_the_sum():
    names = {i: f"Team {i // 2}" for i in range(16)}  # 8 pairs
    t, players = team_event(names)
    t = services.tournament_start(tournament=t)
    team_of = {p.pk: names[i] for i, p in enumerate(players)}
    for r in range(1, 4):
        for table in tables_of(t, r):
            assert len({team_of[pk] for pk in table}) == len(table)
        play_round(t)
        if r < 3:
            t = services.tournament_next_round(tournament=t)
    standings = selectors.standings(t)
    assert len(standings.teams) == 8
    totals = {row.player.pk: row.total for row in standings.rows}
    for team in standings.teams:
        members = [p.pk for p in players if team_of[p.pk] == team.name]
        assert sorted(m.player.pk for m in team.members) == sorted(members)
        assert team.total == sum(totals[pk] for pk in members)
    assert [team.total for team in standings.teams] == sorted(
        (team.total for team in standings.teams), reverse=True
    )
    assert sum(team.total for team in standings.teams) == 0  # every table adds up to 0


def test_team_names_compare_as_people_read_them():
    t, players = team_event({0: "Les Écureuils", 1: "les  ecureuils", 2: "", 3: ""})
    entries = {e.player_id: e.team for e in Entry.objects.filter(tournament=t)}
    assert entries[players[0].pk] == entries[players[1].pk] == "Les Écureuils"


def test_a_fifth_teammate_is_refused():
    t, players = team_event({i: "Quatre" for i in range(4)})
    extra = Player.objects.create(name="Cinquième")
    with pytest.raises(services.TournamentError) as exc:
        services.entry_register(tournament=t, player=extra, team="quatre")
    assert exc.value.message == services.ERR_TEAM_FULL
    assert not Entry.objects.filter(player=extra).exists()


def test_a_team_of_three_cannot_start():
    t, _ = team_event({**{i: "Trio" for i in range(3)}, **{i: "" for i in range(3, 8)}})
    with pytest.raises(services.TournamentError) as exc:
        services.tournament_start(tournament=t)
    assert exc.value.message == services.ERR_TEAM_SIZES
    assert exc.value.params == {"teams": "Trio"}


def test_registration_form_takes_a_team(client, director):
    client.force_login(director)
    t = services.tournament_create(name="Form cup", date=dt.date(2026, 12, 1))
    url = reverse("tournaments:manage", args=[t.pk])
    response = client.post(url, {"register": "1", "guest_name": "Anne Martin", "team": "Duo"})
    assert response.status_code == 302
    assert Entry.objects.get(tournament=t).team == "Duo"


def test_standings_page_shows_the_team_ranking(client):
    names = {i: f"Équipe {i // 2}" for i in range(8)}
    t, _ = team_event(names, rounds=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    page = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    assert "Team ranking" in page
    assert page.count('class="num rank"') == 8 + 4  # 8 players, 4 teams


def test_standings_without_teams_show_no_team_ranking(client):
    t, _ = team_event({i: "" for i in range(4)}, rounds=1)
    services.tournament_start(tournament=t)
    page = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    assert "Team ranking" not in page


def test_standings_pdf_has_the_team_ranking():
    from django.utils import translation

    from tarotclub.games.presenters import number
    from tarotclub.reports.printouts import standings_pdf
    from tests.reports.conftest import pdf_page_lines

    names = {i: f"Duo {i // 2}" for i in range(8)}
    t, _ = team_event(names, rounds=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    with translation.override("en"):
        lines = [line for page in pdf_page_lines(standings_pdf(t).content) for line in page]
    at = lines.index("Team ranking")
    assert lines[at + 2] == "RANK TEAM PLAYERS TOTAL"
    for k, team in enumerate(selectors.standings(t).teams):
        members = ", ".join(f"{row.player.name} ({number(row.total)})" for row in team.members)
        rank = f"{team.rank}=" if team.tied else str(team.rank)
        assert lines[at + 3 + k] == f"{rank} {team.name} {members} {team.total_display}"
