from django import forms
from django.utils.translation import gettext_lazy as _


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    nickname = forms.CharField(label=_("Nickname"), max_length=40, required=False)
    licence = forms.CharField(
        label=_("Licence number"),
        max_length=20,
        required=False,
        help_text=_("The federation licence, if the player has one."),
    )
    active = forms.BooleanField(label=_("Active member"), required=False, initial=True)
    guest = forms.BooleanField(
        label=_("Guest"),
        required=False,
        help_text=_("Not a member of the club: untick to make a guest a member."),
    )
