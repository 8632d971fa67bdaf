"""A duplicate substitute on the site: the director's "Replace" form (hostile input refused,
nothing changed, never a 500), the rankings, records, grading sheets, downloads and papers
showing both players with a mark and the rounds each played; query counts unchanged."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tarotclub.core.models import LogEntry
from tarotclub.players.models import Player
from tarotclub.tournaments import duplicate, services
from tarotclub.tournaments.duplicate_services import entry_substitute
from tarotclub.tournaments.history import ENTRY_SUBSTITUTED
from tarotclub.tournaments.models import Entry

from .duplicate_helpers import make_duplicate, play_duplicate_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(director):
    c = Client()
    c.force_login(director)
    return c


def _entry(t, o="E", table=1) -> Entry:
    return Entry.objects.select_related("player").get(
        tournament=t, orientation=o, start_table=table
    )


def _url(t, entry) -> str:
    return reverse("tournaments:substitute", args=[t.pk, entry.pk])


def _played_with_substitute(tables=2):
    """`tables` tables and rounds, E1 replaced by "Zed Sub" from round 2, every board scored."""
    t, players = make_duplicate(tables, rounds=tables)
    services.tournament_start(tournament=t)
    entry_substitute(tournament=t, entry=_entry(t), guest_name="Zed Sub", from_round=2)
    for _r in range(tables):
        play_duplicate_round(t, lambda board, rnd, table: 50 + 2 * ((board + rnd + table) % 5))
        t.refresh_from_db()
        if t.current_round < t.rounds:
            services.tournament_next_round(tournament=t)
    return t, players


def test_the_director_replaces_a_player_through_the_form(desk):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    manage = desk.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    gone = _entry(t)
    assert _url(t, gone) in manage and ">Replace</a>" in manage
    page = desk.get(_url(t, gone))
    assert page.status_code == 200
    assert 'name="from_round"' in page.content.decode()
    sub = Player.objects.create(name="Roster Sub")
    done = desk.post(_url(t, gone), {"player": sub.pk, "from_round": "2"}, follow=True)
    assert done.redirect_chain[-1][0] == reverse("tournaments:manage", args=[t.pk])
    text = done.content.decode()
    assert "Roster Sub plays in the seat of" in text and "(E1) from round 2" in text
    assert "substitute in E1" in text and "withdrew after round 1" in text
    assert _url(t, gone) not in text  # no second Replace for the seat
    made = Entry.objects.get(tournament=t, replaces=gone)
    assert made.player == sub and made.first_round == 2
    # a double tap: the same form again changes nothing and logs nothing more
    again = desk.post(_url(t, gone), {"player": sub.pk, "from_round": "2"})
    assert again.status_code == 302
    assert LogEntry.objects.filter(object_id=t.pk, action=ENTRY_SUBSTITUTED).count() == 1
    # the form now says who plays the seat
    assert "Roster Sub plays in this seat from round 2." in desk.get(_url(t, gone)).content.decode()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"from_round": "2"}, "Choose a player or give a guest"),
        ({"guest_name": "G", "from_round": "1"}, "greater than or equal to 2"),
        ({"guest_name": "G", "from_round": "9"}, "less than or equal to 2"),
        ({"guest_name": "G", "from_round": "deux"}, ""),
        ({"guest_name": "G", "from_round": "2.5"}, ""),
        ({"guest_name": "G"}, ""),
        ({"player": "999999", "from_round": "2"}, "Choose a player from the list."),
        ({"player": "x'; drop", "from_round": "2"}, "Choose a player from the list."),
        ({"guest_name": "G" * 200, "from_round": "2"}, ""),
        ({"guest_name": " \t ", "from_round": "2"}, "Choose a player or give a guest"),
        ({"player": "1", "guest_name": "G", "from_round": "2"}, ""),
    ],
)
def test_hostile_input_is_refused_and_changes_nothing(desk, data, message):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    count = Entry.objects.filter(tournament=t).count()
    response = desk.post(_url(t, _entry(t)), data)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'class="errors"' in text or 'class="field-error"' in text
    if message:
        assert message in response.content.decode()
    assert Entry.objects.filter(tournament=t).count() == count
    assert not LogEntry.objects.filter(object_id=t.pk, action=ENTRY_SUBSTITUTED).exists()


def test_a_player_already_in_is_refused_with_the_services_message(desk):
    t, players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    response = desk.post(_url(t, _entry(t)), {"player": players[3].pk, "from_round": "2"})
    assert response.status_code == 200
    assert "already plays in this tournament" in response.content.decode()


def test_unknown_or_foreign_entries_are_not_found(desk, member_client):
    t, _players = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    other, _p = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=other)
    for pk, entry_pk in [
        (t.pk, 999999),
        (t.pk, _entry(other).pk),
        (999999, _entry(t).pk),
    ]:
        url = reverse("tournaments:substitute", args=[pk, entry_pk])
        assert desk.get(url).status_code == 404
        assert desk.post(url, {"guest_name": "G", "from_round": "2"}).status_code == 404
    assert member_client.get(_url(t, _entry(t))).status_code in (302, 403)
    refused = member_client.post(_url(t, _entry(t)), {"guest_name": "G", "from_round": "2"})
    assert refused.status_code in (302, 403)
    assert not Entry.objects.filter(tournament=t, replaces__isnull=False).exists()


def test_pages_show_both_players_with_their_rounds(desk, client):
    t, _players = _played_with_substitute()
    gone = _entry(t)
    g = duplicate.graded(t)
    assert ("E", 1, 2) in g.session.alternating and ("E", 1) in g.session.alternating
    standings = client.get(reverse("tournaments:standings", args=[t.pk])).content.decode()
    assert "Zed Sub *" in standings and f"{gone.player.name} *" in standings
    assert "substitute from round 2" in standings and "played round 1" in standings
    record = desk.get(reverse("tournaments:record", args=[t.pk, "E1-2"]))
    assert record.status_code == 200
    text = record.content.decode()
    assert "Record of Zed Sub" in text and "substitute from round 2" in text
    assert (
        "played round 1"
        in desk.get(reverse("tournaments:record", args=[t.pk, "E1"])).content.decode()
    )
    for bad in ["E1-", "E1-x", "E1-9", "E1-2-2", "E1-0002222"]:
        assert desk.get(reverse("tournaments:record", args=[t.pk, bad])).status_code == 404
    grading = desk.get(reverse("tournaments:grading", args=[t.pk])).content.decode()
    assert "Zed Sub (substitute from round 2)" in grading
    ranking = desk.get(reverse("reports:duplicate_export", args=[t.pk, "rankings", "csv"]))
    rows = list(csv.reader(io.StringIO(ranking.content.decode("utf-8-sig"))))
    names = [r[2] for r in rows[1:]]
    assert "Zed Sub (substitute from round 2)" in names
    assert f"{gone.player.name} (played round 1)" in names
    assert len(rows) == 1 + 9
    xlsx = desk.get(reverse("reports:duplicate_export", args=[t.pk, "rankings", "xlsx"]))
    assert xlsx.status_code == 200
    boards = desk.get(reverse("tournaments:duplicate_boards", args=[t.pk]) + "?round=2")
    assert "Zed Sub" in boards.content.decode()
    boards = desk.get(reverse("tournaments:duplicate_boards", args=[t.pk]) + "?round=1")
    assert "Zed Sub" not in boards.content.decode()


def _pdf_text(response) -> str:
    assert response.status_code == 200
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


def test_the_papers_show_the_substitute_where_he_played(desk):
    t, _players = _played_with_substitute()
    gone = _entry(t)
    records = _pdf_text(desk.get(reverse("reports:duplicate_records_pdf", args=[t.pk])))
    assert "Zed Sub (substitute from round 2)" in records
    assert f"{gone.player.name} (played round 1)" in records
    rankings = _pdf_text(desk.get(reverse("reports:duplicate_rankings_pdf", args=[t.pk])))
    assert "Zed Sub (substitute from round 2)" in rankings
    cards = _pdf_text(desk.get(reverse("reports:duplicate_guide_cards_pdf", args=[t.pk])))
    assert "Zed Sub" in cards and "substitute from" not in cards


def test_the_records_paper_lists_each_players_own_rounds():
    from tarotclub.reports.duplicate import record_data

    t, _players = _played_with_substitute(3)
    g = duplicate.graded(t)
    names = {p: g.full_name(p) for p in g.players()}
    data = {
        r.name: r
        for r in record_data(
            g.movement, t.deals_per_round, g.session, names, g.players(), g.substitutes
        )
    }
    own = data[names[("E", 1)]]
    sub = data["Zed Sub (substitute from round 2)"]
    assert own.code == sub.code == "E1" and names[("E", 1)].endswith("(played round 1)")
    assert {line.round for line in own.lines} == {1}
    assert {line.round for line in sub.lines} == {2, 3}
    assert sub.took + sub.defended == len(sub.lines) == 2 * t.deals_per_round
    assert own.players == sub.players == 13


@pytest.mark.parametrize("tables", [2, 3])
def test_query_counts_are_unchanged_with_a_substitute(
    desk, client, django_assert_num_queries, tables
):
    t, _players = make_duplicate(tables)
    services.tournament_start(tournament=t)
    entry_substitute(tournament=t, entry=_entry(t), guest_name="Zed Sub", from_round=2)
    play_duplicate_round(t, lambda board, rnd, table: 50 + 2 * table)
    services.tournament_next_round(tournament=t)
    play_duplicate_round(t, lambda board, rnd, table: 50 + 2 * table)
    pk = t.pk
    # the same counts as tests/tournaments/test_duplicate_pages.py pins without substitutes
    for name, args, c, count in [
        ("tournaments:duplicate_boards", [pk], desk, 5),
        ("tournaments:grading", [pk], desk, 5),
        ("tournaments:record", [pk, "E1"], desk, 5),
        ("tournaments:record", [pk, "E1-2"], desk, 5),
        ("tournaments:standings", [pk], client, 3),
        ("reports:duplicate_export", [pk, "rankings", "csv"], desk, 5),
    ]:
        c.get(reverse(name, args=args))
        with django_assert_num_queries(count):
            assert c.get(reverse(name, args=args)).status_code == 200


def test_the_other_pages_of_both_players_answer(desk, client):
    t, _players = _played_with_substitute()
    gone = _entry(t)
    sub = Entry.objects.select_related("player").get(tournament=t, replaces=gone)
    history = desk.get(reverse("history") + f"?tournament={t.pk}")
    assert history.status_code == 200 and "substitute seated" in history.content.decode()
    for entry in (gone, sub):
        card = desk.get(reverse("tournaments:position_card", args=[t.pk, entry.player_id]))
        assert card.status_code == 200 and entry.player.name in card.content.decode()
        assert desk.get(reverse("players:detail", args=[entry.player_id])).status_code == 200
    assert desk.get(reverse("tournaments:where", args=[t.pk])).status_code == 200


def test_the_substitutes_roster_asks_for_a_player(desk):
    """The "Replace" form's roster opens on a prompt, not Django's "---------"."""
    t, _ = make_duplicate(2, rounds=2)
    services.tournament_start(tournament=t)
    page = desk.get(_url(t, _entry(t)), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<option value="" selected>Choisissez un joueur</option>' in page
    assert "---------" not in page
