from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportsConfig(AppConfig):
    name = "tarotclub.reports"
    verbose_name = _("Printouts and exports")
