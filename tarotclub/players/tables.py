import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Player


class PlayerTable(tables.Table):
    name = tables.LinkColumn("players:edit", args=[tables.A("pk")], verbose_name=_("Name"))
    nickname = tables.Column(verbose_name=_("Nickname"))
    licence = tables.Column(verbose_name=_("Licence"))
    active = tables.BooleanColumn(verbose_name=_("Active"))

    class Meta:
        model = Player
        fields = ("name", "nickname", "licence", "active")
        attrs = {"class": "data"}
        empty_text = _("No players yet.")
