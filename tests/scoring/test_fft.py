"""French Tarot scoring by the FFT rules (../shared/rules/fft.md)."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring import RuleError, fft
from scoring.fft import Chelem, Contract, Poignee, Side, score_deal

FOUR = ("north", "east", "south", "west")
THREE = ("ann", "bob", "cat")
FIVE = ("ann", "bob", "cat", "dan", "eve")


def rule_error(template: str, call, **kwargs) -> RuleError:
    """Call ``call(**kwargs)``, check it raises RuleError with ``template``, return it."""
    with pytest.raises(RuleError) as caught:
        call(**kwargs)
    assert caught.value.template == template, str(caught.value)
    return caught.value


def deal(**overrides):
    """A valid 4-player deal (south takes a garde with 2 bouts and 49 points), overridable."""
    kwargs = dict(seats=FOUR, taker="south", contract="garde", bouts=2, points=49)
    kwargs.update(overrides)
    return score_deal(**kwargs)


# --- The federation's worked examples (4 players) ------------------------------------------------

# Each row: kwargs, expected breakdown, each defender's score, the taker's score.
# Rows 2-4 give only "won/lost by"; bouts and points are chosen to match:
#   2. garde sans won by 4, petit au bout to the defence (so the attack lacks the Petit, bouts
#      <= 2): 1 bout, target 51, 55 points -> gap 4. (25 + 4) x 4 = 116, - 10 x 4 = 76.
#   3. prise lost by 7, petit au bout to the attack (so bouts >= 1): 1 bout, target 51,
#      44 points -> gap 7. -(25 + 7) x 1 = -32, + 10, poignée to the defence who won: -20 -> -42.
#   4. garde won by 11, simple poignée declared by a defender: 3 bouts, target 36, 47 points
#      -> gap 11. (25 + 11) x 2 = 72, poignée to the attack who won: + 20 -> 92.
# Rows 1 and 5 as printed:
#   1. garde, 2 bouts (41), 49 points: gap 8. (25 + 8) x 2 = 66 + 20 + 20 = 106.
#   5. garde, 2 bouts, 87 points: gap 46. (25 + 46) x 2 = 142 + 20 + 20 + 400 = 582.
WORKED_EXAMPLES = [
    (
        dict(
            contract="garde",
            bouts=2,
            points=49,
            petit_au_bout="attack",
            poignees=[("south", "simple")],
        ),
        dict(target=41, gap=8, won=True, multiplier=2, contract_part=66),
        dict(petit_au_bout_bonus=20, poignee_bonus=20, chelem_bonus=0),
        106,
    ),
    (
        dict(contract="garde_sans", bouts=1, points=55, petit_au_bout="defence"),
        dict(target=51, gap=4, won=True, multiplier=4, contract_part=116),
        dict(petit_au_bout_bonus=-40, poignee_bonus=0, chelem_bonus=0),
        76,
    ),
    (
        dict(
            contract="prise",
            bouts=1,
            points=44,
            petit_au_bout="attack",
            poignees=[("south", "simple")],
        ),
        dict(target=51, gap=7, won=False, multiplier=1, contract_part=-32),
        dict(petit_au_bout_bonus=10, poignee_bonus=-20, chelem_bonus=0),
        -42,
    ),
    (
        dict(contract="garde", bouts=3, points=47, poignees=[("west", "simple")]),
        dict(target=36, gap=11, won=True, multiplier=2, contract_part=72),
        dict(petit_au_bout_bonus=0, poignee_bonus=20, chelem_bonus=0),
        92,
    ),
    (
        dict(
            contract="garde",
            bouts=2,
            points=87,
            petit_au_bout="attack",
            poignees=[("south", "simple")],
            chelem="announced_made",
        ),
        dict(target=41, gap=46, won=True, multiplier=2, contract_part=142),
        dict(petit_au_bout_bonus=20, poignee_bonus=20, chelem_bonus=400),
        582,
    ),
]


@pytest.mark.parametrize(("kwargs", "result", "bonuses", "unit"), WORKED_EXAMPLES)
def test_worked_examples(kwargs, result, bonuses, unit):
    score = score_deal(seats=FOUR, taker="south", **kwargs)
    for name, value in {**result, **bonuses}.items():
        assert getattr(score, name) == value, name
    assert score.unit == unit
    assert score.scores == {"north": -unit, "east": -unit, "south": 3 * unit, "west": -unit}
    assert list(score.scores) == list(FOUR)  # seat order
    assert score.attack == ("south",)
    assert score.defence == ("north", "east", "west")
    assert score.partner is None
    assert score.unit == (
        score.contract_part + score.petit_au_bout_bonus + score.poignee_bonus + score.chelem_bonus
    )


def test_worked_example_one_keeps_the_entry_as_typed():
    score = deal(petit_au_bout="attack", poignees=[("south", "simple")])
    assert score.seats == FOUR
    assert score.taker == "south"
    assert score.contract is Contract.GARDE
    assert score.bouts == 2
    assert score.points == Fraction(49)
    assert isinstance(score.points, Fraction)
    assert score.rounded_points == 49
    assert score.petit_au_bout is Side.ATTACK
    assert score.poignees == (("south", Poignee.SIMPLE),)
    assert score.chelem is Chelem.NONE
    assert score.scores["north"] == -106
    assert score.scores["south"] == 318


# --- Target, half points, gap --------------------------------------------------------------------


@pytest.mark.parametrize(("bouts", "target"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_exactly_on_target_is_won_by_zero(bouts, target):
    score = deal(contract="prise", bouts=bouts, points=target)
    assert (score.target, score.won, score.gap, score.unit) == (target, True, 0, 25)


def test_one_point_short_is_lost_by_one():
    score = deal(contract="prise", bouts=0, points=55)
    assert (score.won, score.gap, score.contract_part, score.unit) == (False, 1, -26, -26)
    assert score.scores["south"] == -78


@pytest.mark.parametrize("points", [Fraction(81, 2), Decimal("40.5"), "40.5", "40,5", "40½", 40.5])
def test_three_players_half_point_below_target_goes_to_the_defence(points):
    # 40½ with 2 bouts (target 41) is lost: counted 40, lost by 1; prise: -(25 + 1) = -26.
    score = score_deal(seats=THREE, taker="bob", contract="prise", bouts=2, points=points)
    assert score.points == Fraction(81, 2)
    assert (score.rounded_points, score.won, score.gap, score.unit) == (40, False, 1, -26)
    assert score.scores == {"ann": 26, "bob": -52, "cat": 26}


@pytest.mark.parametrize("points", [Fraction(83, 2), Decimal("41.5"), "41.5", " 41½ ", 41.5])
def test_three_players_half_point_above_target_goes_to_the_attack(points):
    # 41½ with 2 bouts is won: counted 42, won by 1; prise: 25 + 1 = 26.
    score = score_deal(seats=THREE, taker="bob", contract="prise", bouts=2, points=points)
    assert (score.rounded_points, score.won, score.gap, score.unit) == (42, True, 1, 26)
    assert score.scores == {"ann": -26, "bob": 52, "cat": -26}


def test_five_players_half_points_both_ways():
    # garde, 1 bout (target 51): 50½ -> 50, lost by 1: -(26 x 2) = -52;
    # 51½ -> 52, won by 1: +52. Taker +2U, partner +U, 3 defenders -U.
    kwargs = dict(seats=FIVE, taker="ann", partner="cat", contract="garde", bouts=1)
    lost = score_deal(points="50.5", **kwargs)
    assert (lost.rounded_points, lost.won, lost.gap, lost.unit) == (50, False, 1, -52)
    assert lost.scores == {"ann": -104, "bob": 52, "cat": -52, "dan": 52, "eve": 52}
    won = score_deal(points=Decimal("51.5"), **kwargs)
    assert (won.rounded_points, won.won, won.gap, won.unit) == (52, True, 1, 52)
    assert won.scores == {"ann": 104, "bob": -52, "cat": 52, "dan": -52, "eve": -52}


def test_four_players_accept_halves_too():
    # 0 bouts, 55½: lost (target 56), counted 55, lost by 1.
    score = deal(contract="prise", bouts=0, points=55.5)
    assert (score.rounded_points, score.won, score.gap) == (55, False, 1)


# --- Shares --------------------------------------------------------------------------------------


def test_five_players_with_a_partner():
    # garde, 2 bouts, 45 points: won by 4, (25 + 4) x 2 = 58.
    score = score_deal(seats=FIVE, taker="bob", partner="eve", contract="garde", bouts=2, points=45)
    assert score.unit == 58
    assert score.partner == "eve"
    assert score.attack == ("bob", "eve")
    assert score.defence == ("ann", "cat", "dan")
    assert score.scores == {"ann": -58, "bob": 116, "cat": -58, "dan": -58, "eve": 58}


@pytest.mark.parametrize("partner", [None, "bob"])
def test_five_players_taker_alone(partner):
    # Same deal, the taker alone (called himself, or the king was in the chien): +4U.
    score = score_deal(
        seats=FIVE, taker="bob", partner=partner, contract="garde", bouts=2, points=45
    )
    assert score.partner is None
    assert score.attack == ("bob",)
    assert score.defence == ("ann", "cat", "dan", "eve")
    assert score.scores == {"ann": -58, "bob": 232, "cat": -58, "dan": -58, "eve": -58}


def test_integer_player_keys_and_enum_arguments():
    score = score_deal(
        seats=[7, 3, 9, 1, 4],
        taker=9,
        partner=1,
        contract=Contract.GARDE_CONTRE,
        bouts=3,
        points=Fraction(36),
        petit_au_bout=Side.ATTACK,
        poignees={3: Poignee.DOUBLE},
        chelem=Chelem.NONE,
    )
    # Won by 0: 25 x 6 = 150, petit au bout 10 x 6 = 60, double poignée of a defender to the
    # winning attack 30: 240.
    assert score.unit == 240
    assert score.seats == (7, 3, 9, 1, 4)
    assert score.poignees == ((3, Poignee.DOUBLE),)
    assert score.scores == {7: -240, 3: -240, 9: 480, 1: 240, 4: -240}


def test_poignees_are_listed_in_seat_order_and_all_go_to_the_winner():
    # 5 players: simple 8 + double 10 = 18 trumps shown, fine. Prise, 0 bouts, 50: lost by 6.
    # -(25 + 6) - (20 + 30) = -81.
    score = score_deal(
        seats=FIVE,
        taker="ann",
        contract="prise",
        bouts=0,
        points=50,
        poignees=[("dan", "double"), ("ann", "simple")],
    )
    assert score.poignees == (("ann", Poignee.SIMPLE), ("dan", Poignee.DOUBLE))
    assert score.poignee_bonus == -50
    assert score.unit == -81
    assert score.scores["ann"] == -324


# --- Petit au bout for each side, contract won or lost -------------------------------------------


@pytest.mark.parametrize(
    ("points", "side", "expected_unit"),
    [
        # garde, 1 bout (51). 55: won by 4, (25 + 4) x 2 = 58; 40: lost by 11, -(36 x 2) = -72.
        (55, "attack", 58 + 20),
        (55, "defence", 58 - 20),
        (40, "attack", -72 + 20),
        (40, "defence", -72 - 20),
    ],
)
def test_petit_au_bout_goes_to_the_side_that_took_it_whatever_the_result(
    points, side, expected_unit
):
    score = deal(contract="garde", bouts=1, points=points, petit_au_bout=side)
    assert score.petit_au_bout == Side(side)
    assert score.petit_au_bout_bonus == (20 if side == "attack" else -20)
    assert score.unit == expected_unit
    assert score.scores["south"] == 3 * expected_unit


# --- Chelem --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "chelem_bonus", "unit"),
    [
        # prise, 3 bouts, 91: won by 55, 80; made without announcement +200; petit au bout +10.
        (
            dict(contract="prise", bouts=3, points=91, petit_au_bout="attack"),
            {"unannounced_made": 200},
            290,
        ),
        # garde, 2 bouts, 87 (the defence kept the Excuse): won by 46, (71 x 2) = 142 + 400.
        (dict(contract="garde", bouts=2, points=87), {"announced_made": 400}, 542),
        # garde, 3 bouts, 80: won by 44, 69 x 2 = 138, slam announced and failed -200: -62.
        (dict(contract="garde", bouts=3, points=80), {"announced_failed": -200}, -62),
        # prise, 0 bouts, 50: lost by 6, -31 - 200 = -231.
        (dict(contract="prise", bouts=0, points=50), {"announced_failed": -200}, -231),
        # prise, 0 bouts, 0 points: lost by 56, -81; defence slam -200; petit au bout -10.
        (
            dict(contract="prise", bouts=0, points=0, petit_au_bout="defence"),
            {"defence": -200},
            -291,
        ),
        # garde contre, 0 bouts, 4 points: lost by 52, -(77 x 6) = -462, defence slam -200.
        (dict(contract="garde_contre", bouts=0, points=4), {"defence": -200}, -662),
        (dict(contract="prise", bouts=0, points=50), {"none": 0}, -31),
    ],
)
def test_each_chelem_state(kwargs, chelem_bonus, unit):
    ((chelem, bonus),) = chelem_bonus.items()
    score = deal(chelem=chelem, **kwargs)
    assert score.chelem == Chelem(chelem)
    assert score.chelem_bonus == bonus
    assert score.unit == unit
    assert score.scores["south"] == 3 * unit
    assert score.scores["north"] == -unit


def test_slam_side_may_have_the_petit_au_bout_with_the_excuse_played_last():
    # The Excuse led to the last trick, the Petit in the one before still counts "au bout".
    score = deal(
        contract="garde", bouts=3, points=91, petit_au_bout="attack", chelem="announced_made"
    )
    assert score.petit_au_bout_bonus == 20
    score = deal(contract="garde", bouts=0, points=0, petit_au_bout="defence", chelem="defence")
    assert score.petit_au_bout_bonus == -20


# What a made slam leaves to the other side (fft.md): each boundary, at 3, 4 and 5 players.


@pytest.mark.parametrize("chelem", ["announced_made", "unannounced_made"])
@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans"])
def test_an_attack_slam_leaves_the_defence_at_most_the_excuse(chelem, contract):
    assert deal(contract=contract, bouts=3, points=91, chelem=chelem).won
    assert deal(contract=contract, bouts=2, points="86.5", chelem=chelem).won
    assert deal(contract=contract, bouts=2, points=87, chelem=chelem).won
    for bouts, points in ((3, "90.5"), (3, 40), (2, 86), (1, 82), (0, 79)):
        error = rule_error(
            fft.ERR_SLAM_ATTACK_CARDS,
            deal,
            contract=contract,
            bouts=bouts,
            points=points,
            chelem=chelem,
        )
        assert error.params["bouts"] == bouts


def test_the_issues_impossible_slam_is_refused():
    # prise, 3 bouts, 40 points, announced and made: it scored +1287 for the taker
    rule_error(
        fft.ERR_SLAM_ATTACK_CARDS,
        deal,
        contract="prise",
        bouts=3,
        points=40,
        chelem="announced_made",
    )


@pytest.mark.parametrize(("players", "minimum"), [(3, "59.5"), (4, "59.5"), (5, "73")])
def test_an_attack_slam_in_a_garde_contre_leaves_the_defence_the_chien(players, minimum):
    seats = ("south", "west", "north", "east", "fifth")[:players]
    low = Fraction(minimum)
    for bouts in (0, 1, 2, 3):
        hi = 91 - 4 * (3 - bouts)
        if low <= hi:
            score = score_deal(
                seats=seats,
                taker="south",
                contract="garde_contre",
                bouts=bouts,
                points=max(low, 4 * bouts),
                chelem="announced_made",
            )
            assert score.won
    error = rule_error(
        fft.ERR_SLAM_GARDE_CONTRE_POINTS,
        score_deal,
        seats=seats,
        taker="south",
        contract="garde_contre",
        bouts=3,
        points=low - Fraction(1, 2),
        chelem="announced_made",
    )
    assert error.params["minimum"] == fft.format_points(low)


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_contre"])
def test_a_defence_slam_leaves_the_attack_at_most_the_excuse(contract):
    assert not deal(contract=contract, bouts=0, points=0, chelem="defence").won
    assert not deal(contract=contract, bouts=1, points="4.5", chelem="defence").won
    for bouts, points in ((1, 5), (0, 5), (2, 9), (3, 30)):
        rule_error(
            fft.ERR_SLAM_DEFENCE_CARDS,
            deal,
            contract=contract,
            bouts=bouts,
            points=points,
            chelem="defence",
        )


@pytest.mark.parametrize(("players", "maximum"), [(4, "31.5"), (5, "18")])
def test_a_defence_slam_in_a_garde_sans_leaves_the_attack_the_chien(players, maximum):
    seats = ("south", "west", "north", "east", "fifth")[:players]
    top = Fraction(maximum)
    score = score_deal(
        seats=seats, taker="south", contract="garde_sans", bouts=2, points=top, chelem="defence"
    )
    assert not score.won
    rule_error(
        fft.ERR_SLAM_DEFENCE_GARDE_SANS_POINTS,
        score_deal,
        seats=seats,
        taker="south",
        contract="garde_sans",
        bouts=2,
        points=top + Fraction(1, 2),
        chelem="defence",
    )


def test_an_announced_slam_that_failed_leaves_the_cards_as_they_fell():
    score = deal(contract="prise", bouts=3, points=40, chelem="announced_failed")
    assert score.won and score.chelem_bonus == -200


def test_announced_failed_slam_allows_either_petit_au_bout():
    for side in ("attack", "defence"):
        score = deal(bouts=2, points=60, petit_au_bout=side, chelem="announced_failed")
        assert score.chelem_bonus == -200


# --- Reference tables ----------------------------------------------------------------------------


def test_reference_tables():
    assert fft.TARGETS == {0: 56, 1: 51, 2: 41, 3: 36}
    assert fft.MULTIPLIERS == {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
    assert fft.POIGNEE_VALUES == {"simple": 20, "double": 30, "triple": 40}
    assert fft.poignee_sizes(3) == {"simple": 13, "double": 15, "triple": 18}
    assert fft.poignee_sizes(4) == {"simple": 10, "double": 13, "triple": 15}
    assert fft.poignee_sizes(5) == {"simple": 8, "double": 10, "triple": 13}
    assert fft.POIGNEE_SIZES[4][Poignee.TRIPLE] == 15
    rule_error(fft.ERR_TABLE_SIZE, fft.poignee_sizes, n_players=6)


def test_enums_accept_their_string_values_and_the_labels_the_site_shows():
    assert Contract("garde_sans") is Contract.GARDE_SANS
    assert Poignee("triple") is Poignee.TRIPLE and Chelem("defence") is Chelem.DEFENCE
    assert fft.CONTRACT_LABELS[Contract.GARDE_CONTRE] == "garde contre"
    assert fft.SIDE_LABELS[Side.DEFENCE] == "defence"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0, Fraction(0)),
        (91, Fraction(91)),
        ("½", Fraction(1, 2)),
        ("90½", Fraction(181, 2)),
        ("  12,5 ", Fraction(25, 2)),
        (Decimal("40.50"), Fraction(81, 2)),
        (Fraction(3, 2), Fraction(3, 2)),
        (7.0, Fraction(7)),
    ],
)
def test_parse_points_accepts(value, expected):
    assert fft.parse_points(value) == expected
    assert isinstance(fft.parse_points(value), Fraction)


def test_format_points():
    assert fft.format_points(Fraction(81, 2)) == "40½"
    assert fft.format_points(Fraction(41)) == "41"
    assert fft.format_points(Fraction(1, 2)) == "0½"


def test_deal_score_is_frozen_and_hashable():
    score = deal()
    with pytest.raises(AttributeError):
        score.unit = 0
    assert hash(score) == hash(deal())


# --- What cannot happen --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "template"),
    [
        (True, fft.ERR_POINTS_NOT_A_NUMBER),
        (False, fft.ERR_POINTS_NOT_A_NUMBER),
        (float("nan"), fft.ERR_POINTS_NOT_A_NUMBER),
        (float("inf"), fft.ERR_POINTS_NOT_A_NUMBER),
        (Decimal("NaN"), fft.ERR_POINTS_NOT_A_NUMBER),
        (Decimal("sNaN"), fft.ERR_POINTS_NOT_A_NUMBER),
        (Decimal("-Infinity"), fft.ERR_POINTS_NOT_A_NUMBER),
        ("nan", fft.ERR_POINTS_NOT_A_NUMBER),
        ("inf", fft.ERR_POINTS_NOT_A_NUMBER),
        ("forty", fft.ERR_POINTS_NOT_A_NUMBER),
        ("", fft.ERR_POINTS_NOT_A_NUMBER),
        ("40.5½", fft.ERR_POINTS_NOT_A_NUMBER),
        ("-3½", fft.ERR_POINTS_NOT_A_NUMBER),
        (None, fft.ERR_POINTS_NOT_A_NUMBER),
        ([40], fft.ERR_POINTS_NOT_A_NUMBER),
        (40.3, fft.ERR_POINTS_HALVES),
        ("40.25", fft.ERR_POINTS_HALVES),
        (Fraction(1, 3), fft.ERR_POINTS_HALVES),
        (Decimal("0.1"), fft.ERR_POINTS_HALVES),
        (-1, fft.ERR_POINTS_RANGE),
        ("-0.5", fft.ERR_POINTS_RANGE),
        (91.5, fft.ERR_POINTS_RANGE),
        (1e300, fft.ERR_POINTS_RANGE),
    ],
)
def test_impossible_points(value, template):
    rule_error(template, fft.parse_points, value=value)
    rule_error(template, deal, points=value)


@pytest.mark.parametrize("bouts", [-1, 4, True, 2.0, "two", None, "4"])
def test_impossible_bouts(bouts):
    rule_error(fft.ERR_BOUTS, deal, bouts=bouts)


def test_bouts_as_a_digit_string():
    assert deal(bouts="2").bouts == 2


@pytest.mark.parametrize(
    ("bouts", "points", "template", "params"),
    [
        # Each bout is worth at least 4 to its holder: 3 bouts need 12, 0 bouts leave at most
        # 91 - 12 = 79 to the attack.
        (3, Fraction(23, 2), fft.ERR_POINTS_TOO_FEW_FOR_BOUTS, {"minimum": 12, "points": "11½"}),
        (1, 3, fft.ERR_POINTS_TOO_FEW_FOR_BOUTS, {"minimum": 4, "points": "3"}),
        (0, Fraction(159, 2), fft.ERR_POINTS_TOO_MANY_FOR_BOUTS, {"maximum": 79}),
        (2, 88, fft.ERR_POINTS_TOO_MANY_FOR_BOUTS, {"maximum": 87, "defence_bouts": 1}),
    ],
)
def test_points_impossible_for_the_bouts(bouts, points, template, params):
    error = rule_error(template, deal, bouts=bouts, points=points)
    assert params.items() <= error.params.items()


@pytest.mark.parametrize(("bouts", "points"), [(3, 12), (0, 79), (2, 8), (2, 87)])
def test_points_at_the_limits_for_the_bouts(bouts, points):
    assert deal(bouts=bouts, points=points).bouts == bouts


@pytest.mark.parametrize(
    ("seats", "template", "params"),
    [
        (("a", "b"), fft.ERR_TABLE_SIZE, {"count": 2}),
        (("a", "b", "c", "d", "e", "f"), fft.ERR_TABLE_SIZE, {"count": 6}),
        ((), fft.ERR_TABLE_SIZE, {"count": 0}),
        (("south", "b", "south"), fft.ERR_DUPLICATE_SEAT, {"player": "south"}),
        (("south", "b", None, "d"), fft.ERR_EMPTY_SEAT, {"seat": 3}),
        (("south", "", "c"), fft.ERR_EMPTY_SEAT, {"seat": 2}),
    ],
)
def test_impossible_tables(seats, template, params):
    error = rule_error(template, deal, seats=seats)
    assert error.params == params


def test_seats_as_a_string_is_a_programming_error():
    with pytest.raises(TypeError):
        deal(seats="nesw", taker="s")


def test_unknown_taker():
    rule_error(fft.ERR_UNKNOWN_TAKER, deal, taker="nobody")
    rule_error(fft.ERR_UNKNOWN_TAKER, deal, taker=None)


@pytest.mark.parametrize("seats", [THREE, FOUR])
@pytest.mark.parametrize("partner", ["first", "taker"])
def test_no_partner_at_three_or_four_players(seats, partner):
    taker = seats[1]
    partner = seats[0] if partner == "first" else taker
    error = rule_error(fft.ERR_PARTNER_TABLE_SIZE, deal, seats=seats, taker=taker, partner=partner)
    assert error.params == {"count": len(seats)}


def test_unknown_partner():
    rule_error(fft.ERR_UNKNOWN_PARTNER, deal, seats=FIVE, taker="ann", partner="zoe")


@pytest.mark.parametrize(
    ("name", "value", "template"),
    [
        ("contract", "petite garde", fft.ERR_CONTRACT),
        ("contract", "Garde", fft.ERR_CONTRACT),
        ("contract", None, fft.ERR_CONTRACT),
        ("contract", ["garde"], fft.ERR_CONTRACT),
        ("petit_au_bout", "taker", fft.ERR_SIDE),
        ("petit_au_bout", "", fft.ERR_SIDE),
        ("chelem", "made", fft.ERR_CHELEM),
        ("chelem", None, fft.ERR_CHELEM),
    ],
)
def test_unknown_values(name, value, template):
    error = rule_error(template, deal, **{name: value})
    assert error.params == {"value": value}


@pytest.mark.parametrize(
    ("poignees", "template"),
    [
        ([("south", "quadruple")], fft.ERR_POIGNEE_KIND),
        ([("nobody", "simple")], fft.ERR_UNKNOWN_POIGNEE_PLAYER),
        ([("south", "simple"), ("south", "double")], fft.ERR_DUPLICATE_POIGNEE),
        ([("south", "simple"), ("south", "simple")], fft.ERR_DUPLICATE_POIGNEE),
        (["south"], fft.ERR_POIGNEE_SHAPE),
        ([("south",)], fft.ERR_POIGNEE_SHAPE),
        ([("south", "simple", "east")], fft.ERR_POIGNEE_SHAPE),
        ([None], fft.ERR_POIGNEE_SHAPE),
        # 4 players: simple 10 + double 13 = 23 > 22 showable cards.
        ([("south", "simple"), ("west", "double")], fft.ERR_POIGNEES_TOO_MANY_TRUMPS),
        # 4 players: triple 15 + triple 15 = 30.
        ([("north", "triple"), ("east", "triple")], fft.ERR_POIGNEES_TOO_MANY_TRUMPS),
    ],
)
def test_impossible_poignees(poignees, template):
    rule_error(template, deal, poignees=poignees)


def test_poignees_too_many_trumps_at_three_and_five_players():
    # 3 players: two simples need 13 + 13 = 26 > 22.
    error = rule_error(
        fft.ERR_POIGNEES_TOO_MANY_TRUMPS,
        deal,
        seats=THREE,
        taker="ann",
        poignees=[("ann", "simple"), ("cat", "simple")],
    )
    assert error.params == {"needed": 26, "count": 3}
    # 5 players: three simples need 8 x 3 = 24 > 22; two simples and... 8 + 13 = 21 is fine.
    rule_error(
        fft.ERR_POIGNEES_TOO_MANY_TRUMPS,
        deal,
        seats=FIVE,
        taker="ann",
        poignees=[("ann", "simple"), ("bob", "simple"), ("cat", "simple")],
    )
    fine = deal(seats=FIVE, taker="ann", poignees=[("ann", "simple"), ("bob", "triple")])
    assert fine.poignee_bonus == 60
    # 4 players: two simples, 20 trumps, are fine.
    assert deal(poignees=[("north", "simple"), ("south", "simple")]).poignee_bonus == 40


def test_petit_au_bout_needs_the_petit_on_that_side():
    rule_error(
        fft.ERR_PETIT_AU_BOUT_ATTACK_NO_BOUT, deal, bouts=0, points=60, petit_au_bout="attack"
    )
    rule_error(
        fft.ERR_PETIT_AU_BOUT_DEFENCE_ALL_BOUTS,
        deal,
        bouts=3,
        points=60,
        petit_au_bout="defence",
    )


def test_slam_and_contract_on_opposite_sides():
    # A slam by the attack means the attack won the contract; a defence slam that it lost.
    error = rule_error(
        fft.ERR_CHELEM_ATTACK_LOST, deal, bouts=2, points="40.5", chelem="announced_made"
    )
    assert error.params == {"points": "40½", "bouts": 2}
    rule_error(fft.ERR_CHELEM_ATTACK_LOST, deal, bouts=0, points=55, chelem="unannounced_made")
    rule_error(fft.ERR_CHELEM_DEFENCE_WON, deal, bouts=2, points=41, chelem="defence")


def test_petit_au_bout_against_a_slam():
    rule_error(
        fft.ERR_PETIT_AU_BOUT_AGAINST_ATTACK_SLAM,
        deal,
        bouts=2,
        points=80,
        petit_au_bout="defence",
        chelem="unannounced_made",
    )
    rule_error(
        fft.ERR_PETIT_AU_BOUT_AGAINST_DEFENCE_SLAM,
        deal,
        bouts=1,
        points=10,
        petit_au_bout="attack",
        chelem="defence",
    )


def test_error_messages_read_as_sentences():
    error = rule_error(fft.ERR_TABLE_SIZE, deal, seats=("a", "b"))
    assert str(error) == "French Tarot is played by 3, 4 or 5 players, not 2."
    error = rule_error(fft.ERR_POINTS_HALVES, deal, points="40.25")
    assert str(error) == "The attack's points go by halves (such as 40 or 40.5), not 40.25."


# --- Properties over random valid deals ----------------------------------------------------------

PLAYER_KEYS = st.one_of(
    st.integers(min_value=0, max_value=200), st.text(alphabet="abcdefghij", min_size=1, max_size=4)
)
MADE_SLAMS = (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE, Chelem.DEFENCE)


def half_point_range(bouts: int) -> tuple[int, int]:
    """Lowest and highest attack points, in half points, with ``bouts``: 4 per bout held."""
    return 2 * 4 * bouts, 2 * (91 - 4 * (3 - bouts))


def sides_for(bouts: int, chelem: Chelem) -> list[Side | None]:
    """Who may have the petit au bout: the holder of the Petit, never against a slam."""
    sides: list[Side | None] = [None]
    if bouts >= 1 and chelem is not Chelem.DEFENCE:
        sides.append(Side.ATTACK)
    if bouts <= 2 and chelem not in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE):
        sides.append(Side.DEFENCE)
    return sides


def slam_half_points(chelem, contract, bouts: int, players: int) -> tuple[int, int]:
    """Lowest and highest attack points, in half points: the bout limits and, for a made
    slam, what it leaves to the other side (`fft.slam_bounds`)."""
    low, high = half_point_range(bouts)
    if chelem is None:
        return low, high
    bounds = fft.slam_bounds(chelem, contract, bouts, players)
    return max(low, int(bounds[0] * 2)), min(high, int(bounds[1] * 2))


def slam_bouts(chelem, contract, players: int) -> list[int]:
    """The bouts a made slam (or none, None) allows."""
    out = []
    for bouts in range(4):
        if chelem is None:
            out.append(bouts)
        elif fft.slam_bounds(chelem, contract, bouts, players) is not None:
            low, high = slam_half_points(chelem, contract, bouts, players)
            if low <= high:
                out.append(bouts)
    return out


@st.composite
def valid_deals(draw, table_size=None, slams=True):
    """Keyword arguments of a deal that could happen, with points as a count of half points."""
    n = draw(st.sampled_from([3, 4, 5])) if table_size is None else table_size
    seats = draw(st.lists(PLAYER_KEYS, min_size=n, max_size=n, unique=True))
    taker = draw(st.sampled_from(seats))
    partner = draw(st.sampled_from([None, *seats])) if n == 5 else None
    contract = draw(st.sampled_from(list(Contract)))
    made = [Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE, Chelem.DEFENCE]
    chelem = draw(st.sampled_from(made)) if slams and draw(st.integers(0, 3)) == 0 else None
    bouts = draw(st.sampled_from(slam_bouts(chelem, contract, n)))
    low, high = slam_half_points(chelem, contract, bouts, n)
    halves = draw(st.integers(low, high))
    if chelem is None:  # no slam made: none, or announced and failed
        chelem = (
            draw(st.sampled_from([Chelem.NONE, Chelem.ANNOUNCED_FAILED])) if slams else Chelem.NONE
        )
    petit_au_bout = draw(st.sampled_from(sides_for(bouts, chelem)))
    # Poignées: distinct players, kinds added while the trumps shown stay within 22.
    declarers = draw(st.lists(st.sampled_from(seats), unique=True, max_size=3))
    poignees, shown = [], 0
    for player in declarers:
        kind = draw(st.sampled_from(list(Poignee)))
        if shown + fft.POIGNEE_SIZES[n][kind] <= 22:
            poignees.append((player, kind))
            shown += fft.POIGNEE_SIZES[n][kind]
    return dict(
        seats=seats,
        taker=taker,
        partner=partner,
        contract=contract,
        bouts=bouts,
        points=Fraction(halves, 2),
        petit_au_bout=petit_au_bout,
        poignees=poignees,
        chelem=chelem,
    )


def as_entered(points: Fraction, style: str):
    """The same points as a form or a caller might pass them."""
    if style == "str":
        return str(float(points))
    if style == "decimal":
        return Decimal(points.numerator) / Decimal(points.denominator)
    if style == "float":
        return float(points)
    return points


@pytest.mark.parametrize("table_size", [3, 4, 5])
@settings(max_examples=150, deadline=None)
@given(data=st.data(), style=st.sampled_from(["fraction", "str", "decimal", "float"]))
def test_every_valid_deal_sums_to_zero_and_shares_by_the_rules(table_size, data, style):
    kwargs = data.draw(valid_deals(table_size=table_size))
    points = kwargs["points"]
    score = score_deal(**{**kwargs, "points": as_entered(points, style)})
    assert score.points == points
    assert sum(score.scores.values()) == 0
    assert list(score.scores) == list(kwargs["seats"])
    taker = kwargs["taker"]
    others = [s for p, s in score.scores.items() if p != taker]
    assert score.scores[taker] == -sum(others)
    for player in score.defence:
        assert score.scores[player] == -score.unit
    if score.partner is not None:
        assert score.scores[score.partner] == score.unit
        assert len(score.defence) == 3
    assert set(score.attack) | set(score.defence) == set(kwargs["seats"])
    assert score.unit == (
        score.contract_part + score.petit_au_bout_bonus + score.poignee_bonus + score.chelem_bonus
    )
    assert score.gap == abs(score.rounded_points - score.target) >= 0
    assert abs(score.rounded_points - points) < 1
    assert score.won == (score.rounded_points >= score.target)


@settings(max_examples=300, deadline=None)
@given(valid_deals(), st.data())
def test_more_points_never_lower_the_attack(kwargs, data):
    # Same deal with more points, within the bout limits and what a made slam leaves.
    low = kwargs["points"]
    made = kwargs["chelem"] if kwargs["chelem"] in MADE_SLAMS else None
    players = len(kwargs["seats"])
    halves_max = slam_half_points(made, kwargs["contract"], kwargs["bouts"], players)[1]
    high = Fraction(data.draw(st.integers(int(low * 2), halves_max)), 2)
    before = score_deal(**kwargs)
    after = score_deal(**{**kwargs, "points": high})
    assert after.unit >= before.unit
    for player in before.attack:
        assert after.scores[player] >= before.scores[player]


# Why a higher contract never shrinks the unit without a slam: with s = +1 (won) or -1 (lost),
# p = +1, 0, -1 (petit au bout to the attack, nobody, the defence), m the multiplier and
# P >= 0 the poignées, unit = s(25 + gap)m + 10pm + sP = s((25 + gap + 10sp)m + P).
# 25 + gap + 10sp >= 15 > 0 even when the petit au bout goes against the result, so
# |unit| = (25 + gap + 10sp)m + P grows with m. With a slam it may not: a won garde with a
# failed slam announcement is 138 - 200 = -62, its garde sans 276 - 200 = 76, and a prise
# 69 - 200 = -131, so |unit| falls from prise to garde. What always holds is that the unit
# moves with the result: up for a won contract, down for a lost one.
CONTRACT_PAIRS = [
    (lower, higher) for i, lower in enumerate(Contract) for higher in list(Contract)[i + 1 :]
]


@settings(max_examples=300, deadline=None)
@given(valid_deals(slams=False), st.sampled_from(CONTRACT_PAIRS))
def test_a_higher_contract_never_shrinks_the_unit_without_a_slam(kwargs, pair):
    lower = score_deal(**{**kwargs, "contract": pair[0]})
    higher = score_deal(**{**kwargs, "contract": pair[1]})
    assert higher.multiplier > lower.multiplier
    assert abs(higher.unit) >= abs(lower.unit)
    assert abs(higher.unit) > abs(lower.unit)  # strictly, since 25 + gap + 10sp > 0


@settings(max_examples=300, deadline=None)
@given(valid_deals(), st.sampled_from(CONTRACT_PAIRS))
def test_a_higher_contract_moves_the_unit_with_the_result(kwargs, pair):
    # (a made slam's cards depend on the contract: a garde contre's chien, a garde sans')
    if kwargs["chelem"] in MADE_SLAMS:
        players, bouts, points = len(kwargs["seats"]), kwargs["bouts"], kwargs["points"]
        for contract in pair:
            bounds = fft.slam_bounds(kwargs["chelem"], contract, bouts, players)
            assume(bounds is not None and bounds[0] <= points <= bounds[1])
    lower = score_deal(**{**kwargs, "contract": pair[0]})
    higher = score_deal(**{**kwargs, "contract": pair[1]})
    if lower.won:
        assert higher.unit > lower.unit
    else:
        assert higher.unit < lower.unit


def test_slam_corner_where_a_higher_contract_shrinks_the_unit():
    # The counter-example quoted above: 3 bouts, 80 points, won by 44, slam announced, failed.
    prise = deal(contract="prise", bouts=3, points=80, chelem="announced_failed")
    garde = deal(contract="garde", bouts=3, points=80, chelem="announced_failed")
    assert (prise.unit, garde.unit) == (69 - 200, 138 - 200)
    assert abs(garde.unit) < abs(prise.unit)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.fractions(min_value=0, max_value=91),
        st.decimals(min_value=0, max_value=91, places=2, allow_nan=False),
    )
)
def test_parse_points_accepts_exactly_the_halves(value):
    is_half = (Fraction(value) * 2).denominator == 1
    if is_half:
        assert fft.parse_points(value) == Fraction(value)
    else:
        rule_error(fft.ERR_POINTS_HALVES, fft.parse_points, value=value)


# --- Points and bouts as a person types them -----------------------------------------------------
#
# One short request with `points=1e30000000` once took 47 s of CPU (Decimal, then Fraction, of a
# huge exponent). Text is refused by its length first, then by a regex of bounded width, and only
# the digits that regex captured (at most a few) are ever converted.

TYPED_POINTS = [
    ("49", Fraction(49)),
    ("0", Fraction(0)),
    ("91", Fraction(91)),
    ("040", Fraction(40)),
    ("40.5", Fraction(81, 2)),
    ("40,5", Fraction(81, 2)),
    ("40.0", Fraction(40)),
    ("40,0", Fraction(40)),
    ("40½", Fraction(81, 2)),
    ("40 ½", Fraction(81, 2)),
    ("½", Fraction(1, 2)),
    (",5", Fraction(1, 2)),
    (" 41 ", Fraction(41)),
    ("\t12,5\n", Fraction(25, 2)),
]


@pytest.mark.parametrize(("text", "expected"), TYPED_POINTS)
def test_parse_points_accepts_what_a_person_types(text, expected):
    assert fft.parse_points(text) == expected


HOSTILE_POINTS = [
    # exponents: once 47 s of CPU for ten characters
    ("1e30000000", fft.ERR_POINTS_NOT_A_NUMBER),
    ("1E3", fft.ERR_POINTS_NOT_A_NUMBER),
    ("4e1", fft.ERR_POINTS_NOT_A_NUMBER),
    ("0e99999999", fft.ERR_POINTS_NOT_A_NUMBER),
    ("1e-30000000", fft.ERR_POINTS_NOT_A_NUMBER),
    # underscores and thousands separators, which int() and Decimal() accept
    ("4_0", fft.ERR_POINTS_NOT_A_NUMBER),
    ("1_000", fft.ERR_POINTS_NOT_A_NUMBER),
    ("1,000.5", fft.ERR_POINTS_NOT_A_NUMBER),
    ("1.000,5", fft.ERR_POINTS_NOT_A_NUMBER),
    ("40 5", fft.ERR_POINTS_NOT_A_NUMBER),
    # signs
    ("+40", fft.ERR_POINTS_NOT_A_NUMBER),
    ("--1", fft.ERR_POINTS_NOT_A_NUMBER),
    ("-3½", fft.ERR_POINTS_NOT_A_NUMBER),
    ("-0.5", fft.ERR_POINTS_RANGE),
    ("-1", fft.ERR_POINTS_RANGE),
    # other scripts' digits, which int(), Decimal() and str.isdecimal() accept
    ("٤٠", fft.ERR_POINTS_DIGITS),  # Arabic-Indic
    ("۴۰", fft.ERR_POINTS_DIGITS),  # Persian
    ("४०", fft.ERR_POINTS_DIGITS),  # Devanagari
    ("４０", fft.ERR_POINTS_DIGITS),  # fullwidth
    ("4٠.5", fft.ERR_POINTS_DIGITS),
    ("٤٠½", fft.ERR_POINTS_DIGITS),
    ("²", fft.ERR_POINTS_DIGITS),
    ("40\u00a0½", fft.ERR_POINTS_NOT_A_NUMBER),
    # the rest of what Decimal() reads
    ("nan", fft.ERR_POINTS_NOT_A_NUMBER),
    ("NaN", fft.ERR_POINTS_NOT_A_NUMBER),
    ("sNaN", fft.ERR_POINTS_NOT_A_NUMBER),
    ("inf", fft.ERR_POINTS_NOT_A_NUMBER),
    ("Infinity", fft.ERR_POINTS_NOT_A_NUMBER),
    ("-inf", fft.ERR_POINTS_NOT_A_NUMBER),
    ("0x28", fft.ERR_POINTS_NOT_A_NUMBER),
    ("40.", fft.ERR_POINTS_NOT_A_NUMBER),
    (".", fft.ERR_POINTS_NOT_A_NUMBER),
    ("40..5", fft.ERR_POINTS_NOT_A_NUMBER),
    ("40.5.0", fft.ERR_POINTS_NOT_A_NUMBER),
    ("40,5½", fft.ERR_POINTS_NOT_A_NUMBER),
    ("½½", fft.ERR_POINTS_NOT_A_NUMBER),
    ("40/2", fft.ERR_POINTS_NOT_A_NUMBER),
    ("   ", fft.ERR_POINTS_NOT_A_NUMBER),
    ("\x00", fft.ERR_POINTS_NOT_A_NUMBER),
    ("40\x00", fft.ERR_POINTS_NOT_A_NUMBER),
    # well formed, out of range or not a half
    ("92", fft.ERR_POINTS_RANGE),
    ("91.5", fft.ERR_POINTS_RANGE),
    ("91½", fft.ERR_POINTS_RANGE),
    ("1000", fft.ERR_POINTS_RANGE),
    ("999999", fft.ERR_POINTS_RANGE),
    ("40.25", fft.ERR_POINTS_HALVES),
    ("40,1", fft.ERR_POINTS_HALVES),
    # long text, whatever it holds
    ("9" * 10_000, fft.ERR_POINTS_NOT_A_NUMBER),
    ("1e" + "9" * 9_998, fft.ERR_POINTS_NOT_A_NUMBER),
    (" " * 9_998 + "40", fft.ERR_POINTS_NOT_A_NUMBER),
    ("4" + "0" * 20, fft.ERR_POINTS_NOT_A_NUMBER),
]


@pytest.mark.parametrize(("text", "template"), HOSTILE_POINTS)
def test_parse_points_refuses_hostile_text_with_the_right_message(text, template):
    error = rule_error(template, fft.parse_points, value=text)
    assert len(str(error)) < 200  # the message quotes a short excerpt, never the whole input
    rule_error(template, deal, points=text)


def test_points_digits_message_says_which_digits():
    error = rule_error(fft.ERR_POINTS_DIGITS, fft.parse_points, value="٤٠")
    assert "0 to 9" in str(error)


def test_long_points_text_is_refused_by_its_length_alone():
    """Timing-free proof of constant time: the refusal does not depend on what a long text holds.

    `" " * 9_998 + "40"` would be a well-formed "40" if the text were looked at; it is refused
    because of its length, which is checked before any regex or conversion.
    """
    assert fft.POINTS_TEXT_MAX_LENGTH <= 20
    at_cap = " " * (fft.POINTS_TEXT_MAX_LENGTH - 2) + "40"
    assert fft.parse_points(at_cap) == 40
    rule_error(fft.ERR_POINTS_NOT_A_NUMBER, fft.parse_points, value=" " + at_cap)
    for filler in ("9", " ", "e", "٤"):
        rule_error(fft.ERR_POINTS_NOT_A_NUMBER, fft.parse_points, value=filler * 10_000)


def test_points_and_bouts_regexes_have_a_bounded_width():
    """Each regex matches at most a few characters: no input can make it work for long."""
    import re._parser as sre_parse

    for pattern in (fft._POINTS_TEXT, fft._BOUTS_TEXT):
        low, high = sre_parse.parse(pattern.pattern, pattern.flags).getwidth()
        assert high <= 64, pattern.pattern  # finite and small (MAXREPEAT when unbounded)
        assert pattern.flags & re.ASCII


def test_huge_numbers_that_are_not_text_are_refused_without_conversion():
    rule_error(fft.ERR_POINTS_RANGE, fft.parse_points, value=Decimal("1e30000000"))
    rule_error(fft.ERR_POINTS_RANGE, fft.parse_points, value=Decimal("-1e30000000"))
    rule_error(fft.ERR_POINTS_HALVES, fft.parse_points, value=Decimal("1e-30000000"))
    rule_error(fft.ERR_POINTS_RANGE, fft.parse_points, value=10**5000)
    rule_error(fft.ERR_POINTS_RANGE, fft.parse_points, value=Fraction(10**5000 + 1, 2))
    rule_error(fft.ERR_BOUTS, fft.parse_bouts, value=10**5000)


@pytest.mark.parametrize(
    "text",
    ["٣", "３", "²", "1_0", "+1", "-0", "1.0", "1e0", " ", "", "0x1", "9" * 10_000, "4", "10"],
)
def test_parse_bouts_refuses_anything_but_an_ascii_digit(text):
    error = rule_error(fft.ERR_BOUTS, fft.parse_bouts, value=text)
    assert len(str(error)) < 200


@pytest.mark.parametrize(("text", "expected"), [("0", 0), ("3", 3), (" 2 ", 2), (2, 2)])
def test_parse_bouts_accepts_a_digit(text, expected):
    assert fft.parse_bouts(text) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=24),
        st.text(alphabet="0123456789.,½ -+e_٤４", max_size=12),
        st.from_regex(r"\A\s?[0-9]{1,3}([.,][05])?\s?\Z"),
    )
)
def test_any_text_is_either_points_in_range_that_round_trip_or_a_rule_error(text):
    try:
        points = fft.parse_points(text)
    except RuleError as e:
        assert e.template in {
            fft.ERR_POINTS_NOT_A_NUMBER,
            fft.ERR_POINTS_DIGITS,
            fft.ERR_POINTS_HALVES,
            fft.ERR_POINTS_RANGE,
        }
        return
    assert isinstance(points, Fraction)
    assert 0 <= points <= fft.TOTAL_POINTS and (points * 2).denominator == 1
    assert len(text) <= fft.POINTS_TEXT_MAX_LENGTH
    assert all(c in "0123456789.,½ \t\n\r\x0b\x0c" for c in text)
    # what was accepted reads back the same, whichever way the sheet writes it
    assert fft.parse_points(fft.format_points(points)) == points
    assert fft.parse_points(str(float(points))) == points
    assert fft.parse_points(str(float(points)).replace(".", ",")) == points


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=12))
def test_any_text_is_either_bouts_or_a_rule_error(text):
    try:
        bouts = fft.parse_bouts(text)
    except RuleError as e:
        assert e.template == fft.ERR_BOUTS
        return
    assert bouts in (0, 1, 2, 3) and text.strip() == str(bouts)
