"""Two captains' phones at once, and a double tap: real threads on a real database, through
the quarter page (run on SQLite by default and on PostgreSQL with DATABASE_URL)."""

from __future__ import annotations

import os

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.matches import selectors
from tarotclub.matches.models import Quarter, Result
from tests.tournaments.test_concurrency import together

from .helpers import make_match
from .test_views import _quarter_post

pytestmark = pytest.mark.django_db(transaction=True)
REPEAT = int(os.environ.get("TAROTCLUB_RACE_REPEAT", "4"))


def _client(director) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(director)
    return client


@pytest.mark.parametrize("run", range(REPEAT))
def test_two_captains_enter_the_same_quarter_at_once(director, run):
    match, sample, people = make_match(quarters=0)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    q = sample.quarters[0]
    a, b = _client(director), _client(director)
    responses = together(
        lambda: a.post(url, _quarter_post(q, "A", people)),
        lambda: b.post(url, _quarter_post(q, "B", people)),
    )
    assert [r.status_code for r in responses] == [302, 302]
    assert Quarter.objects.count() == 1 and Result.objects.count() == 8
    sheet = selectors.match_sheet(match)
    assert sheet.data.quarters == sample.quarters[:1]


@pytest.mark.parametrize("run", range(REPEAT))
def test_a_double_tap_records_the_quarter_once(director, run):
    match, sample, people = make_match(quarters=0)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    data = _quarter_post(sample.quarters[0], "A", people)
    logged = LogEntry.objects.count()
    client = _client(director)
    responses = together(lambda: client.post(url, data), lambda: client.post(url, data))
    assert [r.status_code for r in responses] == [302, 302]
    assert Quarter.objects.count() == 1 and Result.objects.count() == 4
    assert LogEntry.objects.count() == logged + 1


@pytest.mark.parametrize("run", range(REPEAT))
def test_one_attacker_for_two_quarters_at_once_is_refused_once(director, run):
    match, sample, people = make_match(quarters=0)
    data = {}
    for number in (1, 3):
        data[number] = _quarter_post(sample.quarters[number - 1], "A", people)
        data[number]["a-attacker"] = str(people[sample.a_players[0]].pk)
    a, b = _client(director), _client(director)
    url = lambda n: reverse("matches:quarter", kwargs={"pk": match.pk, "number": n})  # noqa: E731
    responses = together(lambda: a.post(url(1), data[1]), lambda: b.post(url(3), data[3]))
    assert sorted(r.status_code for r in responses) == [200, 302]
    assert Quarter.objects.count() == 1
