"""Every number, id and date a request carries is read as a person types it, or refused.

Python's int() and Django's IntegerField, ModelChoiceField, paginator and DateField accept
other scripts' digits ("١٢"), underscores ("1_000"), signs and thousands of digits. The site
reads them through tarotclub.core.forms instead; these tests hold every form and route to it.
"""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django import forms as django_forms
from django.test import RequestFactory
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotclub.core.forms import (
    ModelPkChoiceField,
    StrictDateField,
    WholeNumberField,
    parse_whole,
    posted_int,
    query_int,
)

ROOT = Path(__file__).resolve().parents[2]

#: Text that int() (or Django's IntegerField) reads as a number, and a person never types.
HOSTILE_WHOLE = [
    "١٢",  # Arabic-Indic
    "۳",  # Persian
    "३",  # Devanagari
    "１２",  # fullwidth
    "1٢",
    "²",
    "1_0",
    "1_000",
    "+1",
    "-1",
    "-0",
    "1.0",  # Django's IntegerField reads "1.0" as 1
    "1e1",
    "0x1",
    "1 000",
    "1,0",
    "nan",
    "inf",
    "1\x00",
    "9" * 5000,  # int() refuses over 4300 digits with a ValueError
    "9" * 4000,
    "١" * 5000,
]


@pytest.mark.parametrize("text", HOSTILE_WHOLE)
def test_parse_whole_refuses_what_int_accepts(text):
    assert parse_whole(text) is None


@pytest.mark.parametrize(
    ("text", "expected"), [("0", 0), ("7", 7), (" 12 ", 12), ("007", 7), ("9" * 18, 10**18 - 1)]
)
def test_parse_whole_reads_ascii_digits(text, expected):
    assert parse_whole(text) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_parse_whole_accepts_exactly_short_ascii_digits(text):
    number = parse_whole(text)
    stripped = text.strip()
    if number is None:
        assert not (stripped.isascii() and stripped.isdigit() and len(stripped) <= 18)
    else:
        assert stripped.isascii() and stripped.isdigit()
        assert number == int(stripped) >= 0


def test_posted_int_and_query_int_fall_back_on_junk():
    rf = RequestFactory()
    for text in HOSTILE_WHOLE:
        request = rf.post("/?" + urlencode({"n": text[:50]}), {"number": text})
        assert posted_int(request, "number", -1) == -1
        assert query_int(request, "n", None) is None
    request = rf.post("/?n=3", {"number": "4"})
    assert (posted_int(request, "number", -1), query_int(request, "n")) == (4, 3)
    assert posted_int(rf.post("/", {}), "number", 9) == 9


# --- the project's fields ----------------------------------------------------------------------


class _Numbers(django_forms.Form):
    count = WholeNumberField(min_value=1, max_value=20)
    free = WholeNumberField(required=False)
    day = StrictDateField(required=False)


@pytest.mark.parametrize("text", HOSTILE_WHOLE)
def test_whole_number_field_refuses_with_djangos_messages(text):
    form = _Numbers({"count": text})
    assert not form.is_valid()
    field = form.fields["count"]
    expected = field.error_messages["invalid"]
    if text.isascii() and text.isdigit():
        expected = "Ensure this value is less than or equal to 20."
    elif text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
        expected = "Ensure this value is greater than or equal to 1."
    assert form.errors["count"] == [expected]


def test_whole_number_field_keeps_what_django_accepted():
    form = _Numbers({"count": " 12 ", "free": ""})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["count"] == 12 and form.cleaned_data["free"] is None
    assert _Numbers({"count": "21"}).errors["count"] == [
        "Ensure this value is less than or equal to 20."
    ]
    assert _Numbers({"count": "0"}).errors["count"] == [
        "Ensure this value is greater than or equal to 1."
    ]
    assert _Numbers(initial={"count": 5})["count"].value() == 5


@pytest.mark.parametrize(
    "text",
    ["٢٠٢٦-١١-٢٩", "2026-١١-29", "２０２６-11-29", "2026-11-29" + " " * 40, "9" * 10_000, "x" * 50],
)
def test_strict_date_field_refuses_foreign_digits_and_long_text(text):
    form = _Numbers({"count": "1", "day": text})
    assert form.errors["day"] == ["Enter a valid date."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2026-11-29", dt.date(2026, 11, 29)), (" 2026-11-29 ", dt.date(2026, 11, 29))],
)
def test_strict_date_field_reads_dates(text, expected):
    form = _Numbers({"count": "1", "day": text})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["day"] == expected


