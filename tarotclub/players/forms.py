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


ERR_SIZE = _("Choose 3, 4 or 5 players, or every table.")
ERR_OTHER = _("Choose another player from the list.")


def stats_filter_form(data):
    """The player page's filters: ?from=&to=&size= (each optional)."""
    from tarotclub.games.forms import StandingsFilterForm

    class StatsFilterForm(StandingsFilterForm):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.fields["size"] = forms.TypedChoiceField(
                label=_("Table"),
                required=False,
                coerce=int,
                empty_value=None,
                choices=[
                    ("", _("Every table")),
                    ("3", _("3 players")),
                    ("4", _("4 players")),
                    ("5", _("5 players")),
                ],
                error_messages={"invalid_choice": ERR_SIZE},
            )

    return StatsFilterForm(data)


def other_player_form(data, *, player):
    """The head-to-head page's choice of the other player and of the dates, as the player's
    statistics have them: ?other=<pk>&from=&to= (the dates optional)."""
    from tarotclub.games.forms import PlayerFilterField, StandingsFilterForm

    from .models import Player

    class OtherPlayerForm(StandingsFilterForm):
        other = PlayerFilterField(
            label=_("Against"),
            required=True,
            queryset=Player.objects.exclude(pk=player.pk).order_by("name_key", "pk"),
            empty_label=_("Choose a player"),
            error_messages={"invalid_choice": ERR_OTHER, "required": ERR_OTHER},
        )

    return OtherPlayerForm(data)
