"""A duplicate tournament's papers from its pages (reports/printouts.py wiring reports/duplicate.py
to the stored movement and scores): each PDF answers with the tournament's own names, grades and
places; free-deal and unstarted tournaments have none; the director's papers are the director's."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tarotclub.reports.duplicate import grade
from tarotclub.tournaments import duplicate, services
from tests.tournaments.duplicate_helpers import make_duplicate, play_duplicate_round

pytestmark = pytest.mark.django_db

PAPERS = ["guide_cards", "diagrams", "slips", "grading", "rankings", "records"]


def text_of(response) -> str:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def url(t, paper: str) -> str:
    return reverse(f"reports:duplicate_{paper}_pdf", args=[t.pk])


@pytest.fixture
def played(director):
    """Two tables, two rounds of 4 boards, every board scored: 50 points more a table."""
    t, players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    play_duplicate_round(t, lambda board, rnd, table: 50 + 20 * table)
    services.tournament_next_round(tournament=t)
    play_duplicate_round(t, lambda board, rnd, table: 50 + 20 * table)
    return t, players


@pytest.fixture
def desk(director):
    client = Client()
    client.force_login(director)
    return client


def test_every_paper_prints_the_tournaments_players(played, desk):
    t, players = played
    texts = {paper: text_of(desk.get(url(t, paper))) for paper in PAPERS}
    for paper in ("guide_cards", "slips", "rankings", "records"):
        missing = [p.name for p in players if p.name not in texts[paper]]
        assert missing == [], (paper, missing)
    g = duplicate.graded(t)
    # every board's grading sheet and diagram page
    for board in g.boards:
        assert f"{board}" in texts["grading"]
    assert len(PdfReader(io.BytesIO(desk.get(url(t, "diagrams")).content)).pages) == len(g.boards)
    # the grades the site computed, as the sheets print them
    attack = {grade(play.attack) for plays in g.session.boards.values() for play in plays}
    assert attack and all(a in texts["grading"] for a in attack)
    # the ranking that counts, in the site's order
    first = g.name(g.session.alternating[0])
    assert texts["rankings"].index(first) < texts["rankings"].index(
        g.name(g.session.alternating[-1])
    )


def test_the_rankings_paper_is_public_the_others_the_directors(played, member_client):
    t, _players = played
    assert text_of(Client().get(url(t, "rankings")))
    for paper in PAPERS:
        if paper != "rankings":
            assert Client().get(url(t, paper)).status_code == 302  # to the login page
            assert member_client.get(url(t, paper)).status_code == 403


def test_no_papers_before_the_start_or_for_free_deals(desk):
    t, _players = make_duplicate(2, rounds=2)
    free = services.tournament_create(name="Free", date=dt.date(2026, 12, 1))
    for paper in PAPERS:
        assert desk.get(url(t, paper)).status_code == 404
        assert desk.get(url(free, paper)).status_code == 404


def test_the_pages_link_their_papers(played, desk):
    t, _players = played
    pages = {
        "tournaments:duplicate_boards": ["guide_cards", "diagrams", "slips"],
        "tournaments:grading": ["grading"],
        "tournaments:standings": ["rankings", "records"],
    }
    for page, papers in pages.items():
        html = desk.get(reverse(page, args=[t.pk])).content.decode()
        for paper in papers:
            assert url(t, paper) in html, (page, paper)
