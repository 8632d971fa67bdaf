from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "tarotclub.seasons"
    verbose_name = _("Seasons")

    def ready(self):
        from . import history, printouts  # noqa: F401  (the actions, the printout it declares)
