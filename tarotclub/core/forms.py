"""Helpers shared by the forms of every app, and the strict readers of numbers and dates.

Python's and Django's own parsers read more than a person types: ``int()`` (and so Django's
IntegerField, ModelChoiceField and the paginator) accepts other scripts' digits ("١٢"),
underscores ("1_000") and thousands of digits; ``strptime`` (and so DateField) reads
Arabic-Indic digits. Every number or date a request carries is read here instead: the length
first, then a regex of ASCII digits, then a conversion of a few characters only.
"""

from __future__ import annotations

import re
import uuid
from html import escape as _html_escape
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.core.validators import MaxValueValidator, MinValueValidator
from django.template import Context
from django.template.base import render_value_in_context
from django.utils.safestring import SafeData, SafeString, mark_safe

#: The most digits a number in a request may have: any id or count of the site fits, and
#: converting this many digits costs nothing.
MAX_DIGITS = 18
#: Spaces tolerated around a number; text longer than ``MAX_TEXT`` is refused unread.
MAX_SPACES = 16
MAX_TEXT = 10_000
_WHOLE = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)
#: Longest text looked at as a date ("2026-11-29" is 10 characters, "29 décembre 2026" 16).
MAX_DATE_LENGTH = 32


def add_validation_error(form: forms.Form, error: ValidationError) -> None:
    """Show a service's ValidationError on the form: by field where it names one."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


# --- whole numbers -----------------------------------------------------------------------------


def parse_whole(value: Any, *, max_digits: int = MAX_DIGITS) -> int | None:
    """A whole number written with ASCII digits (spaces around allowed), else None.

    No sign, no underscore, no other script's digits, at most `max_digits` digits. The length
    is checked before anything else, so a long text costs nothing.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value >= 0 and len(str(value)) <= max_digits else None
    if not isinstance(value, str) or len(value) > max_digits + MAX_SPACES:
        return None
    text = value.strip()
    if len(text) > max_digits or not _WHOLE.fullmatch(text):
        return None
    return int(text)


def _digits_only(value: Any) -> bool:
    """ASCII digits only, however many (a number too big to be read, not junk)."""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        return False
    text = value.strip()
    return bool(text) and text.isascii() and text.isdigit()


def posted_int(request, name: str, default: int) -> int:
    """A whole number from a hidden POST field; a missing or junk value gives `default`."""
    number = parse_whole(request.POST.get(name))
    return default if number is None else number


def posted_uuid(request, name: str) -> uuid.UUID | None:
    """A UUID from a hidden POST field (a phone's id for an entry); missing or junk: None."""
    value = request.POST.get(name) or ""
    if not 32 <= len(value) <= 36:
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        return None


def query_int(request, name: str, default: Any = None) -> Any:
    """A whole number from the query string (``?n=3``); a missing or junk value gives `default`."""
    number = parse_whole(request.GET.get(name))
    return default if number is None else number


class WholeNumberField(forms.IntegerField):
    """Django's IntegerField, reading only ASCII digits (no sign, no "1_000", no "١٢").

    A number of more than ``MAX_DIGITS`` digits is refused as too big (the ``max_value``
    message when the field has one) without being converted; "-3" gets the ``min_value``
    message when the field has one.
    """

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, str) and len(value) <= MAX_TEXT:
            value = value.strip()
            if value in self.empty_values:
                return None
        number = parse_whole(value)
        if number is not None:
            return number
        if self.max_value is not None and _digits_only(value):
            raise self._limit_error("max_value", MaxValueValidator(self.max_value))
        if (
            self.min_value is not None
            and isinstance(value, str)
            and value.startswith("-")
            and _digits_only(value[1:])
        ):
            raise self._limit_error("min_value", MinValueValidator(self.min_value))
        raise ValidationError(self.error_messages["invalid"], code="invalid")

    def _limit_error(self, code: str, validator) -> ValidationError:
        """The field's "at most"/"at least" message, for a number too big or negative."""
        return ValidationError(
            self.error_messages.get(code, validator.message),
            code=code,
            params={"limit_value": validator.limit_value},
        )


class ModelPkChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField whose posted primary key must be ASCII digits before any query."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if not isinstance(value, self.queryset.model) and parse_whole(value) is None:
            raise ValidationError(
                self.error_messages["invalid_choice"],
                code="invalid_choice",
                params={"value": str(value)[:12]},
            )
        return super().to_python(value)


# --- dates -------------------------------------------------------------------------------------


def _foreign_digit(text: str) -> bool:
    return any(c.isnumeric() and not c.isascii() for c in text)


class StrictDateField(forms.DateField):
    """Django's DateField, refusing long text and other scripts' digits before parsing.

    ``strptime`` reads Arabic-Indic digits ("٢٠٢٦-١١-٢٩") as a date: such text, and text
    longer than ``MAX_DATE_LENGTH``, gets the field's ``invalid`` message unparsed. The
    formats Django accepts (ISO and the language's own) are unchanged.
    """

    def to_python(self, value):
        if isinstance(value, str) and (len(value) > MAX_DATE_LENGTH or _foreign_digit(value)):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


