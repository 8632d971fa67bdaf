"""The season's pages: public standings, projector and downloads; directors define seasons."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tarotclub.core.models import LogEntry
from tarotclub.seasons import selectors, services
from tarotclub.seasons.models import Season

from .helpers import roster, tournament

pytestmark = pytest.mark.django_db

JAN, DEC = dt.date(2026, 1, 1), dt.date(2026, 12, 31)


@pytest.fixture
def built():
    players = roster(8, "Joueur")
    t1 = tournament(players, dt.date(2026, 2, 6), shift=1)
    t2 = tournament(players[:4], dt.date(2026, 3, 6), shift=4)
    season = services.season_create(
        name="Championnat 2026", start=JAN, end=DEC, formula="places", best_n=1,
        tournaments=[t1, t2],
    )  # fmt: skip
    return season, [t1, t2], players


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def test_standings_page_shows_one_column_per_evening_and_links_each_tournament(client, built):
    season, (t1, t2), players = built
    response = client.get(reverse("seasons:standings", args=[season.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    for t in (t1, t2):
        assert reverse("tournaments:standings", args=[t.pk]) in html
    grid = str(response.context["grid"])
    assert grid.count('<th scope="col"') == 4 + 2
    assert "more evenings won" in html
    standings = selectors.season_standings(season)
    assert grid.count("<tr>") - 1 == len(standings.lines) == 8
    for line in standings.lines:
        assert line.name in grid


def test_names_are_escaped(client, built):
    season, _, players = built
    players[0].name = "<b>Bold</b> & co"
    players[0].save()
    html = client.get(reverse("seasons:standings", args=[season.pk])).content.decode()
    assert "&lt;b&gt;Bold&lt;/b&gt; &amp; co" in html and "<b>Bold" not in html


def test_projector_pages(client, built):
    season, _, _ = built
    assert client.get(reverse("seasons:projector", args=[season.pk])).status_code == 200
    screen = client.get(reverse("seasons:projector_screen", args=[season.pk]) + "?page=x")
    assert screen.status_code == 200 and b"Joueur" in screen.content


def test_csv_has_one_column_per_evening_and_the_season_figures(client, built):
    season, tournaments, _ = built
    response = client.get(reverse("seasons:export", args=[season.pk, "csv"]))
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows[0]) == 5 + len(tournaments)
    standings = selectors.season_standings(season)
    assert [int(r[2]) for r in rows[1:]] == [int(line.value) for line in standings.lines]
    assert client.get(reverse("seasons:export", args=[season.pk, "xlsx"])).status_code == 200
    assert client.get(reverse("seasons:export", args=[season.pk, "ods"])).status_code == 404


def test_pdf(client, built):
    season, _, _ = built
    response = client.get(reverse("seasons:pdf", args=[season.pk]))
    assert response.status_code == 200
    assert response.content.startswith(b"%PDF")
    assert response["Content-Disposition"].endswith('.pdf"')


def test_list(client, built):
    season, _, _ = built
    response = client.get(reverse("seasons:list"))
    assert season.name.encode() in response.content


@pytest.mark.parametrize("name", ["seasons:new", "seasons:edit", "seasons:delete"])
def test_only_directors_define_seasons(client, member, built, name):
    season, _, _ = built
    url = reverse(name) if name == "seasons:new" else reverse(name, args=[season.pk])
    assert client.get(url).status_code == 302  # log in first
    client.force_login(member)
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "x"}).status_code == 403
    assert Season.objects.get().name == "Championnat 2026"


def form(**kwargs):
    data = {"name": "Saison", "start": "2026-01-01", "end": "2026-12-31", "formula": "total",
            "points": "25, 20, 16", "min_attendance": "1"}  # fmt: skip
    data.update(kwargs)
    return data


def test_director_creates_a_season(director_client, built):
    _, (t1, _t2), _ = built
    response = director_client.post(reverse("seasons:new"), form(tournaments=[t1.pk]))
    season = Season.objects.get(name="Saison")
    assert response.status_code == 302
    assert response["Location"] == reverse("seasons:standings", args=[season.pk])
    assert list(season.tournaments.all()) == [t1]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"end": "2025-01-01"}, services.ERR_DATES),
        ({"formula": "best", "best_n": ""}, services.ERR_BEST_N),
        ({"formula": "places", "points": "1, 2, 3"}, services.ERR_POINTS),
        ({"start": "2026-03-01"}, services.ERR_OUTSIDE),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(director_client, built, data, message):
    _, (t1, _t2), _ = built
    before = LogEntry.objects.count()
    response = director_client.post(reverse("seasons:new"), form(tournaments=[t1.pk], **data))
    assert response.status_code == 200
    shown = escape(str(message).split("%(")[0])
    assert shown in response.content.decode()
    assert Season.objects.count() == 1 and LogEntry.objects.count() == before


def test_junk_input_is_a_form_error_never_a_500(director_client, built):
    response = director_client.post(
        reverse("seasons:new"), form(start="٢٠٢٦-١١-٢٩", best_n="1e9", tournaments=["x"])
    )
    assert response.status_code == 200
    assert Season.objects.count() == 1


def test_director_changes_then_deletes(director_client, built):
    season, (t1, t2), _ = built
    response = director_client.post(
        reverse("seasons:edit", args=[season.pk]),
        form(name="Renamed", formula="average", min_attendance="2", tournaments=[t1.pk, t2.pk]),
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.formula, season.min_attendance) == ("Renamed", "average", 2)
    page = director_client.get(reverse("seasons:standings", args=[season.pk])).content.decode()
    assert "unranked" in page
    assert director_client.get(reverse("seasons:delete", args=[season.pk])).status_code == 200
    response = director_client.post(reverse("seasons:delete", args=[season.pk]))
    assert response.status_code == 302 and not Season.objects.exists()


def test_the_edit_form_shows_the_season(director_client, built):
    season, _, _ = built
    html = director_client.get(reverse("seasons:edit", args=[season.pk])).content.decode()
    assert 'value="Championnat 2026"' in html


def test_standings_page_queries_are_constant(client, built):
    season, tournaments, players = built
    url = reverse("seasons:standings", args=[season.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    more = [tournament(players, dt.date(2026, 4, d), shift=d) for d in range(1, 4)]
    season.tournaments.add(*more)
    with CaptureQueriesContext(connection) as big:
        client.get(url)
    assert len(big.captured_queries) == len(small.captured_queries)


def test_the_history_page_lists_the_seasons_changes(director_client, built):
    season, _, _ = built
    director_client.post(reverse("seasons:delete", args=[season.pk]))
    html = director_client.get(reverse("history")).content.decode()
    assert "season created" in html and "season deleted" in html
    assert "Championnat 2026" in html
