"""Build tournaments quickly (for the tests and the bench) and the demo club's data.

`demo_club(user)` builds a club that shows every page with real data: a finished and a running
tournament, a finished duplicate one, a finished triplette one and a finished quadrette one,
tarot at five with long names (petit au bout, poignées, a chelem), one game of each other kind,
a guest, and Fool's Faith challenge cards given.
"""

from __future__ import annotations

import datetime as dt
import itertools
from fractions import Fraction

from tarotclub.games import selectors as game_selectors
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.tournaments import services
from tarotclub.tournaments.models import Table

_names = itertools.count()


def make_tournament(n_players: int, *, rounds: int = 5, deals: int = 4, **kwargs):
    t = services.tournament_create(
        name="Test cup", date=dt.date(2026, 11, 29), rounds=rounds, deals_per_round=deals, **kwargs
    )
    players = Player.objects.bulk_create(
        Player(name=f"Player {next(_names):04d}", licence=f"L{i:05d}") for i in range(n_players)
    )
    for p in players:
        services.entry_register(tournament=t, player=p)
    return t, players


def play_table(table: Table, *, points_for=lambda i: 51 + 3 * i, confirm: bool = True) -> None:
    """Enter every planned deal of a table (the first player who is not dealing takes)."""
    game = table.game
    planned = game.options["deals"]
    for i in range(game.deals.count(), planned):
        players = game_selectors.seat_players(game)
        dealer = tarot.dealer_for(game, i + 1, players)
        active = tarot.active_players(game, dealer, players)
        taker = active[i % len(active)]
        tarot.deal_add(
            game=game,
            data=tarot.DealInput(taker=taker.pk, contract="prise", bouts=1, points=points_for(i)),
        )
    if confirm:
        services.table_confirm(table=table)


def play_round(t, **kwargs) -> None:
    for table in Table.objects.filter(tournament=t, round=t.current_round):
        play_table(table, **kwargs)


# The demo club ------------------------------------------------------------------------------

ROSTER = [
    ("Amélie Dubois", "Amé", "1234567"),
    ("Bart Peeters", "", "2345678"),
    ("Claire Martin", "", ""),
    ("Daan de Vries", "Daan", "3456789"),
    ("Élodie Leroy", "", "4567890"),
    ("Fien Janssens", "", ""),
    ("Gilles Moreau", "Gil", "5678901"),
    ("Hanneke Bakker", "", ""),
    ("Isabelle Girard", "", "6789012"),
    ("Jeroen Visser", "", ""),
    ("Karine Lambert", "", "7890123"),
    ("Luc Wouters", "", ""),
    ("Manon Petit", "", "8901234"),
    ("Nico Hendriks", "", ""),
    ("Odile Fontaine", "", ""),
    ("Pieter Maes", "", "9012345"),
    ("Quentin Roux", "", ""),
]
#: Long names, the kind a phone's columns must hold.
LONG_NAMES = [
    ("Marie-Christine Vandenbroucke", "", "1122334"),
    ("Jean-Baptiste Delacroix-Fontaine", "", ""),
    ("Anne-Sophie van den Heuvel", "", "2233445"),
    ("Wilhelmina Vandermeulen", "Mien", ""),
    ("Maximilien de Saint-Exupéry", "", "3344556"),
]
#: A guest registered at the running tournament (a player marked as a guest).
GUEST = "Zoë Invitée-Verstraete"

FRIDAY = "Vendredi des grands noms"


def _roster(rows) -> list[Player]:
    from tarotclub.players.services import player_create

    players = []
    for name, nickname, licence in rows:
        existing = Player.objects.filter(name=name).first()
        players.append(existing or player_create(name=name, nickname=nickname, licence=licence))
    return players


def _deal(game, user, **data) -> None:
    tarot.deal_add(game=game, data=tarot.DealInput(**data), user=user)


