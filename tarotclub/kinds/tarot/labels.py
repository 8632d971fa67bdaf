"""French Tarot's words on buttons and sheets, in the reader's language."""

from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import fft
from scoring.movement import ORIENTATIONS, leader_of

# Labels come from the rules module (its strings are in the catalogue) and are translated late.
CONTRACT_LABELS = {str(k): gettext_lazy(v) for k, v in fft.CONTRACT_LABELS.items()}
SIDE_LABELS = {str(k): gettext_lazy(v) for k, v in fft.SIDE_LABELS.items()}
CHELEM_LABELS = {
    "none": _("no slam"),
    "announced_made": _("announced, made"),
    "unannounced_made": _("made, not announced"),
    "announced_failed": _("announced, failed"),
    "defence": _("made by the defence"),
}
POIGNEE_LABELS = {
    "simple": _("simple"),
    "double": _("double"),
    "triple": _("triple"),
}
#: The misères (a house rule): their French names are what every club says.
MISERE_LABELS = {
    "tete": _("misère de tête"),
    "atout": _("misère d'atout"),
}

#: A duplicate board's orientations (a duplicate table's options name the dealer by them).
ORIENTATION_NAMES = {
    "N": _("North"),
    "E": _("East"),
    "S": _("South"),
    "W": _("West"),
}


def dealing_text(dealer: str) -> str:
    """A duplicate board's dealing, "Dealer: East — North leads" (the player to the dealer's
    right leads, `scoring.movement.leader_of`); "" for an unknown orientation."""
    if dealer not in ORIENTATIONS:
        return ""
    return gettext("Dealer: %(dealer)s — %(leader)s leads") % {
        "dealer": ORIENTATION_NAMES[dealer],
        "leader": ORIENTATION_NAMES[leader_of(dealer)],
    }
