"""Load a small demo club: a roster, games with real deals, and (dev settings only) an account."""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tarotclub.core.security import DEMO_PASSWORD, DEMO_USER
from tarotclub.games import services as games
from tarotclub.games.models import Game
from tarotclub.games.selectors import seat_players
from tarotclub.kinds.tarot import services as tarot
from tarotclub.players.models import Player
from tarotclub.players.services import player_create

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


class Command(BaseCommand):
    help = (
        "Create the demo players and games, and the demo account under the development "
        "settings only (with --if-empty: only on an empty site)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when players already exist"
        )

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if if_empty and (Player.objects.exists() or Game.objects.exists()):
            self.stdout.write("The database already has a club; demo not loaded.")
            return
        user = self._account()
        players = []
        for name, nickname, licence in ROSTER:
            existing = Player.objects.filter(name=name).first()
            players.append(existing or player_create(name=name, nickname=nickname, licence=licence))
        a, b, c, d, e = players[:5]
        finished = games.game_start(
            players=[a, b, c, d], first_dealer=0, created_by=user, name="Jeudi soir"
        )
        for deal in [
            dict(
                taker=a.pk,
                contract="garde",
                bouts=2,
                points=49,
                petit_au_bout="attack",
                poignees=((a.pk, "simple"),),
            ),
            dict(taker=b.pk, contract="prise", bouts=1, points=48),
            dict(taker=c.pk, contract="garde_sans", bouts=1, points=55, petit_au_bout="defence"),
            dict(taker=d.pk, contract="prise", bouts=2, points=Fraction(81, 2)),
            dict(taker=a.pk, contract="garde", bouts=3, points=47, poignees=((b.pk, "simple"),)),
            dict(taker=c.pk, contract="prise", bouts=0, points=58),
        ]:
            tarot.deal_add(game=finished, data=tarot.DealInput(**deal), user=user)
        games.game_finish(game=finished, user=user)

        ongoing = games.game_start(
            players=[b, c, d, e, players[5]], first_dealer=2, created_by=user, name="Club du mardi"
        )
        for deal in [
            dict(taker=c.pk, partner=e.pk, contract="garde", bouts=2, points=52),
            dict(taker=d.pk, partner=d.pk, contract="prise", bouts=1, points=Fraction(101, 2)),
            dict(
                taker=e.pk,
                partner=b.pk,
                contract="garde",
                bouts=3,
                points=60,
                poignees=((e.pk, "simple"),),
            ),
        ]:
            tarot.deal_add(game=ongoing, data=tarot.DealInput(**deal), user=user)
        self._tournament(user, players)
        if user is None:
            self.stdout.write(
                self.style.SUCCESS(
                    "Demo club loaded, without the demo account: it exists only under the "
                    "development settings (make run)."
                )
            )
        else:
            self.stdout.write(
                self.style.SUCCESS(
                    f"Demo club loaded: log in as '{DEMO_USER}' with password '{DEMO_PASSWORD}'."
                )
            )

    def _account(self):
        """The demo account, whose password is published: under the dev settings only."""
        if not getattr(settings, "TAROTCLUB_DEMO_ACCOUNT", False):
            return None
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USER, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        return user

    def _tournament(self, user, players) -> None:
        """A club evening in its second round: round 1 confirmed, round 2 half entered."""
        import datetime as dt

        from tarotclub.tournaments import services as tournaments
        from tarotclub.tournaments.models import Table

        t = tournaments.tournament_create(
            name="Tournoi de la Saint-Nicolas",
            date=dt.date.today(),
            place="Salle des fêtes",
            rounds=4,
            deals_per_round=4,
            created_by=user,
        )
        for p in players[:13]:
            tournaments.entry_register(tournament=t, player=p)
        t = tournaments.tournament_start(tournament=t)
        contracts = ["prise", "garde", "prise", "garde_sans", "garde"]
        for rnd in (1, 2):
            for table in Table.objects.filter(tournament=t, round=rnd).order_by("number"):
                game = table.game
                planned = game.options["deals"]
                todo = planned if rnd == 1 or table.number == 1 else planned // 2
                for i in range(todo):
                    seats = seat_players(game)
                    dealer = tarot.dealer_for(game, i + 1, seats)
                    active = tarot.active_players(game, dealer, seats)
                    data = tarot.DealInput(
                        taker=active[(i + table.number) % len(active)].pk,
                        contract=contracts[(i + rnd) % len(contracts)],
                        bouts=1 + (i % 3),
                        points=[53, 44, 47, 40, 58][(i + table.number) % 5],
                    )
                    tarot.deal_add(game=game, data=data, user=user)
                if rnd == 1 or table.number == 1:
                    tournaments.table_confirm(table=table)
            if rnd == 1:
                t = tournaments.tournament_next_round(tournament=t)