# --- tables ------------------------------------------------------------------------------------


def configure_table(request, table, *, per_page: int | None = None, max_order_by: int = 3):
    """django-tables2's RequestConfig, reading ``?page=`` strictly and ignoring ``?per_page=``.

    RequestConfig passes ``?per_page=-1`` to Django's paginator, which then raises on every
    page (a 500), and reads ``?page=`` with ``int()``. Here the page is ASCII digits (else the
    first page; past the end, the last page) and the page size is the view's.
    """
    table.request = request
    order_by = [v[:40] for v in request.GET.getlist(table.prefixed_order_by_field)[:max_order_by]]
    if order_by:
        table.order_by = order_by
    if per_page:
        page = query_int(request, table.prefixed_page_field, 1) or 1
        try:
            table.paginate(per_page=per_page, page=page)
        except (EmptyPage, PageNotAnInteger):
            table.paginate(per_page=per_page, page=table.paginator.num_pages)
    return table


# --- widgets printed in Python ----------------------------------------------------------------
#
# Django prints each widget through its templates (an input: text.html, input.html, attrs.html;
# a <select>: select.html and a template per option), some 0.1 ms a template. The pages printed
# most often (the entry screens, a director's page) print theirs here instead, the same markup
# to the byte (tests/games/test_buttons_select.py compares them with Django's).


def _stringformat(value):
    """`{{ value|stringformat:'s' }}` (a safe value stays safe, as the filter keeps it)."""
    if isinstance(value, tuple):
        value = str(value)
    try:
        printed = "%s" % value  # noqa: UP031 (the filter's own formatting)
    except (ValueError, TypeError):
        return ""
    return mark_safe(printed) if isinstance(value, SafeData) else printed


#: How a template prints a value (`{{ value }}`: localized, escaped unless safe); only read.
_CONTEXT = Context()


def printed(value) -> str:
    """`{{ value }}` as a template prints it (localized, escaped unless safe). Most values
    are plain or safe strings, which a template neither localizes nor changes the type of:
    those are escaped (Django's `escape` is `html.escape`) or kept here, without the lazy
    checks Django's escaping makes at each call; any other value is printed by Django."""
    kind = type(value)
    if kind is str:
        return _html_escape(value)
    if kind is SafeString:
        return value
    return render_value_in_context(value, _CONTEXT)


def _attrs(attrs: dict) -> str:
    """django/forms/widgets/attrs.html: each attribute not False, a True one without value."""
    parts = []
    for name, value in attrs.items():
        if value is not False:
            parts.append(f" {printed(name)}")
            if value is not True:
                parts.append(f'="{printed(_stringformat(value))}"')
    return "".join(parts)


def input_html(widget: dict) -> str:
    """django/forms/widgets/input.html (with attrs.html) for a widget's context `widget`,
    stripped as the form renderer strips what it renders."""
    parts = [f'<input type="{printed(widget["type"])}" name="{printed(widget["name"])}"']
    if widget["value"] != None:  # noqa: E711 (the template's test, `!= None`)
        parts.append(f' value="{printed(_stringformat(widget["value"]))}"')
    parts.append(f"{_attrs(widget['attrs'])}>")
    return mark_safe("".join(parts))


#: The template Django prints a <select>'s options with (`Select.option_template_name`).
SELECT_OPTION = "django/forms/widgets/select_option.html"


def select_html(widget: dict) -> str | None:
    """django/forms/widgets/select.html, its options printed by select_option.html (each
    include keeps the template file's final line break), stripped as the renderer strips;
    None when an option has a template of its own."""
    parts = [f'<select name="{printed(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{printed(group_name)}">')
        for option in group_choices:
            if option["template_name"] != SELECT_OPTION:
                return None
            parts.append(
                f'\n  <option value="{printed(_stringformat(option["value"]))}"'
                f"{_attrs(option['attrs'])}>{printed(option['label'])}</option>\n"
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return mark_safe("".join(parts))


class PrintedInput:
    """An input widget whose own template only includes input.html (Django's text.html,
    hidden.html, number.html), printed in Python (`input_html`) rather than through the two
    templates (the deal page's card points and hidden version, the director's registration
    form). Another template (a subclass's own) is still Django's."""

    #: the templates of Django's that print input.html and nothing else
    PLAIN = frozenset(f"django/forms/widgets/{name}.html" for name in ("text", "hidden", "number"))

    def _render(self, template_name, context, renderer=None):
        if template_name not in self.PLAIN:
            return super()._render(template_name, context, renderer)
        return input_html(context["widget"])


class TextInput(PrintedInput, forms.TextInput):
    pass


class HiddenInput(PrintedInput, forms.HiddenInput):
    pass


class Select(forms.Select):
    """A <select> printed in Python (`select_html`) rather than by Django's two templates, a
    template per option: a director's roster of players to register is a few hundred."""

    def _render(self, template_name, context, renderer=None):
        if template_name == "django/forms/widgets/select.html":
            html = select_html(context["widget"])
            if html is not None:
                return html
        return super()._render(template_name, context, renderer)
