"""The search box: what a member and an anonymous visitor find, and hostile queries."""

from __future__ import annotations

import datetime as dt

import pytest

from tarotclub.games.services import game_start
from tarotclub.players.services import player_create
from tarotclub.search import selectors
from tarotclub.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db
URL = "/search/"


@pytest.fixture
def club():
    names = ("Élodie Leroy", "Bram de Vries", "Chloé Martin", "Dirk Peeters", "Peña Ruiz")
    players = [player_create(name=n) for n in names]
    game_start(players=players[:4], first_dealer=0, name="Soirée d'été")
    game_start(players=players[1:5], first_dealer=0)
    cup = tournament_create(name="Coupe d'Été", date=dt.date(2026, 7, 4), rounds=3, place="Liège")
    tournament_create(name="Winter Cup", date=dt.date(2026, 1, 10), rounds=3)
    return players, cup


def names(found):
    return (
        [p.name for p in found.players],
        [str(g) for g in found.games],
        [t.name for t in found.tournaments],
    )


def test_without_case_or_accents(club):
    found = selectors.search("elodie", member=True)
    assert [p.name for p in found.players] == ["Élodie Leroy"]
    assert len(found.games) == 1  # the game she sat at
    found = selectors.search("COUPE D'ETE", member=True)
    assert [t.name for t in found.tournaments] == ["Coupe d'Été"]
    assert selectors.search("liege", member=True).tournaments[0].name == "Coupe d'Été"
    assert [p.name for p in selectors.search("pena", member=True).players] == ["Peña Ruiz"]


def test_a_game_by_its_name_or_its_players(club):
    found = selectors.search("soiree", member=True)
    assert [str(g) for g in found.games] == ["Soirée d'été"]
    found = selectors.search("bram", member=True)
    assert len(found.games) == 2


def test_an_anonymous_visitor_finds_the_tournaments_only(client, club):
    response = client.get(URL, {"q": "ete"})
    assert response.status_code == 200
    found = response.context["found"]
    assert found.players == [] and found.games == []
    assert {t.name for t in found.tournaments} == {"Coupe d'Été"}
    body = response.content.decode()
    assert "Élodie" not in body and "Coupe d&#x27;Été" in body


def test_a_member_sees_links_to_each(member_client, club):
    players, cup = club
    body = member_client.get(URL, {"q": "e"}).content.decode()
    assert f"/players/{players[0].pk}/" in body
    assert f"/tournaments/{cup.pk}/" in body
    assert "/t/" in body  # a game's sheet


def test_twenty_of_each_and_how_many_more(member_client, db):
    for i in range(25):
        player_create(name=f"Tarotiste {i:02}")
    response = member_client.get(URL, {"q": "tarotiste"})
    found = response.context["found"]
    assert len(found.players) == selectors.SHOWN and found.more["players"] == 5
    assert "And 5 more players" in response.content.decode()


@pytest.mark.parametrize(
    "q",
    ["", "   ", "%", "_", "\u200b", "'; DROP TABLE players_player; --", "x" * 5000, "😀", "\u202e"],
)
def test_hostile_queries_find_nothing_wrongly_and_never_fail(member_client, club, q):
    response = member_client.get(URL, {"q": q})
    assert response.status_code == 200
    found = response.context["found"]
    assert len(found.query) <= selectors.QUERY_MAX
    if q in ("%", "_"):  # no wildcard: a literal percent or underscore is in no name
        assert found.empty


def test_the_box_is_in_every_pages_header(client, member_client, club):
    for c in (client, member_client):
        body = c.get("/tournaments/").content.decode()
        assert 'role="search"' in body and 'action="/search/"' in body


@pytest.mark.parametrize("extra", [0, 60])
def test_constant_queries(member_client, django_assert_num_queries, extra):
    players = [player_create(name=f"Anne {i}") for i in range(4 + extra)]
    for i in range(0, len(players) - 3, 4):
        game_start(players=players[i : i + 4], first_dealer=0)
    member_client.get(URL, {"q": "anne"})
    # session, user; players and their count; game names, seats of matching players, the
    # games and their seats; tournaments
    with django_assert_num_queries(9):
        member_client.get(URL, {"q": "anne"})


def test_a_games_players_link_to_their_pages(member_client, club):
    """Issue 13: the players of a game found link to their pages, as the players found do."""
    import re

    players, _ = club
    body = member_client.get(URL, {"q": "soiree"}).content.decode()
    games = body.split("<h2>Games</h2>", 1)[1]
    found = re.findall(r'class="player-link" href="/players/(\d+)/"', games)
    assert [int(pk) for pk in found] == [p.pk for p in players[:4]]
