"""The roster: its service, its pages, and the short names of a table."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tarotclub.players.models import Player
from tarotclub.players.selectors import short_labels
from tarotclub.players.services import player_create, player_update

pytestmark = pytest.mark.django_db


def test_names_are_unique_without_case_and_spaces_are_tidied():
    p = player_create(name="  Jan   Peeters ", licence="AB123")
    assert p.name == "Jan Peeters"
    with pytest.raises(ValidationError) as e:
        player_create(name="jan peeters")
    assert "already a player" in e.value.messages[0]


@pytest.mark.parametrize(
    "kwargs", [dict(name=""), dict(name="x" * 81), dict(name="A", licence="12 34!")]
)
def test_bad_players_are_refused(kwargs):
    with pytest.raises(ValidationError):
        player_create(**kwargs)
    assert not Player.objects.exists()


def test_update_keeps_the_name_unique():
    a = player_create(name="Anne")
    player_create(name="Bram")
    with pytest.raises(ValidationError):
        player_update(player=a, name="bram")
    player_update(player=a, name="Anne D", nickname="Annie", active=False)
    a.refresh_from_db()
    assert (a.name, a.nickname, a.active) == ("Anne D", "Annie", False)


def test_short_labels_stay_unique():
    ps = [
        player_create(name=n)
        for n in ["Jan Peeters", "Jan Pauwels", "Jan Smit", "Claire Martin", "Bob"]
    ]
    labels = short_labels(ps)
    assert labels[ps[3].pk] == "Claire" and labels[ps[4].pk] == "Bob"
    assert labels[ps[2].pk] == "Jan S."
    assert labels[ps[0].pk] == "Jan Peeters" and labels[ps[1].pk] == "Jan Pauwels"
    assert len(set(labels.values())) == 5


def test_roster_pages(member_client):
    response = member_client.post(reverse("players:new"), {"name": "Zoé", "licence": "bad!!"})
    assert response.status_code == 200 and "letters and digits" in response.content.decode()
    member_client.post(reverse("players:new"), {"name": "Zoé", "active": "on"})
    zoe = Player.objects.get(name="Zoé")
    assert "Zoé" in member_client.get(reverse("players:list"), {"q": "zo"}).content.decode()
    member_client.post(reverse("players:edit", args=[zoe.pk]), {"name": "Zoé B"})
    zoe.refresh_from_db()
    assert zoe.name == "Zoé B" and not zoe.active
    assert member_client.get(reverse("players:edit", args=[999999])).status_code == 404
