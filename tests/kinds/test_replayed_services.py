"""The replayed games' services: every write replays the game through `scoring` and refuses what the
rules refuse; corrections check versions; undo reopens a game the rules had ended."""

from __future__ import annotations

import pytest

from scoring import cuckoo, foolsfaith
from tarotclub.games import kinds, services
from tarotclub.games.models import Change, ChangeAction, Record
from tarotclub.games.replayed import rules_order, to_json
from tarotclub.games.services import GameError
from tarotclub.kinds.foolsfaith import services as challenges
from tarotclub.kinds.foolsfaith.models import Challenge, ChallengeAward

from .helpers import played

pytestmark = pytest.mark.django_db


def tricks(players, *counts):
    return {"tricks": {p.pk: n for p, n in zip(players, counts, strict=True)}}


def test_record_add_stores_json_and_history(ff, three):
    record = services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    assert record.number == 1
    assert record.data == {"tricks": {str(p.pk): n for p, n in zip(three, (4, 2, 2), strict=True)}}
    change = Change.objects.get(game=ff)
    assert change.action == ChangeAction.RECORDED
    assert change.after["data"] == record.data
    ff.refresh_from_db()
    assert ff.revision == 1
    state = played(ff).state
    assert state.cards[three[0].pk] == 1  # Anne won the round alone


def test_record_add_refuses_what_the_rules_refuse_and_saves_nothing(ff, three):
    with pytest.raises(GameError) as e:
        services.record_add(game=ff, data=tricks(three, 4, 2, 1))
    assert e.value.messages == [foolsfaith.ERR_TRICKS_TOTAL % {"total": 7}]
    assert not Record.objects.filter(game=ff).exists()
    assert not Change.objects.filter(game=ff).exists()
    ff.refresh_from_db()
    assert ff.revision == 0


def test_rule_messages_name_players_by_label(ff, three):
    data = {"tricks": {three[0].pk: -1, three[1].pk: 5, three[2].pk: 4}}
    with pytest.raises(GameError) as e:
        services.record_add(game=ff, data=data)
    assert e.value.messages == [foolsfaith.ERR_TRICKS_NEGATIVE % {"player": "Anne"}]


def test_record_add_refuses_a_stranger(ff, three, make_players):
    (stranger,) = make_players("Zoé")
    data = {"tricks": {three[0].pk: 4, three[1].pk: 2, stranger.pk: 2}}
    with pytest.raises(GameError):
        services.record_add(game=ff, data=data)
    assert not Record.objects.filter(game=ff).exists()


def test_the_game_ends_when_the_rules_say_so(ff, three):
    services.record_add(game=ff, data=tricks(three, 4, 2, 2))  # Anne 1 card
    services.record_add(game=ff, data=tricks(three, 3, 3, 2))  # tie: next worth 2
    services.record_add(game=ff, data=tricks(three, 2, 5, 1))  # Bram takes 2: wins
    ff.refresh_from_db()
    assert ff.finished
    assert Change.objects.filter(game=ff, action=ChangeAction.FINISHED).count() == 1
    gs = played(ff)
    assert gs.over and gs.state.winner == three[1].pk
    with pytest.raises(GameError) as e:
        services.record_add(game=ff, data=tricks(three, 8, 0, 0))
    assert e.value.messages == [str(services.ERR_OVER)]
    assert ff.records.count() == 3


def test_first_dealer_is_the_rules_first_player(start, three):
    game = start("foolsfaith", three, first_dealer=2)
    assert played(game).state.dealer == three[2].pk


def test_record_correct_replays_and_bumps_the_version(ff, three):
    record = services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    services.record_add(game=ff, data=tricks(three, 1, 5, 2))
    corrected = services.record_correct(
        record=record, data=tricks(three, 2, 2, 4), expected_version=1
    )
    assert corrected.version == 2
    state = played(ff).state
    assert state.cards == {three[0].pk: 0, three[1].pk: 1, three[2].pk: 1}
    change = Change.objects.get(game=ff, action=ChangeAction.CORRECTED)
    assert change.before["version"] == 1 and change.after["version"] == 2


