"""A whole club built through the services, and its fingerprint: what a backup must keep.

Used in-process by the admin tests and, through `python -m tests.core.club`, by the backup
tests' subprocesses, each against its own database.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import sys
from collections import Counter


def tricks(players, *counts):
    return {"tricks": {p.pk: n for p, n in zip(players, counts, strict=True)}}


def build() -> dict:
    """Directors and members, two tournaments, tarot and every other kind, history."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from tarotclub.core.models import action, log_action
    from tarotclub.games import services as games
    from tarotclub.games import services as records
    from tarotclub.games.selectors import seat_players
    from tarotclub.kinds.foolsfaith import services as challenges
    from tarotclub.kinds.tarot import services as tarot
    from tarotclub.players.services import player_create
    from tarotclub.tournaments import services as tournaments
    from tarotclub.tournaments.models import Entry, Table

    User = get_user_model()
    directors = Group.objects.create(name="Directors")
    director = User.objects.create_user("director", password="pw-director-1", is_staff=True)
    director.groups.add(directors)
    member = User.objects.create_user("member", password="pw-member-1")
    names = [
        "Amélie Dubois",
        "Bart Peeters",
        "Claire Martin",
        "Daan de Vries",
        "Élodie Leroy",
        "Fien Janssens",
        "Gilles Moreau",
        "Hanneke Bakker",
        "Isabelle Girard",
        "Jeroen Visser",
        "Karine Lambert",
    ]
    players = [player_create(name=n, licence=f"L{i:04d}") for i, n in enumerate(names)]
    players[0].user = member
    players[0].save(update_fields=["user"])

    # a tournament of 9 (a table of five and one of four): round 1 confirmed with a correction,
    # round 2 half entered with an undone deal, a withdrawal.
    t = tournaments.tournament_create(
        name="Coupe d'hiver", date=dt.date(2026, 11, 29), rounds=3, deals_per_round=2,
        created_by=director,
    )  # fmt: skip
    for p in players[:9]:
        tournaments.entry_register(tournament=t, player=p)
    t = tournaments.tournament_start(tournament=t)
    for rnd in (1, 2):
        for table in Table.objects.filter(tournament=t, round=rnd).order_by("number"):
            game = table.game
            planned = game.options["deals"] if rnd == 1 else 1
            for i in range(planned):
                seats = seat_players(game)
                dealer = tarot.dealer_for(game, i + 1, seats)
                active = tarot.active_players(game, dealer, seats)
                tarot.deal_add(
                    game=game,
                    data=tarot.DealInput(
                        taker=active[i % len(active)].pk,
                        contract=("prise", "garde", "garde_sans")[i % 3],
                        bouts=1 + i % 3,
                        points=(44, 58, 37, 66, 51)[(i + table.number) % 5],
                    ),
                    user=member,
                )
            first = game.deals.get(number=1)
            if rnd == 1:
                tarot.deal_correct(
                    deal=first,
                    data=tarot.DealInput(
                        taker=first.taker_id, contract="garde", bouts=2, points=61
                    ),
                    expected_version=first.version,
                    user=director,
                )
                tournaments.table_confirm(table=table)
            else:
                tarot.deal_undo_last(game=game, number=1, user=member)
                tarot.deal_add(
                    game=game,
                    data=tarot.DealInput(
                        taker=tarot.active_players(
                            game, tarot.dealer_for(game, 1), seat_players(game)
                        )[1].pk,
                        contract="prise",
                        bouts=2,
                        points=47,
                    ),
                )
        if rnd == 1:
            t = tournaments.tournament_next_round(tournament=t)
    tournaments.entry_withdraw(entry=Entry.objects.get(tournament=t, player=players[8]))

    # a tournament still taking registrations
    later = tournaments.tournament_create(
        name="Tournoi de printemps", date=dt.date(2027, 3, 20), rounds=4
    )
    for p in players[3:7]:
        tournaments.entry_register(tournament=later, player=p)
    tournaments.entry_register(tournament=later, guest_name="Invitée Zoë")

    # a casual tarot game at five, finished
    casual = games.game_start(players=players[:5], first_dealer=1, created_by=member, name="Mardi")
    for i in range(4):
        seats = seat_players(casual)
        tarot.deal_add(
            game=casual,
            data=tarot.DealInput(
                taker=seats[(i + 2) % 5].pk,
                partner=seats[(i + 3) % 5].pk,
                contract="garde",
                bouts=i % 4,
                points=(41, 56, 62, 49)[i],
                petit_au_bout="attack" if i == 1 else "",
            ),
            user=member,
        )
    games.game_finish(game=casual, user=member)

    # the other games
    a, b, c = players[:3]
    ff = games.game_start(players=[a, b, c], kind="foolsfaith", created_by=member)
    for _ in range(2):
        records.record_add(game=ff, data=tricks([a, b, c], 6, 1, 1), user=member)
    ff.refresh_from_db()
    song = challenges.challenge_create(text="Chanter une chanson")
    dance = challenges.challenge_create(text="Danser la polka")
    challenges.challenges_award(game=ff, awards=[(song.pk, b.pk), (dance.pk, c.pk)], user=member)
    dp = games.game_start(players=[a, b, c], kind="deathspot", options={"stake": 1})
    for death in (a, b, c, a):
        records.record_add(game=dp, data={"death": death.pk})
    record = dp.records.get(number=2)
    records.record_correct(
        record=record, data={"death": c.pk}, expected_version=record.version, user=director
    )
    kk = games.game_start(players=[a, b, c], kind="keys")
    suits = {a.pk: "hearts", b.pk: "spades", c.pk: "clubs"}
    records.record_add(game=kk, data={"suits": suits, "winner": a.pk, "keys": {b.pk: 3, c.pk: 1}})
    ck = games.game_start(players=[a, b, c], kind="cuckoo", options={"lives": 2})
    records.record_add(game=ck, data={"cards": {a.pk: "owl", b.pk: "XII", c.pk: "I"}})

    # history outside the games' own
    code = action("club.test", "test entry")
    log_action(players[1], code, user=director, before={"name": "Bart"}, after={"name": names[1]})
    log_action(t, code, user=None, after={"round": 2})
    return {"tournament": t.pk, "casual": casual.pk, "foolsfaith": ff.pk}


