import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from tarotclub.core.models import LogEntry
from tarotclub.matches import selectors, services
from tarotclub.matches.models import Member, Quarter, Result, TeamMatch
from tarotclub.players.services import player_create
from tarotclub.reports import duplicate as docs

from .helpers import make_match

pytestmark = pytest.mark.django_db


def test_the_worked_quarter_through_the_services():
    match, sample, _people = make_match(quarters=1)
    sheet = selectors.match_sheet(match)
    assert [q.number for q in sheet.data.quarters] == [1]
    assert docs.team_match_totals(sheet.data) == (Decimal("8.602"), Decimal("17.559"))
    (quarter,) = docs.team_match_context(match=sheet.data, event=docs.Event("x", "y"))["quarters"]
    assert [(x.diff, x.a_pm, x.b_pm) for x in quarter.lines] == [
        ("\u221250", "0.000", "7.071"),
        ("\u2212110", "0.000", "10.488"),
        ("+74", "8.602", "0.000"),
        ("0", "0.000", "0.000"),
    ]
    assert quarter.closed_room.startswith("Anne Dupont (Lille)")


def test_the_whole_match_adds_up_like_the_sample():
    match, sample, _people = make_match()
    sheet = selectors.match_sheet(match)
    assert sheet.complete
    assert sheet.data == sample
    assert docs.team_match_totals(sheet.data) == docs.team_match_totals(sample)


def test_the_bonus_counts_in_the_total():
    match, _sample, _people = make_match(quarters=1)
    TeamMatch.objects.filter(pk=match.pk).update(a_bonus=Decimal("9.000"))
    match.refresh_from_db()
    sheet = selectors.match_sheet(match)
    assert docs.team_match_totals(sheet.data) == (Decimal("17.602"), Decimal("17.559"))


def test_creating_and_recording_log_history():
    match, _sample, _people = make_match(quarters=1)
    actions = list(
        LogEntry.objects.for_object(match).order_by("pk").values_list("action", flat=True)
    )
    assert actions == ["match.created", "match.quarter_recorded", "match.quarter_recorded"]
    last = LogEntry.objects.for_object(match).order_by("pk").last()
    assert last.before == {"quarter": 1, "team": "B"}
    assert last.after["results"][2] == [3, "garde", 74]


def test_a_double_submit_changes_nothing_and_logs_nothing():
    match, sample, people = make_match(quarters=1)
    from .helpers import enter

    before = (Result.objects.count(), LogEntry.objects.count())
    enter(match, sample.quarters[0], "A", people)
    assert (Result.objects.count(), LogEntry.objects.count()) == before


def test_a_correction_replaces_the_teams_side_and_logs_before_and_after():
    match, sample, people = make_match(quarters=1)
    q = sample.quarters[0]
    services.quarter_record(
        match=match,
        number=1,
        team="A",
        attacker=people[q.a_attacker],
        closed="B",
        results=[("garde", 66), ("garde", -58), ("garde_sans", 148), ("garde", 50)],
    )
    assert Result.objects.filter(team="A").count() == 4
    assert Quarter.objects.get().closed == "B"
    entry = LogEntry.objects.order_by("pk").last()
    assert entry.before["results"][1] == [2, "garde_contre", -168]
    assert entry.after["results"][1] == [2, "garde", -58]
    assert (entry.before["closed"], entry.after["closed"]) == ("A", "B")


def _players(n, prefix):
    return [player_create(name=f"{prefix} {i}") for i in range(n)]


def _create(**overrides):
    a = overrides.pop("a_players") if "a_players" in overrides else _players(4, "A")
    b = overrides.pop("b_players") if "b_players" in overrides else _players(4, "B")
    data = {
        "name": "Match",
        "date": dt.date(2026, 12, 1),
        "boards": 16,
        "a_name": "Lille",
        "b_name": "Gent",
        "a_players": a,
        "b_players": b,
        **overrides,
    }
    return services.match_create(**data)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("boards", 12, services.ERR_BOARDS),
        ("boards", 18, services.ERR_BOARDS),
        ("boards", 28, services.ERR_BOARDS),
        ("boards", True, services.ERR_BOARDS),
        ("boards", "16", services.ERR_BOARDS),
        ("name", "   ", services.ERR_NAME),
        ("date", "2026-12-01", services.ERR_DATE),
        ("b_name", "LILLE", services.ERR_TEAM_NAME),
        ("a_name", "", services.ERR_TEAM_NAME),
        ("a_bonus", Decimal("-1"), services.ERR_BONUS),
        ("a_bonus", Decimal("1.2345"), services.ERR_BONUS),
        ("a_bonus", Decimal("NaN"), services.ERR_BONUS),
        ("b_bonus", "1e3", services.ERR_BONUS),
        ("b_bonus", 1.5, services.ERR_BONUS),
        ("a_players", [], services.ERR_TEAM_SIZE),
        ("a_players", ["x", 1, 2, 3], services.ERR_PLAYER),
        ("a_players", [10**9, 10**9 + 1, 10**9 + 2, 10**9 + 3], services.ERR_PLAYER),
    ],
)
def test_a_bad_match_is_refused_and_nothing_is_made(field, value, message):
    a, b = _players(4, "A"), _players(4, "B")
    logged = LogEntry.objects.count()
    with pytest.raises(ValidationError) as e:
        _create(**{"a_players": a, "b_players": b, field: value})
    assert e.value.message == message
    assert not TeamMatch.objects.exists() and not Member.objects.exists()
    assert LogEntry.objects.count() == logged


