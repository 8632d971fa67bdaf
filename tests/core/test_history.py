"""The directors' history page: every action readable, filters, paging, junk, constant queries."""

from __future__ import annotations

import datetime as dt
import re
from unittest import mock

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from tarotclub.core.history import diff, show
from tarotclub.core.models import ACTIONS, LogEntry, action, log_action
from tarotclub.games import services as records
from tarotclub.kinds.foolsfaith import services as variants
from tarotclub.players.models import Player
from tarotclub.players.services import player_create, player_update

pytestmark = pytest.mark.django_db

URL = "/history/"
TOURNAMENT_NOTE = action("test.tournament_note", "tournament noted (test)")


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def items(html: str) -> list[str]:
    """The text of each history line on a page."""
    return re.findall(r'<li class="card history-entry">(.*?)</li>\s*(?=<li class="card|</ol>)',
                      html, re.S)  # fmt: skip


def test_the_url_and_who_may_see_it(client, director):
    assert reverse("history") == URL
    response = client.get(URL)
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(director)
    assert client.get(URL).status_code == 200


def test_a_member_is_refused(client, member):
    client.force_login(member)
    assert client.get(URL).status_code == 403
    assert 'href="/history/"' not in client.get("/").content.decode()


def test_the_header_links_the_history_for_directors(director_client):
    assert 'href="/history/"' in director_client.get("/").content.decode()


def test_a_rename_reads_before_and_after_field_by_field(director_client, director):
    anne = player_create(name="Anne", user=director)
    player_update(player=anne, name="Anne Dubois", nickname="Annie", user=director)
    html = director_client.get(URL).content.decode()
    renamed, created = items(html)
    assert "player renamed" in renamed and "player added" in created
    assert re.search(r"name:</span>\s*<del>Anne</del>\s*→\s*<ins>Anne Dubois</ins>", renamed)
    assert re.search(r"nickname:</span>\s*<del>—</del>\s*→\s*<ins>Annie</ins>", renamed)
    assert "licence" not in renamed  # unchanged fields are not listed
    assert f'href="{reverse("players:detail", args=[anne.pk])}"' in renamed  # the player page
    assert "director" in renamed
    assert "{" not in html.split("<main")[1]  # no raw JSON


def test_challenge_cards_given_again_read_compactly(director_client, make_players, member):
    from tarotclub.games.services import game_start

    a, b, c = make_players("Anne", "Bram", "Chloé")
    game = game_start(players=[a, b, c], kind="foolsfaith", first_dealer=0, created_by=member)
    for _ in range(2):
        records.record_add(game=game, data={"tricks": {a.pk: 6, b.pk: 1, c.pk: 1}})
    song = variants.challenge_create(text="Sing a song")
    dance = variants.challenge_create(text="Dance a waltz")
    variants.challenges_award(game=game, awards=[(song.pk, b.pk), (dance.pk, c.pk)])
    variants.challenges_award(game=game, awards=[(dance.pk, b.pk), (dance.pk, c.pk)])
    again = items(director_client.get(URL).content.decode())[0]
    assert "challenge cards given again" in again
    assert "a phone at the table" in again
    assert "<del>1 · Bram · Sing a song; 2 · Chloé · Dance a waltz</del>" in again
    assert "<ins>1 · Bram · Dance a waltz; 2 · Chloé · Dance a waltz</ins>" in again


def test_a_deleted_object_keeps_its_line_without_a_link(director_client):
    challenge = variants.challenge_create(text="Juggle")
    variants.challenge_delete(challenge=challenge)
    deleted = items(director_client.get(URL).content.decode())[0]
    assert "challenge deleted" in deleted and "Juggle" in deleted and "<a " not in deleted
    assert "<del>Juggle</del>" in deleted


def test_every_declared_action_renders(director_client, director):
    """Whatever the apps declare, with whatever before/after shape, the page shows it."""
    anne = player_create(name="Anne")
    shapes = [
        (None, {"name": "x", "count": 3, "flag": True}),
        ({"name": "x", "list": [1, 2]}, {"name": "y", "list": [1, 2, 3]}),
        ({"awards": [{"card": 1, "player": "Bram", "player_id": 9}]}, None),
        ([[1, 2], [3, 4]], [[1, 3], [2, 4]]),
        ("before", "after"),
        (None, None),
    ]
    for i, code in enumerate(sorted(ACTIONS)):
        before, after = shapes[i % len(shapes)]
        log_action(anne, code, user=director if i % 2 else None, before=before, after=after)
    response = director_client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    for code, label in ACTIONS.items():
        assert escape(str(label)) in html, code
    assert "1, 2, 3" in html and "1, 2; 3, 4" in html and "yes" in html


