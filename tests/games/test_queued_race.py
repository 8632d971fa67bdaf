"""Two sends of one queued entry at the same moment (a retry racing the first send, two tabs):
real threads on a real database. Run on SQLite (the default) and PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

import os
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.games.models import Change, ChangeAction
from tarotclub.kinds.tarot.models import Deal

from ..tournaments.test_concurrency import together
from .test_views import deal_post

pytestmark = pytest.mark.django_db(transaction=True)

REPEAT = int(os.environ.get("TAROTCLUB_RACE_REPEAT", "8"))


@pytest.mark.parametrize("round_", range(REPEAT))
def test_two_sends_of_one_id_at_once_make_one_deal(game4, four, round_):
    cid = str(uuid.uuid4())
    data = {**deal_post(four), "number": "1", "client_id": cid}
    path = reverse("games:deal_new", args=[game4.token])

    def post():
        response = Client(raise_request_exception=False).post(
            path, data, HTTP_ACCEPT="application/json"
        )
        return response.status_code, response.json()["status"]

    results = together(post, post)
    assert sorted(results) == [(200, "duplicate"), (200, "saved")]
    assert Deal.objects.filter(game=game4).count() == 1
    assert Change.objects.filter(game=game4, action=ChangeAction.RECORDED).count() == 1
