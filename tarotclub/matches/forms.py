"""The team match's forms: the match itself (new or corrected), and one team's entry of one
quarter, each board as a score or as the deal's facts (the free-play deal screen's fields,
`kinds.tarot.forms.DealForm`). The forms read the fields strictly; the services check the
rules (4 to 6 players, different attackers, even scores, possible deals...)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tarotclub.core.forms import StrictDateField, WholeNumberField
from tarotclub.kinds.tarot.forms import DealForm, _format_half
from tarotclub.players.models import Player

from .models import MatchContract, TeamMatch, placing_team
from .services import (
    BOARD_COUNTS,
    MAX_PLAYERS,
    MAX_SCORE,
    MIN_PLAYERS,
    SEATS,
    MatchError,
    facts_score,
)

#: A bonus as a person writes it: up to 3 digits, then a point or a comma and up to 3 decimals.
BONUS = re.compile(r"[0-9]{1,3}(?:[.,][0-9]{1,3})?")
ERR_BONUS_TEXT = _("Write the bonus as a number with at most 3 decimals, for example 1.5.")
MADE, FAILED = "made", "failed"
#: How a board is entered: its score as the sheet carries it, or the deal's facts.
BY_SCORE, BY_FACTS = "score", "facts"
ERR_ENTRY = _("Say how the board is entered: its score, or the deal's facts.")
ERR_REVISION = _("This page was damaged on the way: open the team match's correction again.")
ERR_RESULT = _("Say whether the contract was made.")
ERR_SCORE_MISSING = _("Enter the attacker's score.")


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


def _roster(also=()):
    """The club's players to choose from, and `also` (a match's members, even if they left
    the roster since), by name."""
    players = {p.pk: p for p in Player.objects.filter(active=True, guest=False)}
    players.update({p.pk: p for p in also})
    return sorted(players.values(), key=lambda p: (p.name, p.pk))


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

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        # the roster read once for the 12 lists; a posted value must be one of its keys
        roster = [("", "—"), *((str(p.pk), p.name) for p in _roster(members))]
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


class MatchEditForm(MatchForm):
    """The match's correction: the creation form, filled in, with the revision it was opened
    at (a second director's newer edit is not overwritten)."""

    revision = WholeNumberField(
        widget=forms.HiddenInput,
        min_value=0,
        error_messages={
            key: ERR_REVISION for key in ("required", "invalid", "min_value", "max_value")
        },
    )

    def __init__(self, *args, match: TeamMatch, teams: dict, **kwargs):
        members = [*teams["A"], *teams["B"]]
        initial = {
            "name": match.name,
            "date": match.date,
            "boards": match.boards,
            "a_name": match.a_name,
            "b_name": match.b_name,
            "a_bonus": str(match.a_bonus),
            "b_bonus": str(match.b_bonus),
            "revision": match.revision,
            **{f"{t.lower()}_{i}": p.pk for t in "AB" for i, p in enumerate(teams[t], start=1)},
        }
        super().__init__(*args, members=members, initial=initial, **kwargs)

    def service_data(self) -> dict:
        return {**super().service_data(), "expected_revision": self.cleaned_data["revision"]}


@dataclass(frozen=True)
class Seat:
    """A seat of a team match's table, as the deal form shows a player."""

    pk: str
    label: str


def table_seats() -> list[Seat]:
    labels = {
        "S": pgettext_lazy("team match seat", "South (attacker)"),
        "E": _("East"),
        "N": _("North"),
        "W": _("West"),
    }
    return [Seat(seat, labels[seat]) for seat in SEATS]


class BoardFactsForm(DealForm):
    """The deal's facts of one board: the free-play deal screen (bouts, points counted by
    either side, petit au bout, a poignée per seat, slam) at a table of 4 where the attacker,
    South, takes alone. The taker and the contract are not asked here: the taker is the
    team's attacker, the contract is the board's."""

    def __init__(self, *args, **kwargs):
        seats = table_seats()
        super().__init__(*args, players=seats, active=seats, **kwargs)
        for name in ("taker", "contract", "version"):
            del self.fields[name]

    def facts(self) -> dict:
        """The validated facts as `services.facts_score` reads them."""
        d = self.cleaned_data
        return {
            "bouts": d["bouts"],
            "points_half": int(d["points"] * 2),
            "petit_au_bout": d.get("petit_au_bout") or "",
            "poignees": [
                [p.pk, d[f"poignee_{p.pk}"]] for p in self.active if d.get(f"poignee_{p.pk}")
            ],
            "chelem": d.get("chelem") or "none",
        }

    @staticmethod
    def initial_from_facts(facts: dict) -> dict:
        initial = {
            "bouts": facts["bouts"],
            "points_side": "attack",
            "points": _format_half(facts["points_half"]),
            "petit_au_bout": facts["petit_au_bout"],
            "chelem": facts["chelem"],
        }
        for seat, kind in facts["poignees"]:
            initial[f"poignee_{seat}"] = kind
        return initial


class QuarterForm(forms.Form):
    """One team's entry of one quarter: its attacker, the closed room (from the placing team
    only), and for each board the contract and either the score (made or failed, and its
    size) or the deal's facts (`BoardFactsForm`, one per board), from which the score is
    worked out (`computed`, shown before saving)."""

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
        self.computed: dict[int, int] = {}
        self.facts_forms: dict[int, BoardFactsForm] = {}
        stored = kwargs.get("initial") or {}
        for b in self.boards:
            self.fields[f"contract_{b}"] = forms.ChoiceField(
                label=_("Board %(n)s: contract") % {"n": b},
                choices=MatchContract.choices,
                initial=MatchContract.GARDE,
                widget=forms.RadioSelect,
            )
            self.fields[f"entry_{b}"] = forms.ChoiceField(
                label=_("Board %(n)s: entered as") % {"n": b},
                choices=[(BY_SCORE, _("its score")), (BY_FACTS, _("the deal's facts"))],
                initial=BY_SCORE,
                widget=forms.RadioSelect,
                required=False,  # not sent: the score (what the page offered before the facts)
                error_messages={"invalid_choice": ERR_ENTRY},
            )
            self.fields[f"result_{b}"] = forms.ChoiceField(
                label=_("Board %(n)s: made or failed") % {"n": b},
                choices=[(MADE, _("made")), (FAILED, _("failed"))],
                widget=forms.RadioSelect,
                required=False,
            )
            self.fields[f"score_{b}"] = WholeNumberField(
                label=_("Score"),
                min_value=0,
                max_value=MAX_SCORE,
                required=False,
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
            self.facts_forms[b] = BoardFactsForm(
                args[0] if args else None,
                prefix=f"{self.prefix}-f{b}",
                initial=stored.get(f"facts_{b}"),
            )

    @classmethod
    def initial_for(cls, *, number: int, team: str, attacker, closed: str, results) -> dict:
        initial = {"attacker": attacker, "closed": closed or None}
        for r in results:
            initial[f"contract_{r.board}"] = r.contract
            initial[f"result_{r.board}"] = FAILED if r.score < 0 else MADE
            initial[f"score_{r.board}"] = abs(r.score)
            initial[f"entry_{r.board}"] = BY_SCORE if r.facts is None else BY_FACTS
            if r.facts is not None:
                initial[f"facts_{r.board}"] = BoardFactsForm.initial_from_facts(r.facts)
                initial[f"computed_{r.board}"] = r.score
        return initial

    def clean(self):
        data = super().clean()
        for b in self.boards:
            if f"entry_{b}" in self.errors:
                continue
            entry = data[f"entry_{b}"] = data.get(f"entry_{b}") or BY_SCORE
            if entry == BY_SCORE:
                if not data.get(f"result_{b}"):
                    self.add_error(f"result_{b}", ERR_RESULT)
                if data.get(f"score_{b}") is None and f"score_{b}" not in self.errors:
                    self.add_error(f"score_{b}", ERR_SCORE_MISSING)
            elif entry == BY_FACTS:
                # the score's fields are hidden and not read: whatever they hold is no error
                for name in (f"result_{b}", f"score_{b}"):
                    self._errors.pop(name, None)
                facts_form = self.facts_forms[b]
                if not facts_form.is_valid():
                    self.add_error(f"entry_{b}", _("Check the deal's facts below."))
                    continue
                contract = data.get(f"contract_{b}")
                if contract is None:
                    continue
                try:
                    self.computed[b], _facts = facts_score(
                        board=b, contract=contract, facts=facts_form.facts()
                    )
                except MatchError as e:
                    self.add_error(f"entry_{b}", e)
        return data

    def rows(self):
        return [
            {
                "board": b,
                "contract": self[f"contract_{b}"],
                "entry": self[f"entry_{b}"],
                "result": self[f"result_{b}"],
                "score": self[f"score_{b}"],
                "facts": self.facts_forms[b],
                "computed": self.computed.get(
                    b, None if self.is_bound else self.initial.get(f"computed_{b}")
                ),
            }
            for b in self.boards
        ]

    def service_data(self) -> dict:
        d = self.cleaned_data
        results = []
        for b in self.boards:
            if d[f"entry_{b}"] == BY_FACTS:
                results.append((d[f"contract_{b}"], self.facts_forms[b].facts()))
                continue
            size = d[f"score_{b}"]
            results.append((d[f"contract_{b}"], -size if d[f"result_{b}"] == FAILED else size))
        return {
            "number": self.number,
            "team": self.team,
            "attacker": d["attacker"],
            "closed": d.get("closed") if self.placing else None,
            "results": results,
        }