@pytest.mark.django_db
def test_model_pk_choice_field_refuses_a_pk_in_other_digits(four):
    from tarotclub.players.models import Player

    field = ModelPkChoiceField(queryset=Player.objects.all())
    assert field.clean(str(four[0].pk)) == four[0]
    arabic = str(four[0].pk).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    for text in [arabic, f"{four[0].pk}.0", f"+{four[0].pk}", "9" * 5000, "9" * 30]:
        with pytest.raises(django_forms.ValidationError) as caught:
            field.clean(text)
        assert caught.value.code == "invalid_choice"


# --- every form of the site --------------------------------------------------------------------


def _tournament_form(data):
    from tarotclub.tournaments.forms import TournamentForm

    base = {
        "name": "Cup",
        "date": "2026-11-29",
        "rounds": "5",
        "deals_per_round": "4",
        "ranking": "total",
    }
    return TournamentForm({**base, **data})


def _new_game_form(kind):
    def make(data):
        from tarotclub.games.forms import NewGameForm

        base = {"stake": "1"} if kind == "deathspot" else {"lives": "3"}
        return NewGameForm({**base, **data}, kind=kind)

    return make


def _challenge_form(data):
    from tarotclub.kinds.foolsfaith.forms import ChallengeForm

    return ChallengeForm({"text": "Sing", **data})


def _standings_filter(data):
    from tarotclub.games.forms import StandingsFilterForm

    return StandingsFilterForm(data)


NUMBER_FIELDS = [
    (_tournament_form, "rounds", "5"),
    (_tournament_form, "deals_per_round", "4"),
    (_new_game_form("deathspot"), "stake", "1"),
    (_new_game_form("cuckoo"), "lives", "3"),
    (_challenge_form, "order", "2"),
]


@pytest.mark.parametrize(("make", "name", "valid"), NUMBER_FIELDS)
@pytest.mark.parametrize("text", HOSTILE_WHOLE)
def test_every_plain_number_field_refuses_hostile_text(make, name, valid, text):
    assert make({name: valid}).is_valid()
    form = make({name: text})
    assert not form.is_valid()
    assert name in form.errors
    assert isinstance(form.fields[name], WholeNumberField)


DATE_FIELDS = [
    (_tournament_form, "date", "2026-11-29"),
    (_standings_filter, "from", "2026-01-01"),
    (_standings_filter, "to", "2026-12-31"),
]


@pytest.mark.parametrize(("make", "name", "valid"), DATE_FIELDS)
@pytest.mark.parametrize(
    "text",
    ["٢٠٢٦-١١-٢٩", "2026-13-45", "99999-01-01", "0000-01-01", "9" * 10_000, "2026-11-29\x00"],
)
def test_every_date_field_refuses_hostile_text(make, name, valid, text):
    assert make({name: valid}).is_valid()
    form = make({name: text})
    assert not form.is_valid()
    assert name in form.errors
    assert isinstance(form.fields[name], StrictDateField)


@pytest.mark.django_db
def test_the_entry_forms_of_every_game_refuse_hostile_numbers(make_players):
    from tarotclub.games import kinds
    from tarotclub.games.selectors import seat_players
    from tarotclub.games.services import game_start
    from tarotclub.kinds.tarot.forms import DealForm

    players = make_players("Anne", "Bram", "Chloé", "Dirk")
    for p in players:
        p.label = p.name
    checks = [(DealForm(players=players, active=players), ["version"])]
    for kind in ("foolsfaith", "deathspot", "keys", "cuckoo"):
        game = game_start(players=players[:3], kind=kind, first_dealer=0)
        seated = seat_players(game)
        cls = kinds.get(kind).form_class
        kwargs = {"state": kinds.get(kind).load(game).state} if kind == "cuckoo" else {}
        form = cls(players=seated, **kwargs)
        steppers = [n for n in form.fields if n.split("_")[0] in ("tricks", "keys", "swap")]
        assert steppers or kind == "cuckoo"
        checks.append((form, ["version", *steppers]))
    for form, names in checks:
        for name in names:
            field = form.fields[name]
            assert isinstance(field, WholeNumberField), name
            for text in HOSTILE_WHOLE:
                with pytest.raises(django_forms.ValidationError):
                    field.clean(text)


