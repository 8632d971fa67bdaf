"""What a tournament's history says: the actions its writes log (`core.models.log_action`).

Declared here, apart from the services that log them, so the selectors that read the history
name them without importing a write module.
"""

from django.utils.translation import gettext_lazy as _

from tarotclub.core.models import action

CREATED = action("tournament.created", _("tournament created"))
UPDATED = action("tournament.updated", _("tournament settings changed"))
ENTRY_REGISTERED = action("tournament.entry_registered", _("player registered"))
ENTRIES_REGISTERED = action("tournament.entries_registered", _("players registered in bulk"))
ENTRY_REMOVED = action("tournament.entry_removed", _("registration removed"))
ENTRY_WITHDRAWN = action("tournament.entry_withdrawn", _("player withdrawn"))
STARTED = action("tournament.started", _("tournament started"))
ROUND_SEATED = action("tournament.round_seated", _("round seated"))
ROUND_REDRAWN = action("tournament.round_redrawn", _("round redrawn"))
ROUND_FORCED = action("tournament.round_forced", _("round closed with unconfirmed tables"))
FINISHED = action("tournament.finished", _("tournament finished"))
REOPENED = action("tournament.reopened", _("tournament reopened"))
TABLE_CONFIRMED = action("tournament.table_confirmed", _("table's sheet confirmed"))
TABLE_UNLOCKED = action("tournament.table_unlocked", _("table's sheet unlocked"))
HOUSE_RULES_SET = action("tournament.house_rules", _("house rules of the tournament changed"))
BOARD_DEALER_SET = action("tournament.board_dealer", _("board's dealer changed"))
ENTRY_SUBSTITUTED = action("tournament.entry_substituted", _("substitute seated"))
