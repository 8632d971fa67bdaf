"""`{% choices field cols label %}`: a choice's big buttons in their fieldset (what
includes/_choices.html prints, the template every entry screen includes for each choice).

An entry screen prints some ten such fieldsets and forty buttons: through the template's loop
and lookups they were a third of the deal page's time. The markup here is the template's as it
was, to the byte (tests/games/test_buttons_select.py holds that template and compares): the
radio inputs are the widget's (`radio.tag`, `forms.ButtonsSelect`), each value printed as
`{{ }}` prints it (localized, escaped unless safe), the labels through `typography.nobreak`.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe

from tarotclub.core.forms import printed
from tarotclub.core.text import no_break_hyphens

register = template.Library()


@register.simple_tag
def choices(field, cols="", label="") -> str:
    """The fieldset of the bound choice `field`: its legend (`label`, else the field's own),
    its buttons in the `cols` grid, its errors. `cols` and `label` may be left out, or be
    missing from the context (then empty, as `{{ cols }}` prints an unknown name)."""
    errors = field.errors
    out = [
        f'<fieldset class="{"has-error" if errors else ""}" id="fs-{printed(field.html_name)}">\n'
        f"  <legend>{printed(label or field.label)}</legend>\n"
        f'  <div class="choices {printed(cols)}">\n    '
    ]
    out += [
        # (`nobreak` is a safe filter: a safe label stays safe, any other is escaped)
        f'<label class="choice">{radio.tag()}<span>'
        f"{printed(no_break_hyphens(radio.choice_label))}</span></label>"
        for radio in field
    ]
    out.append("\n  </div>\n  ")
    out += [f'<p class="field-error" role="alert">{printed(e)}</p>' for e in errors]
    out.append("\n</fieldset>")
    return mark_safe("".join(out))  # each value escaped, or safe already