def test_filters_by_player_action_and_tournament(director_client):
    from tarotclub.tournaments.services import tournament_create

    anne, bram = player_create(name="Anne"), player_create(name="Bram")
    player_update(player=anne, name="Anne D")
    cup = tournament_create(name="Cup", date=dt.date(2026, 12, 1), rounds=3, deals_per_round=4)
    other = tournament_create(name="Plate", date=dt.date(2026, 12, 1), rounds=3, deals_per_round=4)
    log_action(cup, TOURNAMENT_NOTE, after={"round": 1})
    log_action(other, TOURNAMENT_NOTE, after={"round": 2})
    tournaments = LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(type(cup))
    ).count()

    lines = items(director_client.get(URL, {"player": anne.pk}).content.decode())
    assert len(lines) == 2 and all("Anne" in x for x in lines)
    lines = items(director_client.get(URL, {"player": bram.pk}).content.decode())
    assert len(lines) == 1 and "Bram" in lines[0]
    lines = items(director_client.get(URL, {"action": "player.renamed"}).content.decode())
    assert len(lines) == 1 and "Anne D" in lines[0]
    response = director_client.get(URL, {"tournament": cup.pk})
    lines = items(response.content.decode())
    assert tournaments >= 2
    assert len(lines) == LogEntry.objects.for_object(cup).count()
    assert all("Cup" in x for x in lines) and not any("Plate" in x for x in lines)
    # both: a tournament's entries of one action
    lines = items(
        director_client.get(
            URL, {"tournament": other.pk, "action": TOURNAMENT_NOTE}
        ).content.decode()
    )
    assert len(lines) == 1 and "Plate" in lines[0]
    # a filter on something gone still shows its history
    assert director_client.get(URL, {"player": 99999}).status_code == 200


@pytest.mark.parametrize(
    "params",
    [
        {"player": "abc"},
        {"player": "-1"},
        {"player": "1e5"},
        {"player": "99999999999999999999999999"},
        {"player": "٣"},  # another script's digit
        {"player": " 1"},
        {"tournament": "x" * 5000},
        {"tournament": "1.0"},
        {"action": "nope"},
        {"action": "player.created\u200b"},
        {"action": "PLAYER.CREATED"},
        {"player": "1", "action": "<script>"},
    ],
)
def test_junk_filters_get_a_message_and_an_empty_list(director_client, params):
    player_create(name="Anne")
    response = director_client.get(URL, params)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="msg-error"' in html
    assert items(html) == [] and "<script>" not in html


@pytest.mark.parametrize("page", ["junk", "0", "-3", "999999999999999999999", "2"])
def test_any_page_number_shows_a_page(director_client, page):
    player_create(name="Anne")
    response = director_client.get(URL, {"page": page})
    assert response.status_code == 200 and len(items(response.content.decode())) == 1


def test_fifty_a_page_newest_first_and_filters_kept(director_client):
    anne = player_create(name="Anne")
    for i in range(119):
        player_update(player=anne, name="Anne", nickname=f"A{i}")
    html = director_client.get(URL, {"player": anne.pk}).content.decode()
    first = items(html)
    assert len(first) == 50 and "A118" in first[0]
    assert f"player={anne.pk}" in html and "page=2" in html
    last = items(director_client.get(URL, {"player": anne.pk, "page": 3}).content.decode())
    assert len(last) == 20 and "player added" in last[-1]


def test_times_are_shown_in_the_club_time_and_language(director_client, settings):
    at = dt.datetime(2026, 12, 1, 19, 30, tzinfo=dt.UTC)
    with mock.patch("django.utils.timezone.now", return_value=at):
        player_create(name="Anne")
    director_client.cookies["django_language"] = "fr"
    html = director_client.get(URL).content.decode()
    assert "20:30" in html  # Europe/Paris
    assert 'datetime="2026-12-01T20:30:00+01:00"' in html


def _fill(n: int, user) -> None:
    from tarotclub.games.services import game_start

    players = [player_create(name=f"P{len(Player.objects.all())} {i}") for i in range(3)]
    for p in players:
        player_update(player=p, name=p.name + " X", user=user)
    game = game_start(players=players, kind="foolsfaith", first_dealer=0)
    challenge = variants.challenge_create(text=f"Sing {n}", user=user)
    for _ in range(n):
        log_action(game, variants.CHALLENGES_GIVEN, after={"awards": [{"card": 1}]})
        log_action(challenge, variants.CHALLENGE_CHANGED, before={"order": 1}, after={"order": 2})


def test_queries_do_not_grow_with_the_entries(director_client, director):
    _fill(1, director)
    director_client.get(URL)  # content types cached, as in a running site
    with CaptureQueriesContext(connection) as few:
        assert director_client.get(URL).status_code == 200
    _fill(20, director)
    with CaptureQueriesContext(connection) as many:
        assert director_client.get(URL).status_code == 200
    assert LogEntry.objects.count() > 50
    assert len(many.captured_queries) == len(few.captured_queries) <= 8
    anne = Player.objects.first()
    with CaptureQueriesContext(connection) as filtered:
        assert director_client.get(URL, {"player": anne.pk}).status_code == 200
    assert len(filtered.captured_queries) <= len(few.captured_queries) + 1


def test_show_and_diff_are_readable():
    assert show(None) == show("") == show([]) == "—"
    assert show([{"card": 1, "player": "Bram", "player_id": 4}]) == "1 · Bram"
    assert show({"round": 2, "table_id": 5}) == "round: 2"
    changes = diff({"name": "A", "licence": "", "x_id": 1}, {"name": "B", "licence": "", "x_id": 2})
    assert [(c.label, c.before, c.after) for c in changes] == [("name", "A", "B")]
    assert [(c.before, c.after) for c in diff(None, {"name": "A", "nickname": ""})] == [(None, "A")]
    assert [(c.before, c.after) for c in diff({"name": "A"}, None)] == [("A", None)]
    assert diff([1], [1]) == [] and diff(None, None) == []
