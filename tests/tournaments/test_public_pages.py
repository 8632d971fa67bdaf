"""The public pages of a tournament never hand out a table's share link.

A table's link (its token) lets whoever holds it enter, correct and undo deals. It reaches the
players through the QR code on the table's printed sheet and through the director's screen,
never through a page anybody can open.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import deque
from urllib.parse import urljoin, urlsplit

import pypdfium2
import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.games.models import Game
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db

#: Links a crawl of the public site does not follow: another site, static files, the language
#: switcher and the log-in pages (they lead nowhere near a tournament).
SKIP = ("/static/", "/i18n/", "/login/", "/logout/", "/admin/")
LINK = re.compile(r"""(?:href|src|action|hx-get|hx-post)\s*=\s*["']([^"'#]+)""")


def running_tournament():
    """Round 1 played and confirmed, round 2 redrawn once and under way at one table."""
    t, players = make_tournament(8, rounds=3, deals=2)
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    t = services.round_redraw(tournament=t)
    play_table(Table.objects.filter(tournament=t, round=2).first(), confirm=False)
    return t, players


def body_text(response) -> str:
    """What a person (or a script) can read in a response, whatever its format."""
    content = b"".join(response.streaming_content) if response.streaming else response.content
    kind = response.get("Content-Type", "")
    if "pdf" in kind:
        pdf = pypdfium2.PdfDocument(content)
        text = "".join(page.get_textpage().get_text_range() for page in pdf)
        return text + content.decode("latin-1")  # link annotations are in the raw bytes
    if content[:2] == b"PK":  # XLSX: every part of the zip
        with zipfile.ZipFile(io.BytesIO(content)) as z:
            return "".join(z.read(name).decode("utf-8", "replace") for name in z.namelist())
    return content.decode("utf-8", "replace")


def crawl(client: Client, start: list[str], limit: int = 200) -> dict[str, str]:
    """Every page reachable from `start` by following the site's own links (GET only)."""
    pages: dict[str, str] = {}
    queue = deque(start)
    while queue and len(pages) < limit:
        path = queue.popleft()
        if path in pages:
            continue
        response = client.get(path)
        assert response.status_code < 500, path
        text = body_text(response)
        pages[path] = text
        if "html" not in response.get("Content-Type", ""):
            continue
        for href in LINK.findall(text):
            target = urljoin(path, href.replace("&amp;", "&"))
            parts = urlsplit(target)
            if parts.netloc and parts.netloc != "testserver":
                continue
            local = parts.path + (f"?{parts.query}" if parts.query else "")
            if local.startswith(SKIP) or local in pages:
                continue
            queue.append(local)
    assert len(pages) < limit, "the crawl did not end: raise the limit"
    return pages


def test_where_do_i_sit_shows_table_and_seat_but_no_link():
    t, players = running_tournament()
    page = (
        Client().get(reverse("tournaments:where", args=[t.pk]), {"q": players[0].name}).content
    ).decode()
    table = Table.objects.get(tournament=t, round=2, game__seats__player=players[0])
    assert f"Table {table.number}" in page
    assert "/t/" not in page and "Open the table" not in page
    assert table.game.token not in page


def test_no_public_page_shows_a_table_token():
    t, players = running_tournament()
    client = Client()
    where = reverse("tournaments:where", args=[t.pk])
    queries = ["", "pl", "Player", "layer 0", *[p.name for p in players], "zzz"]
    start = [
        reverse("home"),
        reverse("tournaments:list"),
        reverse("tournaments:standings", args=[t.pk]),
        reverse("tournaments:projector", args=[t.pk]),
        *[f"{where}?q={q.replace(' ', '+')}" for q in queries],
    ]
    pages = crawl(client, start)
    # the crawl went through the tournament's public pages and its downloads
    paths = " ".join(pages)
    for expected in [
        "/projector/",
        "/where/",
        "/deals/",
        "/players/",
        "standings.csv",
        "standings.xlsx",
        "standings.pdf",
        "seating.pdf",
        "deals.csv",
        ".pdf",
    ]:
        assert expected in paths, expected
    tokens = list(Game.objects.values_list("token", flat=True))
    assert len(tokens) >= 4
    for path, text in pages.items():
        for token in tokens:
            assert token not in text, f"a table's token is on the public page {path}"
        assert not re.search(r"/t/[A-Za-z0-9_-]{8,}/", text), path


def test_a_member_sees_no_table_token_either(member):
    """A logged-in player who is not a director reaches more pages, but no table's link."""
    t, players = running_tournament()
    client = Client()
    client.force_login(member)
    where = reverse("tournaments:where", args=[t.pk])
    start = [
        reverse("home"),
        reverse("games:list"),
        reverse("players:list"),
        reverse("tournaments:standings", args=[t.pk]),
        reverse("tournaments:projector", args=[t.pk]),
        *[f"{where}?q={p.name.replace(' ', '+')}" for p in players],
    ]
    pages = crawl(client, start, limit=400)
    assert any(path.startswith("/players/") for path in pages)
    tokens = list(
        Game.objects.filter(tournament_table__isnull=False).values_list("token", flat=True)
    )
    for path, text in pages.items():
        for token in tokens:
            assert token not in text, f"a table's token is on {path}, shown to a member"
    # the manage page (with the tables' links) is the director's only
    assert client.get(reverse("tournaments:manage", args=[t.pk])).status_code == 403
