"""Every write to the roster leaves a history entry: who, when, before, after."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tarotclub.core.models import ACTIONS, LogEntry
from tarotclub.players import services
from tarotclub.players.models import Player
from tarotclub.players.services import player_create, player_update

pytestmark = pytest.mark.django_db


def entries(player) -> list[LogEntry]:
    return list(LogEntry.objects.for_object(player).order_by("pk"))


def test_a_new_player_is_logged_with_who_added_them(member):
    p = player_create(name="Anne", nickname="Annie", licence="AB12", user=member)
    [entry] = entries(p)
    assert entry.action == services.PLAYER_CREATED and entry.action in ACTIONS
    assert entry.user == member and entry.object_repr == "Anne (Annie)"
    assert entry.before is None
    assert entry.after == {
        "name": "Anne",
        "nickname": "Annie",
        "licence": "AB12",
        "active": True,
        "guest": False,
    }


def test_a_rename_keeps_the_name_before_and_after(director):
    p = player_create(name="Anne")
    player_update(player=p, name="Anne Dubois", nickname="Annie", licence="X1", user=director)
    entry = entries(p)[-1]
    assert entry.action == services.PLAYER_RENAMED and entry.user == director
    assert entry.before["name"] == "Anne" and entry.after["name"] == "Anne Dubois"
    assert (entry.before["nickname"], entry.after["nickname"]) == ("", "Annie")
    assert (entry.before["licence"], entry.after["licence"]) == ("", "X1")


def test_other_changes_are_logged_and_nothing_is_logged_for_no_change(member):
    p = player_create(name="Anne", guest=True)
    player_update(player=p, name="Anne", active=False, user=member)
    entry = entries(p)[-1]
    assert entry.action == services.PLAYER_UPDATED
    assert (entry.before["active"], entry.after["active"]) == (True, False)
    player_update(player=p, name="Anne", active=False, guest=False, user=member)
    entry = entries(p)[-1]
    assert (entry.before["guest"], entry.after["guest"]) == (True, False)  # made a member
    count = len(entries(p))
    player_update(player=p, name="Anne", active=False, user=member)
    assert len(entries(p)) == count


def test_a_refused_write_leaves_no_entry():
    a = player_create(name="Anne")
    player_create(name="Bram")
    with pytest.raises(ValidationError):
        player_create(name="anne")
    with pytest.raises(ValidationError):
        player_update(player=a, name="BRAM")
    assert LogEntry.objects.count() == 2


def test_a_guest_added_at_a_table_is_logged_with_the_member(member_client, member, four):
    data = {"seat1": four[0].pk, "guest_name": "Zoé", "add_guest": "1"}
    member_client.post(reverse("games:new"), data)
    guest = Player.objects.get(name="Zoé")
    [entry] = entries(guest)
    assert entry.action == services.PLAYER_CREATED and entry.after["guest"] is True
    assert entry.user == member


def test_a_guest_registered_for_a_tournament_is_logged():
    from tarotclub.tournaments.services import entry_register, tournament_create

    t = tournament_create(name="Cup", date=dt.date(2026, 12, 1), rounds=3, deals_per_round=4)
    entry = entry_register(tournament=t, guest_name="Guest\u200b Star", licence="G1")
    assert entry.player.name == "Guest Star"
    [logged] = entries(entry.player)
    assert logged.action == services.PLAYER_CREATED and logged.after["guest"] is True


def test_roster_pages_log_with_the_member(member_client, member):
    member_client.post(reverse("players:new"), {"name": "Zoé", "active": "on"})
    zoe = Player.objects.get(name="Zoé")
    member_client.post(reverse("players:edit", args=[zoe.pk]), {"name": "Zoé Maes", "active": "on"})
    created, renamed = entries(zoe)
    assert created.user == member and renamed.user == member
    assert renamed.action == services.PLAYER_RENAMED
    assert (renamed.before["name"], renamed.after["name"]) == ("Zoé", "Zoé Maes")


def test_a_guest_is_made_a_member_on_the_roster_page(member_client):
    guest = player_create(name="Zoé", guest=True)
    page = member_client.get(reverse("players:edit", args=[guest.pk])).content.decode()
    assert re.search(r'<input type="checkbox" name="guest"[^>]* checked>', page)
    member_client.post(reverse("players:edit", args=[guest.pk]), {"name": "Zoé", "active": "on"})
    guest.refresh_from_db()
    assert not guest.guest
    assert entries(guest)[-1].after["guest"] is False
