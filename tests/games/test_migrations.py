"""A database made before the kinds had packages of their own migrates forward intact.

French Tarot's deals moved from the games app to `tarotclub.kinds.tarot` (the tables stayed:
`games_deal`, `games_dealline`); Fool's Faith's challenges kept their app label. The test
rolls those migrations back, stores a club the way the old models did, migrates forward and
reads every sheet and standings page.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from scoring import fft, foolsfaith
from tarotclub.games.presenters import number as minus_number

BEFORE = [("games", "0001_initial"), ("tarot", None)]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    # the models as the applied migrations leave them (apps that depend on a rolled-back one,
    # such as the ratings, were rolled back with it)
    graph = executor.loader.graph
    applied = [n for n in executor.loader.applied_migrations if n in graph.nodes]
    return executor.loader.project_state(applied).apps


def _leaves():
    """Every app's latest migration: forward again, the apps rolled back with games (the
    ratings) come back too, so the next tests find every table."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_a_club_stored_before_the_kinds_moved_reads_the_same_after():
    latest = _leaves()
    old = migrate(BEFORE)
    Player = old.get_model("players", "Player")
    Game = old.get_model("games", "Game")
    Seat = old.get_model("games", "Seat")
    Deal = old.get_model("games", "Deal")
    DealLine = old.get_model("games", "DealLine")
    Record = old.get_model("games", "Record")
    Change = old.get_model("games", "Change")
    Challenge = old.get_model("variants", "Challenge")
    Award = old.get_model("variants", "ChallengeAward")

    names = ["Anne", "Bram", "Chloé", "Dirk"]
    players = [Player.objects.create(name=n, name_key=n.lower()) for n in names]
    pks = [p.pk for p in players]

    # a tarot game of two deals, scored as the old services stored them
    tarot = Game.objects.create(kind="tarot", token="tarot-before-the-move", revision=2)
    for i, p in enumerate(players):
        Seat.objects.create(game=tarot, player=p, position=i)
    expected_tarot = dict.fromkeys(pks, 0)
    for number, (taker, contract, bouts, points) in enumerate(
        [(0, "garde", 2, 49), (1, "prise", 1, 40)], start=1
    ):
        result = fft.score_deal(
            seats=pks, taker=pks[taker], contract=contract, bouts=bouts, points=points
        )
        deal = Deal.objects.create(
            game=tarot,
            number=number,
            dealer=players[number - 1],
            taker=players[taker],
            contract=contract,
            bouts=bouts,
            points_half=points * 2,
            won=result.won,
            gap=result.gap,
        )
        for pk in pks:
            DealLine.objects.create(deal=deal, player_id=pk, score=result.scores[pk])
            expected_tarot[pk] += result.scores[pk]
        Change.objects.create(game=tarot, number=number, action="recorded", after={"n": number})

    # a finished Fool's Faith game, with its challenge cards given
    ff = Game.objects.create(kind="foolsfaith", token="ff-before-the-move", revision=3)
    for i, p in enumerate(players[:3]):
        Seat.objects.create(game=ff, player=p, position=i)
    rounds = [(5, 2, 1), (6, 1, 1)]
    for number, counts in enumerate(rounds, start=1):
        data = {"tricks": {str(pk): n for pk, n in zip(pks[:3], counts, strict=True)}}
        Record.objects.create(game=ff, number=number, data=data)
        Change.objects.create(game=ff, number=number, action="recorded", after={"data": data})
    from django.utils import timezone

    Game.objects.filter(pk=ff.pk).update(finished_at=timezone.now())
    song = Challenge.objects.create(text="Sing a song", order=1)
    for card, pk in enumerate(pks[1:3], start=1):
        Award.objects.create(
            game=ff, card=card, challenge=song, text=song.text, player_id=pk, awarded_by_id=pks[0]
        )
    state = foolsfaith.play(pks[:3], [dict(zip(pks[:3], c, strict=True)) for c in rounds])
    assert state.finished and state.winner == pks[0]

    migrate(latest)

    from tarotclub.games.models import Change as NewChange
    from tarotclub.kinds.foolsfaith.models import ChallengeAward
    from tarotclub.kinds.tarot.models import Deal as NewDeal
    from tarotclub.kinds.tarot.selectors import game_sheet
    from tarotclub.kinds.tarot.services import game_totals_db

    # every row is still there, read through the models' new homes
    assert NewDeal.objects.filter(game_id=tarot.pk).count() == 2
    assert NewChange.objects.count() == 4 and ChallengeAward.objects.count() == 2
    from tarotclub.games.models import Game as NewGame

    new_tarot = NewGame.objects.get(pk=tarot.pk)
    assert game_totals_db(new_tarot) == expected_tarot
    assert game_sheet(new_tarot).totals == expected_tarot

    client = Client()
    sheet = client.get(reverse("games:sheet", args=[tarot.token]))
    assert sheet.status_code == 200
    html = sheet.content.decode()
    for pk, total in expected_tarot.items():
        assert f'data-player="{pk}">{minus_number(total)}<' in html  # with the real minus sign
    ff_sheet = client.get(reverse("games:sheet", args=[ff.token])).content.decode()
    assert "Game over: Anne won." in ff_sheet and "Sing a song" in ff_sheet
    assert client.get(f"/v/{ff.token}/").status_code == 301  # the printed QR code still works
    standings = client.get(reverse("games:standings_kind", args=["foolsfaith"]))
    rows = {r["player"]: r for r in standings.context["table"].data.data}
    assert rows["Anne"]["won"] == 1 and rows["Anne"]["cards"] == state.cards[pks[0]]
    assert rows["Bram"]["received"] == 1 and rows["Chloé"]["received"] == 1
    tarot_standings = client.get(reverse("games:standings_kind", args=["tarot"]))
    totals = {r["player"]: r["total"] for r in tarot_standings.context["table"].data.data}
    assert totals == {n: expected_tarot[pk] for n, pk in zip(names, pks, strict=True)}
