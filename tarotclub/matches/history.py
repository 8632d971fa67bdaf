"""What a team match's history says: the actions its services log (`core.models.log_action`)."""

from django.utils.translation import gettext_lazy as _

from tarotclub.core.models import action

CREATED = action("match.created", _("team match created"))
QUARTER_RECORDED = action("match.quarter_recorded", _("team match quarter recorded"))
