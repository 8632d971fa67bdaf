"""The deal screen: taker, contract, partner at five, bouts, points, the bonuses."""

from __future__ import annotations

import copy
import functools
from fractions import Fraction

from django import forms
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring import RuleError, fft
from tarotclub.core.forms import HiddenInput, TextInput, WholeNumberField
from tarotclub.games.forms import ERR_CHOICE, BigChoiceField

from .labels import CHELEM_LABELS, CONTRACT_LABELS, MISERE_LABELS, POIGNEE_LABELS, SIDE_LABELS
from .services import DealInput

ERR_REQUIRED_TAKER = _("Who took? Tap the taker.")
ERR_REQUIRED_CONTRACT = _("Choose the contract.")
ERR_REQUIRED_BOUTS = _("How many bouts did the attack hold?")
ERR_REQUIRED_POINTS = _("Enter the card points.")
ERR_PARTNER_REQUIRED = _("Who was called? Tap the partner, or 'alone'.")

ALONE = "alone"
#: The misère field's value when a player declared both misères.
BOTH = "both"


def parse_points_text(text: str) -> Fraction:
    """Points as typed ('49', '40.5', '40,5', '40½') → Fraction; else a translated error."""
    try:
        return fft.parse_points(text or "")
    except RuleError as e:
        raise forms.ValidationError(e.translated(gettext), code="points") from None


@functools.lru_cache(maxsize=32)
def _poignee_field(seats: int, language: str | None) -> BigChoiceField:
    """A player's poignée field at a table of `seats` players, its choices in `language`
    (each poignée says how many trumps it shows there); `DealForm` copies it for each player
    and gives the copy the player's name. Never changed once made."""
    sizes = fft.poignee_sizes(seats)
    choices = [("", pgettext_lazy("poignée", "none"))] + [
        (str(kind), f"{POIGNEE_LABELS[str(kind)]} ({sizes[kind]})") for kind in sizes
    ]
    return BigChoiceField(label="", choices=choices, required=False, initial="")


