"""Fixtures shared by every test: a roster, a member, a game."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_players(db):
    from tarotclub.players.services import player_create

    def make(*names: str):
        return [player_create(name=n) for n in names]

    return make


@pytest.fixture
def four(make_players):
    return make_players("Anne", "Bram", "Chloé", "Dirk")


@pytest.fixture
def five(make_players):
    return make_players("Anne", "Bram", "Chloé", "Dirk", "Eva")


@pytest.fixture
def member(db, django_user_model):
    return django_user_model.objects.create_user(username="member", password="pw-member-1")


@pytest.fixture
def director(db, django_user_model):
    return django_user_model.objects.create_user(
        username="director", password="pw-director-1", is_staff=True
    )


@pytest.fixture
def member_client(client, member):
    client.force_login(member)
    return client


@pytest.fixture
def game4(four, member):
    from tarotclub.games.services import game_start

    return game_start(players=four, first_dealer=0, created_by=member)


@pytest.fixture
def game5(five, member):
    from tarotclub.games.services import game_start

    return game_start(players=five, first_dealer=0, created_by=member)
