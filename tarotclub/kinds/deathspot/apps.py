from django.apps import AppConfig


class DeathsPotConfig(AppConfig):
    name = "tarotclub.kinds.deathspot"
    label = "deathspot"

    def ready(self):
        from tarotclub.games.kinds import register

        from .kind import DeathsPot

        register(DeathsPot)
