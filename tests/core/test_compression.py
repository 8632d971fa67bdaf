"""Pages go out gzip-compressed to a browser that accepts it (static files: WhiteNoise)."""

from __future__ import annotations

import gzip
import re

import pytest

pytestmark = pytest.mark.django_db


def test_a_page_is_compressed_for_a_browser_that_accepts_gzip(client):
    plain = client.get("/login/")
    response = client.get("/login/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    html = gzip.decompress(response.content)
    assert b'class="site-header"' in html
    assert len(response.content) < len(plain.content) / 2


def test_a_page_is_sent_plain_to_a_client_without_gzip(client):
    response = client.get("/login/")
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
    assert b'class="site-header"' in response.content


def test_the_csrf_token_in_a_compressed_page_changes_on_every_response(client):
    """BREACH guesses a secret that repeats across responses; Django masks the form's CSRF
    token anew for each response, so no compressed page repeats it."""
    tokens = set()
    for _ in range(3):
        html = gzip.decompress(client.get("/login/", HTTP_ACCEPT_ENCODING="gzip").content)
        tokens.add(re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1))
    assert len(tokens) == 3


def test_a_short_answer_is_not_compressed(client):
    """A redirect (or an unchanged poll's 204) is not worth compressing: it is left alone."""
    response = client.get("/favicon.ico", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 302
    assert not response.has_header("Content-Encoding")
