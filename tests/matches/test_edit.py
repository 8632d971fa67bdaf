"""Correcting a team match: team names, players (4 to 6, the captain first; an attacker of a
recorded quarter stays), the number of boards (before any quarter is recorded), the
bonuses; a stale screen refused; hostile input refused with a message, changing nothing."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import LogEntry
from tarotclub.matches import selectors, services
from tarotclub.matches.models import Member, Result, TeamMatch
from tarotclub.players.services import player_create
from tests.tournaments.test_concurrency import together

from .helpers import make_match

pytestmark = pytest.mark.django_db


def _current(match, **changes) -> dict:
    """What the match is now, as `match_edit` takes it, with `changes`."""
    sheet = selectors.match_sheet(match)
    data = {
        "name": match.name,
        "date": match.date,
        "boards": match.boards,
        "a_name": match.a_name,
        "b_name": match.b_name,
        "a_players": list(sheet.teams["A"]),
        "b_players": list(sheet.teams["B"]),
        "a_bonus": match.a_bonus,
        "b_bonus": match.b_bonus,
        "expected_revision": match.revision,
    }
    data.update(changes)
    return data


def _members(match, team):
    return [m.player.name for m in Member.objects.filter(match=match, team=team).order_by("order")]


def test_names_bonuses_and_date_are_corrected_and_logged():
    match, _sample, _people = make_match(quarters=1)
    edited = services.match_edit(
        match=match,
        **_current(
            match,
            name="Lille – Gent (final)",
            date=dt.date(2026, 12, 6),
            a_name="Lille TC",
            b_bonus="1,5".replace(",", "."),
        ),
    )
    match.refresh_from_db()
    assert (match.name, match.a_name, match.b_bonus, match.revision) == (
        "Lille – Gent (final)",
        "Lille TC",
        Decimal("1.500"),
        1,
    )
    assert edited.revision == 1
    entry = LogEntry.objects.filter(action="match.edited").get()
    assert entry.before["teams"]["A"]["name"] == "Lille"
    assert entry.after["teams"]["A"]["name"] == "Lille TC"
    assert (entry.before["name"], entry.after["date"]) == ("Lille – Gent", "2026-12-06")
    assert (entry.before["teams"]["B"]["bonus"], entry.after["teams"]["B"]["bonus"]) == (
        "0.000",
        "1.500",
    )
    # the recorded quarter is untouched
    assert selectors.match_sheet(match).data.quarters[0].boards[2].a_score == 148


def test_players_are_added_replaced_and_reordered_keeping_the_attackers():
    match, sample, people = make_match(quarters=1)
    q = sample.quarters[0]
    a = list(selectors.match_sheet(match).teams["A"])
    new = player_create(name="Zoé Nouvelle")
    others = [p for p in a if p.name != q.a_attacker]
    # the attacker of quarter 1 moves down, a defender is replaced, a sixth player comes in
    team = [others[1], people[q.a_attacker], new, *others[2:]]
    if len(team) < 6:
        team.append(player_create(name="Yves Sixième"))
    services.match_edit(match=match, **_current(match, a_players=team))
    assert _members(match, "A") == [p.name for p in team]
    assert len(team) == 6 and others[0].name not in _members(match, "A")
    entry = LogEntry.objects.filter(action="match.edited").get()
    assert entry.before["teams"]["A"]["players"] == [p.pk for p in a]
    assert entry.after["teams"]["A"]["players"] == [p.pk for p in team]


def test_an_attacker_of_a_recorded_quarter_cannot_leave_the_team():
    match, sample, people = make_match(quarters=2)
    q2 = sample.quarters[1]
    a = list(selectors.match_sheet(match).teams["A"])
    b = list(selectors.match_sheet(match).teams["B"])
    attacker = people[q2.a_attacker]
    stand_in = player_create(name="Remplaçant")
    without = [stand_in if p == attacker else p for p in a]
    with pytest.raises(services.MatchError) as caught:
        services.match_edit(match=match, **_current(match, a_players=without))
    assert caught.value.messages == [
        f"{attacker.name} attacked for Lille in quarter 2, which is recorded: keep them in "
        "the team, or correct that quarter's attacker first."
    ]
    # nor move to the other team
    moved_b = [*b[:3], attacker]
    with pytest.raises(services.MatchError):
        services.match_edit(match=match, **_current(match, a_players=without, b_players=moved_b))
    assert _members(match, "A") == [p.name for p in a]
    assert not LogEntry.objects.filter(action="match.edited").exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"a_players": "few"}, services.ERR_TEAM_SIZE),
        ({"name": "  "}, services.ERR_NAME),
        ({"date": "2026-12-05"}, services.ERR_DATE),
        ({"boards": 18}, services.ERR_BOARDS),
        ({"boards": True}, services.ERR_BOARDS),
        ({"b_name": "LILLE"}, services.ERR_TEAM_NAME),
        ({"a_bonus": "-1"}, services.ERR_BONUS),
        ({"a_bonus": 1.5}, services.ERR_BONUS),
        ({"a_bonus": "1.2345"}, services.ERR_BONUS),
        ({"expected_revision": "0"}, services.ERR_STALE),
        ({"expected_revision": True}, services.ERR_STALE),
    ],
)
def test_bad_corrections_are_refused_and_change_nothing(changes, message):
    match, _sample, _people = make_match(quarters=0)
    data = _current(match, **changes)
    if changes.get("a_players") == "few":
        data["a_players"] = data["a_players"][:3]
    with pytest.raises(services.MatchError) as caught:
        services.match_edit(match=match, **data)
    assert caught.value.messages[0].startswith(str(message).split("%(")[0])
    match.refresh_from_db()
    assert match.revision == 0 and match.name == "Lille – Gent"
    assert not LogEntry.objects.filter(action="match.edited").exists()


def test_team_sizes_and_players_are_checked():
    match, _sample, _people = make_match(quarters=0)
    data = _current(match)
    count = Member.objects.filter(match=match).count()
    extra = [player_create(name=f"P{i}") for i in range(3)]
    for team, message in (
        ([*data["a_players"], *extra], services.ERR_TEAM_SIZE),  # 7
        ([*data["a_players"][:3], data["b_players"][0]], services.ERR_TWICE),
        ([*data["a_players"][:3], 99999999], services.ERR_PLAYER),
        ([*data["a_players"][:3], "1"], services.ERR_PLAYER),
    ):
        with pytest.raises(services.MatchError) as caught:
            services.match_edit(match=match, **{**data, "a_players": team})
        assert caught.value.messages == [str(message)]
    assert Member.objects.filter(match=match).count() == count


def test_the_boards_change_only_before_any_quarter_is_recorded():
    match, sample, people = make_match(quarters=0)
    services.match_edit(match=match, **_current(match, boards=20))
    match.refresh_from_db()
    assert match.boards == 20 and list(match.quarter_boards(2)) == [6, 7, 8, 9, 10]
    services.match_edit(match=match, **_current(match, boards=16))
    match.refresh_from_db()
    from .helpers import enter

    enter(match, sample.quarters[0], "B", people)  # one team's side of quarter 1
    with pytest.raises(services.MatchError) as caught:
        services.match_edit(match=match, **_current(match, boards=24))
    assert caught.value.messages == [str(services.ERR_BOARDS_RECORDED)]
    match.refresh_from_db()
    assert match.boards == 16


def test_a_stale_screen_is_refused_but_a_double_submit_is_not():
    match, _sample, _people = make_match(quarters=0)
    opened = _current(match)
    services.match_edit(match=match, **{**opened, "a_name": "Lille TC"})
    logged = LogEntry.objects.count()
    # the same again from the same screen: already so, nothing changes, nothing is logged
    services.match_edit(match=match, **{**opened, "a_name": "Lille TC"})
    assert LogEntry.objects.count() == logged
    # another change from the old screen: refused
    with pytest.raises(services.MatchError) as caught:
        services.match_edit(match=match, **{**opened, "b_name": "Gand"})
    assert caught.value.code == "stale"
    match.refresh_from_db()
    assert (match.a_name, match.b_name, match.revision) == ("Lille TC", "Gent", 1)


def test_only_a_director_corrects(member):
    match, _sample, _people = make_match(quarters=0)
    with pytest.raises(services.MatchError) as caught:
        services.match_edit(match=match, **_current(match, name="x"), user=member)
    assert caught.value.messages == [str(services.ERR_DIRECTOR)]


# --- the page ---------------------------------------------------------------------------


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def _edit_post(match, **overrides) -> dict:
    sheet = selectors.match_sheet(match)
    data = {
        "name": match.name,
        "date": match.date.isoformat(),
        "boards": str(match.boards),
        "a_name": match.a_name,
        "b_name": match.b_name,
        "a_bonus": str(match.a_bonus),
        "b_bonus": str(match.b_bonus),
        "revision": str(match.revision),
    }
    for t in "AB":
        for i, p in enumerate(sheet.teams[t], start=1):
            data[f"{t.lower()}_{i}"] = str(p.pk)
    data.update(overrides)
    return data


def test_the_page_opens_filled_in_and_saves(director_client):
    match, sample, _people = make_match(quarters=1)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    page = director_client.get(url).content.decode()
    assert 'name="a_name"' in page and 'value="Lille"' in page
    assert 'name="revision" value="0"' in page
    response = director_client.post(url, _edit_post(match, b_bonus="2,25", a_name="Lille TC"))
    assert response.status_code == 302
    assert response.url == reverse("matches:results", kwargs={"pk": match.pk})
    match.refresh_from_db()
    assert (match.a_name, match.b_bonus) == ("Lille TC", Decimal("2.250"))
    results = director_client.get(response.url).content.decode()
    assert "The team match is corrected." in results and "Lille TC" in results


def test_a_member_who_left_the_roster_is_still_offered(director_client):
    from tarotclub.players.models import Player

    match, _sample, _people = make_match(quarters=0)
    captain = selectors.match_sheet(match).teams["A"][0]
    Player.objects.filter(pk=captain.pk).update(active=False)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    assert f'<option value="{captain.pk}" selected>' in director_client.get(url).content.decode()
    assert director_client.post(url, _edit_post(match, name="Renamed")).status_code == 302


@pytest.mark.parametrize(
    ("overrides", "text"),
    [
        ({"revision": "x"}, "This page was damaged on the way"),
        ({"revision": ""}, "This page was damaged on the way"),
        ({"revision": "-1"}, "This page was damaged on the way"),
        ({"revision": "9" * 5000}, "This page was damaged on the way"),
        ({"a_4": ""}, "4 to 6 players"),
        ({"a_2": "abc"}, "Choose a player from the list."),
        ({"boards": "17"}, "17"),
        ({"a_bonus": "1e3"}, "3 decimals"),
        ({"b_name": "lille"}, "two different names"),
        ({"date": "2026-02-30"}, "date"),
        ({"name": "x" * 5000}, "120"),
    ],
)
def test_hostile_corrections_on_the_page_change_nothing(director_client, overrides, text):
    match, _sample, _people = make_match(quarters=1)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    response = director_client.post(url, _edit_post(match, **overrides))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'role="alert"' in page and text in page
    match.refresh_from_db()
    assert match.revision == 0 and match.name == "Lille – Gent"
    assert not LogEntry.objects.filter(action="match.edited").exists()


def test_removing_an_attacker_on_the_page_says_why(director_client):
    match, sample, people = make_match(quarters=1)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    attacker = people[sample.quarters[0].b_attacker]
    index = [p.pk for p in selectors.match_sheet(match).teams["B"]].index(attacker.pk) + 1
    stand_in = player_create(name="Remplaçant")
    page = director_client.post(url, _edit_post(match, **{f"b_{index}": str(stand_in.pk)}))
    assert "attacked for Gent in quarter 1, which is recorded" in page.content.decode()


def test_a_second_screen_sees_the_newer_version(director_client):
    match, _sample, _people = make_match(quarters=0)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    old = _edit_post(match)
    assert director_client.post(url, {**old, "a_name": "Lille TC"}).status_code == 302
    response = director_client.post(url, {**old, "b_name": "Gand"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Somebody else changed this team match since you opened it." in page
    assert 'value="Lille TC"' in page and 'name="revision" value="1"' in page
    match.refresh_from_db()
    assert match.b_name == "Gent"


def test_the_edit_page_is_for_directors(member_client):
    match, _sample, _people = make_match(quarters=0)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    assert Client().get(url).status_code == 302
    assert member_client.get(url).status_code == 403
    assert member_client.post(url, {"name": "x"}).status_code == 403
    assert Client().get(reverse("matches:edit", kwargs={"pk": 999999})).status_code == 302


def test_an_unknown_match_is_a_404_for_a_director(director_client):
    assert director_client.get(reverse("matches:edit", kwargs={"pk": 999999})).status_code == 404


@pytest.mark.parametrize("quarters", [0, 4])
def test_the_edit_page_keeps_its_queries(director_client, django_assert_num_queries, quarters):
    match, _sample, _people = make_match(quarters=quarters)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    # session, user, the match, its members with their players, its quarters, their results,
    # the roster
    with django_assert_num_queries(7):
        director_client.get(url)


# --- two directors at once ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("run", range(3))
def test_two_directors_correcting_at_once_do_not_overwrite_each_other(director, run):
    match, _sample, _people = make_match(quarters=1)
    url = reverse("matches:edit", kwargs={"pk": match.pk})
    old = _edit_post(match)
    a, b = Client(raise_request_exception=False), Client(raise_request_exception=False)
    a.force_login(director)
    b.force_login(director)
    responses = together(
        lambda: a.post(url, {**old, "a_name": "Lille TC"}),
        lambda: b.post(url, {**old, "b_bonus": "3"}),
    )
    assert sorted(r.status_code for r in responses) == [200, 302]
    match = TeamMatch.objects.get()
    assert match.revision == 1
    assert (match.a_name == "Lille TC") != (match.b_bonus == Decimal("3.000"))
    assert LogEntry.objects.filter(action="match.edited").count() == 1
    refused = next(r for r in responses if r.status_code == 200)
    assert "Somebody else changed this team match" in refused.content.decode()


def test_a_quarter_entered_for_the_old_number_of_boards_is_refused():
    match, sample, people = make_match(quarters=0)
    opened = TeamMatch.objects.get(pk=match.pk)  # the quarter page read 16 boards
    services.match_edit(match=match, **_current(match, boards=20))
    from .helpers import enter

    with pytest.raises(services.MatchError) as caught:
        enter(opened, sample.quarters[0], "A", people)
    assert "this quarter now has boards 1 to 5" in caught.value.messages[0]
    assert not Result.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("run", range(3))
def test_removing_a_player_while_he_is_recorded_as_attacker(director, run):
    """A correction taking a player out of team A, and team A's captain naming him attacker
    of quarter 1, at once: one of them wins, never both."""
    match, sample, people = make_match(quarters=0)
    q = sample.quarters[0]
    attacker = people[q.a_attacker]
    team = list(selectors.match_sheet(match).teams["A"])
    stand_in = player_create(name="Remplaçant")
    edit = _edit_post(match)
    edit[f"a_{team.index(attacker) + 1}"] = str(stand_in.pk)
    from .test_views import _quarter_post

    record = _quarter_post(q, "A", people)
    a, b = Client(raise_request_exception=False), Client(raise_request_exception=False)
    a.force_login(director)
    b.force_login(director)
    quarter_url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    responses = together(
        lambda: a.post(reverse("matches:edit", kwargs={"pk": match.pk}), edit),
        lambda: b.post(quarter_url, record),
    )
    assert sorted(r.status_code for r in responses) == [200, 302]
    members = set(Member.objects.filter(match=match, team="A").values_list("player", flat=True))
    recorded = Result.objects.filter(team="A").exists()
    assert recorded == (attacker.pk in members)
    assert recorded != (stand_in.pk in members)
