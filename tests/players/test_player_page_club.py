"""Every player's page of a whole club (tournaments, every kind of game, guests, history)
opens, and each kind the player played shows its figures."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.games.models import Seat
from tarotclub.players.models import Player
from tarotclub.tournaments.models import Table

pytestmark = pytest.mark.django_db


def test_every_players_page_of_a_whole_club(client, django_user_model):
    from tests.core.club import build

    build()
    member = django_user_model.objects.get(username="member")
    client.force_login(member)
    for player in Player.objects.all():
        response = client.get(reverse("players:detail", args=[player.pk]))
        assert response.status_code == 200, player
        kinds = set(
            Seat.objects.filter(
                player=player, game__archived_at__isnull=True, game__tournament_table__isnull=True
            ).values_list("game__kind", flat=True)
        )
        page = response.content.decode()
        for table in Table.objects.filter(game__seats__player=player):
            assert table.game.token not in page  # a table's link is not for every member
        shown = {k["figures"].kind.identifier for k in response.context["kinds"]}
        others = {k["kind"].identifier for k in response.context["other_kinds"]}
        assert not shown & others  # each kind once: French Tarot's line, or its standings
        assert shown | others == kinds, player
        games = sum(k["figures"].games for k in response.context["kinds"])
        games += sum(k["games"] for k in response.context["other_kinds"])
        assert games == response.context["games_count"]
        tarot = response.context["tarot"]["stats"]
        assert (
            tarot.roles["taker"].deals
            + tarot.roles["partner"].deals
            + tarot.roles["defender"].deals
            == tarot.deals
        )
