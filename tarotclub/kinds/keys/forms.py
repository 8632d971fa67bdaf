"""Keys of the Kingdom's entry screen: one whole game (suits, winner, keys, guards)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import keys
from tarotclub.games.forms import ERR_CHOICE, PlayerChoiceField, RecordForm, stepper
from tarotclub.games.replayed import player_map

from .labels import SUIT_LABELS


class KeysForm(RecordForm):
    """One whole game: suits, the winner, the keys of each loser, optionally the guards."""

    GUARD_CHOICES = [("", "—"), *((i, str(i)) for i in range(keys.MAX_GUARDS + 1))]

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, players=players, **kwargs)
        rules = getattr(self.state, "rules", None)
        #: House rule: a game may be played by only some of the table ("not playing").
        self.partial = bool(rules is not None and rules.partial_table)
        suit_choices = list(SUIT_LABELS.items())
        if self.partial:
            suit_choices = [("", _("not playing")), *suit_choices]
        for p in self.players:
            self.fields[f"suit_{p.pk}"] = forms.ChoiceField(
                label=p.label,
                choices=suit_choices,
                required=not self.partial,
                widget=forms.RadioSelect,
                error_messages={
                    "required": gettext("Which suit did %(name)s play?") % {"name": p.label},
                    "invalid_choice": ERR_CHOICE,
                },
            )
        self.fields["winner"] = PlayerChoiceField(
            label=_("Winner (five keys and the Excuse)"),
            choices=[(p.pk, p.label) for p in self.players],
            error_messages={"required": _("Who won? Tap the winner.")},
        )
        for p in self.players:
            self.fields[f"keys_{p.pk}"] = stepper(
                label=p.label, low=0, high=keys.KEYS_PER_SUIT, required=False
            )
            self.fields[f"guards_{p.pk}"] = forms.TypedChoiceField(
                label=p.label,
                choices=self.GUARD_CHOICES,
                coerce=int,
                empty_value=None,
                required=False,
                widget=forms.RadioSelect,
                error_messages={"invalid_choice": ERR_CHOICE},
            )

    @property
    def suit_fields(self):
        return self.bound("suit")

    @property
    def keys_fields(self):
        return self.bound("keys")

    @property
    def guard_fields(self):
        return self.bound("guards")

    @property
    def has_guards(self) -> bool:
        return any(f.value() not in (None, "") for _p, f in self.guard_fields)

    def clean(self):
        d = super().clean()
        winner = d.get("winner")
        for p in self.players:
            if self.partial and not d.get(f"suit_{p.pk}"):
                continue  # sitting this game out: no keys to give
            if p.pk != winner and f"keys_{p.pk}" in d and d[f"keys_{p.pk}"] is None:
                self.add_error(f"keys_{p.pk}", gettext("Set a number."))
        return d

    def _playing(self) -> list:
        d = self.cleaned_data
        return [p for p in self.players if d.get(f"suit_{p.pk}")]

    def record_data(self) -> dict:
        d = self.cleaned_data
        winner = d["winner"]
        playing = self._playing()
        guards = {p.pk: d[f"guards_{p.pk}"] for p in playing if d.get(f"guards_{p.pk}") is not None}
        return {
            "suits": {p.pk: d[f"suit_{p.pk}"] for p in playing},
            "winner": winner,
            "keys": {p.pk: d[f"keys_{p.pk}"] for p in playing if p.pk != winner},
            "guards": guards or None,
        }

    @staticmethod
    def initial_from(data) -> dict:
        initial: dict[str, Any] = {"winner": data.get("winner")}
        for pk, suit in player_map(data.get("suits")).items():
            initial[f"suit_{pk}"] = suit
        for pk, n in player_map(data.get("keys")).items():
            initial[f"keys_{pk}"] = n
        for pk, n in player_map(data.get("guards")).items():
            initial[f"guards_{pk}"] = n
        return initial

    @classmethod
    def initial_suits(cls, players, previous: Mapping | None) -> dict:
        """The suits of the previous game (players usually keep theirs), else in seat order."""
        suits = player_map((previous or {}).get("suits"))
        if set(suits) == {p.pk for p in players}:
            return {f"suit_{pk}": s for pk, s in suits.items()}
        return {f"suit_{p.pk}": keys.SUITS[i] for i, p in enumerate(players)}
