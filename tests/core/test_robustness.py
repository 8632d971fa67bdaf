"""Odd input never breaks anything: random form data to every form, junk in every URL."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarotclub.games.models import Change
from tarotclub.kinds.tarot.models import Deal
from tarotclub.kinds.tarot.services import DealInput, deal_record

pytestmark = pytest.mark.django_db

junk = st.one_of(
    st.text(max_size=12),
    st.integers(min_value=-(10**12), max_value=10**12).map(str),
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "3",
            "91",
            "91.5",
            "-1",
            "nan",
            "inf",
            "1e309",
            "½",
            "garde",
            "attack",
            "defence",
            "simple",
            "none",
            "alone",
            "announced_made",
            "\x00",
        ]
    ),
)
FIELDS = [
    "taker",
    "contract",
    "bouts",
    "points_side",
    "points",
    "petit_au_bout",
    "chelem",
    "partner",
    "version",
    "preview",
    "number",
    "seat1",
    "seat2",
    "seat3",
    "first_dealer",
    "kind",
    "name",
    "guest_name",
    "add_guest",
    "start",
]
forms = st.dictionaries(st.sampled_from(FIELDS), junk, max_size=10)


@pytest.fixture
def table(game5, five):
    deal_record(
        game=game5,
        data=DealInput(taker=five[0].pk, partner=five[1].pk, contract="prise", bouts=1, points=55),
    )
    return game5


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=forms)
def test_random_deal_forms_never_fail(table, five, data):
    client = Client()
    before = (Deal.objects.count(), Change.objects.count())
    for name, args in [
        ("deal_new", []),
        ("deal_preview", []),
        ("deal_edit", [1]),
        ("deal_undo", []),
    ]:
        response = client.post(reverse(f"games:{name}", args=[table.token, *args]), data)
        assert response.status_code < 500, (name, data)
    after = (Deal.objects.count(), Change.objects.count())
    # a random form may be a valid deal; anything saved must be complete and zero-sum
    for deal in Deal.objects.all():
        assert sum(line.score for line in deal.lines.all()) == 0
    # every deal added or removed left an entry in the change history
    assert after[1] - before[1] >= abs(after[0] - before[0])


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=forms)
def test_random_new_game_forms_never_fail(member, four, data):
    client = Client()
    client.force_login(member)
    response = client.post(reverse("games:new"), data)
    assert response.status_code < 500


@pytest.mark.parametrize(
    "path",
    [
        "/t/%00/",
        "/t/' OR 1=1 --/",
        "/t/" + "a" * 500 + "/",
        "/tournaments/0/",
        "/tournaments/99999999999999999999/",
        "/v/x/",
        "/players/0/",
        "/games/new/?kind=../../",
        "/tournaments/1/where/?q=%00",
        "/variants/standings/nope/",
        "/variants/standings/foolsfaith/?from=2026-13-45&to=x",
    ],
)
def test_junk_urls_are_answered_without_a_server_error(client, member, path):
    client.force_login(member)
    assert client.get(path).status_code < 500


def test_a_nul_character_is_refused_with_a_message_and_changes_nothing(client, member):
    from tarotclub.players.models import Player

    client.force_login(member)
    response = client.post(reverse("games:new"), {"guest_name": "Eve\x00", "add_guest": "1"})
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()
    assert not Player.objects.exists()
