"""Defining a season: validation, director only, atomic, and a history entry for each write."""

from __future__ import annotations

import datetime as dt

import pytest

from tarotclub.core.models import LogEntry
from tarotclub.seasons import services
from tarotclub.seasons.models import Season
from tarotclub.tournaments import services as tournaments

pytestmark = pytest.mark.django_db

JAN, DEC = dt.date(2026, 1, 1), dt.date(2026, 12, 31)


def make(**kwargs):
    data = {"name": "Saison 2026", "start": JAN, "end": DEC}
    return services.season_create(**{**data, **kwargs})


def cup(date):
    return tournaments.tournament_create(name=f"Cup {date}", date=date)


def test_create_keeps_the_settings_and_logs(director):
    t = cup(dt.date(2026, 3, 1))
    s = make(formula="places", best_n=4, points="10, 8, 6", tournaments=[t], user=director)
    s.refresh_from_db()
    assert (s.formula, s.best_n, s.points) == ("places", 4, [10, 8, 6])
    assert list(s.tournaments.all()) == [t]
    entry = LogEntry.objects.for_object(s).get()
    assert entry.action == "season.created" and entry.user == director
    assert entry.after["tournaments"] == [t.pk]


def test_default_points_table():
    assert make().points == [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "  "}, services.ERR_NAME),
        ({"end": dt.date(2025, 12, 31)}, services.ERR_DATES),
        ({"formula": "median"}, services.ERR_FORMULA),
        ({"formula": "best"}, services.ERR_BEST_N),
        ({"formula": "best", "best_n": 0}, services.ERR_BEST_N),
        ({"formula": "places", "best_n": 101}, services.ERR_BEST_N),
        ({"formula": "places", "points": "10, 12"}, services.ERR_POINTS),
        ({"formula": "places", "points": "10, -2"}, services.ERR_POINTS),
        ({"formula": "places", "points": "ten"}, services.ERR_POINTS),
        ({"formula": "average", "min_attendance": 0}, services.ERR_MIN_ATTENDANCE),
        ({"formula": "average", "min_attendance": None}, services.ERR_MIN_ATTENDANCE),
    ],
)
def test_bad_settings_are_refused_and_change_nothing(kwargs, message):
    with pytest.raises(services.SeasonError) as e:
        make(**kwargs)
    assert e.value.message == message
    assert not Season.objects.exists() and not LogEntry.objects.exists()


def test_a_tournament_outside_the_dates_is_refused():
    inside, outside = cup(dt.date(2026, 5, 1)), cup(dt.date(2027, 1, 2))
    with pytest.raises(services.SeasonError) as e:
        make(tournaments=[inside, outside])
    assert outside.name in e.value.messages[0] and inside.name not in e.value.messages[0]
    assert not Season.objects.exists()


def test_only_a_director(member):
    with pytest.raises(services.SeasonError) as e:
        make(user=member)
    assert e.value.message == services.ERR_DIRECTOR
    assert not Season.objects.exists()


def test_update_logs_before_and_after(director):
    a, b = cup(dt.date(2026, 2, 1)), cup(dt.date(2026, 4, 1))
    s = make(tournaments=[a], user=director)
    services.season_update(
        season=s, name="Saison", start=JAN, end=DEC, formula="best", best_n=3,
        tournaments=[b], include_casual=True, user=director,
    )  # fmt: skip
    s.refresh_from_db()
    assert (s.name, s.formula, s.best_n, s.include_casual) == ("Saison", "best", 3, True)
    assert list(s.tournaments.all()) == [b]
    entry = LogEntry.objects.for_object(s).filter(action="season.updated").get()
    assert entry.before["tournaments"] == [a.pk] and entry.after["tournaments"] == [b.pk]
    assert entry.before["formula"] == "total" and entry.after["best_n"] == 3


def test_a_refused_update_changes_nothing(director):
    s = make(user=director)
    with pytest.raises(services.SeasonError):
        services.season_update(season=s, name="X", start=DEC, end=JAN, formula="total")
    s.refresh_from_db()
    assert s.name == "Saison 2026"
    assert LogEntry.objects.for_object(s).count() == 1


def test_best_n_is_dropped_for_formulas_without_it():
    assert make(formula="total", best_n=5).best_n is None
    assert make(formula="places").best_n is None


def test_delete_logs_and_keeps_the_tournaments(director):
    t = cup(dt.date(2026, 6, 1))
    s = make(tournaments=[t], user=director)
    pk = s.pk
    services.season_delete(season=s, user=director)
    assert not Season.objects.filter(pk=pk).exists()
    t.refresh_from_db()
    entry = LogEntry.objects.filter(action="season.deleted", object_id=pk).get()
    assert entry.before["name"] == "Saison 2026"
