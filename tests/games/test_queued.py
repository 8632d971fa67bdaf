"""Entries sent from a phone's queue: each client id is saved once, a conflict or a closed
sheet is answered in the JSON format of `games.queued`, and nothing is dropped silently."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse
from django.utils.html import escape

from tarotclub.core.models import LogEntry
from tarotclub.games import queued, services
from tarotclub.games.models import Change, ChangeAction, RefusedEntry
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.models import Deal

from .test_views import deal_post

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def send(client, game, players, *, number, client_id, queued_send=True, **over):
    data = {**deal_post(players, **over), "number": str(number), "client_id": str(client_id)}
    return client.post(
        reverse("games:deal_new", args=[game.token]), data, **(JSON if queued_send else {})
    )


def test_the_same_post_twice_saves_one_deal_and_one_history_entry(client, game4, four):
    cid = uuid.uuid4()
    first = send(client, game4, four, number=1, client_id=cid, queued_send=False)
    again = send(client, game4, four, number=1, client_id=cid, queued_send=False)
    assert first.status_code == again.status_code == 302  # the double tap is "saved" too
    assert Deal.objects.filter(game=game4).count() == 1
    assert Deal.objects.get(game=game4).client_id == cid
    assert Change.objects.filter(game=game4, action=ChangeAction.RECORDED).count() == 1


def test_a_queued_retry_answers_duplicate_with_the_saved_deal(client, game4, four):
    cid = uuid.uuid4()
    first = send(client, game4, four, number=1, client_id=cid).json()
    game4.refresh_from_db()
    revision = game4.revision
    again = send(client, game4, four, number=1, client_id=cid).json()
    assert first["status"] == queued.SAVED and first["number"] == 1
    assert again["status"] == queued.DUPLICATE and again["number"] == 1
    game4.refresh_from_db()
    assert game4.revision == revision  # nothing written by the retry
    assert Change.objects.filter(game=game4).count() == 1


def test_a_retry_of_a_saved_deal_is_saved_even_once_the_sheet_is_locked(client, game4, four):
    cid = uuid.uuid4()
    send(client, game4, four, number=1, client_id=cid)
    game4.locked = True
    game4.save(update_fields=["locked"])
    assert send(client, game4, four, number=1, client_id=cid).json()["status"] == queued.DUPLICATE
    assert not RefusedEntry.objects.exists()


def test_two_phones_same_number_the_second_gets_a_conflict_with_both(client, game4, four):
    send(client, game4, four, number=1, client_id=uuid.uuid4())
    answer = send(client, game4, four, number=1, client_id=uuid.uuid4(), contract="prise").json()
    assert answer["status"] == queued.CONFLICT, answer
    assert answer["number"] == 1 and answer["next"] == 2
    assert answer["theirs"]["number"] == 1 and answer["theirs"]["text"]
    assert Deal.objects.filter(game=game4).count() == 1
    # the player chooses "add mine as the next deal": sent again as deal 2, same id
    mine = uuid.uuid4()
    assert send(client, game4, four, number=1, client_id=mine).json()["status"] == queued.CONFLICT
    assert send(client, game4, four, number=2, client_id=mine).json()["status"] == queued.SAVED
    assert list(Deal.objects.filter(game=game4).values_list("number", flat=True)) == [1, 2]


def test_a_phone_ahead_of_the_sheet_gets_a_conflict_without_theirs(client, game4, four):
    answer = send(client, game4, four, number=3, client_id=uuid.uuid4()).json()
    assert answer["status"] == queued.CONFLICT and answer["theirs"] is None and answer["next"] == 1


def test_a_locked_sheet_refuses_and_keeps_the_entry_for_the_director(client, game4, four):
    game4.locked = True
    game4.save(update_fields=["locked"])
    cid = uuid.uuid4()
    answer = send(client, game4, four, number=1, client_id=cid, summary="Garde by Anne").json()
    assert answer["status"] == queued.LOCKED and answer["kept"] is True
    assert answer["message"] == str(tarot.ERR_LOCKED)
    kept = RefusedEntry.objects.get(game=game4)
    assert kept.client_id == cid and kept.number == 1 and kept.text == "Garde by Anne"
    assert kept.data["contract"] == "garde" and "csrfmiddlewaretoken" not in kept.data
    assert not Deal.objects.filter(game=game4).exists()
    # sent again (the answer was lost): kept once
    send(client, game4, four, number=1, client_id=cid)
    assert RefusedEntry.objects.filter(game=game4).count() == 1
    assert LogEntry.objects.filter(action=services.REFUSED_KEPT).count() == 1


def test_a_finished_game_refuses_and_keeps(client, game4, four):
    services.game_finish(game=game4)
    answer = send(client, game4, four, number=1, client_id=uuid.uuid4()).json()
    assert answer["status"] == queued.LOCKED and answer["message"] == str(tarot.ERR_FINISHED)
    assert RefusedEntry.objects.filter(game=game4).count() == 1


def test_an_invalid_entry_answers_the_forms_translated_errors(client, game4, four):
    client.cookies["django_language"] = "fr"
    answer = send(client, game4, four, number=1, client_id=uuid.uuid4(), points="200").json()
    assert answer["status"] == queued.INVALID and answer["errors"]["points"]
    assert not Deal.objects.exists()


def test_the_director_accepts_a_kept_entry_as_the_next_deal(client, game4, four, director):
    game4.locked = True
    game4.save(update_fields=["locked"])
    send(client, game4, four, number=1, client_id=uuid.uuid4())
    kept = RefusedEntry.objects.get()
    added = services.refused_entry_accept(entry=kept, user=director)
    assert added.number == 1 and added.contract == "garde"
    kept.refresh_from_db()
    assert kept.outcome == RefusedEntry.Outcome.ACCEPTED and kept.settled_by == director
    assert LogEntry.objects.filter(action=services.REFUSED_ACCEPTED).count() == 1
    with pytest.raises(services.GameError):
        services.refused_entry_discard(entry=kept, user=director)  # settled already


def test_a_share_link_phone_cannot_settle_kept_entries(client, game4, four, django_user_model):
    game4.locked = True
    game4.save(update_fields=["locked"])
    send(client, game4, four, number=1, client_id=uuid.uuid4())
    kept = RefusedEntry.objects.get()
    stranger = django_user_model.objects.create_user(username="x", password="pw-x-123456")
    for user in (None, stranger):
        with pytest.raises(services.GameError):
            services.refused_entry_discard(entry=kept, user=user)
    owner = game4.created_by
    services.refused_entry_discard(entry=kept, user=owner)
    kept.refresh_from_db()
    assert kept.outcome == RefusedEntry.Outcome.DISCARDED


def test_a_replayed_kinds_record_is_saved_once(make_players):
    from tarotclub.games import kinds

    three = make_players("Anne", "Bram", "Chloé")
    game = services.game_start(players=three, kind="foolsfaith")
    data = {"tricks": {p.pk: n for p, n in zip(three, (4, 2, 2), strict=True)}}
    cid = uuid.uuid4()
    first = services.record_add(game=game, data=data, client_id=cid)
    again = services.record_add(game=game, data=data, client_id=cid)
    assert first.pk == again.pk and again.sent_before and not first.sent_before
    assert game.records.count() == 1
    assert Change.objects.filter(game=game, action=ChangeAction.RECORDED).count() == 1
    assert kinds.get("foolsfaith") is not None


def test_an_id_costs_no_query_on_sqlite_one_on_postgresql(game4, four, django_assert_num_queries):
    """SQLite looks for the id in the statement that takes the lock; PostgreSQL after it (a
    statement that waited for the lock would not see the other phone's entry: lock_game)."""
    data = tarot.DealInput(taker=four[0].pk, contract="garde", bouts=2, points=49)
    tarot.deal_add(game=game4, data=data)  # warm up
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as without:
        tarot.deal_add(game=game4, data=data)
    with CaptureQueriesContext(connection) as with_id:
        tarot.deal_add(game=game4, data=data, client_id=uuid.uuid4())
    assert len(with_id) == len(without) + (1 if connection.features.has_select_for_update else 0)


def _kept(client, game, players):
    game.locked = True
    game.save(update_fields=["locked"])
    send(client, game, players, number=1, client_id=uuid.uuid4(), summary="Garde · Anne")
    return RefusedEntry.objects.get(game=game)


def test_the_owner_sees_kept_entries_on_the_sheet_and_a_director_adds_one(
    client, game4, four, member, director
):
    kept = _kept(client, game4, four)
    sheet = reverse("games:sheet", args=[game4.token])
    accept = reverse("games:kept_accept", args=[game4.token, kept.pk])
    assert "Entries kept for you" not in client.get(sheet).content.decode()  # the share link
    client.force_login(member)
    html = client.get(sheet).content.decode()
    assert "Entries kept for you" in html and "Garde · Anne" in html
    # the sheet is still confirmed: only the director may add to it (the reason, no 500)
    refused = client.post(accept, follow=True).content.decode()
    assert escape(str(tarot.ERR_LOCKED)) in refused and not Deal.objects.exists()
    kept.refresh_from_db()
    assert kept.outcome == ""  # still waiting
    client.force_login(director)
    assert client.post(accept).status_code == 302
    assert Deal.objects.filter(game=game4).count() == 1
    assert "Entries kept for you" not in client.get(sheet).content.decode()


def test_discarding_a_kept_entry_asks_first(client, game4, four, member):
    kept = _kept(client, game4, four)
    client.force_login(member)
    path = reverse("games:kept_discard", args=[game4.token, kept.pk])
    assert "Discard this kept entry?" in client.get(path).content.decode()
    kept.refresh_from_db()
    assert kept.outcome == ""
    assert client.post(path).status_code == 302
    kept.refresh_from_db()
    assert kept.outcome == RefusedEntry.Outcome.DISCARDED
    assert not Deal.objects.exists()
    # twice: a clear message, not a 500
    response = client.post(path, follow=True)
    assert escape(str(services.ERR_REFUSED_SETTLED)) in response.content.decode()


def test_a_stranger_gets_a_404_for_kept_entries(client, game4, four, django_user_model):
    kept = _kept(client, game4, four)
    stranger = django_user_model.objects.create_user(username="y", password="pw-y-123456")
    client.force_login(stranger)
    assert client.post(reverse("games:kept_accept", args=[game4.token, kept.pk])).status_code == 404
    assert client.get(reverse("games:kept_discard", args=[game4.token, kept.pk])).status_code == 404
