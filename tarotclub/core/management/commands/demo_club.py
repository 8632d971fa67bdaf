"""Load a small demo club: an account, a roster and two games with real deals."""

from __future__ import annotations

from fractions import Fraction

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tarotclub.games import services as games
from tarotclub.games.models import Game
from tarotclub.players.models import Player
from tarotclub.players.services import player_create

DEMO_USER = "demo"
DEMO_PASSWORD = "demo-tarot"

ROSTER = [
    ("Amélie Dubois", "Amé", "1234567"),
    ("Bart Peeters", "", "2345678"),
    ("Claire Martin", "", ""),
    ("Daan de Vries", "Daan", "3456789"),
    ("Élodie Leroy", "", "4567890"),
    ("Fien Janssens", "", ""),
    ("Gilles Moreau", "Gil", "5678901"),
    ("Hanneke Bakker", "", ""),
]


class Command(BaseCommand):
    help = "Create the demo account, players and games (with --if-empty: only on an empty site)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when players already exist"
        )

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if if_empty and (Player.objects.exists() or Game.objects.exists()):
            self.stdout.write("The database already has a club; demo not loaded.")
            return
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USER, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
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
            games.deal_record(game=finished, data=games.DealInput(**deal), user=user)
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
            games.deal_record(game=ongoing, data=games.DealInput(**deal), user=user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club loaded: log in as '{DEMO_USER}' with password '{DEMO_PASSWORD}'."
            )
        )
