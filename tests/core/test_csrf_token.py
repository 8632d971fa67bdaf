"""The fresh CSRF token a phone's queue asks for when a kept entry's token is refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse


@pytest.mark.django_db
def test_the_token_goes_with_the_cookie_it_sets_and_is_never_cached():
    client = Client(enforce_csrf_checks=True)
    response = client.get(reverse("csrf_token"), HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    token = response.json()["token"]
    assert "csrftoken" in response.cookies
    # a POST with it passes the CSRF check (a game's entry page is behind it too)
    refused = client.post(reverse("set_language"), {"language": "fr"})
    assert refused.status_code == 403
    accepted = client.post(
        reverse("set_language"), {"language": "fr", "csrfmiddlewaretoken": token}
    )
    assert accepted.status_code == 302


@pytest.mark.django_db
def test_the_token_is_only_read(client):
    assert client.post(reverse("csrf_token")).status_code == 405
