import io
from csv import reader

import pytest
from django.urls import reverse
from django.utils import translation

from tarotclub.core.models import LogEntry
from tarotclub.matches.models import Quarter, Result, TeamMatch
from tarotclub.players.services import player_create

from .helpers import make_match

pytestmark = pytest.mark.django_db
MINUS = "\u2212"


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def _new_form(a, b, **overrides):
    data = {
        "name": "Lille – Gent",
        "date": "2026-12-05",
        "boards": "16",
        "a_name": "Lille",
        "b_name": "Gent",
        "a_bonus": "0,5",
        "b_bonus": "",
    }
    data.update({f"a_{i + 1}": str(p.pk) for i, p in enumerate(a)})
    data.update({f"b_{i + 1}": str(p.pk) for i, p in enumerate(b)})
    data.update(overrides)
    return data


def _roster(n=9):
    return [player_create(name=f"Joueur {i}") for i in range(n)]


def test_a_director_creates_a_match_from_the_form(director_client):
    people = _roster()
    response = director_client.post(reverse("matches:new"), _new_form(people[:5], people[5:9]))
    match = TeamMatch.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    assert str(match.a_bonus) == "0.500"
    assert [m.player for m in match.members.filter(team="A")] == people[:5]


@pytest.mark.parametrize(
    ("overrides", "text"),
    [
        ({"boards": "18"}, "18"),
        ({"a_bonus": "1.2345"}, "3 decimals"),
        ({"a_bonus": "-1"}, "3 decimals"),
        ({"a_bonus": "١"}, "3 decimals"),
        ({"a_4": ""}, "4 to 6 players"),
        ({"a_2": "x"}, "Choose a player from the list."),
        ({"a_2": "٣"}, "Choose a player from the list."),
        ({"b_name": "lille"}, "two different names"),
        ({"date": "2026-13-45"}, "date"),
    ],
)
def test_a_bad_match_form_says_why_and_makes_nothing(director_client, overrides, text):
    people = _roster()
    response = director_client.post(
        reverse("matches:new"), _new_form(people[:4], people[4:8], **overrides)
    )
    assert response.status_code == 200
    assert text in response.content.decode()
    assert not TeamMatch.objects.exists()


def test_a_player_in_both_teams_is_refused_on_the_form(director_client):
    people = _roster()
    data = _new_form(people[:4], people[4:8], b_4=str(people[0].pk))
    response = director_client.post(reverse("matches:new"), data)
    assert "one team only" in response.content.decode()
    assert not TeamMatch.objects.exists()


def test_writes_are_for_directors(member_client):
    from django.test import Client

    client = Client()
    match, _sample, _people = make_match(quarters=0)
    quarter = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    assert client.get(reverse("matches:new")).status_code == 302  # log in first
    assert client.post(quarter, {"team": "A"}).status_code == 302
    assert member_client.get(reverse("matches:new")).status_code == 403
    assert member_client.post(quarter, {"team": "A"}).status_code == 403
    assert client.get(reverse("matches:results", kwargs={"pk": match.pk})).status_code == 200
    assert client.get(reverse("matches:list")).status_code == 200


def _quarter_post(q, team, people):
    placing = "A" if q.number % 2 else "B"
    attacker = q.a_attacker if team == "A" else q.b_attacker
    data = {"team": team, f"{team.lower()}-attacker": str(people[attacker].pk)}
    if team == placing:
        data[f"{team.lower()}-closed"] = q.closed
    for b in q.boards:
        contract, score = (b.a_contract, b.a_score) if team == "A" else (b.b_contract, b.b_score)
        p = team.lower()
        data[f"{p}-contract_{b.board}"] = contract
        data[f"{p}-result_{b.board}"] = "failed" if score < 0 else "made"
        data[f"{p}-score_{b.board}"] = str(abs(score))
    return data


def test_the_worked_quarter_through_the_page(director_client):
    match, sample, people = make_match(quarters=0)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    q = sample.quarters[0]
    page = director_client.get(url).content.decode()
    assert "Lille places the players in the rooms" in page
    assert 'name="a-closed"' in page and 'name="b-closed"' not in page
    for team in "AB":
        response = director_client.post(url, _quarter_post(q, team, people))
        assert response.status_code == 302, response.content.decode()[:2000]
    # a double submit changes nothing
    logged = LogEntry.objects.count()
    director_client.post(url, _quarter_post(q, "B", people))
    assert LogEntry.objects.count() == logged
    results = director_client.get(reverse("matches:results", kwargs={"pk": match.pk}))
    text = results.content.decode()
    for figure in ("7.071", "10.488", "8.602", "17.559", f"{MINUS}110", f"{MINUS}168"):
        assert figure in text
    assert "Gent leads; the match is not over." in text
    assert "Rooms placed by Lille." in text
    assert "-110" not in text
    with translation.override("fr"):
        fr = director_client.get(
            reverse("matches:results", kwargs={"pk": match.pk}), HTTP_ACCEPT_LANGUAGE="fr"
        )
    assert "17,559" in fr.content.decode()