def fingerprint() -> dict:
    """Everything the standings pages and the sheets show, in a comparable form."""
    from django.apps import apps
    from django.db.models import Max, Sum

    from tarotclub.core.models import LogEntry
    from tarotclub.games import kinds
    from tarotclub.games.models import Change, Game
    from tarotclub.kinds.tarot.models import Deal, DealLine
    from tarotclub.tournaments import selectors as tournament_selectors
    from tarotclub.tournaments.models import Tournament

    result: dict = {"tournaments": {}, "tarot": {}, "others": {}, "zero_sum": True}
    for t in Tournament.objects.order_by("pk"):
        standings = tournament_selectors.standings(t)
        result["tournaments"][t.pk] = [
            [
                str(row.rank),
                row.player.name,
                row.total,
                sorted(row.rounds.items()),
                str(row.average),
                row.withdrawn,
            ]
            for row in standings.rows
        ]
    for game in Game.objects.order_by("pk"):
        if game.kind == "tarot":
            totals = dict(
                DealLine.objects.filter(deal__game=game)
                .values_list("player__name")
                .annotate(total=Sum("score"))
                .values_list("player__name", "total")
            )
            result["tarot"][game.pk] = sorted(totals.items())
        else:
            result["others"][game.pk] = repr(kinds.get(game.kind).load(game).state)
    for deal in Deal.objects.prefetch_related("lines"):
        lines = list(deal.lines.all())
        if not lines or sum(x.score for x in lines) != 0:
            result["zero_sum"] = False
    result["changes"] = sorted(
        Counter(Change.objects.values_list("game_id", "action")).items(), key=str
    )
    result["history"] = list(
        LogEntry.objects.order_by("pk").values_list(
            "action", "object_repr", "user__username", "before", "after"
        )
    )
    counts, max_ids = {}, {}
    for model in apps.get_models():
        if model._meta.app_label in ("contenttypes", "sessions", "axes") or model._meta.label in (
            "auth.Permission",
        ):
            continue
        counts[model._meta.label] = model._base_manager.count()
        max_ids[model._meta.label] = model._base_manager.aggregate(m=Max("pk"))["m"]
    result["counts"] = counts
    result["max_ids"] = max_ids
    return json.loads(json.dumps(result, default=str))


