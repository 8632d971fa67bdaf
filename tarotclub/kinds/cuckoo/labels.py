"""The names of Cuckoo's cards, in the reader's language."""

from django.utils.translation import gettext_lazy as _

RANK_LABELS = {
    "fool": _("Fool"),
    "owl": _("Owl"),
    "pot": _("Pot"),
    "house": _("House"),
    "horse": _("Horse"),
    "cat": _("Cat"),
    "dragoon": _("Dragoon"),
    "cuckoo": _("Cuckoo"),
}


def rank_label(rank: str) -> str:
    return str(RANK_LABELS.get(rank, rank))
