"""A finished 200-player tournament built once for the module, and PDF helpers."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client

from tarotclub.core.models import LogEntry
from tarotclub.games.models import Game
from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table, Tournament
from tests.tournaments.helpers import make_tournament, play_round


def points_for(i: int) -> int:
    """Card points of the i-th deal of a table: varied, so scores differ from deal to deal."""
    return (37, 58, 44, 71, 29, 66)[i % 6]


def build_finished(n_players: int, *, rounds: int, deals: int):
    t, players = make_tournament(n_players, rounds=rounds, deals=deals)
    t = services.tournament_start(tournament=t)
    for _ in range(rounds):
        play_round(t, points_for=points_for)
        t = services.tournament_next_round(tournament=t)
    return t, players


def drop(t: Tournament, players, *, history_after: int = 0) -> None:
    """Remove what a module-scoped fixture committed, so other tests start from nothing.

    The site never deletes history (`LogEntry` refuses it); a test's own entries are removed
    below the ORM's guard, from the id the fixture started at.
    """
    LogEntry.objects.filter(pk__gt=history_after)._raw_delete(LogEntry.objects.db)
    game_ids = list(Table.objects.filter(tournament=t).values_list("game_id", flat=True))
    Tournament.objects.filter(pk=t.pk).delete()
    Game.objects.filter(pk__in=game_ids).delete()
    Player.objects.filter(pk__in=[p.pk for p in players]).delete()


@pytest.fixture(scope="module")
def big(django_db_setup, django_db_blocker):
    """200 players, 5 rounds of 4 deals, every table confirmed: the tournament is finished."""
    with django_db_blocker.unblock():
        start = LogEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        t, players = build_finished(200, rounds=5, deals=4)
        yield t
        drop(t, players, history_after=start)


@pytest.fixture
def english_client(client) -> Client:
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def director_client(director) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(director)
    return c


def pdf_pages(content: bytes) -> list[str]:
    """The text of each page of a PDF (pypdf)."""
    from pypdf import PdfReader

    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(content)).pages]


def pdf_page_lines(content: bytes) -> list[list[str]]:
    """Each page's printed lines as a reader sees them, across columns laid out side by side
    (pypdf's layout mode, white space folded): a table's row is one line."""
    from pypdf import PdfReader

    return [
        [
            " ".join(line.split())
            for line in page.extract_text(extraction_mode="layout").splitlines()
            if line.strip()
        ]
        for page in PdfReader(io.BytesIO(content)).pages
    ]


def pdf_rows(content: bytes) -> list[str]:
    """Every page's lines (`pdf_page_lines`) one after the other: a stacked table's row is one
    line."""
    return [line for page in pdf_page_lines(content) for line in page]


def count_name(text: str, name: str) -> int:
    """How often `name` is printed, wherever a line breaks between two of its words."""
    words = r"\s+".join(re.escape(word) for word in name.split())
    return len(re.findall(rf"(?<![\w]){words}(?![\w])", text))


def pdf_image(content: bytes, page: int = 0, *, scale: float = 2):
    """One page of the PDF as an RGB image (pypdfium2), `scale` pixels a point."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(content)
    try:
        return pdf[page].render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()


def save_png(content: bytes, path, *, page: int = 0, scale: float = 1.6) -> None:
    """Render one page of the PDF as a PNG (pypdfium2, no system tools) for a person to look at."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(content)
    try:
        bitmap = pdf[page].render(scale=scale)
        path.parent.mkdir(parents=True, exist_ok=True)
        bitmap.to_pil().save(path)
    finally:
        pdf.close()
