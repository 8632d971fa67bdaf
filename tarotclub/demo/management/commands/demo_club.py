"""Load a small demo club: a roster, games with real deals, and (dev settings only) an account."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tarotclub.core.security import DEMO_PASSWORD, DEMO_USER
from tarotclub.demo.builders import ROSTER, demo_club
from tarotclub.games.models import Game
from tarotclub.players.models import Player

__all__ = ["ROSTER", "Command"]


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
        demo_club(user)
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
