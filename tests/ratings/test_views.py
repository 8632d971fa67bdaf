"""The leaderboard page: who is listed, in what order, its filters and their refusals."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from tarotclub.players.services import player_create
from tarotclub.ratings import selectors
from tarotclub.ratings.models import PlayerRating, RatingEvent

from .test_refresh import casual

pytestmark = pytest.mark.django_db
URL = "/ratings/"


@pytest.fixture
def season():
    """Twelve players over 30 games in the last 60 days (one a day, every other day)."""
    club = [player_create(name=f"Player {i:02}") for i in range(12)]
    rnd = random.Random(21)
    now = timezone.now()
    for i in range(30):
        casual(rnd.sample(club, 4), rnd, deals=2, when=now - dt.timedelta(days=60 - 2 * i))
    return club


def test_members_only(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_page_rates_what_it_has_not_rated_yet_and_lists_by_rating(member_client, season):
    assert not RatingEvent.objects.exists()
    response = member_client.get(URL)
    assert response.status_code == 200
    assert RatingEvent.objects.count() == 120
    lines = response.context["table"].data.data
    ratings = [line.rating for line in lines]
    assert ratings == sorted(ratings, reverse=True)
    stored = {r.player_id: r for r in PlayerRating.objects.filter(games__gte=3)}
    assert {line.player.pk for line in lines} == set(stored)
    assert all(line.games == stored[line.player.pk].games for line in lines)
    best = lines[0]
    assert best.player.display_name in response.content.decode()


def test_the_minimum_of_games_leaves_out_the_others(member_client, season):
    counts = {}
    member_client.get(URL)
    for r in PlayerRating.objects.all():
        counts[r.player_id] = r.games
    cut = sorted(counts.values())[len(counts) // 2]
    response = member_client.get(URL, {"min": cut})
    listed = {line.player.pk for line in response.context["table"].data.data}
    assert listed == {p for p, n in counts.items() if n >= cut}
    assert listed != set(counts)


def test_a_period_rates_its_own_games_afresh(member_client, season):
    member_client.get(URL)
    start = (timezone.now() - dt.timedelta(days=20)).date()
    response = member_client.get(URL, {"from": start.isoformat(), "min": 1})
    assert response.status_code == 200
    lines = response.context["table"].data.data
    in_period = RatingEvent.objects.filter(at__date__gte=start).values_list("player_id", flat=True)
    assert {line.player.pk for line in lines} == set(in_period)
    # everyone started afresh: the counts are those of the period only
    for line in lines:
        assert (
            line.games
            == RatingEvent.objects.filter(player=line.player, at__date__gte=start).count()
        )
    assert "this period alone" in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        {"min": "0"},
        {"min": "-3"},
        {"min": "abc"},
        {"min": "9" * 40},
        {"min": "1e3"},
        {"from": "2026-02-30"},
        {"from": "not a date"},
        {"from": "2026-05-01", "to": "2026-04-01"},
        {"to": "9" * 200},
    ],
)
def test_bad_filters_are_refused_with_a_message_and_change_nothing(member_client, season, query):
    member_client.get(URL)
    before = list(PlayerRating.objects.order_by("pk").values_list("pk", "mu", "sigma", "games"))
    response = member_client.get(URL, query)
    assert response.status_code in (400, 200) and response.status_code != 500
    if response.status_code == 400:
        assert 'role="alert"' in response.content.decode()
        # the page still lists the ratings over every game, with the default minimum
        lines = response.context["table"].data.data
        assert len(lines) == PlayerRating.objects.filter(games__gte=selectors.MIN_GAMES).count()
    after = list(PlayerRating.objects.order_by("pk").values_list("pk", "mu", "sigma", "games"))
    assert after == before


def test_a_nul_character_is_refused_by_the_site_before_the_page(member_client, season):
    response = member_client.get(URL, {"min": "\x00"})
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()


def test_the_messages_are_in_the_readers_language(member_client, season):
    response = member_client.get(URL, {"min": "0"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert "Donnez un nombre entier de parties de 1 à 1000." in response.content.decode()


@pytest.mark.parametrize("games", [6, 30])
def test_constant_queries(member_client, games, django_assert_num_queries):
    club = [player_create(name=f"P{i}") for i in range(10)]
    rnd = random.Random(games)
    for _ in range(games):
        casual(rnd.sample(club, 4), rnd, deals=1)
    member_client.get(URL)  # rates them
    # session + user, the two staleness reads, the ratings with their players
    with django_assert_num_queries(5):
        assert member_client.get(URL).status_code == 200
    # a period: the games and their totals, rated on the fly, then the players
    with django_assert_num_queries(7):
        assert member_client.get(URL, {"from": "2000-01-01", "min": 1}).status_code == 200


def test_the_player_page_shows_the_rating_its_rank_and_its_history(member_client, season):
    member_client.get(URL)
    best = PlayerRating.objects.filter(games__gte=3).order_by("-rating").first()
    response = member_client.get(f"/players/{best.player_id}/")
    body = response.content.decode()
    assert response.context["rating"]["rank"] == 1
    assert response.context["rating"]["games"] == best.games
    assert "rank 1 in the club" in body
    assert 'role="img"' in body and "Rating after each rated game" in body


def test_a_player_without_a_rated_game_is_told_what_counts(member_client, db):
    newcomer = player_create(name="Nouvelle")
    body = member_client.get(f"/players/{newcomer.pk}/").content.decode()
    assert "No rated game yet" in body


def test_each_name_links_to_the_players_page(member_client, season):
    """Issue 13: a name is a link everywhere a member reads it (the leaderboard is theirs)."""
    import re

    response = member_client.get(URL)
    lines = response.context["table"].data.data
    found = re.findall(r'class="player-link" href="/players/(\d+)/"', response.content.decode())
    assert [int(pk) for pk in found] == [line.player.pk for line in lines]
