"""What a season's history says: the actions its services log (`core.models.log_action`)."""

from django.utils.translation import gettext_lazy as _

from tarotclub.core.models import action

CREATED = action("season.created", _("season created"))
UPDATED = action("season.updated", _("season changed"))
DELETED = action("season.deleted", _("season deleted"))
