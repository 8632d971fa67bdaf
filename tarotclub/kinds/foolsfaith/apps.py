from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FoolsFaithConfig(AppConfig):
    name = "tarotclub.kinds.foolsfaith"
    # The label the challenge tables were made under: kept, so no data moves.
    label = "variants"
    verbose_name = _("Fool's Faith")

    def ready(self):
        from tarotclub.games.kinds import register

        from .kind import FoolsFaith

        register(FoolsFaith)