def test_team_sizes_and_players_in_one_team_only():
    a = _players(7, "A")
    b = _players(4, "B")
    for players, message in [
        (a[:3], services.ERR_TEAM_SIZE),
        (a, services.ERR_TEAM_SIZE),
        (a[:3] + b[:1], services.ERR_TWICE),
    ]:
        with pytest.raises(ValidationError) as e:
            _create(a_players=players, b_players=b)
        assert e.value.message == message
    with pytest.raises(ValidationError) as e:
        _create(a_players=a[:3] + a[:1], b_players=b)
    assert e.value.message == services.ERR_TWICE  # a repeated player inside a team
    match = _create(a_players=a[:6], b_players=b, boards=24, a_bonus="1.5")
    assert match.a_bonus == Decimal("1.500") and match.per_quarter == 6
    captains = Member.objects.filter(match=match, order=0).order_by("team")
    assert [m.player for m in captains] == [a[0], b[0]]


def test_only_a_director_writes(django_user_model):
    member = django_user_model.objects.create_user(username="m", password="pw-member-1")
    with pytest.raises(ValidationError) as e:
        _create(user=member)
    assert e.value.message == services.ERR_DIRECTOR


@pytest.fixture
def small():
    match = _create()
    a = [m.player for m in match.members.filter(team="A")]
    b = [m.player for m in match.members.filter(team="B")]
    return match, a, b


GOOD = [("garde", 66), ("garde_sans", -116), ("garde_contre", 0), ("garde", 50)]


def _record(match, **kw):
    data = {"number": 1, "team": "A", "closed": "A", "results": GOOD, **kw}
    return services.quarter_record(match=match, **data)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"number": 0}, services.ERR_QUARTER),
        ({"number": 5}, services.ERR_QUARTER),
        ({"number": "1"}, services.ERR_QUARTER),
        ({"team": "C"}, services.ERR_WHICH_TEAM),
        ({"closed": None}, services.ERR_ROOMS),
        ({"closed": "X"}, services.ERR_ROOMS),
        ({"team": "B", "closed": "A"}, services.ERR_ROOMS_NOT_YOURS),
        ({"results": GOOD[:3]}, services.ERR_RESULTS),
        ({"results": GOOD + GOOD[:1]}, services.ERR_RESULTS),
        ({"results": [None, *GOOD[1:]]}, services.ERR_RESULTS),
        ({"results": [("prise", 40), *GOOD[1:]]}, services.ERR_CONTRACT),
        ({"results": [("pass", 0), *GOOD[1:]]}, services.ERR_CONTRACT),
        ({"results": [("garde", 67), *GOOD[1:]]}, services.ERR_SCORE),
        ({"results": [("garde", 1202), *GOOD[1:]]}, services.ERR_SCORE),
        ({"results": [("garde", "66"), *GOOD[1:]]}, services.ERR_SCORE),
        ({"results": [("garde", 66.0), *GOOD[1:]]}, services.ERR_SCORE),
        ({"results": [("garde", True), *GOOD[1:]]}, services.ERR_SCORE),
    ],
)
def test_a_bad_quarter_is_refused_and_changes_nothing(small, overrides, message):
    match, a, b = small
    attacker = b[0] if overrides.get("team") == "B" else a[0]
    logged = LogEntry.objects.count()
    with pytest.raises(ValidationError) as e:
        _record(match, attacker=attacker, **overrides)
    assert e.value.message == message
    assert not Quarter.objects.exists() and not Result.objects.exists()
    assert LogEntry.objects.count() == logged


def test_the_attacker_is_of_the_team_and_different_in_each_quarter(small):
    match, a, b = small
    for attacker in (b[0], b[0].pk, 10**9, "1"):
        with pytest.raises(ValidationError) as e:
            _record(match, attacker=attacker)
        assert e.value.message == services.ERR_ATTACKER
    _record(match, attacker=a[0])
    with pytest.raises(ValidationError) as e:
        _record(match, attacker=a[0], number=3)
    assert e.value.messages == [services.ERR_ATTACKER_AGAIN % {"name": a[0].name, "number": 1}]
    assert not Quarter.objects.filter(number=3).exists()
    # the same attacker again in the same quarter is a correction, not a second quarter
    _record(match, attacker=a[0], results=list(reversed(GOOD)))
    _record(match, attacker=a[1], number=3)
    # quarter 2: B places the players; A may not
    with pytest.raises(ValidationError) as e:
        _record(match, attacker=a[2], number=2, closed="A")
    assert e.value.messages == [services.ERR_ROOMS_NOT_YOURS % {"number": 2, "team": "Gent"}]
    q = _record(match, attacker=a[2], number=2, closed=None)
    assert q.placed_by == "B" and q.closed == ""
    q = _record(match, attacker=b[0], number=2, team="B", closed="A")
    q.refresh_from_db()
    assert (q.a_attacker, q.b_attacker, q.closed, q.placed_by) == (a[2], b[0], "A", "B")


def test_the_two_captains_enter_the_same_quarter_one_after_the_other(small):
    """Both phones loaded the empty quarter; each hands in its own side: both are kept."""
    match, a, b = small
    stale = TeamMatch.objects.get(pk=match.pk)
    _record(match, attacker=a[0])
    services.quarter_record(
        match=stale, number=1, team="B", attacker=b[1], results=[("garde", 50)] * 4
    )
    sheet = selectors.match_sheet(match)
    assert sheet.quarters[0].complete
    assert [b.a_score for b in sheet.data.quarters[0].boards] == [s for _c, s in GOOD]
    assert [b.b_score for b in sheet.data.quarters[0].boards] == [50] * 4
    assert Quarter.objects.count() == 1
