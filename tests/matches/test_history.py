import pytest
from django.urls import reverse

from tarotclub.core.history import show

from .helpers import make_match

pytestmark = pytest.mark.django_db
MINUS = "\u2212"


def test_a_negative_number_in_the_history_has_a_real_minus():
    assert show(-168) == f"{MINUS}168"
    assert show([[2, "garde", -58]]) == f"2, garde, {MINUS}58"
    assert show(66) == "66" and show(True) == "yes"


def test_the_history_page_names_the_attacker_and_shows_real_minuses(client, director):
    make_match(quarters=1)
    client.force_login(director)
    page = client.get(reverse("history")).content.decode()
    assert "team match quarter recorded" in page
    assert "Anne Dupont" in page  # the attacker by name, not by number
    assert f"{MINUS}168" in page and "-168" not in page


def test_the_history_shows_a_correction_and_a_board_s_facts(client, director):
    from tarotclub.matches import selectors, services

    from .test_facts import WORKED

    match, sample, people = make_match(quarters=0)
    q = sample.quarters[0]
    services.quarter_record(
        match=match,
        number=1,
        team="A",
        attacker=people[q.a_attacker],
        closed=q.closed,
        results=[(c, f) for c, f, _s in WORKED["A"]],
    )
    teams = selectors.match_sheet(match).teams
    services.match_edit(
        match=match,
        expected_revision=0,
        name=match.name,
        date=match.date,
        boards=16,
        a_name="Lille TC",
        b_name=match.b_name,
        a_players=teams["A"],
        b_players=teams["B"],
    )
    client.force_login(director)
    page = client.get(reverse("history")).content.decode()
    assert "team match corrected" in page and "Lille TC" in page
    assert "card points, in halves: 86" in page and "petit au bout: attack" in page