def test_record_correct_refuses_a_stale_version(ff, three):
    record = services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    services.record_correct(record=record, data=tricks(three, 2, 4, 2), expected_version=1)
    with pytest.raises(services.StaleError) as e:
        services.record_correct(record=record, data=tricks(three, 2, 2, 4), expected_version=1)
    assert e.value.record.version == 2
    assert e.value.record.data["tricks"][str(three[1].pk)] == 4


def test_a_correction_that_breaks_a_later_record_is_refused(ff, three):
    services.record_add(game=ff, data=tricks(three, 4, 2, 2))  # Anne 1 card
    second = services.record_add(game=ff, data=tricks(three, 3, 3, 2))  # tie: worth 2
    services.record_add(game=ff, data=tricks(three, 2, 3, 3))  # tie again
    with pytest.raises(GameError) as e:
        # Anne winning round 2 gives her 2 cards: the game ends there, round 3 cannot follow
        services.record_correct(record=second, data=tricks(three, 5, 2, 1), expected_version=1)
    inner = foolsfaith.ERR_GAME_OVER % {"winner": "Anne"}
    assert e.value.messages == [services.ERR_LATER_RECORD % {"number": 3, "message": inner}]
    second.refresh_from_db()
    assert second.version == 1 and second.data["tricks"][str(three[0].pk)] == 3
    ff.refresh_from_db()
    assert not ff.finished


def test_correcting_a_finished_game_is_refused(ff, three):
    first = services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    services.record_add(game=ff, data=tricks(three, 5, 2, 1))
    with pytest.raises(GameError) as e:
        services.record_correct(record=first, data=tricks(three, 2, 4, 2), expected_version=1)
    assert e.value.messages == [str(services.ERR_FINISHED_CORRECT)]


def test_undo_last_checks_the_number_and_keeps_history(ff, three):
    services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    services.record_add(game=ff, data=tricks(three, 2, 4, 2))
    with pytest.raises(GameError) as e:
        services.record_undo_last(game=ff, number=1)
    assert e.value.messages == [services.ERR_NOT_LAST % {"number": 2}]
    assert services.record_undo_last(game=ff, number=2) is False
    assert list(ff.records.values_list("number", flat=True)) == [1]
    undone = Change.objects.get(game=ff, action=ChangeAction.UNDONE)
    assert undone.before["number"] == 2
    services.record_undo_last(game=ff, number=1)
    with pytest.raises(GameError) as e:
        services.record_undo_last(game=ff, number=1)
    assert e.value.messages == [str(services.ERR_NO_RECORD)]


def test_undo_reopens_a_game_the_rules_ended_and_takes_back_challenges(ff, three):
    services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    services.record_add(game=ff, data=tricks(three, 5, 2, 1))  # Anne wins the game
    challenge = challenges.challenge_create(text="Sing a song")
    challenges.challenges_award(game=ff, awards=[(challenge.pk, three[1].pk)] * 2)
    assert ChallengeAward.objects.filter(game=ff).count() == 2
    assert services.record_undo_last(game=ff, number=2) is True
    ff.refresh_from_db()
    assert not ff.finished
    assert not ChallengeAward.objects.filter(game=ff).exists()
    before = Change.objects.get(game=ff, action=ChangeAction.UNDONE).before
    assert before["reopened"] is True
    assert [a["text"] for a in before["awards"]] == ["Sing a song", "Sing a song"]


def test_a_stopped_game_stays_closed(dp, three):
    services.record_add(game=dp, data={"death": three[0].pk})
    services.game_finish(game=dp)
    dp.refresh_from_db()
    assert dp.finished
    with pytest.raises(GameError) as e:
        services.record_undo_last(game=dp, number=1)
    assert e.value.messages == [str(services.ERR_STOPPED)]
    with pytest.raises(GameError):
        services.record_add(game=dp, data={"death": three[0].pk})
    with pytest.raises(GameError):
        services.game_finish(game=dp)


