"""Position cards (duplicate.md 3.4, issue 14): a card per player with their table and seat for
every round, eight to a page in the PDF, and on the player's own page from "Where do I sit?"."""

from __future__ import annotations

import math
import re

import pytest
from django.urls import reverse

from tarotclub.games.models import Seat
from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import SEAT_NAMES
from tests.tournaments.helpers import make_tournament, play_round

from .conftest import pdf_pages

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_round():
    """17 players over 4 rounds (tables of four and five): round 1 played, round 2 seated,
    rounds 3 and 4 planned."""
    t, players = make_tournament(17, rounds=4, deals=1)
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    return t, players


def expected_positions(t, player) -> dict[int, tuple[int, str]]:
    """Round → (table, seat), from the seated tables and then the plan: read independently of
    the code under test."""
    out = {
        s.game.tournament_table.round: (s.game.tournament_table.number, str(SEAT_NAMES[s.position]))
        for s in Seat.objects.filter(
            player=player, game__tournament_table__tournament=t
        ).select_related("game__tournament_table")
    }
    for offset, tables in enumerate(t.plan):
        for number, seated in enumerate(tables, start=1):
            if player.pk in seated:
                out[t.current_round + 1 + offset] = (
                    number,
                    str(SEAT_NAMES[seated.index(player.pk)]),
                )
    return out


def test_the_cards_give_every_player_their_table_and_seat_for_every_round(
    second_round, english_client
):
    t, players = second_round
    response = english_client.get(reverse("reports:position_cards_pdf", args=[t.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="position-cards-test-cup-2026-11-29.pdf"' in response["Content-Disposition"]
    pages = pdf_pages(response.content)
    assert len(pages) == math.ceil(len(players) / 8) == 3  # eight to a page
    text = "\n".join(pages)
    # one card per player, in alphabetical order
    names = re.findall(r"^(Player \d{4})$", text, flags=re.M)
    assert names == sorted(p.name for p in players)
    for player in players:
        card = text[text.index(f"{player.name}\n") :]
        card = card[: card.index("ROUND TABLE SEAT\n") + 200]
        lines = card.split("ROUND TABLE SEAT\n")[1].splitlines()[: t.rounds]
        positions = expected_positions(t, player)
        assert sorted(positions) == [1, 2, 3, 4]  # every round: seated or planned
        assert lines == [
            f"{r} {positions[r][0]} {positions[r][1]}" for r in range(1, t.rounds + 1)
        ], player.name
        assert f"Licence {player.licence}" in card
    assert "The rounds not started yet follow the planned seating" in pages[0]


def test_a_latecomers_card_leaves_the_rounds_before_his_first_empty(second_round, english_client):
    t, players = second_round
    late = Player.objects.create(name="Zoé Latecomer", licence="L99999")
    services.entry_register(tournament=t, player=late)
    t.refresh_from_db()
    response = english_client.get(reverse("tournaments:position_card", args=[t.pk, late.pk]))
    card = response.context["card"]
    positions = expected_positions(t, late)
    assert sorted(positions) == [3, 4]
    assert [(r.round, r.table, r.seat) for r in card.rounds] == [
        (1, None, ""),
        (2, None, ""),
        *[(r, positions[r][0], positions[r][1]) for r in (3, 4)],
    ]


def test_the_players_page_shows_the_card_from_where_do_i_sit(
    second_round, english_client, django_assert_max_num_queries
):
    t, players = second_round
    player = players[5]
    where = english_client.get(reverse("tournaments:where", args=[t.pk]), {"q": player.name})
    url = reverse("tournaments:position_card", args=[t.pk, player.pk])
    assert f'href="{url}"' in where.content.decode()
    with django_assert_max_num_queries(6):
        response = english_client.get(url)
    html = response.content.decode()
    positions = expected_positions(t, player)
    rows = re.findall(r"<tr class=\"(current)?\">(.*?)</tr>", html, flags=re.S)
    assert len(rows) == t.rounds
    for n, (current, row) in enumerate(rows, start=1):
        cells = [
            re.sub(r"<[^>]+>", " ", c).split()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        ]
        assert cells[0] == [str(n)] and cells[1] == [str(positions[n][0])]
        assert cells[2][0] == positions[n][1]
        assert bool(current) == (n == t.current_round == 2)


def test_the_card_page_is_404_for_someone_not_in_the_tournament(second_round, english_client):
    t, _ = second_round
    stranger = Player.objects.create(name="Not registered")
    for pk in (stranger.pk, 10**9):
        response = english_client.get(reverse("tournaments:position_card", args=[t.pk, pk]))
        assert response.status_code == 404


def test_the_director_prints_the_cards_from_the_tournament_page(second_round, director_client):
    t, _ = second_round
    html = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    assert f'href="{reverse("reports:position_cards_pdf", args=[t.pk])}"' in html