def new_records() -> dict:
    """Create a player, a game with a deal and a history entry; their ids (fresh or not)."""
    from tarotclub.core.models import action, log_action
    from tarotclub.games import services as games
    from tarotclub.kinds.tarot import services as tarot
    from tarotclub.players.models import Player
    from tarotclub.players.services import player_create

    before = fingerprint()["max_ids"]
    newcomer = player_create(name="Nouvelle Venue")
    players = [newcomer, *Player.objects.exclude(pk=newcomer.pk).order_by("pk")[:3]]
    game = games.game_start(players=players)
    deal = tarot.deal_add(
        game=game,
        data=tarot.DealInput(taker=newcomer.pk, contract="prise", bouts=1, points=50),
    )
    entry = log_action(newcomer, action("club.test", "test entry"), after={"new": True})
    return {
        "before": before,
        "ids": {
            "players.Player": newcomer.pk,
            "games.Game": game.pk,
            "tarot.Deal": deal.pk,
            "core.LogEntry": entry.pk,
        },
    }


def write_during_backup(*paths: str, writers: int = 3) -> dict:
    """Threads enter deals in their own games while each backup in `paths` is taken."""
    import threading

    from django.core.management import call_command
    from django.db import connection

    from tarotclub.games import services as games
    from tarotclub.games.selectors import seat_players
    from tarotclub.kinds.tarot import services as tarot
    from tarotclub.kinds.tarot.models import Deal
    from tarotclub.players.services import player_create

    tables = []
    for w in range(writers):
        seated = [player_create(name=f"Writer {w} seat {s}") for s in range(4)]
        tables.append(games.game_start(players=seated, name=f"Writer {w}"))
    stop = threading.Event()
    errors: list[str] = []

    def write(game) -> None:
        try:
            i = 0
            while not stop.is_set():
                seats = seat_players(game)
                tarot.deal_add(
                    game=game,
                    data=tarot.DealInput(
                        taker=seats[i % 4].pk, contract="prise", bouts=1 + i % 3, points=40 + i % 30
                    ),
                )
                i += 1
        except Exception as e:  # reported to the test, which fails on any
            errors.append(repr(e))
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(g,)) for g in tables]
    for thread in threads:
        thread.start()
    windows = []
    try:
        for path in paths:
            while Deal.objects.filter(game__in=tables).count() < 5 * len(windows) + 5:
                stop.wait(0.01)
            start = Deal.objects.filter(game__in=tables).count()
            call_command("backup", path, verbosity=0, stdout=io.StringIO())
            windows.append(
                {
                    "deals_at_start": start,
                    "deals_at_end": Deal.objects.filter(game__in=tables).count(),
                }
            )
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    return {"errors": errors, "windows": windows}


def consistency() -> dict:
    """What a torn backup would break: deals without lines, gaps, missing history."""
    from django.db.models import Count, Sum

    from tarotclub.games.models import Change, ChangeAction, Game
    from tarotclub.kinds.tarot.models import Deal

    problems = []
    for deal in Deal.objects.annotate(n=Count("lines"), total=Sum("lines__score")):
        if deal.n not in (3, 4, 5) or deal.total != 0:
            problems.append(f"deal {deal.pk}: {deal.n} lines, sum {deal.total}")
    writer_deals = 0
    for game in Game.objects.filter(name__startswith="Writer "):
        numbers = list(game.deals.order_by("number").values_list("number", flat=True))
        writer_deals += len(numbers)
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"game {game.pk}: deal numbers {numbers}")
        recorded = Change.objects.filter(game=game, action=ChangeAction.RECORDED).count()
        if recorded != len(numbers) or game.revision != len(numbers):
            problems.append(
                f"game {game.pk}: {len(numbers)} deals, {recorded} entries, "
                f"revision {game.revision}"
            )
    return {"problems": problems, "writer_deals": writer_deals, "counts": fingerprint()["counts"]}


def main(argv: list[str]) -> None:
    """`python -m tests.core.club build|fingerprint|new` against the configured database."""
    import django

    django.setup()
    from django.db import transaction

    command = argv[0]
    if command == "build":
        with transaction.atomic():
            out = build()
    elif command == "fingerprint":
        out = fingerprint()
    elif command == "new":
        out = new_records()
    elif command == "write-during-backup":
        out = write_during_backup(*argv[1:])
    elif command == "consistency":
        out = consistency()
    else:
        raise SystemExit(f"unknown command {command!r}")
    sys.stdout.write(json.dumps(out, default=str))


if __name__ == "__main__":
    main(sys.argv[1:])