def demo_tarot(user, players, long_names) -> dict:
    """A finished game at four, a running one at five with long names and every bonus."""
    from tarotclub.games import services as games

    a, b, c, d, e = players[:5]
    finished = games.game_start(
        players=[a, b, c, d], first_dealer=0, created_by=user, name="Jeudi soir"
    )
    for deal in [
        dict(taker=a.pk, contract="garde", bouts=2, points=49, petit_au_bout="attack",
             poignees=((a.pk, "simple"),)),
        dict(taker=b.pk, contract="prise", bouts=1, points=48),
        dict(taker=c.pk, contract="garde_sans", bouts=1, points=55, petit_au_bout="defence"),
        dict(taker=d.pk, contract="prise", bouts=2, points=Fraction(81, 2)),
        dict(taker=a.pk, contract="garde", bouts=3, points=47, poignees=((b.pk, "simple"),)),
        dict(taker=c.pk, contract="prise", bouts=0, points=58),
    ]:  # fmt: skip
        _deal(finished, user, **deal)
    games.game_finish(game=finished, user=user)

    mc, jb, ans, wv, mx = long_names
    five = games.game_start(players=long_names, first_dealer=1, created_by=user, name=FRIDAY)
    for deal in [
        dict(taker=mc.pk, partner=ans.pk, contract="garde", bouts=2, points=52,
             petit_au_bout="attack", poignees=((mc.pk, "simple"),)),
        dict(taker=jb.pk, partner=jb.pk, contract="prise", bouts=1, points=Fraction(81, 2)),
        dict(taker=wv.pk, partner=mx.pk, contract="garde_sans", bouts=3, points=91,
             petit_au_bout="attack", chelem="announced_made", poignees=((wv.pk, "double"),)),
        dict(taker=mx.pk, partner=mc.pk, contract="garde_contre", bouts=1, points=38,
             petit_au_bout="defence", poignees=((jb.pk, "simple"), (ans.pk, "simple"))),
        dict(taker=ans.pk, partner=wv.pk, contract="prise", bouts=2, points=44),
        dict(taker=mc.pk, partner=jb.pk, contract="garde", bouts=0, points=63,
             poignees=((mc.pk, "triple"),)),
        dict(taker=jb.pk, partner=mx.pk, contract="prise", bouts=1, points=50),
    ]:  # fmt: skip
        _deal(five, user, **deal)

    ongoing = games.game_start(
        players=[b, c, d, e, players[5]], first_dealer=2, created_by=user, name="Club du mardi"
    )
    for deal in [
        dict(taker=c.pk, partner=e.pk, contract="garde", bouts=2, points=52),
        dict(taker=d.pk, partner=d.pk, contract="prise", bouts=1, points=Fraction(101, 2)),
        dict(taker=e.pk, partner=b.pk, contract="garde", bouts=3, points=60,
             poignees=((e.pk, "simple"),)),
    ]:  # fmt: skip
        _deal(ongoing, user, **deal)
    return {"finished": finished, "five": five, "ongoing": ongoing}


def demo_other_kinds(user, players, long_names) -> dict:
    """One game of each other kind: Fool's Faith over with its challenge cards given,
    Death's Pot at six, Keys of the Kingdom at four, Cuckoo at eight."""
    from tarotclub.games import services as games
    from tarotclub.kinds.foolsfaith import services as challenges

    def tricks(seated, *counts):
        return {"tricks": {p.pk: n for p, n in zip(seated, counts, strict=True)}}

    ff_players = [players[6], long_names[0], players[7], long_names[3], players[8]]
    ff = games.game_start(players=ff_players, kind="foolsfaith", created_by=user, name="Foi du fou")
    for counts in [(3, 2, 1, 1, 1), (2, 2, 2, 1, 1), (1, 4, 1, 1, 1)]:  # a tie, then 2 cards
        games.record_add(game=ff, data=tricks(ff_players, *counts), user=user)
    ff.refresh_from_db()
    challenges.challenges_suggest(user=user)
    from tarotclub.kinds.foolsfaith.models import Challenge

    sing, joke = Challenge.objects.order_by("order")[:2]
    challenges.challenges_award(
        game=ff, awards=[(sing.pk, ff_players[0].pk), (joke.pk, ff_players[4].pk)], user=user
    )

    dp_players = [*players[9:13], long_names[1], long_names[4]]
    dp = games.game_start(
        players=dp_players, kind="deathspot", created_by=user, options={"stake": 2}
    )
    p = [x.pk for x in dp_players]
    for data in [
        {"death": p[2]},
        {"excuse": p[0], "trump1": p[3], "trump11": None,
         "tricks": {p[0]: 4, p[1]: 2, p[2]: 2, p[3]: 1, p[4]: 2, p[5]: 1}},
        {"excuse": None, "trump1": None, "trump11": p[4],
         "tricks": {p[0]: 2, p[1]: 3, p[2]: 3, p[3]: 2, p[4]: 1, p[5]: 1}},
        {"death": p[5]},
    ]:  # fmt: skip
        games.record_add(game=dp, data=data, user=user)

    kk_players = [players[13], players[14], long_names[2], players[15]]
    kk = games.game_start(players=kk_players, kind="keys", created_by=user)
    a, b, c, d = (x.pk for x in kk_players)
    for data in [
        {"suits": {a: "hearts", b: "spades", c: "diamonds", d: "clubs"}, "winner": c,
         "keys": {a: 3, b: 1, d: 4}, "guards": {c: 2}},
        {"suits": {a: "clubs", b: "hearts", c: "spades", d: "diamonds"}, "winner": a,
         "keys": {b: 2, c: 5, d: 0}},
        {"suits": {a: "spades", b: "diamonds", c: "hearts", d: "clubs"}, "winner": d,
         "keys": {a: 1, b: 4, c: 2}, "guards": {a: 1}},
    ]:  # fmt: skip
        games.record_add(game=kk, data=data, user=user)

    ck_players = [players[16], *long_names[:3], players[0], players[1], players[3], players[5]]
    ck = games.game_start(players=ck_players, kind="cuckoo", created_by=user, options={"lives": 3})
    q = [x.pk for x in ck_players]
    ranks = ["owl", "XII", "I", "cuckoo", "V", "house", "III", "IX"]
    games.record_add(game=ck, data={"cards": dict(zip(q, ranks, strict=True))}, user=user)
    ranks = ["X", "pot", "horse", "II", "VII", "VII", "cat", "IV"]
    games.record_add(
        game=ck, data={"cards": dict(zip(q, ranks, strict=True)), "swap_losses": {q[3]: 1}},
        user=user,
    )  # fmt: skip
    # a short match played to its end (one life each), so Cuckoo's figures show too
    short = [players[0], players[1], players[3]]
    done = games.game_start(players=short, kind="cuckoo", created_by=user, options={"lives": 1})
    a, b, c = (x.pk for x in short)
    games.record_add(game=done, data={"cards": {a: "XII", b: "III", c: "V"}}, user=user)
    games.record_add(game=done, data={"cards": {a: "X", c: "II"}}, user=user)
    return {"foolsfaith": ff, "deathspot": dp, "keys": kk, "cuckoo": ck}


