from django import forms
from django.utils.translation import gettext_lazy as _

from tarotclub.core.forms import WholeNumberField
from tarotclub.games.forms import StandingsFilterForm

from .selectors import MIN_GAMES

MIN_GAMES_LIMIT = 1000
ERR_MIN_GAMES = _("Give a whole number of games from 1 to %(limit)s.")


class LeaderboardForm(StandingsFilterForm):
    """?from=&to=&min= (each optional): a period, and the fewest rated games to be listed."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        message = ERR_MIN_GAMES % {"limit": MIN_GAMES_LIMIT}
        self.fields["min"] = WholeNumberField(
            label=_("At least … games"),
            required=False,
            min_value=1,
            max_value=MIN_GAMES_LIMIT,
            initial=MIN_GAMES,
            error_messages={"invalid": message, "min_value": message, "max_value": message},
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 1}),
        )

    def clean_min(self):
        value = self.cleaned_data.get("min")
        return MIN_GAMES if value is None else value

    def filters(self) -> dict:
        if not self.is_bound or not self.is_valid():
            return {"min_games": MIN_GAMES}
        d = self.cleaned_data
        return {"min_games": d["min"], "date_from": d.get("from"), "date_to": d.get("to")}