def test_deaths_pot_balances_follow_the_worked_example(dp, three):
    a, b, c = (p.pk for p in three)
    # opening ante: pot 3, everybody -1. Death (Anne) takes 3, everybody antes again.
    services.record_add(game=dp, data={"death": a})
    # Excuse: Bram +1 (pot 2); Anne most tricks takes 2; pot empty, everybody antes.
    services.record_add(
        game=dp, data={"excuse": b, "trump1": None, "tricks": {a: 6, b: 3, c: 3}, "death": None}
    )
    state = played(dp).state
    assert state.balances == {a: 2, b: -2, c: -3}
    assert state.pot == 3


def test_deaths_pot_stake_option_multiplies(start, three):
    game = start("deathspot", three, stake=5)
    services.record_add(game=game, data={"death": three[0].pk})
    state = played(game).state
    assert state.balances[three[0].pk] == 5  # -5 + 15 - 5


def test_keys_record_is_checked_against_the_seats(kk, three, make_players):
    a, b, c = (p.pk for p in three)
    good = {"suits": {a: "hearts", b: "spades", c: "clubs"}, "winner": a, "keys": {b: 3, c: 0}}
    services.record_add(game=kk, data=good)
    (stranger,) = make_players("Zoé")
    bad = {"suits": {a: "hearts", stranger.pk: "spades"}, "winner": a, "keys": {stranger.pk: 1}}
    with pytest.raises(GameError) as e:
        services.record_add(game=kk, data=bad)
    assert "Zoé" not in e.value.messages[0]  # not a player of this game: shown by its key
    assert kk.records.count() == 1
    twice = {"suits": {a: "hearts", b: "hearts", c: "clubs"}, "winner": a, "keys": {b: 1, c: 0}}
    with pytest.raises(GameError) as e:
        services.record_add(game=kk, data=twice)
    assert e.value.messages == ["Bram chose ♥ Hearts, which another player already has."]
    kk.refresh_from_db()
    assert not kk.finished  # a Keys log never ends by itself


def test_cuckoo_match_to_the_end(ck, three):
    a, b, c = (p.pk for p in three)
    # lives 2 each. Deal 1: Anne lowest (owl) loses one.
    services.record_add(game=ck, data={"cards": {a: "owl", b: "XII", c: "cuckoo"}})
    # Deal 2 (Bram deals): Anne's Fool and the lowest of the others (Bram, II): both lose one.
    services.record_add(game=ck, data={"cards": {a: "fool", b: "II", c: "III"}})
    state = played(ck).state
    assert state.lives == {a: 0, b: 1, c: 2}
    assert state.taking_part == (b, c)
    # Deal 3: Bram asks Chloé, who refuses with the Cat: Bram loses his last life, Chloé wins.
    services.record_add(game=ck, data={"cards": {b: "pot", c: "cat"}, "swap_losses": {b: 1}})
    ck.refresh_from_db()
    assert ck.finished
    state = played(ck).state
    assert state.winner == c
    assert cuckoo.places(state) == {c: 1, b: 2, a: 3}


def test_cuckoo_refuses_a_card_for_a_player_who_is_out(ck, three):
    a, b, c = (p.pk for p in three)
    services.record_add(game=ck, data={"cards": {a: "owl", b: "XII", c: "cuckoo"}})
    services.record_add(game=ck, data={"cards": {a: "fool", b: "II", c: "III"}})
    with pytest.raises(GameError) as e:
        services.record_add(game=ck, data={"cards": {a: "I", b: "II", c: "III"}})
    assert e.value.messages == ["Anne has no lives left and is out of the match."]


