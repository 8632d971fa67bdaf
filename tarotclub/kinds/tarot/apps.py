from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TarotConfig(AppConfig):
    name = "tarotclub.kinds.tarot"
    label = "tarot"
    verbose_name = _("French Tarot")

    def ready(self):
        from tarotclub.games.kinds import register

        from .kind import Tarot

        register(Tarot)
