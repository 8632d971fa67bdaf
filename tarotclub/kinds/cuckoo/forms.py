"""Cuckoo's entry screen: each player taking part, their final card and their swap losses."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import cuckoo
from tarotclub.games.forms import RecordForm, stepper
from tarotclub.games.replayed import player_map

from .labels import rank_label


class CuckooForm(RecordForm):
    """Each player taking part: their final card and the lives lost during the swaps."""

    def __init__(self, *args, players, state, **kwargs):
        super().__init__(*args, players=players, state=state, **kwargs)
        taking = set(state.taking_part)
        self.taking_part = [p for p in self.players if p.pk in taking]
        self.skipped = len(self.taking_part) < 2
        rank_choices = [("", "—"), *((r, rank_label(r)) for r in cuckoo.RANKS)]
        if self.skipped:
            return
        for p in self.taking_part:
            self.fields[f"card_{p.pk}"] = forms.ChoiceField(
                label=p.label,
                choices=rank_choices,
                error_messages={
                    "required": gettext("Which card did %(name)s end with?") % {"name": p.label},
                    "invalid_choice": _("Choose a card from the list."),
                },
            )
            # one turn a deal: the swaps cost a player one life at most
            self.fields[f"swap_{p.pk}"] = stepper(
                label=p.label, low=0, high=min(1, state.lives[p.pk]), required=False
            )

    @property
    def has_swaps(self) -> bool:
        return any(f.value() not in (None, "", 0, "0") or f.errors for _p, _c, f in self.card_rows)

    @property
    def card_rows(self):
        return [(p, self[f"card_{p.pk}"], self[f"swap_{p.pk}"]) for p in self.taking_part]

    def record_data(self) -> dict:
        d = self.cleaned_data
        if self.skipped:
            return {"cards": {}, "swap_losses": {}}
        return {
            "cards": {p.pk: d[f"card_{p.pk}"] for p in self.taking_part},
            "swap_losses": {
                p.pk: d[f"swap_{p.pk}"] for p in self.taking_part if d.get(f"swap_{p.pk}")
            },
        }

    @staticmethod
    def initial_from(data) -> dict:
        initial: dict[str, Any] = {}
        for pk, rank in player_map(data.get("cards")).items():
            initial[f"card_{pk}"] = rank
        for pk, n in player_map(data.get("swap_losses")).items():
            initial[f"swap_{pk}"] = n
        return initial
