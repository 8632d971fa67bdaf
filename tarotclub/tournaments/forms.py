import secrets

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tarotclub.core.forms import ModelPkChoiceField, StrictDateField, WholeNumberField
from tarotclub.players.forms import licence_field
from tarotclub.players.models import Player

from .models import Ranking


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
    # One key per form shown: sending the same form twice creates one tournament.
    key = forms.CharField(
        widget=forms.HiddenInput,
        required=False,
        max_length=32,
        initial=lambda: secrets.token_urlsafe(16),
    )


class RegisterForm(forms.Form):
    player = ModelPkChoiceField(
        label=_("Player from the roster"),
        queryset=Player.objects.filter(active=True).order_by("name"),
        required=False,
        error_messages={"invalid_choice": _("Choose a player from the list.")},
    )
    guest_name = forms.CharField(label=_("or a guest's name"), max_length=80, required=False)
    licence = licence_field()

    def clean(self):
        data = super().clean()
        if not data.get("player") and not (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("Choose a player or give a guest's name."))
        if data.get("player") and (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("Choose a player or give a guest's name, not both."))
        return data


class RankingForm(forms.Form):
    ranking = forms.ChoiceField(label=_("Ranking"), choices=Ranking.choices)
