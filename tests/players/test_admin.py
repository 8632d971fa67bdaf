"""The Django admin shows the roster but never changes it behind the services' back."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.players.models import Player
from tarotclub.players.services import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-1")
    client.force_login(boss)
    return client


def test_the_admin_reads_players_but_cannot_add_change_or_delete(admin_client):
    anne = player_create(name="Anne")
    assert admin_client.get(reverse("admin:players_player_changelist")).status_code == 200
    change = reverse("admin:players_player_change", args=[anne.pk])
    assert admin_client.get(change).status_code == 200  # view only
    admin_client.post(change, {"name": "anne\u200b", "nickname": "", "licence": ""})
    assert admin_client.post(reverse("admin:players_player_add"), {"name": "X"}).status_code == 403
    delete = reverse("admin:players_player_delete", args=[anne.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert list(Player.objects.values_list("name", flat=True)) == ["Anne"]


def test_the_admin_search_folds_accents(admin_client):
    player_create(name="Élodie Leroy")
    player_create(name="Bram", licence="AB12")
    url = reverse("admin:players_player_changelist")
    html = admin_client.get(url, {"q": "elodie"}).content.decode()
    assert "Élodie Leroy" in html and "Bram" not in html
    assert "Bram" in admin_client.get(url, {"q": "ab12"}).content.decode()
