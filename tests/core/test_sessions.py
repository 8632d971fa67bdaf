"""Issue 12: a signed-in reader's session and user are read by plain SELECTs
(`core.sessions.SessionStore`, `core.security.ClubBackend.get_user`), not the ORM's
querysets: the same session data, the same user, and nothing for an expired session, an
unknown key, an inactive or a deleted user."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tarotclub.core.security import ClubBackend
from tarotclub.core.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_site_reads_its_sessions_with_the_plain_select():
    assert settings.SESSION_ENGINE == "tarotclub.core.sessions"
    assert "tarotclub.core.security.ClubBackend" in settings.AUTHENTICATION_BACKENDS


def test_a_session_reads_as_djangos():
    saved = DjangoStore()
    saved["answer"] = {"n": 42, "text": "Élodie <&>"}
    saved.set_expiry(600)
    saved.save()
    ours = SessionStore(saved.session_key)
    assert ours.load() == DjangoStore(saved.session_key).load() == saved.load()
    assert ours.session_key == saved.session_key
    assert ours["answer"] == {"n": 42, "text": "Élodie <&>"}


def test_an_expired_or_unknown_session_is_empty_and_its_key_forgotten():
    saved = DjangoStore()
    saved["answer"] = 42
    saved.save()
    Session.objects.filter(pk=saved.session_key).update(
        expire_date=timezone.now() - dt.timedelta(seconds=1)
    )
    for key in (saved.session_key, "x" * 32):
        ours = SessionStore(key)
        assert ours.load() == {}
        assert ours.session_key is None  # as Django's: a new session gets a new key


def test_a_user_reads_as_with_the_orm(django_user_model):
    user = django_user_model.objects.create_user(
        username="élodie", password="pw-élodie-1", is_staff=True, first_name="Élodie"
    )
    found = ClubBackend().get_user(user.pk)
    fields = [f.attname for f in django_user_model._meta.concrete_fields]
    fresh = django_user_model.objects.get(pk=user.pk)
    assert [getattr(found, f) for f in fields] == [getattr(fresh, f) for f in fields]
    assert ClubBackend().get_user(str(user.pk)).pk == user.pk  # as the session holds it
    assert found.get_session_auth_hash() == fresh.get_session_auth_hash()


def test_an_inactive_unknown_or_impossible_user_is_nobody(django_user_model):
    user = django_user_model.objects.create_user(username="gone", password="pw-gone-1")
    backend = ClubBackend()
    for pk in (user.pk + 1000, 2**63, 10**30, "x"):
        assert backend.get_user(pk) is None
    django_user_model.objects.filter(pk=user.pk).update(is_active=False)
    assert backend.get_user(user.pk) is None


def test_a_director_whose_session_expired_is_sent_to_the_login(director):
    client = Client()
    client.force_login(director)
    page = reverse("tournaments:list")
    assert client.get(page).wsgi_request.user == director
    key = client.session.session_key
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - dt.timedelta(seconds=1))
    assert not client.get(page).wsgi_request.user.is_authenticated


def test_a_signed_in_reader_is_read_from_the_session_they_hold(director, member):
    first, second = Client(), Client()
    first.force_login(director)
    second.force_login(member)
    assert first.get("/").wsgi_request.user == director
    assert second.get("/").wsgi_request.user == member
    assert first.session[SESSION_KEY] == str(director.pk)