def _play_demo_round(t, rnd: int, user, *, half_from: int | None = None) -> None:
    """Enter round `rnd` of `t`: every table, or from table `half_from` on only half the
    deals and no confirmation (a round in progress)."""
    from tarotclub.tournaments import services as tournaments

    contracts = ["prise", "garde", "prise", "garde_sans", "garde"]
    for table in Table.objects.filter(tournament=t, round=rnd).order_by("number"):
        game = table.game
        planned = game.options["deals"]
        partial = half_from is not None and table.number >= half_from
        for i in range(planned // 2 if partial else planned):
            seats = game_selectors.seat_players(game)
            dealer = tarot.dealer_for(game, i + 1, seats)
            active = tarot.active_players(game, dealer, seats)
            tarot.deal_add(
                game=game,
                data=tarot.DealInput(
                    taker=active[(i + table.number) % len(active)].pk,
                    contract=contracts[(i + rnd) % len(contracts)],
                    bouts=1 + (i % 3),
                    points=[53, 44, 47, 40, 58][(i + table.number + rnd) % 5],
                    petit_au_bout="attack" if (i + table.number) % 4 == 0 else None,
                ),
                user=user,
            )
        if not partial:
            tournaments.table_confirm(table=table, user=user)


def demo_tournaments(user, players, long_names) -> dict:
    """A finished tournament, one in its second round (partly entered, with a guest),
    and one still taking registrations."""
    from tarotclub.tournaments import services as tournaments

    today = dt.date.today()
    done = tournaments.tournament_create(
        name="Coupe d'automne", date=today - dt.timedelta(days=28), place="Café De Kroon",
        rounds=2, deals_per_round=2, created_by=user, seed=20261103,
    )  # fmt: skip
    for p in [*players[:6], *long_names[:3]]:
        tournaments.entry_register(tournament=done, player=p, user=user)
    done = tournaments.tournament_start(tournament=done, user=user)
    for rnd in (1, 2):
        _play_demo_round(done, rnd, user)
        done = tournaments.tournament_next_round(tournament=done, user=user)

    running = tournaments.tournament_create(
        name="Tournoi de la Saint-Nicolas", date=today, place="Salle des fêtes",
        rounds=4, deals_per_round=4, created_by=user, seed=20261206,
    )  # fmt: skip
    for p in [*players[:12], long_names[4]]:
        tournaments.entry_register(tournament=running, player=p, user=user)
    guest = Player.objects.filter(name=GUEST).first()  # a guest of an earlier load
    tournaments.entry_register(tournament=running, player=guest, guest_name=GUEST, user=user)
    running = tournaments.tournament_start(tournament=running, user=user)
    _play_demo_round(running, 1, user)
    running = tournaments.tournament_next_round(tournament=running, user=user)
    _play_demo_round(running, 2, user, half_from=2)

    spring = tournaments.tournament_create(
        name="Tournoi de printemps", date=today + dt.timedelta(days=110), place="De Zwaan",
        rounds=5, deals_per_round=4, created_by=user,
    )  # fmt: skip
    for p in players[3:9]:
        tournaments.entry_register(tournament=spring, player=p, user=user)
    duplicate = demo_duplicate(user, players)
    triplettes = demo_triplettes(user, players)
    quadrettes = demo_quadrettes(user, players)
    return {
        "finished": done,
        "running": running,
        "registration": spring,
        "duplicate": duplicate,
        "triplettes": triplettes,
        "quadrettes": quadrettes,
    }


def demo_quadrettes(user, players):
    """A finished quadrette tournament: 4 teams of 4 (one attacker each), 2 rounds of 4
    boards, every board scored (the visiting attacker and garde imposed), so its teams,
    oppositions and ranking by match points show real figures."""
    from tarotclub.tournaments import quadrette_services
    from tarotclub.tournaments import services as tournaments
    from tarotclub.tournaments.models import Table

    t = tournaments.tournament_create(
        name="Quadrettes du vendredi", date=dt.date.today(), place="De Zwaan", rounds=2,
        deals_per_round=4, format="quadrette", created_by=user,
    )  # fmt: skip
    names = ["Les Excuses", "Petit au bout", "Les Gardes", "Les Poignées"]
    for i, name in enumerate(names):
        four = players[4 * i : 4 * i + 4]
        quadrette_services.quadrette_register(
            tournament=t, team=name, attacker=four[0], defenders=four[1:], user=user
        )
    t = tournaments.tournament_start(tournament=t, user=user)
    for rnd in (1, 2):
        for table in Table.objects.filter(tournament=t, round=rnd).select_related("game"):
            game = table.game
            for i, (taker, contract) in enumerate(game.options["imposed"], start=1):
                gap = (5 * game.options["boards"][i - 1] + 7 * table.number + rnd) % 13
                points = 51 + gap if (i + table.number) % 3 else 51 - 1 - gap
                tarot.deal_add(
                    game=game,
                    data=tarot.DealInput(taker=taker, contract=contract, bouts=1, points=points),
                    user=user,
                )
            tournaments.table_confirm(table=table, user=user)
        t = tournaments.tournament_next_round(tournament=t, user=user)
    return t


def demo_triplettes(user, players):
    """A finished triplette tournament: 4 teams of 3 on 2 tables, 2 rounds of 4 boards, every
    board scored (the attacker and garde imposed), so its teams, guide cards, grading and
    rankings show real figures."""
    from tarotclub.tournaments import services as tournaments
    from tarotclub.tournaments import triplette_services
    from tarotclub.tournaments.models import Table

    t = tournaments.tournament_create(
        name="Triplettes du jeudi", date=dt.date.today(), place="De Zwaan", rounds=2,
        deals_per_round=4, format="triplette", created_by=user, seed=20261203,
    )  # fmt: skip
    names = ["Les Rois", "Les Dames", "Les Valets", "Les Cavaliers"]
    for i, name in enumerate(names):
        triplette_services.triplette_register(
            tournament=t, team=name, members=players[3 * i : 3 * i + 3], user=user
        )
    t = tournaments.tournament_start(tournament=t, user=user)
    for rnd in (1, 2):
        for table in Table.objects.filter(tournament=t, round=rnd).select_related("game"):
            game = table.game
            for i, (taker, contract) in enumerate(game.options["imposed"], start=1):
                gap = (7 * game.options["boards"][i - 1] + 3 * table.number + rnd) % 11
                points = 51 + gap if (i + table.number + rnd) % 3 else 51 - 1 - gap
                tarot.deal_add(
                    game=game,
                    data=tarot.DealInput(taker=taker, contract=contract, bouts=1, points=points),
                    user=user,
                )
            tournaments.table_confirm(table=table, user=user)
        t = tournaments.tournament_next_round(tournament=t, user=user)
    return t


def demo_duplicate(user, players):
    """A finished duplicate tournament: 3 tables, 3 rounds of 4 boards, every board scored
    (taker and garde imposed, a different result at each table), so its boards, guide cards,
    grading, rankings and records show real figures."""
    from tarotclub.tournaments import services as tournaments
    from tarotclub.tournaments.models import Table

    t = tournaments.tournament_create(
        name="Duplicate de l'Avent", date=dt.date.today() - dt.timedelta(days=14),
        place="Café De Kroon", rounds=3, deals_per_round=4, format="duplicate", tables=3,
        created_by=user,
    )  # fmt: skip
    for p in players[:12]:
        tournaments.entry_register(tournament=t, player=p, user=user)
    t = tournaments.tournament_start(tournament=t, user=user)
    for rnd in (1, 2, 3):
        for table in Table.objects.filter(tournament=t, round=rnd).select_related("game"):
            game = table.game
            for i, (taker, contract) in enumerate(game.options["imposed"], start=1):
                gap = (7 * game.options["boards"][i - 1] + 5 * table.number) % 11
                points = 51 + gap if (i + table.number) % 3 else 51 - 1 - gap
                tarot.deal_add(
                    game=game,
                    data=tarot.DealInput(taker=taker, contract=contract, bouts=1, points=points),
                    user=user,
                )
            tournaments.table_confirm(table=table, user=user)
        t = tournaments.tournament_next_round(tournament=t, user=user)
    return t


def demo_season(user, players, tournaments: dict) -> object:
    """The club championship: the finished and the running tournament, tonight's casual
    games and three earlier evenings of casual games (six evenings), points by place."""
    from django.utils import timezone

    from tarotclub.games.models import Game
    from tarotclub.games.services import game_start
    from tarotclub.seasons.services import season_create

    today = dt.date.today()
    for weeks in (3, 2, 1):
        table = players[weeks : weeks + 4]
        game = game_start(players=table, first_dealer=0, created_by=user)
        for i in range(3):
            _deal(game, user, taker=table[(i + weeks) % 4].pk, contract="garde" if i else "prise",
                  bouts=1 + i % 3, points=[47, 55, 38][(i + weeks) % 3])  # fmt: skip
        # an earlier club evening: the game is dated that evening (no service sets a date)
        when = timezone.now() - dt.timedelta(weeks=weeks)
        Game.objects.filter(pk=game.pk).update(created_at=when)
    return season_create(
        name="Championnat du club", start=today - dt.timedelta(days=60),
        end=today + dt.timedelta(days=120), formula="places", best_n=5, include_casual=True,
        tournaments=[tournaments["finished"], tournaments["running"]], user=user,
    )  # fmt: skip


def demo_keys_season(user, players, long_names) -> object:
    """A season of another game: Keys of the Kingdom, the sessions of three earlier evenings
    and tonight's (four evenings), ranked by the total of the players beaten."""
    from django.utils import timezone

    from tarotclub.games import services as games
    from tarotclub.games.models import Game
    from tarotclub.seasons.services import season_create

    suits = ("hearts", "spades", "diamonds", "clubs")
    club = [players[13], players[14], long_names[2], players[15], players[12]]
    for weeks in (3, 2, 1):
        table = [club[(weeks + i) % len(club)] for i in range(4)]
        session = games.game_start(players=table, kind="keys", created_by=user)
        pks = [p.pk for p in table]
        for n, (winner, held) in enumerate([(weeks % 4, (2, 4, 1)), ((weeks + 2) % 4, (3, 3, 0))]):
            losers = [pk for i, pk in enumerate(pks) if i != winner]
            data = {
                "suits": {pk: suits[(i + n) % 4] for i, pk in enumerate(pks)},
                "winner": pks[winner],
                "keys": dict(zip(losers, held, strict=True)),
            }
            games.record_add(game=session, data=data, user=user)
        when = timezone.now() - dt.timedelta(weeks=weeks)
        Game.objects.filter(pk=session.pk).update(created_at=when)
    today = dt.date.today()
    return season_create(
        name="Coupe des Clés", kind="keys", start=today - dt.timedelta(days=60),
        end=today + dt.timedelta(days=120), formula="total", user=user,
    )  # fmt: skip


def demo_club(user=None) -> dict:
    """The whole demo club; `user` (or None) is who enters everything."""
    players = _roster(ROSTER)
    long_names = _roster(LONG_NAMES)
    built = {"players": players, "long_names": long_names}
    built.update(demo_tarot(user, players, long_names))
    built.update(demo_other_kinds(user, players, long_names))
    built["tournaments"] = demo_tournaments(user, players, long_names)
    built["season"] = demo_season(user, players, built["tournaments"])
    built["kind_season"] = demo_keys_season(user, players, long_names)
    from tarotclub.matches.demo import demo_team_match

    built["team_match"] = demo_team_match(user, players, long_names)
    return built
