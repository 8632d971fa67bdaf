"""Migrations 0002–0004 give the players already stored their keys, look-alikes included."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from tarotclub.players.models import LOOK_ALIKE_MARK, Player
from tarotclub.players.selectors import look_alikes
from tarotclub.players.services import player_create, player_update

BEFORE = [("players", "0002_player_name_key")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_players_get_keys_and_look_alikes_are_marked():
    # every app's latest migration: those that depend on the players' later ones (the deals'
    # revision, the ratings) are rolled back with them and must come back for the next tests
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE).get_model("players", "Player")
    names = [
        "Élodie Leroy",  # 1
        "ELODIE LEROY",  # 2: LOWER() kept the accent apart, so every database took it
        "Claire Martin",  # 3
        "Claire\u200b Martin",  # 4
        "  Jan\u00a0Peeters\u202e",  # 5: alone, cleaned
        "\u200b",  # 6: nothing visible
        "Bram",  # 7
    ]
    rows = [
        old.objects.create(name=n, nickname="An\u200bnie" if i == 6 else "")
        for i, n in enumerate(names)
    ]
    sqlite_twin = None
    if connection.vendor == "sqlite":  # SQLite's LOWER() only folds ASCII: it took this one
        sqlite_twin = old.objects.create(name="élodie leroy")
    migrate(latest)

    got = {p.pk: p for p in Player.objects.all()}
    if sqlite_twin is not None:
        twin = got.pop(sqlite_twin.pk)
        assert twin.name == "élodie leroy" and twin.looks_alike
    e1, e2, c3, c4, j5, z6, b7 = (got[r.pk] for r in rows)
    assert (e1.name, e1.name_key) == ("Élodie Leroy", "elodie leroy")
    assert e2.name == "ELODIE LEROY" and e2.name_key == f"elodie leroy{LOOK_ALIKE_MARK}{e2.pk}"
    assert (c3.name_key, c4.name) == ("claire martin", "Claire\u200b Martin")
    assert c4.name_key.startswith("claire martin" + LOOK_ALIKE_MARK)
    assert (j5.name, j5.name_key) == ("Jan Peeters", "jan peeters")
    assert z6.looks_alike and z6.name == "\u200b"
    assert (b7.name, b7.nickname, b7.nickname_key) == ("Bram", "Annie", "annie")
    assert {p.pk for p in look_alikes()} - {getattr(sqlite_twin, "pk", None)} == {
        e2.pk,
        c4.pk,
        z6.pk,
    }
    assert len({p.name_key for p in Player.objects.all()}) == Player.objects.count()

    # from now on, the keys guard every database
    with pytest.raises(ValidationError) as e:
        player_create(name="élodie leroy")
    assert "Élodie Leroy" in str(e.value)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="Claire  Martin")
    # a look-alike renamed by a director gets an ordinary key
    with pytest.raises(ValidationError):
        player_update(player=c4, name="Claire Martin")  # still a look-alike
    player_update(player=c4, name="Claire Martin-Dubois")
    c4.refresh_from_db()
    assert (c4.name_key, c4.looks_alike) == ("claire martin-dubois", False)
    # saving a look-alike without renaming it keeps its marked key
    Player.objects.get(pk=e2.pk).save()
    assert Player.objects.get(pk=e2.pk).looks_alike
