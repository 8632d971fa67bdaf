from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "tarotclub.seasons"
    verbose_name = _("Seasons")

    def ready(self):
        from . import history  # noqa: F401  (the actions it declares)
