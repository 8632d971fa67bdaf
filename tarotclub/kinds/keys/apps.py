from django.apps import AppConfig


class KeysConfig(AppConfig):
    name = "tarotclub.kinds.keys"
    label = "keys"

    def ready(self):
        from tarotclub.games.kinds import register

        from .kind import Keys

        register(Keys)
