"""The entry screens of the other games: one form per game, built for the players at the table.

Forms only collect (types and ranges); the services replay the game through `scoring`, which
decides what is possible. `record_data()` returns the record in the scoring module's format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import cuckoo, deathspot, foolsfaith, keys
from tarotclub.core.forms import StrictDateField, WholeNumberField

from . import rules

ERR_CHOICE = _("Choose one of the buttons.")
ERR_WHOLE = _("Enter a whole number.")

SUIT_LABELS = {
    "hearts": _("♥ Hearts"),
    "spades": _("♠ Spades"),
    "diamonds": _("♦ Diamonds"),
    "clubs": _("♣ Clubs"),
}
SUIT_SYMBOLS = {"hearts": "♥", "spades": "♠", "diamonds": "♦", "clubs": "♣"}
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
HONOUR_LABELS = {
    deathspot.EXCUSE: _("Excuse (1 stake)"),
    deathspot.TRUMP1: _("Trump 1 (1 stake)"),
    deathspot.TRUMP11: _("Trump 11 (2 stakes)"),
}
NOBODY = ""


def rank_label(rank: str) -> str:
    return str(RANK_LABELS.get(rank, rank))


class PlayerChoiceField(forms.TypedChoiceField):
    """A player (or "nobody") as big tappable buttons; the value is the player's pk."""

    widget = forms.RadioSelect

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("coerce", int)
        kwargs.setdefault("empty_value", None)
        kwargs.setdefault("error_messages", {})
        kwargs["error_messages"].setdefault("invalid_choice", ERR_CHOICE)
        super().__init__(*args, **kwargs)


def stepper(*, label: str, low: int, high: int, initial: int = 0, required: bool = True):
    """A number with − and + buttons around it (static/js/steppers.js); typing works too."""
    return WholeNumberField(
        label=label,
        min_value=low,
        max_value=high,
        initial=initial,
        required=required,
        error_messages={
            "required": _("Set a number."),
            "invalid": ERR_WHOLE,
            "min_value": _("At least %(limit_value)s."),
            "max_value": _("At most %(limit_value)s."),
        },
        widget=forms.NumberInput(
            attrs={"min": low, "max": high, "inputmode": "numeric", "class": "stepper-input"}
        ),
    )


class RecordForm(forms.Form):
    """Base of the entry forms: `players` in seat order, each with a `label`."""

    version = WholeNumberField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, players: Sequence, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)

    @property
    def cols(self) -> str:
        """Buttons for "nobody" (a full row) and the players (in at most two even rows)."""
        return f"{choice_cols(len(self.players))} with-nobody"

    @property
    def player_cols(self) -> str:
        return choice_cols(len(self.players))

    def bound(self, prefix: str, players=None) -> list[tuple[Any, forms.BoundField]]:
        return [(p, self[f"{prefix}_{p.pk}"]) for p in (players or self.players)]

    def unfinished(self) -> bool:
        """True while the entry is obviously not complete (no live preview yet)."""
        return False

    def record_data(self) -> dict:  # pragma: no cover - each form defines it
        raise NotImplementedError

    @staticmethod
    def initial_from(data: Mapping[str, Any]) -> dict:  # pragma: no cover
        raise NotImplementedError


def choice_cols(count: int) -> str:
    if count <= 5:
        return f"cols-{max(count, 2)}"
    return "cols-3" if count in (6, 9) else "cols-4"


def _pk_map(value) -> dict[int, Any]:
    return rules._pk_map(value) if isinstance(value, Mapping) else {}


class FoolsFaithForm(RecordForm):
    """Tricks per player; they add up to 8."""

    total = foolsfaith.TRICKS_PER_ROUND

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, players=players, **kwargs)
        for p in self.players:
            self.fields[f"tricks_{p.pk}"] = stepper(label=p.label, low=0, high=self.total)

    @property
    def tricks_fields(self):
        return self.bound("tricks")

    def unfinished(self) -> bool:
        """The tricks do not add up yet (the live preview waits; saving says why)."""
        return sum(self.cleaned_data[f"tricks_{p.pk}"] for p in self.players) != self.total

    def record_data(self) -> dict:
        d = self.cleaned_data
        return {"tricks": {p.pk: d[f"tricks_{p.pk}"] for p in self.players}}

    @staticmethod
    def initial_from(data) -> dict:
        return {f"tricks_{pk}": n for pk, n in _pk_map(data.get("tricks")).items()}


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
        for pk, n in _pk_map(data.get("tricks")).items():
            initial[f"tricks_{pk}"] = n
        return initial


