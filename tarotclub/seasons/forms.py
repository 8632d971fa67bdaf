from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import season as rules
from tarotclub.core.forms import StrictDateField, WholeNumberField

from .models import TAROT, Formula
from .selectors import season_kinds, tournaments_to_choose


def kind_choices() -> list[tuple[str, str]]:
    return [(k.identifier, k.verbose_name) for k in season_kinds()]


def _points_text(points) -> str:
    return ", ".join(str(p) for p in points)


class TournamentChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.name} · {obj.date:%Y-%m-%d}"


class SeasonForm(forms.Form):
    """A season's settings; the service checks them (dates, tournaments within them...)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    kind = forms.ChoiceField(
        label=_("Game"),
        choices=kind_choices,
        initial=TAROT,
        required=False,  # unsaid: French Tarot
        widget=forms.RadioSelect,
        help_text=_(
            "A season of another game counts its casual games, one evening per date: "
            "tournaments are French Tarot only."
        ),
    )
    start = StrictDateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = StrictDateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    formula = forms.ChoiceField(
        label=_("Ranking formula"),
        choices=Formula.choices,
        initial=Formula.TOTAL,
        widget=forms.RadioSelect,
    )
    best_n = WholeNumberField(
        label=_("Best N evenings"),
        min_value=1,
        max_value=100,
        required=False,
        help_text=_("Needed for the best N evenings; optional for the points by place."),
    )
    points = forms.CharField(
        label=_("Points by place"),
        max_length=400,
        required=False,
        initial=_points_text(rules.DEFAULT_POINTS),
        help_text=_("From the first place down, separated by commas."),
    )
    min_attendance = WholeNumberField(
        label=_("Minimum attendance (evenings)"),
        min_value=1,
        max_value=100,
        initial=1,
        required=False,
        help_text=_("For the average: who came less often is listed after, unranked."),
    )
    include_casual = forms.BooleanField(
        label=_("Casual French Tarot games count too, one evening per date"), required=False
    )
    tournaments = TournamentChoice(
        label=_("Tournaments that count"),
        queryset=tournaments_to_choose(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def clean_kind(self) -> str:
        return self.cleaned_data.get("kind") or TAROT

    @classmethod
    def initial_for(cls, season) -> dict:
        return {
            "name": season.name,
            "kind": season.kind,
            "start": season.start,
            "end": season.end,
            "formula": season.formula,
            "best_n": season.best_n,
            "points": _points_text(season.points),
            "min_attendance": season.min_attendance,
            "include_casual": season.include_casual,
            "tournaments": list(season.tournaments.all()),
        }
