"""Every write to a season: keyword-only, validated, atomic, and logged in the history.

Only directors define seasons. `user=None` is the command line (the demo club, a script);
an account that is not a director is refused, as the pages refuse it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring import season as rules
from tarotclub.core.errors import Refused
from tarotclub.core.models import log_action
from tarotclub.games import policy
from tarotclub.tournaments.models import Tournament

from .history import CREATED, DELETED, UPDATED
from .models import TAROT, Formula, Season
from .selectors import season_kinds

MAX_N = 100

ERR_DIRECTOR = _("Only a director can define a season.")
ERR_NAME = _("Give the season a name.")
ERR_DATES = _("The season cannot end before it starts.")
ERR_FORMULA = _("Choose a ranking formula.")
ERR_BEST_N = _("Say how many evenings count: a number from 1 to %(max)s.")
ERR_POINTS = _(
    "Write the points by place as whole numbers from the first place down, separated by "
    "commas, never more for a lower place (for example 25, 20, 16, 13)."
)
ERR_MIN_ATTENDANCE = _("The minimum attendance is a number of evenings from 1 to %(max)s.")
ERR_KIND = _("Choose the game the season counts.")
ERR_KIND_TOURNAMENTS = _(
    "Tournaments are French Tarot only: a season of %(game)s counts the casual games played "
    "within its dates. Choose French Tarot, or leave the tournaments unticked."
)
ERR_OUTSIDE = _("These tournaments are not within the season's dates: %(names)s.")


class SeasonError(Refused):
    pass


def _check_director(user) -> None:
    if user is not None and not policy.is_director(user):
        raise SeasonError(ERR_DIRECTOR)


def _points(points) -> list[int]:
    text = points if isinstance(points, str) else ",".join(str(p) for p in points or [])
    try:
        values = rules.parse_points(text)
    except ValueError:
        raise SeasonError(ERR_POINTS) from None
    if len(values) > MAX_N:
        raise SeasonError(ERR_POINTS)
    return list(values)


def _clean(
    *,
    name: str,
    start: dt.date,
    end: dt.date,
    formula: str,
    best_n: int | None,
    points,
    min_attendance: int | None,
    tournaments: Iterable[Tournament],
    kind: str = TAROT,
    include_casual: bool = False,
) -> dict:
    game = next((k for k in season_kinds() if k.identifier == kind), None)
    if game is None:
        raise SeasonError(ERR_KIND)
    name = " ".join((name or "").split())[:120]
    if not name:
        raise SeasonError(ERR_NAME)
    if start is None or end is None or end < start:
        raise SeasonError(ERR_DATES)
    if formula not in Formula.values:
        raise SeasonError(ERR_FORMULA)
    if formula == Formula.BEST or (formula == Formula.PLACES and best_n is not None):
        if best_n is None or not 1 <= best_n <= MAX_N:
            raise SeasonError(ERR_BEST_N, params={"max": MAX_N})
    else:
        best_n = None
    points = _points(points if points not in (None, "", []) else rules.DEFAULT_POINTS)
    if formula == Formula.AVERAGE:
        if min_attendance is None or not 1 <= min_attendance <= MAX_N:
            raise SeasonError(ERR_MIN_ATTENDANCE, params={"max": MAX_N})
    else:
        min_attendance = 1
    tournaments = list(tournaments or [])
    if kind != TAROT:
        if tournaments:
            raise SeasonError(ERR_KIND_TOURNAMENTS, params={"game": game.verbose_name})
        include_casual = True  # its casual games are all a season of another kind counts
    outside = [t for t in tournaments if not start <= t.date <= end]
    if outside:
        raise SeasonError(ERR_OUTSIDE, params={"names": ", ".join(sorted(t.name for t in outside))})
    return {
        "name": name,
        "start": start,
        "end": end,
        "formula": formula,
        "best_n": best_n,
        "points": points,
        "min_attendance": min_attendance,
        "tournaments": tournaments,
        "kind": kind,
        "include_casual": bool(include_casual),
    }


def _snapshot(season: Season, tournaments: list[Tournament]) -> dict:
    return {
        "name": season.name,
        "kind": season.kind,
        "start": season.start.isoformat(),
        "end": season.end.isoformat(),
        "formula": season.formula,
        "best_n": season.best_n,
        "points": list(season.points),
        "min_attendance": season.min_attendance,
        "include_casual": season.include_casual,
        "tournaments": sorted(t.pk for t in tournaments),
    }


def season_create(
    *,
    name: str,
    start: dt.date,
    end: dt.date,
    formula: str = Formula.TOTAL,
    best_n: int | None = None,
    points=None,
    min_attendance: int | None = 1,
    include_casual: bool = False,
    tournaments: Iterable[Tournament] = (),
    kind: str = TAROT,
    user=None,
) -> Season:
    _check_director(user)
    data = _clean(
        name=name,
        start=start,
        end=end,
        formula=formula,
        best_n=best_n,
        points=points,
        min_attendance=min_attendance,
        tournaments=tournaments,
        kind=kind,
        include_casual=include_casual,
    )
    chosen = data.pop("tournaments")
    with transaction.atomic():
        season = Season.objects.create(
            **data,
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
        season.tournaments.set(chosen)
        log_action(season, CREATED, user=user, after=_snapshot(season, chosen))
    return season


def season_update(
    *,
    season: Season,
    name: str,
    start: dt.date,
    end: dt.date,
    formula: str,
    best_n: int | None = None,
    points=None,
    min_attendance: int | None = 1,
    include_casual: bool = False,
    tournaments: Iterable[Tournament] = (),
    kind: str | None = None,
    user=None,
) -> Season:
    _check_director(user)
    kind = season.kind if kind is None else kind  # unsaid: the season keeps its game
    data = _clean(
        name=name,
        start=start,
        end=end,
        formula=formula,
        best_n=best_n,
        points=points,
        min_attendance=min_attendance,
        tournaments=tournaments,
        kind=kind,
        include_casual=include_casual,
    )
    chosen = data.pop("tournaments")
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        before = _snapshot(season, list(season.tournaments.all()))
        for field, value in data.items():
            setattr(season, field, value)
        season.save()
        season.tournaments.set(chosen)
        log_action(season, UPDATED, user=user, before=before, after=_snapshot(season, chosen))
    return season


def season_delete(*, season: Season, user=None) -> None:
    _check_director(user)
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season.pk)
        log_action(
            season, DELETED, user=user, before=_snapshot(season, list(season.tournaments.all()))
        )
        season.delete()
