from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from .services import ERR_LICENCE


def licence_field(**kwargs) -> forms.CharField:
    """A federation licence number: ASCII letters, digits and hyphens, at most 20."""
    kwargs.setdefault("label", _("Licence number"))
    return forms.CharField(
        max_length=20,
        required=False,
        validators=[RegexValidator(r"\A[A-Za-z0-9-]{1,20}\Z", ERR_LICENCE, code="licence")],
        error_messages={"max_length": ERR_LICENCE},
        **kwargs,
    )


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    nickname = forms.CharField(label=_("Nickname"), max_length=40, required=False)
    licence = licence_field(help_text=_("The federation licence, if the player has one."))
    active = forms.BooleanField(label=_("Active member"), required=False, initial=True)
    guest = forms.BooleanField(
        label=_("Guest"),
        required=False,
        help_text=_("Not a member of the club: untick to make a guest a member."),
    )