class DealForm(forms.Form):
    """The deal screen. `players`: who sits at the table (in order); `active`: who plays."""

    taker = BigChoiceField(
        label=_("Taker"),
        coerce=int,
        error_messages={"required": ERR_REQUIRED_TAKER, "invalid_choice": ERR_CHOICE},
    )
    contract = BigChoiceField(
        label=_("Contract"),
        choices=list(CONTRACT_LABELS.items()),
        error_messages={"required": ERR_REQUIRED_CONTRACT, "invalid_choice": ERR_CHOICE},
    )
    bouts = BigChoiceField(
        label=_("Bouts of the attack"),
        coerce=int,
        choices=[(i, str(i)) for i in range(4)],
        error_messages={"required": ERR_REQUIRED_BOUTS, "invalid_choice": ERR_CHOICE},
    )
    points_side = BigChoiceField(
        label=_("Points counted by"),
        choices=list(SIDE_LABELS.items()),
        initial="attack",
        required=False,
    )
    points = forms.CharField(
        label=_("Card points"),
        max_length=12,
        error_messages={"required": ERR_REQUIRED_POINTS},
        widget=TextInput(
            attrs={"inputmode": "decimal", "autocomplete": "off", "placeholder": "0–91"}
        ),
    )
    petit_au_bout = BigChoiceField(
        label=_("Petit au bout"),
        choices=[("", pgettext_lazy("petit au bout", "none")), *SIDE_LABELS.items()],
        required=False,
        initial="",
    )
    chelem = BigChoiceField(
        label=_("Slam (chelem)"),
        choices=list(CHELEM_LABELS.items()),
        required=False,
        initial="none",
    )
    version = WholeNumberField(widget=HiddenInput, required=False, min_value=1)

    def __init__(self, *args, players, active, imposed=None, rules=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.active = list(active)
        self.rules = rules or fft.FFT_RULES
        choices = [(p.pk, p.label) for p in self.active]
        self.fields["taker"].choices = choices
        self.imposed = imposed
        if imposed is not None:  # a duplicate board: taker and contract are not chosen
            taker, contract = imposed
            self.fields["taker"].choices = [c for c in choices if c[0] == taker]
            self.fields["contract"].choices = [
                c for c in self.fields["contract"].choices if c[0] == contract
            ]
            self.initial.setdefault("taker", taker)
            self.initial.setdefault("contract", contract)
        if len(self.active) == 5:
            self.fields["partner"] = BigChoiceField(
                label=_("Called partner"),
                choices=[*choices, (ALONE, _("alone"))],
                error_messages={"required": ERR_PARTNER_REQUIRED, "invalid_choice": ERR_CHOICE},
            )
        poignee = _poignee_field(len(self.active), get_language())
        for p in self.active:
            # a copy of the one field, its choices shared (`SharedChoicesMixin`): making a
            # choice field, its widget and their choices anew for every player cost more
            field = copy.deepcopy(poignee)
            field.label = p.label
            self.fields[f"poignee_{p.pk}"] = field
        # House rules: a misère field per player when the game plays with misères.
        kinds = [str(kind) for kind in self.rules.miseres]
        if kinds:
            misere_choices = [("", pgettext_lazy("misère", "none"))]
            misere_choices += [(kind, MISERE_LABELS[kind]) for kind in kinds]
            if len(kinds) == 2:
                misere_choices.append((BOTH, pgettext_lazy("misère", "both")))
            for p in self.active:
                self.fields[f"misere_{p.pk}"] = BigChoiceField(
                    label=p.label,
                    choices=misere_choices,
                    required=False,
                    initial="",
                    error_messages={"invalid_choice": ERR_CHOICE},
                )

    @property
    def player_cols(self) -> str:
        """CSS class laying the player buttons out in one row."""
        return f"cols-{len(self.active)}"

    @property
    def poignee_fields(self):
        return [self[f"poignee_{p.pk}"] for p in self.active]

    @property
    def misere_fields(self):
        return [self[f"misere_{p.pk}"] for p in self.active if f"misere_{p.pk}" in self.fields]

    @property
    def poignee_values(self) -> str:
        """The poignées' amounts by these rules, as the panel says them: "20 · 30 · 40"."""
        values = self.rules.poignee_values
        return " · ".join(str(values[kind]) for kind in fft.Poignee)

    def clean_points(self):
        return parse_points_text(self.cleaned_data.get("points", ""))

    def clean(self):
        data = super().clean()
        if data.get("points") is not None and data.get("points_side") == "defence":
            data["points"] = Fraction(91) - data["points"]
        return data

    def deal_input(self) -> DealInput:
        """The validated form as the service's input (call after is_valid())."""
        d = self.cleaned_data
        partner = d.get("partner")
        poignees = tuple(
            (p.pk, d[f"poignee_{p.pk}"]) for p in self.active if d.get(f"poignee_{p.pk}")
        )
        miseres: list[tuple[int, str]] = []
        for p in self.active:
            declared = d.get(f"misere_{p.pk}") or ""
            for kind in ("tete", "atout"):
                if declared in (kind, BOTH):
                    miseres.append((p.pk, kind))
        return DealInput(
            miseres=tuple(miseres),
            taker=d["taker"],
            contract=d["contract"],
            bouts=d["bouts"],
            points=d["points"],
            partner=None if partner in (None, "", ALONE) else int(partner),
            petit_au_bout=d.get("petit_au_bout") or None,
            poignees=poignees,
            chelem=d.get("chelem") or "none",
        )

    @classmethod
    def initial_from_deal(cls, deal) -> dict:
        initial = {
            "taker": deal.taker_id,
            "contract": deal.contract,
            "bouts": deal.bouts,
            "points_side": "attack",
            "points": _format_half(deal.points_half),
            "petit_au_bout": deal.petit_au_bout,
            "chelem": deal.chelem,
            "version": deal.version,
            "partner": deal.partner_id or ALONE,
        }
        for pk, kind in deal.poignees:
            initial[f"poignee_{pk}"] = kind
        declared: dict[int, list[str]] = {}
        for pk, kind in deal.miseres or []:
            declared.setdefault(pk, []).append(kind)
        for pk, kinds in declared.items():
            initial[f"misere_{pk}"] = BOTH if len(kinds) > 1 else kinds[0]
        return initial


def _format_half(points_half: int) -> str:
    whole, half = divmod(points_half, 2)
    return f"{whole}.5" if half else str(whole)
