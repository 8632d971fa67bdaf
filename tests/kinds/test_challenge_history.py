"""The club's challenge list and the challenge cards given: every write leaves a trace."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tarotclub.core.models import ACTIONS, LogEntry
from tarotclub.kinds.foolsfaith import services
from tarotclub.kinds.foolsfaith.models import Challenge, ChallengeAward

from .test_standings_and_challenges import ff_won_by

pytestmark = pytest.mark.django_db


def logged(obj) -> list[LogEntry]:
    return list(LogEntry.objects.for_object(obj).order_by("pk"))


def test_the_challenge_list_is_logged(member):
    c = services.challenge_create(text="  Sing\u200b a   song ", user=member)
    assert c.text == "Sing a song"
    [created] = logged(c)
    assert created.action == services.CHALLENGE_CREATED and created.action in ACTIONS
    assert created.user == member and created.before is None
    assert created.after == {"challenge": "Sing a song", "order": c.order, "in_use": True}

    services.challenge_update(challenge=c, text="Sing a waltz", active=False, order=4, user=member)
    changed = logged(c)[-1]
    assert changed.action == services.CHALLENGE_CHANGED
    assert (changed.before["challenge"], changed.after["challenge"]) == (
        "Sing a song",
        "Sing a waltz",
    )
    assert (changed.before["in_use"], changed.after["in_use"]) == (True, False)
    count = len(logged(c))
    services.challenge_update(challenge=c, text="Sing a waltz", active=False, order=4)
    assert len(logged(c)) == count  # nothing changed, nothing logged

    pk = c.pk
    services.challenge_delete(challenge=c, user=member)
    assert not Challenge.objects.filter(pk=pk).exists()
    deleted = LogEntry.objects.filter(action=services.CHALLENGE_DELETED).get()
    assert deleted.object_id == pk and deleted.after is None
    assert deleted.before["challenge"] == "Sing a waltz" and deleted.user == member


def test_suggested_challenges_are_logged_one_by_one(member):
    added = services.challenges_suggest(user=member)
    assert LogEntry.objects.filter(action=services.CHALLENGE_CREATED, user=member).count() == len(
        added
    )


def test_refused_challenge_writes_leave_no_trace():
    with pytest.raises(ValidationError):
        services.challenge_create(text="\u200b\u202e")
    assert not Challenge.objects.exists() and not LogEntry.objects.exists()


def test_challenge_cards_given_again_keep_what_was_given_before(start, three, member):
    a, b, c = three
    game = ff_won_by(start, three, 0)
    song = services.challenge_create(text="Sing a song")
    dance = services.challenge_create(text="Dance a waltz")
    services.challenges_award(game=game, awards=[(song.pk, b.pk), (dance.pk, c.pk)], user=member)
    [first] = logged(game)
    assert first.action == services.CHALLENGES_GIVEN and first.before is None
    assert first.user == member
    assert first.after["awards"] == [
        {"card": 1, "player": "Bram", "challenge": "Sing a song", "player_id": b.pk,
         "challenge_id": song.pk},
        {"card": 2, "player": "Chloé", "challenge": "Dance a waltz", "player_id": c.pk,
         "challenge_id": dance.pk},
    ]  # fmt: skip

    services.challenge_update(challenge=song, text="Sing a lullaby", active=True, order=1)
    services.challenges_award(game=game, awards=[(dance.pk, b.pk), (dance.pk, c.pk)])
    again = logged(game)[-1]
    assert again.action == services.CHALLENGES_GIVEN_AGAIN and again.user is None
    assert again.before == first.after  # as given then, before the list was edited
    assert [x["challenge"] for x in again.after["awards"]] == ["Dance a waltz"] * 2
    assert ChallengeAward.objects.filter(game=game).count() == 2


def test_a_refused_award_leaves_no_trace(start, three):
    game = ff_won_by(start, three, 0)
    song = services.challenge_create(text="Sing a song")
    with pytest.raises(ValidationError):
        services.challenges_award(game=game, awards=[(song.pk, three[1].pk)])
    assert not logged(game)


def test_the_pages_log_with_the_member(member_client, member):
    member_client.post(reverse("foolsfaith:challenges"), {"add": "1", "text": "Juggle"})
    challenge = Challenge.objects.get()
    edit = reverse("foolsfaith:challenge_edit", args=[challenge.pk])
    member_client.post(edit, {"save": "1", "text": "Juggle twice", "order": "2", "active": "on"})
    member_client.post(edit, {"delete": "1"})
    member_client.post(reverse("foolsfaith:challenges"), {"suggest": "1"})
    actions = list(LogEntry.objects.order_by("pk").values_list("action", "user"))
    assert actions[:3] == [
        (services.CHALLENGE_CREATED, member.pk),
        (services.CHALLENGE_CHANGED, member.pk),
        (services.CHALLENGE_DELETED, member.pk),
    ]
    assert {u for _a, u in actions[3:]} == {member.pk} and len(actions) > 3


def test_a_challenge_gone_meanwhile_gets_a_message_not_a_500(member_client):
    challenge = services.challenge_create(text="Juggle")
    stale = Challenge.objects.get(pk=challenge.pk)
    services.challenge_delete(challenge=challenge)
    with pytest.raises(ValidationError):
        services.challenge_update(challenge=stale, text="Juggle", active=True, order=1)
    with pytest.raises(ValidationError):
        services.challenge_delete(challenge=stale)


def test_a_challenge_order_fits_its_column():
    c = services.challenge_create(text="Juggle", order=10**9)
    assert 0 <= Challenge.objects.get(pk=c.pk).order <= 32767
    services.challenge_update(challenge=c, text="Juggle", active=True, order=-5)
    assert Challenge.objects.get(pk=c.pk).order == 0
