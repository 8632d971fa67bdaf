"""An address a button posts to, opened in the browser (a bookmark, a reload, a shared link),
answers the site's page in the user's language with 405, not an empty body that Chromium shows
as its own English error; and it does nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarotclub.games.services import game_start
from tarotclub.tournaments.models import Status, Table, Tournament
from tests.tournaments.helpers import make_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "title", "advice"),
    [
        ("fr", "Indisponible à cette adresse", "Revenez à la page et appuyez sur son bouton."),
        ("nl", "Niet beschikbaar op dit adres", "Ga terug naar de pagina en druk op de knop."),
        ("en", "Not available at this address", "Go back to the page and press its button."),
    ],
)
def test_a_start_button_address_opened_says_so_and_starts_nothing(
    client, director, language, title, advice
):
    t, _players = make_tournament(9, rounds=2, deals=4)
    client.force_login(director)
    response = client.get(reverse("tournaments:start", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response["Content-Type"].startswith("text/html")
    assert response["Content-Language"] == language
    page = response.content.decode()
    assert f"<h1>{title}</h1>" in page and advice in page
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == Status.REGISTRATION and not Table.objects.filter(tournament=t).exists()


def test_a_post_to_a_page_is_refused_with_the_sites_page(client):
    response = client.post(reverse("matches:list"), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 405
    assert response["Allow"] == "GET"
    page = response.content.decode()
    assert "Cette adresse n'accepte pas ce type de requête. Rien n'a été fait." in page
    assert "appuyez sur son bouton" not in page


def test_a_share_link_address_a_button_posts_to_opened_by_a_player(client, make_players):
    game = game_start(players=make_players("Anne", "Bram", "Chloé"), kind="foolsfaith")
    response = client.get(reverse("foolsfaith:give", args=[game.token]), HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 405
    page = response.content.decode()
    assert "Niet beschikbaar op dit adres" in page and "Er is niets gedaan." in page
