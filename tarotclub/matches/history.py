"""What a team match's history says: the actions its services log (`core.models.log_action`)."""

from django.utils.translation import gettext_lazy as _

from tarotclub.core.history import field
from tarotclub.core.models import action

CREATED = action("match.created", _("team match created"))
EDITED = action("match.edited", _("team match corrected"))
QUARTER_RECORDED = action("match.quarter_recorded", _("team match quarter recorded"))

# how the history page names the keys of a quarter's before/after
field("quarter", _("quarter"))
field("team", _("team"))
field("attacker", _("attacker"))
field("closed", _("closed room"))
field("results", _("results (board, contract, score, the deal's facts if entered)"))
# a board's facts (`services.facts_score`) keep the card points as whole half-points
field("points_half", _("card points, in halves"))
field("boards", _("boards"))
field("teams", _("teams"))
field("name", _("name"))
field("date", _("date"))
