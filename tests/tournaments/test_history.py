"""Every write that changes what a tournament's standings show leaves a history entry.

The entries are on the tournament (`LogEntry.objects.for_object(t)`), with who did it and
what it was before and after, as small JSON with names and primary keys.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from tarotclub.core.models import ACTIONS, LogEntry
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Entry, Table, Tournament

from .helpers import make_tournament, play_round, play_table

pytestmark = pytest.mark.django_db


def entries(t, code=None):
    qs = LogEntry.objects.for_object(t).order_by("pk")
    return list(qs.filter(action=code) if code else qs)


def last(t, code):
    found = entries(t, code)
    assert found, f"no {code} entry"
    return found[-1]


def seats_of(t, round_number):
    return {
        x.number: [s.player_id for s in x.game.seats.order_by("position")]
        for x in Table.objects.filter(tournament=t, round=round_number)
    }


def logged(players_json):
    return [p["pk"] for p in players_json]


@pytest.fixture
def director_client(director):
    c = Client()
    c.force_login(director)
    return c


def test_every_code_is_declared_with_a_label():
    codes = [
        services.CREATED,
        services.UPDATED,
        services.ENTRY_REGISTERED,
        services.ENTRY_REMOVED,
        services.ENTRY_WITHDRAWN,
        services.STARTED,
        services.ROUND_SEATED,
        services.ROUND_REDRAWN,
        services.ROUND_FORCED,
        services.FINISHED,
        services.TABLE_CONFIRMED,
        services.TABLE_UNLOCKED,
    ]
    assert len(set(codes)) == len(codes)
    for code in codes:
        assert code in ACTIONS and str(ACTIONS[code])


def test_created_and_updated(director):
    t = services.tournament_create(
        name="Coupe", date=dt.date(2026, 5, 1), rounds=3, created_by=director
    )
    created = last(t, services.CREATED)
    assert created.user == director
    assert created.after["name"] == "Coupe" and created.after["rounds"] == 3
    services.tournament_update(tournament=t, ranking="average", user=director)
    updated = last(t, services.UPDATED)
    assert updated.before == {"ranking": "total"} and updated.after == {"ranking": "average"}
    services.tournament_update(tournament=t, allow_three=True, user=director)
    assert last(t, services.UPDATED).after == {"allow_three": True}
    # saving the same settings again changes nothing, and logs nothing
    services.tournament_update(tournament=t, ranking="average", allow_three=True)
    assert len(entries(t, services.UPDATED)) == 2


def test_registered_removed_and_withdrawn(director):
    t, players = make_tournament(5)
    registered = entries(t, services.ENTRY_REGISTERED)
    assert [e.after["player"]["pk"] for e in registered] == [p.pk for p in players]
    guest = services.entry_register(tournament=t, guest_name="Gaston", licence="G7", user=director)
    after = last(t, services.ENTRY_REGISTERED).after
    assert after["player"] == {"pk": guest.player_id, "name": "Gaston"}
    assert after["guest"] is True and after["licence"] == "G7"
    # removed during registration: the entry is gone, its trace is not
    gone = Entry.objects.get(tournament=t, player=players[0])
    services.entry_withdraw(entry=gone, user=director)
    removed = last(t, services.ENTRY_REMOVED)
    assert removed.user == director and removed.after is None
    assert removed.before["player"] == {"pk": players[0].pk, "name": players[0].name}
    assert not Entry.objects.filter(pk=gone.pk).exists()
    # withdrawn once running: before and after
    services.tournament_start(tournament=t)
    leaving = Entry.objects.get(tournament=t, player=players[1])
    services.entry_withdraw(entry=leaving, user=director)
    withdrawn = last(t, services.ENTRY_WITHDRAWN)
    assert withdrawn.before["last_round"] is None and withdrawn.after["last_round"] == 1


def test_started_seated_redrawn_forced_and_finished(director):
    t, players = make_tournament(8, rounds=2, deals=2)
    t = services.tournament_start(tournament=t, user=director)
    started = last(t, services.STARTED)
    assert started.user == director
    assert sorted(logged(started.after["players"])) == sorted(p.pk for p in players)
    seated = last(t, services.ROUND_SEATED).after
    assert seated["round"] == 1
    assert {x["table"]: logged(x["players"]) for x in seated["tables"]} == seats_of(t, 1)
    # redrawn: the old tables and the new ones
    old = seats_of(t, 1)
    old_games = set(Table.objects.filter(tournament=t).values_list("game_id", flat=True))
    t = services.round_redraw(tournament=t, user=director)
    redrawn = last(t, services.ROUND_REDRAWN)
    assert {x["table"]: logged(x["players"]) for x in redrawn.before["tables"]} == old
    assert {x["game"] for x in redrawn.before["tables"]} == old_games
    assert {x["table"]: logged(x["players"]) for x in redrawn.after["tables"]} == seats_of(t, 1)
    # forced: which tables were locked without being confirmed, and how far they were
    tables = list(Table.objects.filter(tournament=t, round=1).order_by("number"))
    play_table(tables[0])
    play_table(tables[1], confirm=False)
    services.tournament_next_round(tournament=t, force=True, user=director)
    forced = last(t, services.ROUND_FORCED).after
    assert forced["round"] == 1
    assert forced["tables"] == [
        {
            "round": 1,
            "table": tables[1].number,
            "game": tables[1].game_id,
            "deals": 2,
            "planned": 2,
        }
    ]
    assert last(t, services.ROUND_SEATED).after["round"] == 2
    t.refresh_from_db()
    play_round(t)
    services.tournament_next_round(tournament=t, user=director)
    finished = last(t, services.FINISHED)
    assert finished.user == director
    assert finished.before == {"status": "running", "round": 2}
    assert finished.after == {"status": "finished", "round": 2}
    # a round closed with every table confirmed logs no forcing
    assert len(entries(t, services.ROUND_FORCED)) == 1


def test_confirmed_and_unlocked_on_the_tournament_too(director):
    t, _players = make_tournament(4, rounds=2, deals=1)
    t = services.tournament_start(tournament=t)
    table = Table.objects.get(tournament=t)
    play_table(table)  # confirmed through the table's link: nobody in particular
    confirmed = last(t, services.TABLE_CONFIRMED)
    assert confirmed.user is None
    assert confirmed.after == {"round": 1, "table": 1, "game": table.game_id, "locked": True}
    services.table_unlock(table=table, user=director)
    unlocked = last(t, services.TABLE_UNLOCKED)
    assert unlocked.user == director and unlocked.before["locked"] is True
    assert unlocked.after == {"round": 1, "table": 1, "game": table.game_id, "locked": False}
    # and the game's own history has them as before
    actions = list(table.game.changes.values_list("action", flat=True))
    assert actions == ["unlocked", "locked", "recorded"]


def test_every_write_of_the_directors_pages_leaves_an_entry(director_client, make_players):
    """Walk an evening through the pages: each write adds history entries, and who did it."""
    c = director_client
    c.post(
        reverse("tournaments:new"),
        {"name": "Soirée", "date": "2026-06-01", "rounds": "2", "deals_per_round": "1"}
        | {"ranking": "total"},
    )
    t = Tournament.objects.get()
    manage = reverse("tournaments:manage", args=[t.pk])
    players = make_players(*[f"Joueur {i}" for i in range(9)])

    def writes(call) -> int:
        before = LogEntry.objects.count()
        call()
        return LogEntry.objects.count() - before

    for p in players:
        assert writes(lambda p=p: c.post(manage, {"register": "1", "player": p.pk})) == 1
    entry = Entry.objects.get(tournament=t, player=players[-1])
    url = reverse("tournaments:withdraw", args=[t.pk, entry.pk])
    assert writes(lambda: c.post(url, {"from_round": "0"})) == 1
    ranking = reverse("tournaments:ranking", args=[t.pk])
    assert writes(lambda: c.post(ranking, {"ranking": "average"})) == 1
    start = reverse("tournaments:start", args=[t.pk])
    assert writes(lambda: c.post(start, {"from_round": "0"})) == 2  # started, round 1 seated
    t.refresh_from_db()
    redraw = reverse("tournaments:redraw", args=[t.pk])
    assert writes(lambda: c.post(redraw, {"from_round": "1", "draw": str(t.seed)})) == 1
    nxt = reverse("tournaments:next", args=[t.pk])
    assert writes(lambda: c.post(nxt, {"force": "1", "from_round": "1"})) == 2  # forced, seated
    table = Table.objects.filter(tournament=t, round=1).first()
    unlock = reverse("tournaments:unlock", args=[t.pk, table.pk])
    assert writes(lambda: c.post(unlock)) == 1
    for x in Table.objects.filter(tournament=t, round=2):
        play_table(x)
    assert writes(lambda: c.post(nxt, {"from_round": "2"})) == 1  # finished
    assert all(e.user is not None for e in entries(t) if e.action != services.TABLE_CONFIRMED)
    # the director finds the history from the manage page
    assert f'href="/history/?tournament={t.pk}"' in c.get(manage).content.decode()
