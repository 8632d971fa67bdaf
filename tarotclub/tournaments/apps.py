from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tarotclub.tournaments"
    verbose_name = _("Tournaments")

    def ready(self):
        # The games app asks, without importing this app, whether a game is a tournament
        # table (and in which state), and what to tell the link of a table redrawn away.
        from tarotclub.games import policy

        from . import history, selectors  # noqa: F401  (history: the actions it declares)

        policy.register_event_lookup(selectors.table_state, sql=selectors.TABLE_STATE_SQL)
        policy.register_gone_lookup(selectors.redrawn_table_notice)
