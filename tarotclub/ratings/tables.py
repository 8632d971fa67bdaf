import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tarotclub.games.presenters import figure
from tarotclub.players.links import player_name


class LeaderboardTable(tables.Table):
    """The club's players by rating. On a phone the skill column gives way to a line under the
    name (CSS: .player-meta), so the table fits 360 px without a sideways frame."""

    place = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    player = tables.Column(verbose_name=_("Player"))
    rating = tables.Column(verbose_name=_("Rating"), attrs={"td": {"class": "num"}})
    skill = tables.Column(
        verbose_name=_("Skill (μ ± σ)"),
        accessor="mu",
        attrs={"th": {"class": "wide-only"}, "td": {"class": "num wide-only"}},
    )
    games = tables.Column(verbose_name=_("Games"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "data leaderboard"}
        empty_text = _("Nobody has played enough rated games yet.")

    def __init__(self, *args, link_players: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.link_players = link_players  # names link to the players' pages (for members)

    def render_player(self, value, record):
        return format_html(
            '{}<small class="player-meta">{}</small>',
            player_name(value.pk, value.display_name, link=self.link_players),
            _skill(record),
        )

    def render_rating(self, value):
        return figure(value, 1)

    def render_skill(self, value, record):
        return _skill(record)


def _skill(record) -> str:
    return format_html("{}\u00a0±\u00a0{}", figure(record.mu, 1), figure(record.sigma, 1))
