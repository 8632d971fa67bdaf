"""Death's Pot's entry screen: Death shown by somebody, or the honours and the 12 tricks."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import deathspot
from tarotclub.games.forms import NOBODY, PlayerChoiceField, RecordForm, stepper
from tarotclub.games.replayed import player_map

from .labels import HONOUR_LABELS


class DeathsPotForm(RecordForm):
    """Death shown by somebody (the deal ends), or the honours and the 12 tricks."""

    total = deathspot.TRICKS_PER_DEAL

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, players=players, **kwargs)
        choices = [(NOBODY, _("nobody")), *((p.pk, p.label) for p in self.players)]
        self.fields["death"] = PlayerChoiceField(
            label=_("Death (trump 13) shown by"), choices=choices, required=False, initial=NOBODY
        )
        for kind, label in HONOUR_LABELS.items():
            self.fields[kind] = PlayerChoiceField(
                label=label, choices=choices, required=False, initial=NOBODY
            )
        for p in self.players:
            self.fields[f"tricks_{p.pk}"] = stepper(
                label=p.label, low=0, high=self.total, required=False
            )

    @property
    def honour_fields(self):
        return [self[kind] for kind in HONOUR_LABELS]

    @property
    def tricks_fields(self):
        return self.bound("tricks")

    def clean(self):
        d = super().clean()
        if d.get("death") is None:
            for p in self.players:
                if f"tricks_{p.pk}" in d and d[f"tricks_{p.pk}"] is None:
                    self.add_error(f"tricks_{p.pk}", gettext("Set a number."))
        return d

    def unfinished(self) -> bool:
        if self.cleaned_data.get("death") is not None:
            return False
        total = sum(self.cleaned_data.get(f"tricks_{p.pk}") or 0 for p in self.players)
        return total != self.total

    def record_data(self) -> dict:
        d = self.cleaned_data
        if d.get("death") is not None:
            # Death ends the deal: whatever else the screen still shows is not recorded.
            return {"death": d["death"], "excuse": None, "trump1": None, "trump11": None}
        data: dict[str, Any] = {"death": None}
        for kind in HONOUR_LABELS:
            data[kind] = d.get(kind)
        data["tricks"] = {p.pk: d[f"tricks_{p.pk}"] for p in self.players}
        return data

    @staticmethod
    def initial_from(data) -> dict:
        initial = {k: data.get(k) if data.get(k) is not None else NOBODY for k in ("death",)}
        for kind in HONOUR_LABELS:
            initial[kind] = data.get(kind) if data.get(kind) is not None else NOBODY
        for pk, n in player_map(data.get("tricks")).items():
            initial[f"tricks_{pk}"] = n
        return initial