@pytest.mark.django_db
def test_the_choice_buttons_refuse_other_digits(make_players):
    """Choices compare the posted text with each choice's text: "١" is not "1"."""
    from tarotclub.kinds.tarot.forms import DealForm

    players = make_players("Anne", "Bram", "Chloé", "Dirk")
    for p in players:
        p.label = p.name
    pk = str(players[0].pk)
    arabic = pk.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    good = {"taker": pk, "contract": "garde", "bouts": "2", "points": "49"}
    assert DealForm(good, players=players, active=players).is_valid()
    for name, text in [("taker", arabic), ("taker", pk + ".0"), ("bouts", "٢"), ("bouts", "２")]:
        form = DealForm({**good, name: text}, players=players, active=players)
        assert form.errors[name] == ["Choose one of the buttons."]


@pytest.mark.django_db
@pytest.mark.parametrize("licence", ["١٢٣", "AB 12", "A\u200bB", "<b>", "L1;", "ＡＢ"])
def test_licence_fields_refuse_what_the_roster_refuses(licence, four):
    from tarotclub.players.forms import PlayerForm
    from tarotclub.tournaments.forms import RegisterForm

    msg = "A licence number has only letters and digits (at most 20)."
    assert PlayerForm({"name": "Eva", "licence": licence}).errors["licence"] == [msg]
    form = RegisterForm({"player": four[0].pk, "licence": licence})
    assert form.errors["licence"] == [msg]
    assert PlayerForm({"name": "Eva", "licence": "FR-12a"}).is_valid()


@pytest.mark.django_db
def test_register_form_refuses_a_player_pk_in_other_digits(four):
    from tarotclub.tournaments.forms import RegisterForm

    pk = str(four[0].pk)
    assert RegisterForm({"player": pk}).is_valid()
    arabic = pk.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    for text in [arabic, pk + ".0", "9" * 5000, "99999999999999999999999"]:
        assert RegisterForm({"player": text}).errors["player"] == ["Choose a player from the list."]


# --- through the routes: refused, said, and nothing changed ------------------------------------


def _tarot_post(players, **over):
    data = {
        "taker": str(players[1].pk),
        "contract": "garde",
        "bouts": "2",
        "points_side": "attack",
        "points": "49",
        "chelem": "none",
    }
    data.update(over)
    return data


HOSTILE_POINTS = ["1e30000000", "٤٩", "4_9", "+49", "49e0", "９", "NaN", "4" * 5000]


@pytest.mark.django_db
@pytest.mark.parametrize("points", HOSTILE_POINTS)
def test_deal_routes_refuse_hostile_points_and_change_nothing(client, game4, four, points):
    from tarotclub.games.models import Change
    from tarotclub.kinds.tarot.models import Deal
    from tarotclub.kinds.tarot.services import DealInput, deal_add

    deal_add(game=game4, data=DealInput(taker=four[1].pk, contract="garde", bouts=2, points=49))
    before = list(Deal.objects.values_list("number", "points_half", "version"))
    changes = Change.objects.count()
    data = _tarot_post(four, points=points)
    token = game4.token
    for url, extra in [
        (reverse("games:deal_new", args=[token]), {}),
        (reverse("games:deal_new", args=[token]), {"preview": "1"}),
        (reverse("games:deal_edit", args=[token, 1]), {}),
        (reverse("games:deal_edit", args=[token, 1]), {"preview": "1"}),
        (reverse("games:deal_preview", args=[token]) + "?n=2", {}),
    ]:
        response = client.post(url, {**data, **extra})
        # refused on its page (400); the live preview answers with the message (200)
        assert response.status_code == (200 if "/preview/" in url else 400), url
        text = response.content.decode()
        assert (
            "The attack&#x27;s points must be a number" in text
            or "with the digits 0 to 9" in text
            or "Ensure this value has at most 12 characters" in text
        ), url
    assert list(Deal.objects.values_list("number", "points_half", "version")) == before
    assert Change.objects.count() == changes


@pytest.mark.django_db
def test_the_deal_screen_says_which_digits_to_use(client, game4, four):
    url = reverse("games:deal_new", args=[game4.token])
    response = client.post(url, _tarot_post(four, points="٤٩"))
    assert "Type the attack&#x27;s points with the digits 0 to 9" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["٣", "3.0", "+3", "3_0", "9" * 5000])
