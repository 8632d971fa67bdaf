"""The Django admin is a read-only window on the club: every write goes through the site's
services (which keep score lines, revisions and the history right), and history is never
deleted, in the admin or anywhere else."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.games.models import Change, Game, Record, Seat
from tarotclub.kinds.foolsfaith.models import Challenge, ChallengeAward
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.players.models import Player
from tarotclub.tournaments.models import Entry, Table, Tournament
from tests.shared_data import loaded_once

from .club import build

pytestmark = pytest.mark.django_db

READ_ONLY = [
    Game,
    Seat,
    Deal,
    DealLine,
    Record,
    Change,
    ChallengeAward,
    Challenge,
    Tournament,
    Entry,
    Table,
    Player,
    LogEntry,
]


def action_names(listing) -> list[str]:
    """The bulk actions a list page offers."""
    form = listing.context.get("action_form")
    return [name for name, _label in form.fields["action"].choices] if form else []


def url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture(scope="module")
def club(django_db_setup, django_db_blocker):
    """The club (tests/core/club.py: primary keys only), built once for this module instead of
    once a test (some 3 s a build); each test in a savepoint (tests/shared_data.py)."""
    yield from loaded_once(django_db_blocker, build)


@pytest.fixture
def root(club) -> Client:
    user = get_user_model().objects.create_superuser("root", password="pw-root-1")
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(user)
    return c


def state() -> dict:
    """What a write through the admin would change."""
    return {
        "deals": list(Deal.objects.order_by("pk").values_list("pk", "points_half", "version")),
        "lines": list(DealLine.objects.order_by("pk").values_list("pk", "score")),
        "revisions": list(Game.objects.order_by("pk").values_list("pk", "revision", "locked")),
        "changes": Change.objects.count(),
        "history": LogEntry.objects.count(),
        "counts": {m._meta.label: m._base_manager.count() for m in READ_ONLY},
        "players": list(Player.objects.order_by("pk").values_list("pk", "name")),
        "challenges": list(Challenge.objects.order_by("pk").values_list("pk", "text", "active")),
        "tournaments": list(Tournament.objects.order_by("pk").values_list("pk", "name", "status")),
    }


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda m: m._meta.label)
def test_every_club_model_is_shown_read_only(root, model):
    obj = model._base_manager.order_by("pk").first()
    assert obj is not None
    before = state()
    listing = root.get(url(model, "changelist"))
    assert listing.status_code == 200
    # no bulk delete (nor any other action) on the list
    assert "delete_selected" not in action_names(listing)
    assert root.get(url(model, "add")).status_code == 403
    assert root.post(url(model, "add"), {}).status_code == 403
    change = root.get(url(model, "change", obj.pk))
    assert change.status_code == 200  # to look at it
    assert b'name="_save"' not in change.content and b'name="_continue"' not in change.content
    assert root.post(url(model, "change", obj.pk), {}).status_code == 403
    assert root.get(url(model, "delete", obj.pk)).status_code == 403
    assert root.post(url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
    bulk = root.post(
        url(model, "changelist"),
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert model._base_manager.filter(pk=obj.pk).exists()
    assert state() == before


def test_editing_a_deal_in_the_admin_changes_nothing(root):
    deal = Deal.objects.order_by("pk").first()
    before = state()
    response = root.post(
        url(Deal, "change", deal.pk),
        {
            "game": deal.game_id,
            "number": deal.number,
            "dealer": deal.dealer_id,
            "taker": deal.taker_id,
            "contract": "garde_contre",
            "bouts": 3,
            "points_half": 182,
            "chelem": "none",
            "poignees": "[]",
            "won": "on",
            "gap": 91,
            "version": deal.version,
        },
    )
    assert response.status_code == 403
    assert state() == before


def test_history_cannot_be_deleted_in_the_admin(root):
    change = Change.objects.order_by("pk").first()
    entry = LogEntry.objects.order_by("pk").first()
    for obj in (change, entry):
        assert root.post(url(type(obj), "delete", obj.pk), {"post": "yes"}).status_code == 403
    assert Change.objects.filter(pk=change.pk).exists()
    assert LogEntry.objects.filter(pk=entry.pk).exists()


def test_a_director_reads_the_history_in_the_admin(club):
    """Directors (staff without model permissions) may look, never write."""
    director = get_user_model().objects.get(username="director")
    assert not director.is_superuser and not director.user_permissions.exists()
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(director)
    index = c.get(reverse("admin:index"))
    assert index.status_code == 200
    for model in (LogEntry, Change, Deal, Tournament):
        assert c.get(url(model, "changelist")).status_code == 200
        obj = model._base_manager.order_by("pk").first()
        assert c.get(url(model, "change", obj.pk)).status_code == 200
        assert c.post(url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
    # a member who is not staff does not get in at all
    member = Client()
    member.force_login(get_user_model().objects.get(username="member"))
    assert member.get(url(LogEntry, "changelist")).status_code == 302


def test_accounts_are_deactivated_not_deleted(root):
    """Deleting an account would blank the "who" of its history: the admin only deactivates."""
    director = get_user_model().objects.get(username="director")
    User = get_user_model()
    assert root.post(url(User, "delete", director.pk), {"post": "yes"}).status_code == 403
    listing = root.get(url(User, "changelist"))
    assert "delete_selected" not in action_names(listing)
    assert User.objects.filter(pk=director.pk).exists()
    # accounts are still managed in the admin (a new director, a password)
    assert root.get(url(User, "add")).status_code == 200
    assert root.get(url(User, "change", director.pk)).status_code == 200


def test_no_model_of_the_club_is_writable_in_the_admin(root):
    """Every registered model of the project's apps is read-only (new ones too)."""
    request = root.get(reverse("admin:index")).wsgi_request
    for model, model_admin in admin.site._registry.items():
        if not model.__module__.startswith("tarotclub."):
            continue
        assert not model_admin.has_add_permission(request), model
        assert not model_admin.has_change_permission(request), model
        assert not model_admin.has_delete_permission(request), model


# --- the model guard -------------------------------------------------------------------------


def test_a_games_history_is_never_deleted_nor_rewritten(club):
    change = Change.objects.order_by("pk").first()
    count = Change.objects.count()
    with pytest.raises(PermissionError):
        change.delete()
    with pytest.raises(PermissionError):
        Change.objects.filter(game=change.game).delete()
    with pytest.raises(PermissionError):
        Change.objects.all().delete()
    original = change.action
    other = "locked" if original != "locked" else "unlocked"
    with pytest.raises(PermissionError):
        Change.objects.filter(pk=change.pk).update(action=other)
    change.action = other
    with pytest.raises(PermissionError):
        change.save()
    assert Change.objects.count() == count
    assert Change.objects.get(pk=change.pk).action == original
