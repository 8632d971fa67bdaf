import secrets

from django import forms
from django.core import validators
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tarotclub.core.forms import (
    ModelPkChoiceField,
    Select,
    StrictDateField,
    TextInput,
    WholeNumberField,
)
from tarotclub.players.forms import licence_field
from tarotclub.players.models import Player
from tarotclub.players.selectors import roster

from .models import DUPLICATE_MAX_TABLES, Format, Line, Orientation, Ranking
from .selectors import roster_to_register


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    date = StrictDateField(
        label=_("Date"), initial=timezone.localdate, widget=forms.DateInput(attrs={"type": "date"})
    )
    place = forms.CharField(label=_("Place"), max_length=120, required=False)
    rounds = WholeNumberField(label=_("Rounds"), min_value=1, max_value=20, initial=5)
    deals_per_round = WholeNumberField(
        label=_("Deals per round at a table of four"), min_value=1, max_value=24, initial=4
    )
    allow_three = forms.BooleanField(
        label=_("Tables of three instead of tables of five"), required=False
    )
    ranking = forms.ChoiceField(label=_("Ranking"), choices=Ranking.choices, initial=Ranking.TOTAL)
    format = forms.ChoiceField(
        label=_("Format"), choices=Format.choices, initial=Format.FREE, required=False
    )
    tables = WholeNumberField(
        label=_("Tables of four (duplicate)"),
        min_value=2,
        max_value=DUPLICATE_MAX_TABLES,
        required=False,
        help_text=_(
            "Duplicate: every table plays the same boards in turn; the deals per round are the "
            "boards a table plays in a round (4, 8, …), the rounds at most the tables."
        ),
    )
    # One key per form shown: sending the same form twice creates one tournament.
    key = forms.CharField(
        widget=forms.HiddenInput,
        required=False,
        max_length=32,
        initial=lambda: secrets.token_urlsafe(16),
    )

    def clean_format(self):
        return self.cleaned_data.get("format") or Format.FREE


