"""A deal sent with an expired form (no CSRF cookie, or a token the cookie no longer goes with:
a sign-in in another tab, a page open since yesterday) is refused with the site's page in the
phone's language, saves nothing, and the way out the page gives (reload, send again) works."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.kinds.tarot.models import Deal

pytestmark = pytest.mark.django_db

DEAL = {"contract": "garde", "bouts": "2", "points": "49", "points_side": "attack"}


def form_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]


@pytest.mark.parametrize(
    ("language", "title", "advice"),
    [
        ("fr", "Le formulaire a expiré", "rechargez la page et renvoyez le formulaire"),
        ("nl", "Het formulier is verlopen", "herlaad de pagina en verstuur het formulier opnieuw"),
        ("en", "The form has expired", "reload the page and send the form again"),
    ],
)
def test_an_expired_deal_form_saves_nothing_and_says_what_to_do(game4, language, title, advice):
    phone = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    url = reverse("games:deal_new", args=[game4.token])
    page = phone.get(url).content.decode()
    taker = game4.seats.order_by("position")[1].player_id
    data = DEAL | {"taker": taker, "number": 1, "csrfmiddlewaretoken": form_token(page)}
    phone.cookies.pop("csrftoken")  # the cookie the form's token went with is gone

    refused = phone.post(url, data)
    assert refused.status_code == 403
    assert refused["Content-Language"] == language
    body = refused.content.decode()
    assert f"<h1>{title}</h1>" in body and advice in body
    assert "csrftoken" in refused.cookies  # the page sets a fresh cookie for the retry
    assert not Deal.objects.filter(game=game4).exists()

    # the way out: reload the form, send it again
    page = phone.get(url).content.decode()
    sent = phone.post(url, data | {"csrfmiddlewaretoken": form_token(page)})
    assert sent.status_code == 302
    assert list(Deal.objects.filter(game=game4).values_list("number", flat=True)) == [1]


def test_a_token_from_another_session_is_refused_the_same_way(game4):
    """A sign-in in another tab rotates the token: the old form's token no longer matches."""
    phone = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="fr")
    url = reverse("games:deal_new", args=[game4.token])
    phone.get(url)
    other = Client(enforce_csrf_checks=True)
    stale = form_token(other.get(url).content.decode())
    taker = game4.seats.order_by("position")[1].player_id
    refused = phone.post(url, DEAL | {"taker": taker, "number": 1, "csrfmiddlewaretoken": stale})
    assert refused.status_code == 403
    assert "Le formulaire a expiré" in refused.content.decode()
    assert not Deal.objects.filter(game=game4).exists()
