"""Issue 12: the standings page renders its table without django-tables2's cost a cell
(`tables.standings_html`), and the markup is the one django-tables2 renders (same classes,
labels, dashes, withdrawn mark), in every language."""

from __future__ import annotations

import pytest
from django.template import engines
from django.test import RequestFactory
from django.test.html import parse_html
from django.utils import translation

from tarotclub.players.services import player_create
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import Entry, Ranking, Table
from tarotclub.tournaments.tables import StandingsTable, standings_html

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db


def tables2_html(standings, show_average: bool, link_players: bool = False) -> str:
    template = engines["django"].from_string("{% load django_tables2 %}{% render_table table %}")
    table = StandingsTable(standings, show_average=show_average, link_players=link_players)
    return template.render({"table": table}, request=RequestFactory().get("/"))


def assert_same(t) -> None:
    t.refresh_from_db()
    standings = selectors.standings(t)
    for average in (False, True):
        for links in (False, True):  # names as links to the players' pages (for members)
            expected = parse_html(tables2_html(standings, average, links))
            fast = standings_html(standings, show_average=average, link_players=links)
            assert parse_html(fast) == expected
            assert ('class="player-link"' in fast) == (links and bool(standings.rows))


@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_the_fast_table_is_django_tables2s_markup(language):
    t, players = make_tournament(9, rounds=3, deals=2)
    # a long hyphenated name, markup in a name, a missing licence
    Entry.objects.filter(tournament=t, player=players[0]).update(licence="")
    players[1].name = "Jean-Baptiste <b>&</b> Fils"
    players[1].save(update_fields=["name"])
    t = services.tournament_start(tournament=t)
    play_round(t)
    t = services.tournament_next_round(tournament=t)
    # a withdrawal and a late player: rounds not played show a dash
    services.entry_withdraw(entry=Entry.objects.get(tournament=t, player=players[2]))
    services.entry_register(tournament=t, player=player_create(name="Late-Comer"))
    play_table(Table.objects.filter(tournament=t, round=2).order_by("number").first())
    with translation.override(language):
        assert_same(t)
    services.tournament_update(tournament=t, ranking=Ranking.AVERAGE)
    with translation.override(language):
        assert_same(t)


def test_ties_and_an_empty_tournament_render_the_same():
    t, _ = make_tournament(0, rounds=2, deals=1)
    assert_same(t)
    t, _ = make_tournament(8, rounds=2, deals=1)
    t = services.tournament_start(tournament=t)  # nobody has scored: everybody tied
    assert "1=" in standings_html(selectors.standings(t))
    assert_same(t)
