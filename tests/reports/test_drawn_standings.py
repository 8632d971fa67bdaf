"""The standings, drawn (reports/drawn.py): read back from the PDF as a reader sees it (pypdf's
layout mode: a player's row is one line) and as a printer prints it (pypdfium2's pixels)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import translation
from django.utils.translation import gettext as _

from tarotclub.games.presenters import number
from tarotclub.reports import drawn
from tarotclub.reports.documents import StandingsLine
from tarotclub.reports.printouts import drawn_frame, standings_paper, standings_pdf
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import Ranking

from .conftest import build_finished, pdf_image, pdf_page_lines

pytestmark = pytest.mark.django_db

SCALE = 2
ZEBRA = (250, 247, 240)
WHITE = (255, 255, 255)


def draw(t, paper: dict, language: str = "en") -> bytes:
    with translation.override(language):
        return drawn.standings_pdf(paper, **drawn_frame(t, _("Standings"))).content


def render(content: bytes, page: int = 0):
    return pdf_image(content, page, scale=SCALE)


def px(mm: float) -> int:
    return round(mm * drawn.MM * SCALE)


@pytest.fixture
def hundred_twenty():
    t, _players = build_finished(120, rounds=2, deals=2)
    return t


def test_every_player_once_in_rank_order_a_row_a_line_the_heading_on_every_page(
    hundred_twenty,
):
    """120 players, a long name cut with an ellipsis before its "(withdrawn)", three lines of
    house rules: every row whole on one line, in the ranking's order, the heading on every
    page, the page numbers running through, nothing in the page's bottom margin but its
    footer; the rows' zebra."""
    t = hundred_twenty
    with translation.override("en"):
        paper = standings_paper(t)
    paper["house_rules"] = "House rules: " + "misère de tête (10 from each), " * 12
    long_name = "Marie-Élisabeth-Alexandrine de la Tour d'Auvergne-Lauraguais " * 2
    first = paper["lines"][0]
    paper["lines"][0] = StandingsLine([first.values[0], long_name, *first.values[2:]], True)
    content = draw(t, paper)
    pages = pdf_page_lines(content)
    assert len(pages) == 4
    rows = []
    for k, lines in enumerate(pages, start=1):
        assert "RANK PLAYER LICENCE R1 R2 TOTAL" in lines
        assert lines[0] == "Tarot Club Test cup · 29 Nov 2026 Standings"
        assert lines[-1].startswith("Printed on ") and lines[-1].endswith(f"Page {k} of 4")
        heading = lines.index("RANK PLAYER LICENCE R1 R2 TOTAL")
        rows += [line for line in lines[heading + 1 : -1] if not line.startswith("“=”")]
    standings = selectors.standings(t)
    assert any(row.tied for row in standings.rows)  # and the ties' legend closes the paper
    assert pages[3][-2].startswith("“=” after a rank: tied with the player above or below")
    expected = [" ".join(line.values) for line in paper["lines"]]
    assert rows[1:] == expected[1:]
    assert rows[0].startswith(f"{first.values[0]} Marie-Élisabeth-Alexan")
    cut = rows[0].split(" L0")[0]
    assert cut.endswith("… (withdrawn)") and len(cut) < len(long_name)
    # the rows' values come from the standings: rank ("=" when tied), name, licence, rounds
    for row, line in zip(standings.rows[1:], rows[1:], strict=True):
        rank = f"{row.rank}=" if row.tied else str(row.rank)
        rounds = " ".join(number(row.rounds[r]) for r in (1, 2))
        assert line == f"{rank} {row.player.name} {row.licence} {rounds} {number(row.total)}"

    for k in range(4):
        image = render(content, k)
        margin = image.crop((0, px(297 - drawn.BOTTOM), image.width, image.height))
        darks = margin.convert("L").point(lambda v: 255 if v < 110 else 0).histogram()[255]
        assert darks < 0.01 * margin.width * margin.height, k
    # the zebra: on the last page, the rows alternate white and shaded under the heading
    image = render(content, 3)
    x = px(drawn.LEFT + 15.5)  # the name's cell, in its padding, left of its text
    shades = []
    for y in range(px(drawn.TOP + drawn.HEAD_ROW + 1), image.height - px(drawn.BOTTOM)):
        colour = image.getpixel((x, y))
        if colour in (WHITE, ZEBRA) and (not shades or shades[-1] != colour):
            shades.append(colour)
    assert shades[:4] == [WHITE, ZEBRA, WHITE, ZEBRA]


def test_the_average_column_and_the_lead():
    t, _players = build_finished(12, rounds=2, deals=2)
    t.ranking = Ranking.AVERAGE
    with translation.override("en"):
        paper = standings_paper(t)
    lines = pdf_page_lines(draw(t, paper))[0]
    assert lines[1:3] == [
        "Final standings",
        "12 players · after round 2 of 2 · ranked by the average per round played",
    ]
    assert "RANK PLAYER LICENCE R1 R2 TOTAL AVERAGE" in lines


def test_nobody_registered_yet():
    t = services.tournament_create(name="Empty cup", date=dt.date(2026, 12, 1), rounds=3)
    with translation.override("en"):
        lines = pdf_page_lines(standings_pdf(t).content)[0]
    assert lines[1:3] == ["Standings", "0 players"]
    assert "Nobody is registered yet." in lines


@pytest.mark.parametrize("language", ["fr", "nl"])
def test_the_words_are_the_readers_language(language):
    t, _players = build_finished(8, rounds=1, deals=1)
    with translation.override(language):
        paper = standings_paper(t)
        lines = pdf_page_lines(draw(t, paper, language))[0]
        expected = [
            _("Final standings"),
            " ".join([_("Rank"), _("Player"), _("Licence"), _("R%(n)s") % {"n": 1}, _("Total")]),
            _("Page %(page)s of %(pages)s") % {"page": 1, "pages": 1},
        ]
    with translation.override("en"):
        assert _("Final standings") not in expected
    text = "\n".join(lines)
    assert expected[0] in lines and expected[1].upper() in lines and expected[2] in text
