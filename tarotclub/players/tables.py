import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from tarotclub.core.text import no_break_hyphens

from .models import Player


class PlayerTable(tables.Table):
    """The roster. On a phone the nickname and licence columns give way to a line under the
    name (CSS: .player-meta), so that the table fits 360 px without a sideways frame."""

    name = tables.Column(verbose_name=_("Name"))
    nickname = tables.Column(
        verbose_name=_("Nickname"),
        attrs={"th": {"class": "wide-only"}, "td": {"class": "wide-only"}},
    )
    licence = tables.Column(
        verbose_name=_("Licence"),
        attrs={"th": {"class": "wide-only"}, "td": {"class": "wide-only"}},
    )
    active = tables.BooleanColumn(verbose_name=_("Active"))

    class Meta:
        model = Player
        fields = ("name", "nickname", "licence", "active")
        attrs = {"class": "data players"}
        empty_text = _("No players yet.")

    def render_name(self, value, record):
        link = format_html(
            '<a href="{}">{}</a>',
            reverse("players:detail", args=[record.pk]),
            no_break_hyphens(value),
        )
        meta = [part for part in (record.nickname, record.licence) if part]
        if not meta:
            return link
        return format_html(
            '{}<small class="player-meta">{}</small>',
            link,
            format_html_join(" · ", "{}", ((no_break_hyphens(part),) for part in meta)),
        )

    def render_nickname(self, value):
        return no_break_hyphens(value)