class KeysForm(RecordForm):
    """One whole game: suits, the winner, the keys of each loser, optionally the guards."""

    GUARD_CHOICES = [("", "—"), *((i, str(i)) for i in range(keys.MAX_GUARDS + 1))]

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, players=players, **kwargs)
        suit_choices = list(SUIT_LABELS.items())
        for p in self.players:
            self.fields[f"suit_{p.pk}"] = forms.ChoiceField(
                label=p.label,
                choices=suit_choices,
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
            if p.pk != winner and f"keys_{p.pk}" in d and d[f"keys_{p.pk}"] is None:
                self.add_error(f"keys_{p.pk}", gettext("Set a number."))
        return d

    def record_data(self) -> dict:
        d = self.cleaned_data
        winner = d["winner"]
        guards = {
            p.pk: d[f"guards_{p.pk}"] for p in self.players if d.get(f"guards_{p.pk}") is not None
        }
        return {
            "suits": {p.pk: d[f"suit_{p.pk}"] for p in self.players},
            "winner": winner,
            "keys": {p.pk: d[f"keys_{p.pk}"] for p in self.players if p.pk != winner},
            "guards": guards or None,
        }

    @staticmethod
    def initial_from(data) -> dict:
        initial: dict[str, Any] = {"winner": data.get("winner")}
        for pk, suit in _pk_map(data.get("suits")).items():
            initial[f"suit_{pk}"] = suit
        for pk, n in _pk_map(data.get("keys")).items():
            initial[f"keys_{pk}"] = n
        for pk, n in _pk_map(data.get("guards")).items():
            initial[f"guards_{pk}"] = n
        return initial

    @classmethod
    def initial_suits(cls, players, previous: Mapping | None) -> dict:
        """The suits of the previous game (players usually keep theirs), else in seat order."""
        suits = _pk_map((previous or {}).get("suits"))
        if set(suits) == {p.pk for p in players}:
            return {f"suit_{pk}": s for pk, s in suits.items()}
        return {f"suit_{p.pk}": keys.SUITS[i] for i, p in enumerate(players)}


class CuckooForm(RecordForm):
    """Each player taking part: their final card and the lives lost during the swaps."""

    def __init__(self, *args, players, state, **kwargs):
        super().__init__(*args, players=players, **kwargs)
        self.state = state
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
            self.fields[f"swap_{p.pk}"] = stepper(
                label=p.label, low=0, high=state.lives[p.pk], required=False
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
        for pk, rank in _pk_map(data.get("cards")).items():
            initial[f"card_{pk}"] = rank
        for pk, n in _pk_map(data.get("swap_losses")).items():
            initial[f"swap_{pk}"] = n
        return initial


FORMS = {
    rules.FOOLS_FAITH: FoolsFaithForm,
    rules.DEATHS_POT: DeathsPotForm,
    rules.KEYS: KeysForm,
    rules.CUCKOO: CuckooForm,
}


class ChallengeForm(forms.Form):
    text = forms.CharField(
        label=_("Challenge"),
        max_length=200,
        error_messages={"required": _("Write the challenge.")},
    )
    order = WholeNumberField(label=_("Order"), min_value=0, max_value=9999, required=False)
    active = forms.BooleanField(label=_("In use"), required=False, initial=True)


class AwardForm(forms.Form):
    """The winner's challenge cards: for each, a challenge from the list and a player."""

    def __init__(self, *args, count: int, challenges, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.count = count
        challenge_choices = [("", "—"), *((c.pk, c.text) for c in challenges)]
        player_choices = [(p.pk, p.label) for p in players]
        self.player_cols = choice_cols(len(player_choices))
        for i in range(1, count + 1):
            self.fields[f"challenge_{i}"] = forms.TypedChoiceField(
                label=gettext("Challenge card %(n)s") % {"n": i},
                choices=challenge_choices,
                coerce=int,
                error_messages={
                    "required": _("Choose the challenge on this card."),
                    "invalid_choice": _("Choose each challenge from the club's list."),
                },
            )
            self.fields[f"player_{i}"] = PlayerChoiceField(
                label=gettext("given to"),
                choices=player_choices,
                error_messages={"required": _("Who must perform it? Tap a player.")},
            )

    @property
    def cards(self):
        return [(i, self[f"challenge_{i}"], self[f"player_{i}"]) for i in range(1, self.count + 1)]

    def awards(self) -> list[tuple[int, int]]:
        d = self.cleaned_data
        return [(d[f"challenge_{i}"], d[f"player_{i}"]) for i in range(1, self.count + 1)]


class StandingsFilterForm(forms.Form):
    """?from=YYYY-MM-DD&to=YYYY-MM-DD (both optional, inclusive)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        date_messages = {"invalid": _("Give the date as YYYY-MM-DD, e.g. 2025-03-31.")}
        widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        self.fields["from"] = StrictDateField(
            label=_("From"),
            required=False,
            input_formats=["%Y-%m-%d"],
            error_messages=date_messages,
            widget=widget,
        )
        self.fields["to"] = StrictDateField(
            label=_("To"),
            required=False,
            input_formats=["%Y-%m-%d"],
            error_messages=date_messages,
            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        )

    def clean(self):
        d = super().clean()
        start, end = d.get("from"), d.get("to")
        if start and end and start > end:
            raise forms.ValidationError(_("The start date comes after the end date."))
        return d
