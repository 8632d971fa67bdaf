"""The steppers read a count as the server does: "1e1" or "2.5" is not a number of tricks."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_steppers_count_only_what_the_server_accepts(phone, make_players):
    from tarotclub.games.selectors import seat_players
    from tarotclub.games.services import game_start

    players = make_players("Anne", "Bram", "Chloé")
    game = game_start(players=players, kind="foolsfaith", first_dealer=0)
    a, b, _c = seat_players(game)
    phone.goto(f"{phone.base_url}/t/{game.token}/deal/")
    status = "[data-sum-status]"
    phone.fill(f"input[name=tricks_{b.pk}]", "3")
    assert phone.inner_text(status) == "5 left to share"
    for junk in ("1e1", "2.5", "-1"):
        phone.fill(f"input[name=tricks_{a.pk}]", junk)
        # parseInt read these as 1, 2 and -1: the count left disagreed with the server
        assert phone.inner_text(status) == "5 left to share", junk
    phone.fill(f"input[name=tricks_{a.pk}]", "1e1")
    phone.click(f"[data-stepper]:has(input[name=tricks_{a.pk}]) button[data-step='1']")
    assert phone.input_value(f"input[name=tricks_{a.pk}]") == "1"
    # every other count now reads as the server reads it: the last one gets what remains
    assert phone.input_value(f"input[name=tricks_{_c.pk}]") == "4"
    assert phone.inner_text(status) == "All given ✓"
