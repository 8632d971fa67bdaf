from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VariantsConfig(AppConfig):
    name = "tarotclub.variants"
    verbose_name = _("Other games")