def test_the_quarter_form_shows_what_is_recorded(director_client):
    match, sample, people = make_match(quarters=1)
    page = director_client.get(
        reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    ).content.decode()
    assert 'name="a-score_2" value="168"' in page
    assert 'name="a-result_2" value="failed"' in page.replace(" checked", "")


@pytest.mark.parametrize(
    "change",
    [
        {"team": "C"},
        {"team": ""},
        {"a-attacker": "99999999"},
        {"a-attacker": "١"},
        {"a-closed": "Z"},
        {"a-score_1": "67"},
        {"a-score_1": "-66"},
        {"a-score_1": "1e2"},
        {"a-score_1": "9" * 5000},
        {"a-contract_1": "prise"},
        {"a-result_1": "maybe"},
        {"a-score_1": ""},
    ],
)
def test_a_hostile_quarter_post_is_refused_and_changes_nothing(director_client, change):
    match, sample, people = make_match(quarters=0)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    data = {**_quarter_post(sample.quarters[0], "A", people), **change}
    logged = LogEntry.objects.count()
    response = director_client.post(url, data)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'role="alert"' in page or "Say which team enters its quarter" in page
    assert not Quarter.objects.exists() and not Result.objects.exists()
    assert LogEntry.objects.count() == logged


def test_an_attacker_twice_is_refused_on_the_page(director_client):
    match, sample, people = make_match(quarters=1)
    url = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 3})
    data = _quarter_post(sample.quarters[2], "A", people)
    data["a-attacker"] = str(people[sample.quarters[0].a_attacker].pk)
    response = director_client.post(url, data)
    assert "already attacked for the team in quarter 1" in response.content.decode()
    assert not Quarter.objects.filter(number=3).exists()


@pytest.mark.parametrize("number", [0, 5, 99])
def test_a_quarter_out_of_range_is_not_a_server_error(director_client, number):
    match, _sample, _people = make_match(quarters=0)
    response = director_client.get(
        reverse("matches:quarter", kwargs={"pk": match.pk, "number": number})
    )
    assert response.status_code == 302


def test_pdf_and_exports(client):
    match, sample, _people = make_match()
    pdf = client.get(reverse("matches:pdf", kwargs={"pk": match.pk}))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    csv = client.get(reverse("matches:export", kwargs={"pk": match.pk, "fmt": "csv"}))
    lines = list(reader(io.StringIO(csv.content.decode("utf-8-sig"))))
    assert len(lines) == 1 + 16 + 2
    assert lines[3][:9] == [
        "1",
        "3",
        "garde sans",
        "148",
        "garde",
        "74",
        "74",
        "8.602",
        "0.0",
    ]
    xlsx = client.get(reverse("matches:export", kwargs={"pk": match.pk, "fmt": "xlsx"}))
    assert xlsx.status_code == 200
    assert (
        client.get(reverse("matches:export", kwargs={"pk": match.pk, "fmt": "exe"})).status_code
        == 404
    )


def test_the_complete_match_names_the_winner(client):
    from tarotclub.reports import duplicate as docs

    match, sample, _people = make_match()
    a, b = docs.team_match_totals(sample)
    winner = sample.a_name if a > b else sample.b_name
    text = client.get(reverse("matches:results", kwargs={"pk": match.pk})).content.decode()
    assert f"{winner} wins the match." in text


@pytest.mark.parametrize("quarters", [1, 4])
def test_pages_keep_a_constant_number_of_queries(
    director_client, django_assert_num_queries, quarters
):
    from django.test import Client

    client = Client()
    match, _sample, _people = make_match(quarters=quarters)
    results = reverse("matches:results", kwargs={"pk": match.pk})
    quarter = reverse("matches:quarter", kwargs={"pk": match.pk, "number": 1})
    # session, user; the match, its members with their players, its quarters, their results
    with django_assert_num_queries(6):
        director_client.get(results)
    with django_assert_num_queries(6):
        director_client.get(quarter)
    with django_assert_num_queries(4):
        client.get(reverse("matches:export", kwargs={"pk": match.pk, "fmt": "csv"}))
    with django_assert_num_queries(4):
        client.get(results)
    # session, user, the matches; the new match's form reads the roster once
    with django_assert_num_queries(3):
        director_client.get(reverse("matches:list"))
    with django_assert_num_queries(3):
        director_client.get(reverse("matches:new"))
