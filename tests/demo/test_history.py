"""The bulk builders of long histories (tarotclub.demo.history) leave what the services leave."""

from __future__ import annotations

import pytest

from tarotclub.demo.history import tarot_history, tarot_sheet
from tarotclub.kinds.tarot import services as tarot

pytestmark = pytest.mark.django_db


def test_every_built_game_has_its_current_tally(make_players):
    players = make_players("Anne", "Bram", "Chloé", "Dirk", "Eva")
    games = tarot_history(players, deals=45, per_game=20)
    assert [g.deals.count() for g in games] == [20, 20, 5]
    for game in games:
        game.refresh_from_db()
        tally = game.current_tally
        assert tally is not None, game  # a tally of this revision: the pages trust it
        assert tally["count"] == game.deals.count()
        assert tally["totals"] == {str(pk): t for pk, t in tarot.game_totals_db(game).items()}
        assert sum(tally["totals"].values()) == 0


def test_the_long_sheet_continues_as_the_services_would(make_players):
    players = make_players("Anne", "Bram", "Chloé", "Dirk")
    game = tarot_sheet(players, deals=30)
    assert game.current_tally["count"] == 30
    tarot.deal_add(
        game=game, data=tarot.DealInput(taker=players[1].pk, contract="garde", bouts=2, points=60)
    )
    game.refresh_from_db()
    assert game.current_tally["count"] == 31
    assert game.current_tally["totals"] == {
        str(pk): t for pk, t in tarot.game_totals_db(game).items()
    }