class RegisterForm(forms.Form):
    """One player: from the active roster (members, not yet registered here), or a guest."""

    # (the director's page prints this form: its widgets are printed in Python, core.forms)
    player = ModelPkChoiceField(
        label=_("Player from the roster"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("Choose a player"),
        widget=Select,
        error_messages={"invalid_choice": _("Choose a player from the list.")},
    )
    guest_name = forms.CharField(
        label=_("or a guest's name"), max_length=80, required=False, widget=TextInput
    )
    licence = licence_field(widget=TextInput)
    team = forms.CharField(
        label=_("Team (for a team event)"),
        max_length=60,
        required=False,
        widget=TextInput,
        help_text=_(
            "Players with the same team name form a team of 2 or 4; "
            "they never sit at the same table."
        ),
    )

    orientation = forms.ChoiceField(
        label=_("Orientation (duplicate)"),
        choices=[("", _("given at the start")), *Orientation.choices],
        required=False,
        widget=Select,
    )
    start_table = WholeNumberField(
        label=_("Starting table (duplicate)"),
        min_value=1,
        max_value=DUPLICATE_MAX_TABLES,
        required=False,
    )

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tournament is not None and tournament.duplicate:
            del self.fields["team"]  # duplicate teams (triplettes...) are not kept yet
        else:
            del self.fields["orientation"], self.fields["start_table"]
        field = self.fields["player"]
        # any roster player is accepted (one registered meanwhile by another screen is then
        # told "already registered" by the service); the list offers only those not registered
        field.queryset = roster().order_by("name_key", "pk")
        offered = roster_to_register(tournament) if tournament else field.queryset
        field.widget.choices = [
            ("", field.empty_label),
            *[(p.pk, field.label_from_instance(p)) for p in offered],
        ]

    def clean(self):
        data = super().clean()
        if not data.get("player") and not (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("Choose a player or give a guest's name."))
        if data.get("player") and (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("Choose a player or give a guest's name, not both."))
        return data


class SubstituteForm(forms.Form):
    """A substitute for a duplicate player who withdraws: a roster player or a guest, and the
    round he plays from (`duplicate_services.entry_substitute` checks the rest)."""

    player = ModelPkChoiceField(
        label=_("Substitute from the roster"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("Choose a player"),
        widget=Select,
        error_messages={"invalid_choice": _("Choose a player from the list.")},
    )
    guest_name = forms.CharField(label=_("or a guest's name"), max_length=80, required=False)
    from_round = WholeNumberField(label=_("Plays from round"), min_value=2, max_value=20)

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        field.queryset = roster().order_by("name_key", "pk")
        offered = roster_to_register(tournament) if tournament else field.queryset
        field.widget.choices = [
            ("", field.empty_label),
            *[(p.pk, field.label_from_instance(p)) for p in offered],
        ]
        if tournament is not None:
            rounds = self.fields["from_round"]
            rounds.max_value = tournament.rounds
            rounds.validators = [
                v for v in rounds.validators if not isinstance(v, validators.MaxValueValidator)
            ] + [validators.MaxValueValidator(tournament.rounds)]
            rounds.widget.attrs["max"] = tournament.rounds

    def clean(self):
        data = super().clean()
        if not data.get("player") and not (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("Choose a player or give a guest's name."))
        if data.get("player") and (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("Choose a player or give a guest's name, not both."))
        return data


class BulkForm(forms.Form):
    """A pasted list of players, one a line (read by `bulk.parse`, which bounds it)."""

    names = forms.CharField(
        label=_("Players, one a line"),
        help_text=_(
            "A name, and a licence number if you have it: “Anne Martin;123456”, "
            "“Anne Martin, 123456” or “Anne Martin 123456”. Names already on the roster are "
            "matched; the others become guests. You confirm on the next page."
        ),
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false"}),
        strip=False,
        error_messages={"required": _("Paste at least one name.")},
    )


class RankingForm(forms.Form):
    ranking = forms.ChoiceField(label=_("Ranking"), choices=Ranking.choices, widget=Select)


class TripletteForm(forms.Form):
    """A triplette: its name, its 3 players (roster names are matched, others are guests),
    its line."""

    team = forms.CharField(label=_("Team name"), max_length=60)
    player_1 = forms.CharField(label=_("Player 1"), max_length=80)
    player_2 = forms.CharField(label=_("Player 2"), max_length=80)
    player_3 = forms.CharField(label=_("Player 3"), max_length=80)
    line = forms.ChoiceField(
        label=_("Line"),
        choices=[("", _("the line with fewer teams")), *Line.choices],
        required=False,
    )

    def members(self) -> list[str]:
        return [self.cleaned_data[f"player_{i}"] for i in (1, 2, 3)]


class BoardDealerForm(forms.Form):
    """The dealer marked on a duplicate board (duplicate.md 1.2); `was`, the one the page
    showed (another screen may have changed it since)."""

    dealer = forms.ChoiceField(
        label=_("Dealer"),
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose North, East, South or West.")},
    )
    was = forms.ChoiceField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dealer"].choices = choices
        self.fields["dealer"].error_messages["invalid_choice"] = _(
            "Choose North, East, South or West."
        )
        self.fields["was"].choices = [("", ""), *Orientation.choices]
        self.fields["was"].error_messages["invalid_choice"] = _(
            "This form is out of date: open the page again."
        )


class QuadretteForm(forms.Form):
    """A quadrette: its name, the player its captain names to attack all session (South at
    every table), and its 3 defenders, who keep North, East and West (roster names are
    matched, others are guests)."""

    team = forms.CharField(label=_("Team name"), max_length=60)
    attacker = forms.CharField(label=_("Attacker (plays South at every table)"), max_length=80)
    north = forms.CharField(label=_("Defender North"), max_length=80)
    east = forms.CharField(label=_("Defender East"), max_length=80)
    west = forms.CharField(label=_("Defender West"), max_length=80)

    def defenders(self) -> list[str]:
        return [self.cleaned_data[k] for k in ("north", "east", "west")]
