"""Issue 13: a casual game's players are links to their pages for a member, for every kind:
on the sheet's boxes (the totals or the state on top), in the list of games (the players and
the winner or leader), on each kind's standings. Guests too (they have a player record). A
phone that opens the sheet from its share link, without an account, reads plain names."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tarotclub.games import services
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.services import DealInput
from tarotclub.players.services import player_create

pytestmark = pytest.mark.django_db

KINDS = ["tarot", "foolsfaith", "deathspot", "keys", "cuckoo"]


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


LINK = re.compile(r'class="player-(?:link|box)" href="/players/(\d+)/"')


def linked(html: str) -> list[int]:
    return [int(pk) for pk in LINK.findall(html)]


@pytest.fixture
def players(four):
    guest = player_create(name="Guest-Star", guest=True)
    return [*four[:2], guest, four[3]]


def played_games(players, user) -> dict:
    """A game of every kind, with a record where the list names a winner or a leader."""

    def start(kind, seated, **options):
        return services.game_start(players=seated, kind=kind, created_by=user, options=options)

    games = {"tarot": start("tarot", players)}
    tarot.deal_add(
        game=games["tarot"],
        data=DealInput(taker=players[2].pk, contract="garde", bouts=2, points=Fraction(49)),
    )
    games["foolsfaith"] = start("foolsfaith", players[:3])
    for _ in range(2):  # the guest wins two rounds: the game is over
        services.record_add(
            game=games["foolsfaith"],
            data={"tricks": {players[0].pk: 2, players[1].pk: 2, players[2].pk: 4}},
        )
    games["deathspot"] = start("deathspot", players[:3], stake=1)
    services.record_add(game=games["deathspot"], data={"death": players[2].pk})
    a, b, c, d = (p.pk for p in players)
    games["keys"] = start("keys", [players[2], players[3]])
    services.record_add(
        game=games["keys"], data={"suits": {c: "hearts", d: "spades"}, "winner": c, "keys": {d: 1}}
    )
    games["cuckoo"] = start("cuckoo", players[:3], lives=2)  # played to its end: the guest wins
    for cards, swaps in (
        ({a: "owl", b: "XII", c: "cuckoo"}, None),
        ({a: "fool", b: "II", c: "III"}, None),
        ({b: "pot", c: "cat"}, {b: 1}),
    ):
        data = {"cards": cards} | ({"swap_losses": swaps} if swaps else {})
        services.record_add(game=games["cuckoo"], data=data)
    return games


def seated(game) -> set[int]:
    return set(game.seats.values_list("player_id", flat=True))


@pytest.mark.parametrize("kind", KINDS)
def test_the_sheets_boxes_link_each_player_for_a_member_only(member_client, member, players, kind):
    game = played_games(players, member)[kind]
    url = reverse("games:sheet", args=[game.token])
    shared = Client().get(url).content.decode()  # the share link, no account
    assert "player-link" not in shared and "player-box" not in shared
    response = member_client.get(url)
    assert response.status_code == 200
    top = response.content.decode().split('id="sheet-top"', 1)[1].split("</ol>", 1)[0]
    assert set(linked(top)) == seated(game)
    # the poll's answer after a change carries the same boxes
    poll = member_client.get(reverse("games:poll", args=[game.token]), {"rev": 0, "n": 0})
    if poll.status_code == 200:
        assert set(linked(poll.content.decode())) >= seated(game)


def test_the_list_links_the_players_and_the_winner_or_leader(member_client, member, players):
    games = played_games(players, member)
    html = member_client.get(reverse("games:list")).content.decode()
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    rows = body.split("<tr")[1:]
    assert len(rows) == len(games)
    for row in rows:
        token = re.search(r'href="/t/([^/"]+)/"', row).group(1)
        game = next(g for g in games.values() if g.token == token)
        players_cell, result_cell = row.split("</td>")[1], row.split("</td>")[2]
        assert sorted(linked(players_cell)) == sorted(seated(game)), game.kind
        if "Winner" in result_cell or "Leading" in result_cell:
            assert linked(result_cell), game.kind
    # the guest leads the tarot game and wins Fool's Faith: a link each time
    assert body.count(f'href="/players/{players[2].pk}/"') >= len(games) + 2


@pytest.mark.parametrize("kind", KINDS)
def test_each_kinds_standings_link_the_players_for_a_member_only(
    member_client, member, players, kind
):
    game = played_games(players, member)[kind]
    game.refresh_from_db()
    if not game.finished:
        services.game_finish(game=game, user=member)
    url = reverse("games:standings_kind", args=[kind])
    assert "player-link" not in Client().get(url).content.decode()
    html = member_client.get(url).content.decode()
    table = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    assert set(linked(table)) == seated(game)
