"""The share link's QR code is made once per link, not on every view of the sheet."""

from __future__ import annotations

import segno
from django.urls import reverse


def _sheet(client, game, host="testserver"):
    response = client.get(reverse("games:sheet", args=[game.token]), HTTP_HOST=host)
    assert response.status_code == 200
    return response.content.decode()


def test_the_qr_code_is_made_once_per_link(client, game4, monkeypatch):
    made = []
    real = segno.make

    def counting(content, *args, **kwargs):
        made.append(content)
        return real(content, *args, **kwargs)

    monkeypatch.setattr(segno, "make", counting)
    first = _sheet(client, game4)
    again = _sheet(client, game4)
    link = f"http://testserver/t/{game4.token}/"
    assert made == [link]
    # the same picture both times, of the share link shown on the sheet
    svg = first[first.index("<svg") : first.index("</svg>")]
    assert svg in again
    assert link in first

    # another address of the site (the laptop's Wi-Fi address): another link, its own code
    other = _sheet(client, game4, host="127.0.0.1")
    assert made == [link, f"http://127.0.0.1/t/{game4.token}/"]
    assert other[other.index("<svg") : other.index("</svg>")] != svg


def test_the_printable_qr_is_cached_apart_from_the_sheets(client, game4, monkeypatch):
    calls = []
    real = segno.make
    monkeypatch.setattr(segno, "make", lambda c, *a, **k: calls.append(c) or real(c, *a, **k))
    small = _sheet(client, game4)
    big = client.get(reverse("games:qr", args=[game4.token])).content.decode()
    client.get(reverse("games:qr", args=[game4.token]))
    assert len(calls) == 2  # one per size, each made once
    assert big not in small
