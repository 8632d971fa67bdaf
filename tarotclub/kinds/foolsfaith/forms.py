"""Fool's Faith's forms: a round's tricks, the club's challenges, the winner's cards."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring import foolsfaith
from tarotclub.core.forms import WholeNumberField
from tarotclub.games.forms import PlayerChoiceField, RecordForm, choice_cols, stepper
from tarotclub.games.replayed import player_map


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
        return {f"tricks_{pk}": n for pk, n in player_map(data.get("tricks")).items()}


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
