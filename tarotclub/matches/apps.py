from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "tarotclub.matches"
    verbose_name = _("Team matches")

    def ready(self):
        from . import history  # noqa: F401  (the actions its services log)