def test_a_round_of_fools_faith_with_hostile_tricks_is_refused(client, make_players, text):
    from tarotclub.games.models import Record
    from tarotclub.games.selectors import seat_players
    from tarotclub.games.services import game_start

    players = make_players("Anne", "Bram", "Chloé")
    game = game_start(players=players, kind="foolsfaith", first_dealer=0)
    seated = seat_players(game)
    data = {f"tricks_{seated[0].pk}": text, f"tricks_{seated[1].pk}": "3"}
    data[f"tricks_{seated[2].pk}"] = "2"
    response = client.post(reverse("games:deal_new", args=[game.token]), data)
    assert response.status_code == 400
    assert "Enter a whole number." in response.content.decode() or "At most 8." in (
        response.content.decode()
    )
    assert not Record.objects.exists()
    data[f"tricks_{seated[0].pk}"] = "3"
    response = client.post(reverse("games:deal_new", args=[game.token]), data)
    assert response.status_code == 302 and Record.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["rounds", "deals_per_round", "date"])
def test_a_tournament_with_hostile_numbers_is_not_created(client, director, field):
    from tarotclub.tournaments.models import Tournament

    client.force_login(director)
    data = {
        "name": "Cup",
        "date": "2026-11-29",
        "rounds": "5",
        "deals_per_round": "4",
        "ranking": "total",
        field: "٢٠٢٦-١١-٢٩" if field == "date" else "٥",
    }
    response = client.post(reverse("tournaments:new"), data)
    assert response.status_code == 200
    assert "Enter a" in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.django_db
def test_registering_with_a_pk_in_other_digits_registers_nobody(client, director, four):
    from tarotclub.tournaments.models import Entry
    from tarotclub.tournaments.services import tournament_create

    t = tournament_create(name="Cup", date=dt.date(2026, 11, 29))
    client.force_login(director)
    arabic = str(four[0].pk).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    url = reverse("tournaments:manage", args=[t.pk])
    response = client.post(url, {"register": "1", "player": arabic})
    assert response.status_code == 200
    assert "Choose a player from the list." in response.content.decode()
    assert not Entry.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    [
        "?page=-1&per_page=-1",
        "?per_page=-5",
        "?per_page=0",
        "?page=0",
        "?page=١",
        "?page=99999999999999999999999",
        "?page=" + "9" * 5000,
        "?page=1e9",
        "?sort=nope&sort=-name&sort=name&sort=x&sort=y",
    ],
)
def test_paginated_lists_read_the_page_strictly(member_client, make_players, query):
    make_players(*(f"Player {i:02d}" for i in range(60)))
    response = member_client.get(reverse("players:list") + query)
    assert response.status_code == 200
    table = response.context["table"]
    assert table.paginator.per_page == 50
    assert 1 <= table.page.number <= table.paginator.num_pages


@pytest.mark.django_db
def test_deals_page_round_filter_reads_ascii_digits_only(client):
    from tarotclub.tournaments.services import tournament_create

    t = tournament_create(name="Cup", date=dt.date(2026, 11, 29))
    t.current_round = 2
    t.save()
    url = reverse("reports:deals", args=[t.pk])
    assert client.get(url + "?round=2").context["round"] == 2
    for text in ["٢", "+2", "2.0", "2_0", "9" * 5000]:
        assert client.get(url, {"round": text}).context["round"] is None


# --- no other parser left ----------------------------------------------------------------------


def _app_sources():
    for path in sorted((ROOT / "tarotclub").rglob("*.py")):
        if "migrations" in path.parts or path.name == "forms.py" and path.parent.name == "core":
            continue
        yield path, ast.parse(path.read_text(), filename=str(path))


def test_no_request_value_reaches_int_or_a_lenient_django_field():
    """Every number or date from a request goes through tarotclub.core.forms.

    Flags int(...) whose argument mentions the request (or a posted/queried value), and the
    Django fields whose parsing is lenient: forms.IntegerField, DateField, ModelChoiceField,
    and django-tables2's RequestConfig (which reads ?page= and ?per_page= with int()).
    """
    lenient = {"IntegerField", "DateField", "ModelChoiceField", "RequestConfig"}
    request_names = {"request", "POST", "GET", "first_dealer", "post"}
    found = []
    for path, tree in _app_sources():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            owner = getattr(getattr(func, "value", None), "id", None)
            if name in lenient and (owner == "forms" or name == "RequestConfig"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
            if name == "int" and node.args:
                names = {
                    getattr(n, "id", None) or getattr(n, "attr", None)
                    for n in ast.walk(node.args[0])
                }
                if names & request_names:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} int(request…)")
    assert not found, found
