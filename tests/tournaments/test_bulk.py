"""Registration in bulk (issue 11, item 8): paste names (and licences), one per line; see who
matches the roster, who is registered already and which guests will be created; confirm;
one service registers them all. Bad lines are listed and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tarotclub.core.models import LogEntry
from tarotclub.players.models import Player
from tarotclub.players.services import player_create
from tarotclub.tournaments import bulk, selectors, services
from tarotclub.tournaments.forms import RegisterForm
from tarotclub.tournaments.models import Entry

from .helpers import make_tournament

pytestmark = pytest.mark.django_db


# --- reading the pasted lines (pure) --------------------------------------------------------


@pytest.mark.parametrize(
    "line, name, licence",
    [
        ("Anne Martin;123456", "Anne Martin", "123456"),
        ("Anne Martin ; 123456", "Anne Martin", "123456"),
        ("Anne Martin, 123456", "Anne Martin", "123456"),
        ("Anne Martin\t123456", "Anne Martin", "123456"),
        ("Anne Martin 1234567", "Anne Martin", "1234567"),
        ("Anne Martin", "Anne Martin", ""),
        ("  Anne   Martin  ", "Anne Martin", ""),
        ("Martin, Anne", "Martin, Anne", ""),  # no licence after the comma: all of it is a name
        ("Anne Martin;", "Anne Martin", ""),
        ("Louis XIV", "Louis XIV", ""),
        ("Anne Martin\tFR-0042", "Anne Martin", "FR-0042"),
    ],
)
def test_one_line(line, name, licence):
    parsed, errors = bulk.parse(line)
    assert errors == []
    assert [(p.name, p.licence) for p in parsed] == [(name, licence)]


def test_blank_lines_are_skipped_and_lines_keep_their_numbers():
    parsed, errors = bulk.parse("Anne\n\n  \nChloé\n")
    assert [(p.number, p.name) for p in parsed] == [(1, "Anne"), (4, "Chloé")]
    # one bad line: it is named by its number, and no line is read at all
    parsed, errors = bulk.parse("Anne\n\n  \nBram;x y\nChloé\n")
    assert parsed == []
    assert [(e.number, e.text) for e in errors] == [(4, "Bram;x y")]


def test_a_name_ending_in_digits_is_still_the_players_name(roster):
    t, players, anne, _elodie = roster
    parsed, _ = bulk.parse(players[0].name)  # "Player 0042": name "Player", licence 0042?
    preview = selectors.bulk_preview(t, parsed)
    assert [p.pk for p, _line in preview.registered] == [players[0].pk]


@pytest.mark.parametrize(
    "text, code",
    [
        ("Anne;12 34", "licence"),
        ("Anne;" + "1" * 21, "licence"),
        (";123", "name_empty"),
        ("x" * 81, "name_long"),
        ("Anne\nANNE", "twice"),
        ("Élodie\nElodie", "twice"),
        ("Anne;1\nBram;1", "licence_twice"),
    ],
)
def test_bad_lines_are_named(text, code):
    _parsed, errors = bulk.parse(text)
    assert [e.code for e in errors] == [code]
    assert errors[0].message  # a sentence for the director


def test_the_paste_is_bounded():
    _parsed, errors = bulk.parse("\n".join(f"Player {i}" for i in range(bulk.MAX_LINES + 1)))
    assert [e.code for e in errors] == ["too_many"]
    _parsed, errors = bulk.parse("a" * (bulk.MAX_CHARS + 1))
    assert [e.code for e in errors] == ["too_long"]


@given(st.text(max_size=400))
def test_any_paste_is_read_or_refused_without_error(text):
    parsed, errors = bulk.parse(text)
    for p in parsed:
        assert p.name and p.name == p.name.strip() and len(p.name) <= 80
        assert len(p.licence) <= 20
    assert all(e.message for e in errors)


# --- matching against the roster -------------------------------------------------------------


@pytest.fixture
def roster():
    t, players = make_tournament(4, rounds=2, deals=1)
    anne = player_create(name="Anne Martin", licence="111")
    elodie = player_create(name="Élodie Leroy")
    return t, players, anne, elodie


def test_the_preview_sorts_the_lines(roster):
    t, players, anne, elodie = roster
    bram = player_create(name="Bram Peeters", licence="999")
    parsed, errors = bulk.parse(
        f"anne martin\nELODIE LEROY;222\n{players[0].name}\nNew Guest;333\nB. Peeters;999"
    )
    assert errors == []
    preview = selectors.bulk_preview(t, parsed)
    assert [p.pk for p, _line in preview.matched] == [anne.pk, elodie.pk]
    assert [p.pk for p, _line in preview.registered] == [players[0].pk]
    assert [line.name for line in preview.guests] == ["New Guest"]
    # "B. Peeters;999": the licence is Bram's, the name nobody's: matched by the licence
    assert preview.conflicts == [] and len(preview.by_licence) == 1
    assert preview.by_licence[0][0].pk == bram.pk


def test_two_lines_for_one_player_are_a_conflict(roster):
    t, _players, anne, _elodie = roster
    parsed, _ = bulk.parse("Anne Martin\nA. Martin;111")
    preview = selectors.bulk_preview(t, parsed)
    assert len(preview.conflicts) == 1


def test_a_name_and_a_licence_of_two_players_is_a_conflict(roster):
    t, _players, anne, elodie = roster
    parsed, _ = bulk.parse("Élodie Leroy;111")
    preview = selectors.bulk_preview(t, parsed)
    assert len(preview.conflicts) == 1 and not preview.matched


# --- the service ---------------------------------------------------------------------------


def test_the_service_registers_them_all_once(roster, director):
    t, players, anne, elodie = roster
    parsed, _ = bulk.parse(f"Anne Martin\nÉlodie Leroy\n{players[1].name}\nNew Guest;333")
    result = services.entries_register_bulk(tournament=t, lines=parsed, user=director)
    assert result.registered == 3 and result.skipped == 1 and result.guests == 1
    guest = Player.objects.get(name="New Guest")
    assert guest.guest and guest.licence == "333"
    assert t.entries.count() == 4 + 3
    [entry] = LogEntry.objects.for_object(t).filter(action=services.ENTRIES_REGISTERED)
    assert {p["name"] for p in entry.after["players"]} == {
        "Anne Martin",
        "Élodie Leroy",
        "New Guest",
    }
    assert entry.after["guests"] == ["New Guest"] and entry.user == director
    # the same paste again (a double tap): nothing more
    again = services.entries_register_bulk(tournament=t, lines=parsed, user=director)
    assert again.registered == 0 and again.skipped == 4
    assert t.entries.count() == 7 and Player.objects.filter(name="New Guest").count() == 1
    assert LogEntry.objects.for_object(t).filter(action=services.ENTRIES_REGISTERED).count() == 1


def test_the_service_refuses_a_conflict_and_changes_nothing(roster):
    t, _players, anne, elodie = roster
    parsed, _ = bulk.parse("New One\nÉlodie Leroy;111")
    with pytest.raises(services.TournamentError):
        services.entries_register_bulk(tournament=t, lines=parsed)
    assert t.entries.count() == 4 and not Player.objects.filter(name="New One").exists()


def test_late_players_in_bulk_sit_from_the_next_round(roster):
    t, _players, anne, elodie = roster
    t = services.tournament_start(tournament=t)
    parsed, _ = bulk.parse("Anne Martin\nÉlodie Leroy\nGuest One\nGuest Two")
    services.entries_register_bulk(tournament=t, lines=parsed)
    assert set(t.entries.filter(first_round=2).values_list("player__name", flat=True)) == {
        "Anne Martin",
        "Élodie Leroy",
        "Guest One",
        "Guest Two",
    }
    t.refresh_from_db()
    assert all(len(table) in (4, 5) for table in t.plan[0])  # 8 players seated in round 2


def test_a_finished_tournament_takes_nobody():
    t, _ = make_tournament(4, rounds=1, deals=1)
    t.status = "finished"
    t.save()
    parsed, _ = bulk.parse("Anne")
    with pytest.raises(services.TournamentError):
        services.entries_register_bulk(tournament=t, lines=parsed)


@pytest.mark.django_db(transaction=True)
def test_a_double_tap_on_confirm_registers_once(director):
    from .test_concurrency import together

    t, _ = make_tournament(4, rounds=2, deals=1)
    text = "Guest A;1\nGuest B\nGuest C 42424"
    url = reverse("tournaments:bulk", args=[t.pk])

    def tap():
        c = Client(raise_request_exception=False)
        c.force_login(director)
        return c.post(url, {"names": text, "confirm": "1"}).status_code

    assert together(tap, tap) == [302, 302]
    assert Entry.objects.filter(tournament=t).count() == 7
    assert Player.objects.filter(name__startswith="Guest ").count() == 3
    assert LogEntry.objects.for_object(t).filter(action=services.ENTRIES_REGISTERED).count() == 1


# --- the pages ---------------------------------------------------------------------------------


@pytest.fixture
def director_client(director):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(director)
    return c


def test_paste_preview_confirm(director_client, roster):
    t, players, anne, elodie = roster
    url = reverse("tournaments:bulk", args=[t.pk])
    assert director_client.get(url).status_code == 200
    text = f"Anne Martin;111\n{players[0].name}\nNew Guest"
    page = director_client.post(url, {"names": text, "preview": "1"})
    html = page.content.decode()
    assert page.status_code == 200
    assert "Anne Martin" in html and "New Guest" in html and players[0].name in html
    assert "already registered" in html and "new guest" in html.lower()
    assert t.entries.count() == 4  # the preview changes nothing
    response = director_client.post(url, {"names": text, "confirm": "1"}, follow=True)
    assert "2 players registered" in response.content.decode()
    assert t.entries.count() == 6


@pytest.mark.parametrize(
    "text",
    [
        "\n".join(f"P{i}" for i in range(300)),
        "x" * 30000,
        "Anne;bad licence!",
        "=HYPERLINK(1);<script>alert(1)</script>",
        "Anne\x00Bram",
        "Anne\nanne",
        "",
        "   \n  ",
    ],
)
def test_hostile_pastes_change_nothing(director_client, roster, text):
    t, *_ = roster
    players_before = Player.objects.count()
    url = reverse("tournaments:bulk", args=[t.pk])
    for action in ("preview", "confirm"):
        response = director_client.post(url, {"names": text, action: "1"})
        if "\x00" in text:  # the site refuses NUL characters in any form (core middleware)
            assert response.status_code == 400
            continue
        assert response.status_code == 200, action
        html = response.content.decode()
        assert "<script>alert" not in html
        if "=HYPERLINK" not in text and "\x00" not in text:
            assert 'class="errors"' in html or "field-error" in html
    assert t.entries.count() == 4 and Player.objects.count() == players_before


def test_bulk_is_for_directors(client, member, roster):
    t, *_ = roster
    url = reverse("tournaments:bulk", args=[t.pk])
    assert client.post(url, {"names": "A", "confirm": "1"}).status_code == 302
    client.force_login(member)
    assert client.post(url, {"names": "A", "confirm": "1"}).status_code == 403
    assert t.entries.count() == 4


# --- the roster choice and guests ----------------------------------------------------------------


def test_the_roster_choice_leaves_out_registered_players_and_guests(roster):
    t, players, anne, elodie = roster
    guest = player_create(name="Some Guest", guest=True)
    inactive = player_create(name="Gone Away")
    Player.objects.filter(pk=inactive.pk).update(active=False)
    form = RegisterForm(tournament=t)
    choices = {int(str(pk)) for pk, _label in form.fields["player"].widget.choices if pk}
    assert choices == {anne.pk, elodie.pk}
    html = str(form["player"])
    assert players[0].name not in html and "Some Guest" not in html and "Gone Away" not in html
    # a guest or an inactive player sent anyway is refused by the form
    for pk in (guest.pk, inactive.pk):
        assert not RegisterForm({"player": pk}, tournament=t).is_valid()


def test_a_registered_player_sent_anyway_is_told_so(roster, director):
    t, players, *_ = roster
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(director)
    manage = reverse("tournaments:manage", args=[t.pk])
    page = c.post(manage, {"register": "1", "player": players[0].pk}).content.decode()
    assert "is already registered" in page
    assert t.entries.count() == 4


def test_a_returning_guest_is_registered_by_name(roster):
    t, *_ = roster
    guest = player_create(name="Jan de Vries", guest=True)
    entry = services.entry_register(tournament=t, guest_name="jan DE vries")
    assert entry.player == guest and Player.objects.filter(name_key="jan de vries").count() == 1


def test_guests_are_marked_on_the_directors_page(director_client, roster):
    t, *_ = roster
    services.entry_register(tournament=t, guest_name="Visiting Vera")
    html = director_client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    line = next(x for x in html.split("<li") if "Visiting Vera" in x)
    assert "guest" in line
