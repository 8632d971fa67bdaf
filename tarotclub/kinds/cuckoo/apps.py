from django.apps import AppConfig


class CuckooConfig(AppConfig):
    name = "tarotclub.kinds.cuckoo"
    label = "cuckoo"

    def ready(self):
        from tarotclub.games.kinds import register

        from .kind import Cuckoo

        register(Cuckoo)