def test_challenge_services(member):
    c = challenges.challenge_create(text="  Sing   a song ")
    assert c.text == "Sing a song"
    with pytest.raises(GameError):
        challenges.challenge_create(text="   ")
    with pytest.raises(GameError):
        challenges.challenge_create(text="x" * 201)
    challenges.challenge_update(challenge=c, text="Dance", active=False, order=3)
    c.refresh_from_db()
    assert (c.text, c.active, c.order) == ("Dance", False, 3)
    challenges.challenge_delete(challenge=c)
    assert not Challenge.objects.exists()
    added = challenges.challenges_suggest()
    assert len(added) == len(challenges.SUGGESTED_CHALLENGES)
    assert challenges.challenges_suggest() == []  # only into an empty list


def test_challenges_award_checks_count_players_and_list(ff, three):
    a, b, c = (p.pk for p in three)
    song = challenges.challenge_create(text="Sing a song")
    with pytest.raises(GameError) as e:
        challenges.challenges_award(game=ff, awards=[(song.pk, b), (song.pk, c)])
    assert e.value.messages == [str(challenges.ERR_NOT_OVER)]
    services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    services.record_add(game=ff, data=tricks(three, 5, 2, 1))  # Anne wins: 2 cards
    with pytest.raises(GameError) as e:
        challenges.challenges_award(game=ff, awards=[(song.pk, b)])
    assert e.value.messages == [challenges.ERR_CARD_COUNT % {"winner": "Anne", "count": 2}]
    with pytest.raises(GameError) as e:
        challenges.challenges_award(game=ff, awards=[(song.pk, a), (song.pk, b)])
    assert e.value.messages == [str(challenges.ERR_AWARD_PLAYER)]
    with pytest.raises(GameError) as e:
        challenges.challenges_award(game=ff, awards=[(song.pk + 99, c), (song.pk, b)])
    assert e.value.messages == [str(challenges.ERR_UNKNOWN_CHALLENGE)]
    dance = challenges.challenge_create(text="Dance")
    challenges.challenges_award(game=ff, awards=[(song.pk, b), (dance.pk, c)])
    challenges.challenges_award(game=ff, awards=[(dance.pk, b), (dance.pk, c)])  # replaces
    got = list(ChallengeAward.objects.filter(game=ff).values_list("card", "player", "text"))
    assert got == [(1, b, "Dance"), (2, c, "Dance")]
    assert all(x.awarded_by_id == a for x in ChallengeAward.objects.all())
    with pytest.raises(GameError) as e:
        challenges.challenge_delete(challenge=dance)
    assert e.value.messages == [str(challenges.ERR_CHALLENGE_USED)]


def test_challenges_award_refused_for_other_games_and_stopped_games(ff, dp, three):
    song = challenges.challenge_create(text="Sing a song")
    with pytest.raises(GameError) as e:
        challenges.challenges_award(game=dp, awards=[(song.pk, three[1].pk)])
    assert e.value.messages == [str(challenges.ERR_NOT_FOOLS_FAITH)]
    services.record_add(game=ff, data=tricks(three, 4, 2, 2))
    services.game_finish(game=ff)
    with pytest.raises(GameError) as e:
        challenges.challenges_award(game=ff, awards=[(song.pk, three[1].pk)])
    assert e.value.messages == [str(challenges.ERR_NO_WINNER)]


def test_json_round_trip_of_every_kind(three):
    a, b = three[0].pk, three[1].pk
    data = {"suits": {a: "hearts", b: "spades"}, "winner": a, "keys": {b: 2}, "guards": None}
    stored = to_json(data)
    assert stored["suits"] == {str(a): "hearts", str(b): "spades"}
    assert kinds.get("keys").rules_input(stored) == data
    assert kinds.get("foolsfaith").rules_input({"tricks": {str(a): 8}}) == {a: 8}
    assert rules_order([5, 6, 7], 1) == [6, 7, 5]
