"""The team match's forms: the match itself, and one team's entry of one quarter. The forms
read the fields strictly; the services check the rules (4 to 6 players, different attackers,
even scores...)."""

from __future__ import annotations

import re
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from tarotclub.core.forms import StrictDateField, WholeNumberField
from tarotclub.players.models import Player

from .models import MatchContract, TeamMatch, placing_team
from .services import BOARD_COUNTS, MAX_PLAYERS, MAX_SCORE, MIN_PLAYERS

#: A bonus as a person writes it: up to 3 digits, then a point or a comma and up to 3 decimals.
BONUS = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{1,3})?")
ERR_BONUS_TEXT = _("Write the bonus as a number with at most 3 decimals, for example 1.5.")
MADE, FAILED = "made", "failed"


class BonusField(forms.CharField):
    """A match-point bonus: ASCII digits, a point or a comma, up to 3 decimals; a Decimal."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 8)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "autocomplete": "off"})

    def clean(self, value):
        text = super().clean(value)
        if not text:
            return Decimal("0.000")
        if not BONUS.fullmatch(text):
            raise forms.ValidationError(ERR_BONUS_TEXT, code="invalid")
        return Decimal(text.replace(",", "."))


def _roster():
    return Player.objects.filter(active=True, guest=False).order_by("name", "pk")


class MatchForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    date = StrictDateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    boards = forms.TypedChoiceField(
        label=_("Boards"),
        choices=[(n, str(n)) for n in BOARD_COUNTS],
        coerce=int,
        initial=BOARD_COUNTS[0],
        widget=forms.RadioSelect,
        help_text=_("The 4 quarters share them evenly."),
    )
    a_name = forms.CharField(label=_("Team A"), max_length=80)
    b_name = forms.CharField(label=_("Team B"), max_length=80)
    a_bonus = BonusField(label=_("Bonus of team A (match points)"), initial="0.000")
    b_bonus = BonusField(label=_("Bonus of team B (match points)"), initial="0.000")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the roster read once for the 12 lists; a posted value must be one of its keys
        roster = [("", "—"), *((str(p.pk), p.name) for p in _roster())]
        for team in "ab":
            for i in range(1, MAX_PLAYERS + 1):
                self.fields[f"{team}_{i}"] = forms.TypedChoiceField(
                    label=_("Captain") if i == 1 else _("Player %(n)s") % {"n": i},
                    choices=roster,
                    coerce=int,
                    empty_value=None,
                    required=i <= MIN_PLAYERS,
                    error_messages={
                        "invalid_choice": _("Choose a player from the list."),
                        "required": _("Each team has 4 to 6 players, the captain first."),
                    },
                )

    def team_fields(self, team: str) -> list:
        return [self[f"{team}_{i}"] for i in range(1, MAX_PLAYERS + 1)]

    def a_fields(self):
        return self.team_fields("a")

    def b_fields(self):
        return self.team_fields("b")

    def service_data(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"],
            "date": d["date"],
            "boards": d["boards"],
            "a_name": d["a_name"],
            "b_name": d["b_name"],
            "a_bonus": d["a_bonus"],
            "b_bonus": d["b_bonus"],
            **{
                f"{t}_players": [
                    d[f"{t}_{i}"] for i in range(1, MAX_PLAYERS + 1) if d.get(f"{t}_{i}")
                ]
                for t in "ab"
            },
        }


class QuarterForm(forms.Form):
    """One team's entry of one quarter: its attacker, the closed room (from the placing team
    only), and for each board the contract, made or failed, and the score's size."""

    def __init__(self, *args, match: TeamMatch, number: int, team: str, players, **kwargs):
        kwargs.setdefault("prefix", team.lower())
        super().__init__(*args, **kwargs)
        self.match, self.number, self.team = match, number, team
        self.placing = placing_team(number) == team
        self.boards = list(match.quarter_boards(number))
        self.fields["attacker"] = forms.TypedChoiceField(
            label=_("Attacker"),
            choices=[(p.pk, p.name) for p in players],
            coerce=int,
            widget=forms.RadioSelect,
            error_messages={"required": _("Choose the team's attacker.")},
        )
        if self.placing:
            self.fields["closed"] = forms.ChoiceField(
                label=_("Who attacks in the closed room"),
                choices=[("A", match.a_name), ("B", match.b_name)],
                widget=forms.RadioSelect,
                error_messages={"required": _("Say whose attacker plays in the closed room.")},
            )
        for b in self.boards:
            self.fields[f"contract_{b}"] = forms.ChoiceField(
                label=_("Board %(n)s: contract") % {"n": b},
                choices=MatchContract.choices,
                initial=MatchContract.GARDE,
                widget=forms.RadioSelect,
            )
            self.fields[f"result_{b}"] = forms.ChoiceField(
                label=_("Board %(n)s: made or failed") % {"n": b},
                choices=[(MADE, _("made")), (FAILED, _("failed"))],
                widget=forms.RadioSelect,
                error_messages={"required": _("Say whether the contract was made.")},
            )
            self.fields[f"score_{b}"] = WholeNumberField(
                label=_("Score"),
                min_value=0,
                max_value=MAX_SCORE,
                error_messages={"required": _("Enter the attacker's score.")},
                widget=forms.NumberInput(
                    attrs={
                        "min": 0,
                        "max": MAX_SCORE,
                        "step": 2,
                        "inputmode": "numeric",
                        "class": "stepper-input",
                    }
                ),
            )

    @classmethod
    def initial_for(cls, *, number: int, team: str, attacker, closed: str, results) -> dict:
        initial = {"attacker": attacker, "closed": closed or None}
        for r in results:
            initial[f"contract_{r.board}"] = r.contract
            initial[f"result_{r.board}"] = FAILED if r.score < 0 else MADE
            initial[f"score_{r.board}"] = abs(r.score)
        return initial

    def rows(self):
        return [
            (b, self[f"contract_{b}"], self[f"result_{b}"], self[f"score_{b}"]) for b in self.boards
        ]

    def service_data(self) -> dict:
        d = self.cleaned_data
        results = []
        for b in self.boards:
            size = d[f"score_{b}"]
            results.append((d[f"contract_{b}"], -size if d[f"result_{b}"] == FAILED else size))
        return {
            "number": self.number,
            "team": self.team,
            "attacker": d["attacker"],
            "closed": d.get("closed") if self.placing else None,
            "results": results,
        }
