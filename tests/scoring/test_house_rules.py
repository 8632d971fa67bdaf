"""House rules a club can switch on (issue 14): each game's explicit options object in
`scoring`, whose default is the rules as written."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import RuleError, deathspot, fft, foolsfaith, keys
from scoring._common import (
    ERR_HOUSE_RULE_AMOUNT,
    ERR_HOUSE_RULE_UNKNOWN,
    ERR_HOUSE_RULE_VALUE,
    ERR_HOUSE_RULES_SHAPE,
)
from scoring.fft import FFT_RULES, Misere, TarotRules, score_deal

from .test_fft import FOUR, WORKED_EXAMPLES, valid_deals

MISERES = TarotRules(misere_tete=True, misere_atout=True)


def rule_error(template, call, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as caught:
        call(*args, **kwargs)
    assert caught.value.template == template, str(caught.value)
    return caught.value


# --- French Tarot ---------------------------------------------------------------------------


def test_the_default_rules_are_the_federations():
    assert TarotRules() == FFT_RULES and FFT_RULES.is_default
    assert FFT_RULES.poignee_values == fft.POIGNEE_VALUES
    assert FFT_RULES.miseres == ()
    assert fft.DEFAULT_RULES is FFT_RULES and fft.Rules is TarotRules
    # An amount for a misère nobody may declare changes nothing.
    assert TarotRules(misere_amount=25).is_default
    assert not TarotRules(misere_tete=True).is_default
    assert not TarotRules(poignee_simple=10).is_default


@pytest.mark.parametrize("kwargs, result, bonuses, unit", WORKED_EXAMPLES)
def test_the_worked_examples_score_the_same_under_the_default_rules(kwargs, result, bonuses, unit):
    plain = score_deal(seats=FOUR, taker="south", **kwargs)
    ruled = score_deal(seats=FOUR, taker="south", **kwargs, rules=FFT_RULES)
    assert ruled.scores == plain.scores and ruled.unit == plain.unit == unit
    assert ruled.miseres == () and ruled.misere_scores == {}


def test_a_misere_is_worth_its_amount_from_each_other_player():
    score = score_deal(
        seats=FOUR,
        taker="south",
        contract="garde",
        bouts=2,
        points=49,
        miseres=[("east", "tete")],
        rules=MISERES,
    )
    plain = score_deal(seats=FOUR, taker="south", contract="garde", bouts=2, points=49)
    assert score.misere_scores == {"north": -10, "east": 30, "south": -10, "west": -10}
    assert score.scores == {p: plain.scores[p] + score.misere_scores[p] for p in FOUR}
    assert score.unit == plain.unit  # the contract is scored as without it
    assert score.miseres == (("east", Misere.TETE),)


def test_the_misere_amount_is_the_clubs_and_never_multiplied():
    rules = TarotRules(misere_atout=True, misere_amount=50)
    for contract in ("prise", "garde_contre"):
        score = score_deal(
            seats=("a", "b", "c"),
            taker="a",
            contract=contract,
            bouts=1,
            points=30,
            miseres=[("a", "atout")],
            rules=rules,
        )
        assert score.misere_scores == {"a": 100, "b": -50, "c": -50}
        assert not score.won  # a lost contract does not touch the misère


def test_both_miseres_by_one_player_and_by_several_at_five():
    score = score_deal(
        seats=("a", "b", "c", "d", "e"),
        taker="a",
        partner="b",
        contract="prise",
        bouts=2,
        points=45,
        miseres=[("e", "atout"), ("c", "tete"), ("e", "tete")],
        rules=MISERES,
    )
    assert score.miseres == (("c", Misere.TETE), ("e", Misere.TETE), ("e", Misere.ATOUT))
    assert score.misere_scores == {"a": -30, "b": -30, "c": 20, "d": -30, "e": 70}
    assert sum(score.scores.values()) == 0


@pytest.mark.parametrize(
    "miseres, rules, template",
    [
        ([("east", "tete")], FFT_RULES, fft.ERR_MISERE_OFF),
        ([("east", "atout")], TarotRules(misere_tete=True), fft.ERR_MISERE_OFF),
        ([("nobody", "tete")], MISERES, fft.ERR_UNKNOWN_MISERE_PLAYER),
        ([("east", "dos")], MISERES, fft.ERR_MISERE_KIND),
        ([("east", "tete"), ("east", "tete")], MISERES, fft.ERR_DUPLICATE_MISERE),
        (["east"], MISERES, fft.ERR_MISERE_SHAPE),
        ([("east",)], MISERES, fft.ERR_MISERE_SHAPE),
        ("east", MISERES, fft.ERR_MISERE_SHAPE),
        ([([1], "tete")], MISERES, fft.ERR_UNKNOWN_MISERE_PLAYER),
    ],
)
def test_impossible_miseres(miseres, rules, template):
    rule_error(
        template,
        score_deal,
        seats=FOUR,
        taker="south",
        contract="garde",
        bouts=2,
        points=49,
        miseres=miseres,
        rules=rules,
    )


def test_a_misere_d_atout_leaves_no_trump_to_show():
    error = rule_error(
        fft.ERR_MISERE_ATOUT_POIGNEE,
        score_deal,
        seats=FOUR,
        taker="south",
        contract="garde",
        bouts=2,
        points=49,
        poignees=[("west", "simple")],
        miseres=[("west", "atout")],
        rules=MISERES,
    )
    assert error.params == {"player": "west"}
    # A misère de tête says nothing about trumps.
    score = score_deal(
        seats=FOUR,
        taker="south",
        contract="garde",
        bouts=2,
        points=49,
        poignees=[("west", "simple")],
        miseres=[("west", "tete")],
        rules=MISERES,
    )
    assert score.misere_scores["west"] == 30


def test_poignee_amounts_follow_the_house_rules():
    rules = TarotRules(poignee_simple=10, poignee_double=20, poignee_triple=30)
    kwargs = dict(seats=FOUR, taker="south", contract="garde", bouts=2, points=49)
    for kind, value in (("simple", 10), ("double", 20), ("triple", 30)):
        score = score_deal(**kwargs, poignees=[("north", kind)], rules=rules)
        assert score.poignee_bonus == value
        assert score.unit == 66 + value
    lost = score_deal(**{**kwargs, "points": 30}, poignees=[("north", "double")], rules=rules)
    assert lost.poignee_bonus == -20


@pytest.mark.parametrize(
    "data, template",
    [
        ({"misere_tete": "yes"}, ERR_HOUSE_RULE_VALUE),
        ({"misere_tete": 1}, ERR_HOUSE_RULE_VALUE),
        ({"misere_amount": 0}, ERR_HOUSE_RULE_AMOUNT),
        ({"misere_amount": 1001}, ERR_HOUSE_RULE_AMOUNT),
        ({"poignee_simple": True}, ERR_HOUSE_RULE_AMOUNT),
        ({"poignee_double": 2.5}, ERR_HOUSE_RULE_AMOUNT),
        ({"poignee_triple": "40"}, ERR_HOUSE_RULE_AMOUNT),
        ({"chelem_value": 400}, ERR_HOUSE_RULE_UNKNOWN),
    ],
)
def test_impossible_tarot_rules(data, template):
    rule_error(template, TarotRules.from_dict, data)


def test_rules_round_trip_through_their_stored_form():
    rules = TarotRules(misere_atout=True, misere_amount=20, poignee_triple=50)
    assert TarotRules.from_dict(rules.as_dict()) == rules
    assert TarotRules.from_dict(None) == TarotRules.from_dict({}) == FFT_RULES
    rule_error(ERR_HOUSE_RULES_SHAPE, TarotRules.from_dict, [1])


tarot_rules = st.builds(
    TarotRules,
    misere_tete=st.booleans(),
    misere_atout=st.booleans(),
    misere_amount=st.integers(1, 1000),
    poignee_simple=st.integers(1, 1000),
    poignee_double=st.integers(1, 1000),
    poignee_triple=st.integers(1, 1000),
)


@given(valid_deals(), tarot_rules, st.data())
def test_every_deal_under_any_house_rules_sums_to_zero(kwargs, rules, data):
    seats = kwargs["seats"]
    showing = {p for p, _kind in kwargs.get("poignees", ())}
    candidates = [
        (p, kind)
        for p in seats
        for kind in rules.miseres
        if not (kind is Misere.ATOUT and p in showing)
    ]
    drawn = st.lists(st.sampled_from(candidates), unique=True) if candidates else st.just([])
    miseres = data.draw(drawn)
    score = score_deal(**kwargs, miseres=miseres, rules=rules)
    plain = score_deal(**kwargs)
    assert sum(score.scores.values()) == 0
    assert sum(score.misere_scores.values()) == 0
    for p in seats:
        declared = sum(1 for q, _kind in miseres if q == p)
        expected = rules.misere_amount * (declared * (len(seats) - 1) - (len(miseres) - declared))
        assert score.misere_scores.get(p, 0) == expected
    # Everything but the poignées and misères is scored as by the federation.
    assert score.contract_part == plain.contract_part and score.won == plain.won
    poignees = sum(rules.poignee_values[kind] for _p, kind in score.poignees)
    assert score.poignee_bonus == (1 if score.won else -1) * poignees


@given(valid_deals())
def test_default_rules_change_no_deal(kwargs):
    assert score_deal(**kwargs, rules=FFT_RULES) == score_deal(**kwargs)


# --- Fool's Faith ---------------------------------------------------------------------------

TIED = {"a": 3, "b": 3, "c": 2}
A_WINS = {"a": 5, "b": 2, "c": 1}


def test_fools_faith_same_dealer_after_a_tie_by_default():
    state = foolsfaith.play(["a", "b", "c"], [A_WINS, TIED])
    assert state.dealer == "a" and state.stake == 2
    assert foolsfaith.DEFAULT_RULES.tie_dealer == "same"
    assert foolsfaith.play(["a", "b", "c"], [TIED], foolsfaith.DEFAULT_RULES).dealer == "a"


def test_fools_faith_next_dealer_after_a_tie_when_the_club_says_so():
    rules = foolsfaith.FoolsFaithRules(tie_dealer="next")
    state = foolsfaith.play(["a", "b", "c"], [TIED, TIED, TIED, TIED], rules)
    assert [r.dealer for r in state.history] == ["a", "b", "c", "a"]
    assert state.dealer == "b" and state.stake == 2
    # A round with a winner still gives the deal to the winner.
    won = foolsfaith.play(["a", "b", "c"], [TIED, {"a": 1, "b": 1, "c": 6}], rules)
    assert won.winner == "c" and won.finished


def test_fools_faith_refuses_unknown_rules():
    rule_error(ERR_HOUSE_RULE_VALUE, foolsfaith.FoolsFaithRules.from_dict, {"tie_dealer": "x"})
    rule_error(ERR_HOUSE_RULE_VALUE, foolsfaith.FoolsFaithRules.from_dict, {"tie_dealer": True})
    rule_error(ERR_HOUSE_RULE_UNKNOWN, foolsfaith.FoolsFaithRules.from_dict, {"stake": 2})


rounds = st.lists(
    st.sampled_from([TIED, A_WINS, {"a": 2, "b": 4, "c": 2}, {"a": 0, "b": 0, "c": 8}]),
    max_size=6,
)


@given(rounds)
def test_fools_faith_tie_rule_only_moves_the_dealer(played):
    same = foolsfaith.start(["a", "b", "c"])
    nxt = foolsfaith.start(["a", "b", "c"], foolsfaith.FoolsFaithRules(tie_dealer="next"))
    for tricks in played:
        if same.finished:
            break
        same, nxt = foolsfaith.play_round(same, tricks), foolsfaith.play_round(nxt, tricks)
        assert same.cards == nxt.cards and same.stake == nxt.stake
        assert same.winner == nxt.winner and same.finished == nxt.finished


# --- Death's Pot ----------------------------------------------------------------------------


def tricks(**counts):
    return {"tricks": counts}


def test_deaths_pot_keeps_the_pot_on_a_tie_by_default():
    state = deathspot.play(["a", "b", "c"], [tricks(a=5, b=5, c=2)])
    assert state.pot == 3 and state.balances == {"a": -1, "b": -1, "c": -1}


def test_deaths_pot_tied_players_share_the_pot_when_the_club_says_so():
    rules = deathspot.DeathsPotRules(tie_pot="shared")
    state = deathspot.play(["a", "b", "c", "d"], [tricks(a=5, b=5, c=1, d=1)], rules=rules)
    # The pot of 4 goes 2 and 2; it is empty, so everyone antes again.
    assert state.balances == {"a": 0, "b": 0, "c": -2, "d": -2}
    assert state.pot == 4
    deal = state.history[0]
    assert deal.tied == ("a", "b") and deal.tricks_winner is None
    assert [(p.kind, p.player, p.amount) for p in deal.payments[:2]] == [
        ("tricks", "a", 2),
        ("tricks", "b", 2),
    ]


def test_deaths_pot_what_cannot_be_shared_stays():
    rules = deathspot.DeathsPotRules(tie_pot="shared")
    state = deathspot.play(["a", "b", "c"], [tricks(a=4, b=4, c=4)], stake=1, rules=rules)
    # 3 shared by 3: 1 each, the pot is empty and everyone antes again.
    assert state.balances == {"a": -1, "b": -1, "c": -1} and state.pot == 3
    two_of_three = deathspot.play(["a", "b", "c"], [tricks(a=5, b=5, c=2)], rules=rules)
    assert two_of_three.balances == {"a": 0, "b": 0, "c": -1} and two_of_three.pot == 1


@given(
    st.lists(
        st.sampled_from(
            [
                tricks(a=5, b=5, c=2),
                tricks(a=4, b=4, c=4),
                tricks(a=12, b=0, c=0),
                {"excuse": "a", "trump11": "b", "tricks": {"a": 6, "b": 6, "c": 0}},
                {"death": "c"},
            ]
        ),
        max_size=8,
    ),
    st.sampled_from(["stays", "shared"]),
    st.integers(1, 5),
)
def test_deaths_pot_stays_zero_sum_under_either_tie_rule(deals, tie_pot, stake):
    rules = deathspot.DeathsPotRules(tie_pot=tie_pot)
    state = deathspot.play(["a", "b", "c"], deals, stake=stake, rules=rules)
    assert sum(state.balances.values()) + state.pot == 0
    assert state.pot > 0
    if tie_pot == "stays":
        assert state == deathspot.play(["a", "b", "c"], deals, stake=stake)


# --- Keys of the Kingdom --------------------------------------------------------------------

PAIR_GAME = {"suits": {"a": "hearts", "b": "spades"}, "winner": "a", "keys": {"b": 2}}


def test_keys_every_player_of_the_table_plays_by_default():
    error = rule_error(keys.ERR_WHOLE_TABLE, keys.play, ["a", "b", "c"], [PAIR_GAME])
    assert error.params == {"player": "c"}
    whole = {**PAIR_GAME, "suits": {**PAIR_GAME["suits"], "c": "clubs"}, "keys": {"b": 2, "c": 0}}
    assert len(keys.play(["a", "b", "c"], [whole]).games) == 1


def test_keys_some_of_the_table_may_play_when_the_club_says_so():
    rules = keys.KeysRules(partial_table=True)
    state = keys.play(["a", "b", "c"], [PAIR_GAME], rules)
    assert state.games[0].players == ("a", "b")
    assert "c" not in keys.standings([PAIR_GAME]).players  # c played no game
    rule_error(keys.ERR_UNKNOWN_PLAYER, keys.play, ["a", "c"], [PAIR_GAME], rules)
    rule_error(ERR_HOUSE_RULE_VALUE, keys.KeysRules.from_dict, {"partial_table": "yes"})
