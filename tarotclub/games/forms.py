"""The forms every kind shares: start a game, the parts of an entry screen, a date filter.

Forms only collect (types and ranges); the services and `scoring` decide what is possible.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tarotclub.core.forms import Select, StrictDateField, WholeNumberField, input_html

ERR_CHOICE = _("Choose one of the buttons.")
ERR_WHOLE = _("Enter a whole number.")
NOBODY = ""


class NewGameForm(forms.Form):
    """The game's name and the options of its kind; the seats are read by the view."""

    name = forms.CharField(label=_("Name (optional)"), max_length=100, required=False)

    def __init__(self, *args, kind, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(kind, str):  # an identifier
            from . import kinds

            kind = kinds.get(kind)
        self.kind = kind
        self.option_names = [o.name for o in kind.options]
        self.fields.update(kind.option_fields())

    def options(self) -> dict:
        return {k: self.cleaned_data[k] for k in self.option_names if k in self.cleaned_data}


class HouseRulesForm(forms.Form):
    """A kind's house rules (its scoring module's `Rules`), one field each; `initial_rules`
    fills it. `rules()` is what was chosen, as stored data (the services check it again)."""

    def __init__(self, *args, kind, initial_rules=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.fields.update(kind.house_rule_fields())
        if initial_rules is not None:
            for name, value in initial_rules.as_dict().items():
                if name in self.fields:
                    self.fields[name].initial = value

    def rules(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.fields}


class SharedChoicesMixin:
    """Each form copies its class's fields; Django's copy of a choice field normalizes its
    choices again, twice (the field's and its widget's), which was most of the time of building
    a deal form (some 0.3 ms a save). The copy here shares the already normalized choices: a
    form that changes a field's choices assigns a new list (never mutates the shared one), and
    that assignment normalizes it for this form only."""

    def __deepcopy__(self, memo):
        result = copy.copy(self)
        memo[id(self)] = result
        widget = copy.copy(self.widget)
        widget.attrs = self.widget.attrs.copy()
        memo[id(self.widget)] = widget
        result.widget = widget
        result.error_messages = self.error_messages.copy()
        result.validators = self.validators[:]
        return result


class ButtonsSelect(forms.RadioSelect):
    """The radio inputs of a choice shown as big buttons (`BigChoiceField`,
    `PlayerChoiceField`). An entry screen prints some forty of them, each one `{{ radio.tag }}`
    (includes/_choices.html): Django renders each with three nested templates
    (radio_option.html, input_option.html, input.html, and attrs.html for its attributes),
    some 0.2 ms each, half of the deal page's time. Here the input is printed in Python, the
    markup those templates print (tests/games/test_buttons_select.py proves it equal); a
    wrapped label (`{{ radio }}`) and any other template are still Django's."""

    def _render(self, template_name, context, renderer=None):
        widget = context.get("widget") or {}
        if template_name != RADIO_OPTION or widget.get("wrap_label"):
            return super()._render(template_name, context, renderer)
        return input_html(widget)


#: The template Django renders a radio input with (`RadioSelect.option_template_name`).
RADIO_OPTION = forms.RadioSelect.option_template_name


class BigChoiceField(SharedChoicesMixin, forms.TypedChoiceField):
    """A choice shown as big tappable buttons (radio inputs styled in CSS)."""

    widget = ButtonsSelect

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("error_messages", {"invalid_choice": ERR_CHOICE})
        super().__init__(*args, **kwargs)


class PlayerChoiceField(SharedChoicesMixin, forms.TypedChoiceField):
    """A player (or "nobody") as big tappable buttons; the value is the player's pk."""

    widget = ButtonsSelect

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("coerce", int)
        kwargs.setdefault("empty_value", None)
        kwargs.setdefault("error_messages", {})
        kwargs["error_messages"].setdefault("invalid_choice", ERR_CHOICE)
        super().__init__(*args, **kwargs)


def stepper(*, label: str, low: int, high: int, initial: int = 0, required: bool = True):
    """A number with − and + buttons around it (static/js/steppers.js); typing works too."""
    return WholeNumberField(
        label=label,
        min_value=low,
        max_value=high,
        initial=initial,
        required=required,
        error_messages={
            "required": _("Set a number."),
            "invalid": ERR_WHOLE,
            "min_value": _("At least %(limit_value)s."),
            "max_value": _("At most %(limit_value)s."),
        },
        widget=forms.NumberInput(
            attrs={"min": low, "max": high, "inputmode": "numeric", "class": "stepper-input"}
        ),
    )


class RecordForm(forms.Form):
    """Base of the entry forms: `players` in seat order, each with a `label`."""

    version = WholeNumberField(widget=forms.HiddenInput, required=False, min_value=1)

    def __init__(self, *args, players: Sequence, state=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.state = state  # the game before this entry (what the screen starts from)

    @property
    def cols(self) -> str:
        """Buttons for "nobody" (a full row) and the players (in at most two even rows)."""
        return f"{choice_cols(len(self.players))} with-nobody"

    @property
    def player_cols(self) -> str:
        return choice_cols(len(self.players))

    def bound(self, prefix: str, players=None) -> list[tuple[Any, forms.BoundField]]:
        return [(p, self[f"{prefix}_{p.pk}"]) for p in (players or self.players)]

    def unfinished(self) -> bool:
        """True while the entry is obviously not complete (no live preview yet)."""
        return False

    def record_data(self) -> dict:
        """The record in the scoring module's input format (each form defines it)."""
        raise NotImplementedError

    @staticmethod
    def initial_from(data: Any) -> dict:
        """The form's values for a stored record (each form defines it)."""
        raise NotImplementedError


def choice_cols(count: int) -> str:
    if count <= 5:
        return f"cols-{max(count, 2)}"
    return "cols-3" if count in (6, 9) else "cols-4"


class StandingsFilterForm(forms.Form):
    """?from=YYYY-MM-DD&to=YYYY-MM-DD (both optional, inclusive)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        date_messages = {"invalid": _("Give the date as YYYY-MM-DD, e.g. 2025-03-31.")}
        widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        self.fields["from"] = StrictDateField(
            label=_("From"),
            required=False,
            input_formats=["%Y-%m-%d"],
            error_messages=date_messages,
            widget=widget,
        )
        self.fields["to"] = StrictDateField(
            label=_("To"),
            required=False,
            input_formats=["%Y-%m-%d"],
            error_messages=date_messages,
            widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        )

    def clean(self):
        d = super().clean()
        start, end = d.get("from"), d.get("to")
        if start and end and start > end:
            raise forms.ValidationError(_("The start date comes after the end date."))
        return d


#: ?status= on the list of games.
STATUS_ONGOING, STATUS_FINISHED, STATUS_ARCHIVED = "ongoing", "finished", "archived"
ERR_LIST_KIND = _("Choose one of the games.")
ERR_LIST_PLAYER = _("Choose a player from the list.")
ERR_LIST_STATUS = _("Choose one of the options.")


class PlayerFilterField(forms.ModelChoiceField):
    """A player's pk: anything but a short run of ASCII digits is refused before the database
    sees it (a huge number would overflow SQLite's integers). Its list of every player is
    printed in Python (`core.forms.Select`), not by a template per option."""

    widget = Select

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value)
        if not (text.isascii() and text.isdigit() and len(text) <= 9):
            message = self.error_messages["invalid_choice"]
            raise forms.ValidationError(message, code="invalid_choice")
        return super().to_python(text)


class GameListFilterForm(StandingsFilterForm):
    """The list of games' filters: ?kind=&player=&status=&from=&to= (each optional)."""

    def __init__(self, *args, may_see_archived: bool = False, **kwargs):
        from tarotclub.players.models import Player

        from . import kinds

        super().__init__(*args, **kwargs)
        dates = {name: self.fields.pop(name) for name in ("from", "to")}
        self.fields["kind"] = forms.ChoiceField(
            label=_("Game"),
            required=False,
            choices=[("", pgettext_lazy("game kind", "All")), *kinds.choices()],
            error_messages={"invalid_choice": ERR_LIST_KIND},
        )
        self.fields["player"] = PlayerFilterField(
            label=_("Player"),
            required=False,
            queryset=Player.objects.order_by("name"),
            empty_label=_("Every player"),
            error_messages={"invalid_choice": ERR_LIST_PLAYER},
        )
        statuses = [
            ("", pgettext_lazy("game status", "All")),
            (STATUS_ONGOING, _("In progress")),
            (STATUS_FINISHED, _("Finished")),
        ]
        if may_see_archived:
            statuses.append((STATUS_ARCHIVED, _("Archived")))
        self.fields["status"] = forms.ChoiceField(
            label=_("Status"),
            required=False,
            choices=statuses,
            error_messages={"invalid_choice": ERR_LIST_STATUS},
        )
        self.fields.update(dates)

    def filters(self) -> dict:
        """The selector's keyword arguments (none when the form is not valid)."""
        if not self.is_bound or not self.is_valid():
            return {}
        d = self.cleaned_data
        status = d.get("status") or ""
        return {
            "kind": d.get("kind") or None,
            "player": d.get("player"),
            "date_from": d.get("from"),
            "date_to": d.get("to"),
            "finished": {STATUS_ONGOING: False, STATUS_FINISHED: True}.get(status),
            "archived": status == STATUS_ARCHIVED,
        }
