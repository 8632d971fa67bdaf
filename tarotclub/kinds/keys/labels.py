"""The names of the suits in Keys of the Kingdom, in the reader's language."""

from django.utils.translation import gettext_lazy as _

SUIT_LABELS = {
    "hearts": _("♥ Hearts"),
    "spades": _("♠ Spades"),
    "diamonds": _("♦ Diamonds"),
    "clubs": _("♣ Clubs"),
}
SUIT_SYMBOLS = {"hearts": "♥", "spades": "♠", "diamonds": "♦", "clubs": "♣"}
