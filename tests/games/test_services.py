"""The game services: every write path and every refusal, against scoring.fft."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.db.models import Sum

from scoring import fft
from tarotclub.games import selectors as game_selectors
from tarotclub.games import services
from tarotclub.games.models import Change, ChangeAction
from tarotclub.games.services import GameError, StaleError
from tarotclub.kinds.tarot import selectors as tarot_selectors
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal, DealLine
from tarotclub.kinds.tarot.services import DealInput

pytestmark = pytest.mark.django_db


def totals(game) -> dict[int, int]:
    rows = DealLine.objects.filter(deal__game=game).values("player").annotate(t=Sum("score"))
    return {r["player"]: r["t"] for r in rows}


def first_example(players) -> DealInput:
    """fft.md example 1: garde, 2 bouts, 49 points, petit au bout and poignée for the attack."""
    return DealInput(
        taker=players[0].pk,
        contract="garde",
        bouts=2,
        points=Fraction(49),
        petit_au_bout="attack",
        poignees=((players[0].pk, "simple"),),
    )


def test_game_start_seats_players_in_order(four, member):
    game = services.game_start(players=four[::-1], first_dealer=2, created_by=member)
    assert [p.pk for p in game_selectors.seat_players(game)] == [p.pk for p in four[::-1]]
    assert tarot.dealer_for(game, 1) == four[::-1][2]
    assert tarot.dealer_for(game, 2) == four[::-1][3]
    assert tarot.dealer_for(game, 3) == four[::-1][0]


@pytest.mark.parametrize("count", [1, 2, 6])
def test_game_start_refuses_wrong_table_size(make_players, count):
    players = make_players(*[f"P{i}" for i in range(count)])
    with pytest.raises(GameError) as e:
        services.game_start(players=players)
    assert e.value.messages == [str(tarot.ERR_TABLE_SIZE)]


def test_game_start_refuses_duplicates_and_bad_dealer(four):
    with pytest.raises(GameError):
        services.game_start(players=[four[0], four[0], four[1]])
    with pytest.raises(GameError):
        services.game_start(players=four, first_dealer=4)


def test_deal_add_stores_the_scoring_result(game4, four):
    deal = tarot.deal_add(game=game4, data=first_example(four))
    expected = fft.score_deal(
        seats=[p.pk for p in four],
        taker=four[0].pk,
        contract="garde",
        bouts=2,
        points=49,
        petit_au_bout="attack",
        poignees=[(four[0].pk, "simple")],
    ).scores
    assert totals(game4) == expected
    assert expected[four[0].pk] == 318 and expected[four[1].pk] == -106
    assert deal.number == 1 and deal.dealer == four[0] and deal.won and deal.gap == 8
    assert deal.points_half == 98
    assert Change.objects.get(game=game4).action == ChangeAction.RECORDED


def test_dealer_moves_and_next_dealer_shows(game4, four):
    tarot.deal_add(game=game4, data=first_example(four))
    tarot.deal_add(game=game4, data=first_example(four))
    dealers = list(game4.deals.order_by("number").values_list("dealer", flat=True))
    assert dealers == [four[0].pk, four[1].pk]
    assert tarot_selectors.game_sheet(game4).next_dealer == four[2]


def test_rule_error_becomes_translated_game_error_and_saves_nothing(game4, four):
    bad = DealInput(taker=four[0].pk, contract="garde", bouts=3, points=Fraction(10))
    with pytest.raises(GameError) as e:
        tarot.deal_add(game=game4, data=bad)
    assert "bout" in e.value.messages[0]
    assert not Deal.objects.exists() and not Change.objects.exists()
    assert game4.__class__.objects.get(pk=game4.pk).revision == 0


def test_player_of_another_game_is_refused(game4, four, make_players):
    (stranger,) = make_players("Stranger")
    for data in [
        DealInput(taker=stranger.pk, contract="prise", bouts=1, points=Fraction(60)),
        DealInput(
            taker=four[0].pk,
            contract="prise",
            bouts=1,
            points=Fraction(60),
            poignees=((stranger.pk, "simple"),),
        ),
    ]:
        with pytest.raises(GameError) as e:
            tarot.deal_add(game=game4, data=data)
        assert e.value.messages == [str(tarot.ERR_NOT_AT_TABLE)]
    assert not Deal.objects.exists()


def test_partner_at_five_players(game5, five):
    data = DealInput(
        taker=five[1].pk, partner=five[3].pk, contract="garde", bouts=2, points=Fraction(49)
    )
    tarot.deal_add(game=game5, data=data)
    t = totals(game5)
    assert t[five[1].pk] == 2 * 66 and t[five[3].pk] == 66
    assert t[five[0].pk] == t[five[2].pk] == t[five[4].pk] == -66
    assert sum(t.values()) == 0


def test_dealer_sits_out_at_a_tournament_table_of_five(five):
    game = services.game_start(players=five, first_dealer=0, dealer_sits_out=True)
    data = DealInput(taker=five[1].pk, contract="prise", bouts=1, points=Fraction(51))
    tarot.deal_add(game=game, data=data)
    t = totals(game)
    assert t[five[0].pk] == 0  # the dealer sat out
    assert t[five[1].pk] == 75 and sum(t.values()) == 0  # 4-player rules: 3 × 25
    with pytest.raises(GameError) as e:  # deal 2: five[1] deals and cannot take
        tarot.deal_add(game=game, data=data)
    assert e.value.messages == [str(tarot.ERR_DEALER_PLAYS)]


def test_correction_keeps_the_old_value_in_the_history(game4, four):
    deal = tarot.deal_add(game=game4, data=first_example(four))
    new = DealInput(taker=four[1].pk, contract="prise", bouts=1, points=Fraction(44))
    tarot.deal_correct(deal=deal, data=new, expected_version=1)
    deal.refresh_from_db()
    assert deal.version == 2 and deal.taker == four[1] and not deal.won
    change = Change.objects.get(action=ChangeAction.CORRECTED)
    assert change.before["taker"] == four[0].pk and change.before["points_half"] == 98
    assert change.before["scores"][str(four[0].pk)] == 318
    assert change.after["taker"] == four[1].pk
    assert totals(game4)[four[1].pk] == -3 * 32


def test_stale_correction_is_refused_and_shows_the_newer_version(game4, four):
    deal = tarot.deal_add(game=game4, data=first_example(four))
    one = DealInput(taker=four[1].pk, contract="prise", bouts=1, points=Fraction(44))
    two = DealInput(taker=four[2].pk, contract="garde", bouts=1, points=Fraction(60))
    tarot.deal_correct(deal=deal, data=one, expected_version=1)
    with pytest.raises(StaleError) as e:
        tarot.deal_correct(deal=deal, data=two, expected_version=1)
    assert e.value.deal.taker_id == four[1].pk and e.value.deal.version == 2
    deal.refresh_from_db()
    assert deal.taker == four[1]  # nothing overwritten


def test_undo_only_the_last_deal(game4, four):
    tarot.deal_add(game=game4, data=first_example(four))
    tarot.deal_add(game=game4, data=first_example(four))
    with pytest.raises(GameError):
        tarot.deal_undo_last(game=game4, number=1)
    tarot.deal_undo_last(game=game4, number=2)
    assert list(game4.deals.values_list("number", flat=True)) == [1]
    undone = Change.objects.get(action=ChangeAction.UNDONE)
    assert undone.before["number"] == 2
    assert sum(totals(game4).values()) == 0
    tarot.deal_undo_last(game=game4, number=1)
    with pytest.raises(GameError) as e:
        tarot.deal_undo_last(game=game4, number=1)
    assert e.value.messages == [str(tarot.ERR_NO_DEAL)]


def test_finished_game_refuses_every_write(game4, four):
    deal = tarot.deal_add(game=game4, data=first_example(four))
    services.game_finish(game=game4)
    for call in [
        lambda: tarot.deal_add(game=game4, data=first_example(four)),
        lambda: tarot.deal_correct(deal=deal, data=first_example(four), expected_version=1),
        lambda: tarot.deal_undo_last(game=game4, number=1),
        lambda: services.game_finish(game=game4),
    ]:
        with pytest.raises(GameError):
            call()
    assert Deal.objects.count() == 1


def test_locked_sheet_refuses_the_table_but_not_the_director(game4, four, director):
    deal = tarot.deal_add(game=game4, data=first_example(four))
    services.game_set_locked(game=game4, locked=True)
    with pytest.raises(GameError) as e:
        tarot.deal_add(game=game4, data=first_example(four))
    assert e.value.messages == [str(services.ERR_LOCKED)]
    other = DealInput(taker=four[2].pk, contract="prise", bouts=1, points=Fraction(60))
    tarot.deal_correct(deal=deal, data=other, expected_version=1, user=director)
    assert Deal.objects.get().taker == four[2]


def test_revision_moves_with_every_write(game4, four):
    revisions = [game4.revision]
    deal = tarot.deal_add(game=game4, data=first_example(four))
    game4.refresh_from_db()
    revisions.append(game4.revision)
    tarot.deal_correct(deal=deal, data=first_example(four), expected_version=1)
    game4.refresh_from_db()
    revisions.append(game4.revision)
    assert revisions == sorted(set(revisions))


def test_sheet_running_totals_and_leader(game4, four):
    tarot.deal_add(game=game4, data=first_example(four))
    tarot.deal_add(
        game=game4,
        data=DealInput(taker=four[1].pk, contract="prise", bouts=1, points=Fraction(44)),
    )
    sheet = tarot_selectors.game_sheet(game4)
    assert [r.running[four[0].pk] for r in sheet.rows] == [318, 318 + 32]
    assert sheet.totals == totals(game4) and sheet.zero_sum
    assert sheet.leaders == {four[0].pk}


def test_expected_number_refuses_a_double_entry(game4, four):
    tarot.deal_add(game=game4, data=first_example(four), expected_number=1)
    with pytest.raises(GameError) as e:
        tarot.deal_add(game=game4, data=first_example(four), expected_number=1)
    assert "Deal 1 was just entered" in e.value.messages[0]
    assert Deal.objects.count() == 1


def _page_read(game):
    """The game as the deal page reads it to save (seats and count, no deal)."""
    from tarotclub.games import kinds

    fresh = game_selectors.game_by_token(game.token)
    played = kinds.get("tarot").load_for_write(fresh)
    assert played.next_number == fresh.deals.count() + 1
    return played


def test_a_save_from_a_page_read_before_another_phone_wrote_counts_again(game4, four):
    stale = _page_read(game4)  # the page counted 0 deals...
    tarot.deal_add(game=game4, data=first_example(four))  # ...another phone saved deal 1
    deal = tarot.deal_add(game=stale.game, played=stale, data=first_example(four))
    assert deal.number == 2  # not a second deal 1
    assert list(Deal.objects.values_list("number", flat=True)) == [1, 2]
    # the stale page asked for deal 1: that one is taken, so the double tap is refused
    again = _page_read(game4)
    with pytest.raises(GameError, match="Deal 1 was just entered"):
        tarot.deal_add(game=again.game, played=stale, data=first_example(four), expected_number=1)
    assert Deal.objects.count() == 2


def test_a_save_writes_lines_and_history_without_reading_them_back(game4, four):
    played = _page_read(game4)
    deal = tarot.deal_add(game=game4, played=played, data=first_example(four))
    stored = dict(DealLine.objects.filter(deal=deal).values_list("player_id", "score"))
    assert stored == {four[0].pk: 318, four[1].pk: -106, four[2].pk: -106, four[3].pk: -106}
    change = Change.objects.get(action=ChangeAction.RECORDED)
    assert change.after["scores"] == {str(pk): score for pk, score in stored.items()}
    game4.refresh_from_db()
    assert game4.revision == 1


def test_a_correction_from_a_page_read_before_another_correction_is_stale(game4, four):
    tarot.deal_add(game=game4, data=first_example(four))
    stale = _page_read(game4)
    one = DealInput(taker=four[1].pk, contract="prise", bouts=1, points=Fraction(44))
    tarot.deal_correct(played=_page_read(game4), number=1, data=one, expected_version=1)
    two = DealInput(taker=four[2].pk, contract="garde", bouts=1, points=Fraction(60))
    with pytest.raises(StaleError) as e:
        tarot.deal_correct(played=stale, number=1, data=two, expected_version=1)
    assert e.value.deal.taker_id == four[1].pk and e.value.deal.version == 2
    lines = dict(DealLine.objects.filter(deal__number=1).values_list("player_id", "score"))
    assert lines[four[1].pk] == -3 * 32 and sum(lines.values()) == 0  # the first correction
    change = Change.objects.get(action=ChangeAction.CORRECTED)
    assert change.before["scores"][str(four[0].pk)] == 318
    assert change.after["scores"][str(four[1].pk)] == -3 * 32
    with pytest.raises(GameError, match="does not exist"):
        tarot.deal_correct(played=_page_read(game4), number=7, data=two, expected_version=1)
