"""Standings per game over many games (date filter, sorting, constant queries) and the Fool's
Faith challenges: the club's list and the winner's cards."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarotclub.games import services
from tarotclub.games.models import Game
from tarotclub.kinds.foolsfaith import services as challenges
from tarotclub.kinds.foolsfaith.models import Challenge, ChallengeAward

from .helpers import standings

pytestmark = pytest.mark.django_db


def tricks(players, *counts):
    return {"tricks": {p.pk: n for p, n in zip(players, counts, strict=True)}}


def ff_won_by(start, players, winner_index):
    """A two-round game won by players[winner_index] (each round 6 tricks to them)."""
    game = start("foolsfaith", players)
    counts = [1] * len(players)
    counts[winner_index] = 8 - (len(players) - 1)
    for _ in range(2):
        services.record_add(game=game, data=tricks(players, *counts))
    game.refresh_from_db()
    assert game.finished
    return game


def set_date(game, day: dt.date):
    Game.objects.filter(pk=game.pk).update(
        created_at=dt.datetime.combine(day, dt.time(20), tzinfo=dt.UTC)
    )


def standings_url(kind, **params):
    url = reverse("games:standings_kind", args=[kind])
    if params:
        url += "?" + "&".join(f"{k}={v}" for k, v in params.items())
    return url


# --- standings ---------------------------------------------------------------------------------


def test_ff_standings_figures(start, three):
    a, b, c = three
    g1 = ff_won_by(start, three, 0)  # Anne: 2 rounds, 6+6 tricks, 2 cards
    ff_won_by(start, three, 1)  # Bram
    stopped = start("foolsfaith", three)
    services.record_add(game=stopped, data=tricks(three, 8, 0, 0))
    services.game_finish(game=stopped)  # a stopped game counts nowhere
    services.record_add(game=start("foolsfaith", three), data=tricks(three, 8, 0, 0))  # going on
    song = challenges.challenge_create(text="Sing a song")
    challenges.challenges_award(game=g1, awards=[(song.pk, b.pk), (song.pk, c.pk)])
    rows = {r["pk"]: r for r in standings("foolsfaith").rows}
    assert rows[a.pk] == {
        "pk": a.pk,
        "player": "Anne",
        "played": 2,
        "won": 1,
        "rounds_won": 2,
        "tricks": 6 + 6 + 1 + 1,
        "cards": 2,
        "received": 0,
        "challenges": [],
        "win_rate": 0.5,
    }
    assert rows[b.pk]["received"] == 1 and rows[b.pk]["challenges"] == ["Sing a song"]


def test_dp_standings_net_balance_and_average(start, three):
    a, b, c = three
    g1 = start("deathspot", three, stake=1)
    services.record_add(game=g1, data={"death": a.pk})  # Anne +3 -1 -1 = +1; others -2
    g2 = start("deathspot", three, stake=2)
    services.record_add(game=g2, data={"death": b.pk})  # Bram: -2 + 6 - 2 = +2; others -4
    start("deathspot", three)  # no deal: not counted
    rows = {r["pk"]: r for r in standings("deathspot").rows}
    assert rows[a.pk]["net"] == 1 - 4 and rows[a.pk]["games"] == 2 and rows[a.pk]["deals"] == 2
    assert rows[a.pk]["average"] == pytest.approx(-1.5)
    assert rows[b.pk]["net"] == -2 + 2 and rows[b.pk]["pots"] == 1
    assert rows[c.pk]["net"] == -2 - 4


def test_keys_standings_use_every_recorded_game(start, three):
    a, b, c = three
    game = start("keys", three)
    suits = {a.pk: "hearts", b.pk: "spades", c.pk: "clubs"}
    first = {"suits": suits, "winner": a.pk, "keys": {b.pk: 3, c.pk: 1}}
    second = {"suits": suits, "winner": b.pk, "keys": {a.pk: 4, c.pk: 2}}
    services.record_add(game=game, data=first)
    services.record_add(game=game, data=second)
    rows = {r["pk"]: r for r in standings("keys").rows}
    assert rows[c.pk] == {
        "pk": c.pk,
        "player": "Chloé",
        "played": 2,
        "won": 0,
        "lost": 2,
        "win_rate": 0.0,
        "average_keys": 1.5,
    }
    assert rows[a.pk]["average_keys"] == 4.0 and rows[a.pk]["win_rate"] == 0.5


def test_cuckoo_standings_places_draws_and_first_out(start, three):
    a, b, c = three
    game = start("cuckoo", three, lives=1)
    # Anne lowest: out first; then Bram and Chloé both hold a Fool: both out, a draw.
    services.record_add(game=game, data={"cards": {a.pk: "owl", b.pk: "XII", c.pk: "I"}})
    services.record_add(game=game, data={"cards": {b.pk: "fool", c.pk: "fool"}})
    rows = {r["pk"]: r for r in standings("cuckoo").rows}
    assert rows[b.pk]["draws"] == 1 and rows[b.pk]["won"] == 0 and rows[b.pk]["places"] == 1
    assert rows[a.pk]["first_out"] == 1 and rows[a.pk]["average_place"] == 3.0


def test_standings_page_filters_by_date_and_sorts(client, start, three, make_players):
    others = make_players("Dirk", "Eva", "Femke")
    old = ff_won_by(start, others, 0)
    set_date(old, dt.date(2024, 1, 10))
    ff_won_by(start, three, 2)
    html = client.get(standings_url("foolsfaith")).content.decode()
    assert "Dirk" in html and "Chloé" in html
    response = client.get(standings_url("foolsfaith", **{"from": "2024-01-01", "to": "2024-01-31"}))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Dirk" in html and "Chloé" not in html
    response = client.get(standings_url("foolsfaith", **{"from": "2024-02-01"}))
    assert "Dirk" not in response.content.decode()
    # sorted by games won, most first
    response = client.get(standings_url("foolsfaith", sort="-won"))
    names = [r["player"] for r in response.context["table"].data]
    assert names[0] in ("Chloé", "Dirk") and names[-1] not in ("Chloé", "Dirk")
    response = client.get(standings_url("foolsfaith", sort="player"))
    names = [r["player"] for r in response.context["table"].data]
    assert names == sorted(names)


@pytest.mark.parametrize(
    "params",
    [
        {"from": "2024-13-01"},
        {"to": "yesterday"},
        {"from": "2024-03-01", "to": "2024-02-01"},
        {"from": "x" * 500},
    ],
)
def test_bad_dates_get_a_message_not_a_500(client, start, three, params):
    ff_won_by(start, three, 0)
    response = client.get(standings_url("foolsfaith", **params))
    assert response.status_code == 400
    html = response.content.decode()
    assert "The dates were not applied" in html
    assert "Anne" in html  # the standings over every game are still shown


def test_unknown_kind_and_sort_column(client):
    assert client.get(standings_url("bridge")).status_code == 404
    assert client.get(standings_url("tarot")).status_code == 200  # every kind has standings
    assert client.get(standings_url("foolsfaith", sort="nope")).status_code == 200
    assert client.get(reverse("games:standings")).status_code == 200


@pytest.mark.parametrize("kind", ["foolsfaith", "deathspot", "keys", "cuckoo"])
def test_standings_page_renders_every_kind(client, member_client, start, three, kind):
    if kind == "foolsfaith":
        ff_won_by(start, three, 0)
    response = member_client.get(standings_url(kind))
    assert response.status_code == 200
    assert 'class="data standings"' in response.content.decode()


def _fill(start, players, n):
    for i in range(n):
        ff_won_by(start, players, i % 3)
        game = start("deathspot", players)
        services.record_add(game=game, data={"death": players[i % 3].pk})


@pytest.mark.parametrize("kind", ["foolsfaith", "deathspot"])
def test_standings_queries_do_not_grow_with_games(member_client, start, three, kind):
    _fill(start, three, 2)
    with CaptureQueriesContext(connection) as few:
        assert member_client.get(standings_url(kind)).status_code == 200
    _fill(start, three, 8)
    with CaptureQueriesContext(connection) as many:
        assert member_client.get(standings_url(kind)).status_code == 200
    assert len(many.captured_queries) == len(few.captured_queries)
    assert len(few.captured_queries) <= 8


# --- challenges --------------------------------------------------------------------------------


def test_challenge_list_needs_a_login(client):
    response = client.get(reverse("foolsfaith:challenges"))
    assert response.status_code == 302 and "/login/" in response.url


def test_challenge_list_add_suggest_edit_delete(member_client):
    url = reverse("foolsfaith:challenges")
    response = member_client.post(url, {"suggest": "1"})
    assert response.status_code == 302
    assert Challenge.objects.count() == len(challenges.SUGGESTED_CHALLENGES)
    response = member_client.post(url, {"add": "1", "text": "  "})
    assert response.status_code == 400
    assert "Write the challenge." in response.content.decode()
    response = member_client.post(url, {"add": "1", "text": "Juggle three cards"})
    assert response.status_code == 302
    challenge = Challenge.objects.get(text="Juggle three cards")
    edit = reverse("foolsfaith:challenge_edit", args=[challenge.pk])
    assert member_client.get(edit).status_code == 200
    response = member_client.post(edit, {"save": "1", "text": "Juggle", "order": "x"})
    assert response.status_code == 400
    response = member_client.post(edit, {"save": "1", "text": "Juggle", "order": "2"})
    assert response.status_code == 302
    challenge.refresh_from_db()
    assert (challenge.text, challenge.order, challenge.active) == ("Juggle", 2, False)
    assert member_client.post(edit, {"delete": "1"}).status_code == 302
    assert not Challenge.objects.filter(pk=challenge.pk).exists()
    assert member_client.get(reverse("foolsfaith:challenge_edit", args=[99999])).status_code == 404


def test_winner_gives_challenge_cards_on_the_sheet(client, start, three):
    a, b, c = three
    game = ff_won_by(start, three, 0)
    sheet = reverse("games:sheet", args=[game.token])
    give = reverse("foolsfaith:give", args=[game.token])
    html = client.get(sheet).content.decode()
    assert "The club's list of challenges is empty." in html
    song = challenges.challenge_create(text="Sing a song")
    dance = challenges.challenge_create(text="Dance a waltz")
    retired = challenges.challenge_create(text="Old one")
    challenges.challenge_update(challenge=retired, text="Old one", active=False, order=9)
    html = client.get(sheet).content.decode()
    assert "Anne gives 2 challenge cards" in html
    assert 'name="challenge_1"' in html and 'name="player_2"' in html
    assert "Old one" not in html
    assert f'name="player_1" value="{a.pk}"' not in html  # not to themselves
    # refusals: the winner, an unknown challenge, a missing card
    bad = [
        {"challenge_1": song.pk, "player_1": a.pk, "challenge_2": dance.pk, "player_2": c.pk},
        {"challenge_1": retired.pk, "player_1": b.pk, "challenge_2": dance.pk, "player_2": c.pk},
        {"challenge_1": song.pk, "player_1": b.pk},
        {"challenge_1": "x", "player_1": "y", "challenge_2": "", "player_2": ""},
    ]
    for data in bad:
        response = client.post(give, {"award": "1", **data})
        assert response.status_code == 400
        assert not ChallengeAward.objects.exists()
    data = {"challenge_1": song.pk, "player_1": b.pk, "challenge_2": dance.pk, "player_2": c.pk}
    response = client.post(give, {"award": "1", **data}, follow=True)
    html = response.content.decode()
    assert "Challenges given by Anne" in html
    assert "<strong>Bram</strong>: Sing a song" in html
    assert "<strong>Chloé</strong>: Dance a waltz" in html
    assert list(ChallengeAward.objects.values_list("card", "player", "awarded_by")) == [
        (1, b.pk, a.pk),
        (2, c.pk, a.pk),
    ]


def test_giving_challenges_before_the_end_or_elsewhere_is_refused(client, start, three):
    challenges.challenge_create(text="Sing a song")
    game = start("foolsfaith", three)
    response = client.post(
        reverse("foolsfaith:give", args=[game.token]), {"award": "1"}, follow=True
    )
    assert str(challenges.ERR_NOT_OVER) in [str(m) for m in response.context["messages"]]
    dp = start("deathspot", three)
    response = client.post(reverse("foolsfaith:give", args=[dp.token]), {"award": "1"}, follow=True)
    assert str(challenges.ERR_NOT_FOOLS_FAITH) in [str(m) for m in response.context["messages"]]
    assert client.get(reverse("foolsfaith:give", args=[game.token])).status_code == 405


def test_standings_index_lists_games_in_progress_for_members(member_client, client, start, three):
    game = start("cuckoo", three)
    html = member_client.get(reverse("games:standings")).content.decode()
    assert reverse("games:sheet", args=[game.token]) in html
    client.logout()
    html = client.get(reverse("games:standings")).content.decode()
    assert reverse("games:sheet", args=[game.token]) not in html


def test_home_links_to_the_standings(client):
    html = client.get("/").content.decode()
    assert html.count(reverse("games:standings")) == 1
