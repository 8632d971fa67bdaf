from django.core.management.base import BaseCommand

from tarotclub.ratings.services import ratings_refresh


class Command(BaseCommand):
    help = "Rate every French Tarot game again from the start (the ratings are derived data)."

    def handle(self, *args, **options):
        done = ratings_refresh(full=True)
        self.stdout.write(f"{done.games} games rated, {done.events} rating changes.")
