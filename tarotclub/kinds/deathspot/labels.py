"""The names of Death's Pot's honours, in the reader's language."""

from django.utils.translation import gettext_lazy as _

from scoring import deathspot

HONOUR_LABELS = {
    deathspot.EXCUSE: _("Excuse (1 stake)"),
    deathspot.TRUMP1: _("Trump 1 (1 stake)"),
    deathspot.TRUMP11: _("Trump 11 (2 stakes)"),
}


def honour_name(kind: str) -> str:
    """'Excuse (1 stake)' → 'Excuse'."""
    return str(HONOUR_LABELS[kind]).split(" (")[0]
