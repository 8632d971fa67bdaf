"""Issue 12: the radio inputs of the entry screens' big buttons (`forms.ButtonsSelect`) are
printed in Python rather than by Django's widget templates (radio_option.html, input_option.html,
input.html, attrs.html), with the same markup to the byte: checked or not, ids, values that
need escaping or are already safe, attributes set to True or False, every language. So are
the plain inputs and the <select>s printed in Python (`core.forms.PrintedInput` and `Select`:
the deal page's card points and hidden version; the director's registration and ranking
forms, the lists of every player), and each choice's fieldset (`{% choices %}`,
includes/_choices.html) is the markup the include's template printed before, with its
legend, grid and errors."""

from __future__ import annotations

import pytest
from django import forms
from django.utils import translation
from django.utils.safestring import mark_safe

from tarotclub.core.forms import HiddenInput, PrintedInput, Select, TextInput
from tarotclub.demo.builders import make_tournament
from tarotclub.games import house
from tarotclub.games import selectors as game_selectors
from tarotclub.games.forms import (
    BigChoiceField,
    ButtonsSelect,
    PlayerChoiceField,
    PlayerFilterField,
)
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.forms import DealForm
from tarotclub.players.models import Player
from tarotclub.tournaments.forms import RankingForm, RegisterForm


def _pairs(form: forms.Form):
    """(ButtonsSelect's markup, Django's templates' markup) of every radio of `form`."""
    found = []
    for field in form:
        if not isinstance(field.field.widget, ButtonsSelect):
            continue
        for radio in field:
            context = {"widget": {**radio.data, "wrap_label": False}}
            django = forms.RadioSelect._render(
                radio.parent_widget, radio.template_name, context, radio.renderer
            )
            found.append((radio.tag(), django))
    return found


def _assert_same(form: forms.Form) -> int:
    pairs = _pairs(form)
    for fast, django in pairs:
        assert fast == django
    return len(pairs)


def _deal_forms(game, players, data=None):
    rules = house.of_game(game)
    dealer = tarot.dealer_for(game, 1, players)
    active = tarot.active_players(game, dealer, players, 1)
    return DealForm(data, initial={}, players=players, active=active, imposed=None, rules=rules)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_the_deal_screens_radios_are_djangos_markup(make_players, language):
    players = make_players("Anne", "Bram <b>&</b>", "Chloé", "Dirk-Jan", "Eva")
    with translation.override(language):
        for seats in (3, 4, 5):
            game = game_start(
                players=players[:seats],
                options={"house": {"misere_tete": True, "misere_atout": True}},
            )
            table = game_selectors.seat_players(game)
            assert house.of_game(game).miseres
            assert _assert_same(_deal_forms(game, table)) > 20
            checked = {
                "taker": str(table[1].pk),
                "contract": "garde",
                "bouts": "2",
                "points": "49",
                "points_side": "defence",
                "petit_au_bout": "attack",
                "chelem": "announced_failed",
                f"poignee_{table[0].pk}": "simple",
                "partner": str(table[2].pk),
            }
            form = _deal_forms(game, table, data=checked)
            assert _assert_same(form) > 20
            assert any(" checked" in fast for fast, _ in _pairs(form))
            wrong = _deal_forms(game, table, data={"taker": "999", "bouts": "9"})
            wrong.is_valid()
            _assert_same(wrong)


class _Odd(forms.Form):
    """Values and attributes that need escaping, are safe already, or are True or False."""

    word = BigChoiceField(
        choices=[
            ('say "hi" <b>&</b>', "quotes"),
            (mark_safe("<i>safe</i>"), "safe"),
            ("", "none"),
            (0, "zero"),
            ("l'été", "accents"),
        ],
        required=False,
    )
    who = PlayerChoiceField(choices=[(1, "one"), (2, "two"), ("", "nobody")], required=False)


@pytest.mark.parametrize(
    "data", [None, {"word": 'say "hi" <b>&</b>', "who": "2"}, {"word": "0"}, {"word": "x"}]
)
def test_values_and_attributes_print_as_djangos_templates_print_them(data):
    form = _Odd(data, auto_id="id_%s")
    form.fields["word"].widget.attrs.update(
        {
            "data-yes": True,
            "data-no": False,
            "data-x": '"<>&',
            "data-empty": "",
            "data-zero": 0,
            "aria-label": mark_safe("<b>"),
        }
    )
    assert _assert_same(form) == 8
    assert _assert_same(_Odd(data, auto_id=False)) == 8


@pytest.mark.django_db
def test_each_players_poignee_field_is_its_own_in_the_pages_language(make_players):
    """The poignée fields are copies of one field per table size and language (forms.py's
    `_poignee_field`): each with its player's name, the trumps of its table size, the page's
    language, and changing one changes no other."""
    players = make_players("Anne", "Bram", "Chloé", "Dirk", "Eva")
    for seats, trumps in ((3, "13"), (4, "10"), (5, "8")):
        game = game_start(players=players[:seats])
        table = game_selectors.seat_players(game)
        for language, simple in (("fr", "simple"), ("en", "simple"), ("nl", "enkel")):
            with translation.override(language):
                form = _deal_forms(game, table)
                fields = form.poignee_fields
                assert [f.label for f in fields] == [p.label for p in table]
                choices = [str(label) for _value, label in fields[0].field.choices]
                assert choices[1].startswith(simple) and choices[1].endswith(f"({trumps})")
                assert all(f.field is not fields[0].field for f in fields[1:])
                assert all(f.field.widget is not fields[0].field.widget for f in fields[1:])
                fields[0].field.widget.attrs["data-x"] = "1"
                assert "data-x" not in fields[1].field.widget.attrs
                assert "data-x" not in _deal_forms(game, table).poignee_fields[0].field.widget.attrs


#: includes/_choices.html as it was, printed by the template's own loop and lookups: the
#: markup `{% choices %}` (core/templatetags/choices.py) must keep.
TEMPLATE_CHOICES = (
    '{% load typography %}<fieldset class="{% if field.errors %}has-error{% endif %}" '
    'id="fs-{{ field.html_name }}">\n'
    "  <legend>{{ label|default:field.label }}</legend>\n"
    '  <div class="choices {{ cols }}">\n'
    '    {% for radio in field %}<label class="choice">{{ radio.tag }}<span>'
    "{{ radio.choice_label|nobreak }}</span></label>{% endfor %}\n"
    "  </div>\n"
    '  {% for e in field.errors %}<p class="field-error" role="alert">{{ e }}</p>{% endfor %}\n'
    "</fieldset>\n"
)


def _fieldsets(form: forms.Form, **given) -> int:
    """Each choice of `form` as the include prints it and as the template printed it, equal;
    with `cols` and `label` given (`given`), or not at all: then an outer `label` and `cols`
    are the ones both read, as an include reads its context."""
    from django.template import engines
    from django.template.loader import get_template

    include = get_template("includes/_choices.html")
    before = engines["django"].from_string(TEMPLATE_CHOICES)
    count = 0
    for field in form:
        if not isinstance(field.field.widget, ButtonsSelect):
            continue
        context = {"field": field, **given}
        fast = include.render(context)
        assert fast == before.render(context)
        assert fast.count('<label class="choice">') == len(field.field.choices)
        count += 1
    return count


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_the_deal_screens_fieldsets_are_the_templates_markup(make_players, language):
    players = make_players("Anne", "B<r>&m", "Chloé", "Dirk-Jan", "Eva")
    with translation.override(language):
        for seats in (3, 5):
            game = game_start(
                players=players[:seats],
                options={"house": {"misere_tete": True, "misere_atout": True}},
            )
            table = game_selectors.seat_players(game)
            plain = _deal_forms(game, table)
            assert _fieldsets(plain) >= 8
            assert _fieldsets(plain, cols="cols-4", label="Dirk-Jan <i>") >= 8
            assert _fieldsets(plain, cols="", label=mark_safe("<i>Eva</i>")) >= 8
            wrong = _deal_forms(game, table, data={"taker": "999", "bouts": "9"})
            assert not wrong.is_valid()
            assert _fieldsets(wrong, cols="cols-2") >= 8
            html = get_template_rendered(wrong, "taker")
            assert 'class="has-error"' in html and 'class="field-error"' in html
            # the names escaped, their hyphens kept together (`nobreak`)
            assert "<span>B&lt;r&gt;&amp;m</span>" in html
            assert ("Dirk\u2011Jan" in html) is (seats == 5)


def get_template_rendered(form: forms.Form, name: str) -> str:
    from django.template.loader import get_template

    return get_template("includes/_choices.html").render({"field": form[name]})


@pytest.mark.parametrize(
    "data", [None, {"word": 'say "hi" <b>&</b>', "who": "2"}, {"word": "x", "who": "9"}]
)
def test_odd_values_print_in_their_fieldset_as_the_template_printed_them(data):
    assert _fieldsets(_Odd(data, auto_id="id_%s"), cols=3, label=0) == 2
    assert _fieldsets(_Odd(data, auto_id=False)) == 2


def _inputs(fast: bool):
    """A form of plain inputs: printed in Python (`forms.PrintedInput`), or Django's own."""
    text, hidden = (TextInput, HiddenInput) if fast else (forms.TextInput, forms.HiddenInput)
    number = type("N", (PrintedInput, forms.NumberInput), {}) if fast else forms.NumberInput
    return type(
        "Inputs",
        (forms.Form,),
        {
            "text": forms.CharField(
                widget=text(attrs={"inputmode": "decimal", "data-x": '"<>&', "data-no": False})
            ),
            "hidden": forms.IntegerField(widget=hidden, required=False),
            "number": forms.IntegerField(widget=number(attrs={"min": 0, "step": 0.5})),
        },
    )


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"text": '40.5 "<b>&', "hidden": "3", "number": "-2"},
        {"text": "", "hidden": "x", "number": "1e3"},
    ],
)
@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_plain_inputs_print_as_djangos_templates_print_them(data, language):
    initial = {"hidden": 12345, "text": mark_safe("<i>"), "number": 1.5}
    with translation.override(language):
        forms_ = [
            kind(data, initial=initial, auto_id=auto)
            for kind in (_inputs(True), _inputs(False))
            for auto in ("id_%s", False)
        ]
        for form in forms_:
            form.is_valid()
        for name in ("text", "hidden", "number"):
            fast, django = forms_[0][name], forms_[2][name]
            assert str(fast) == str(django) and str(django).startswith("<input type=")
            extra = {"data-yes": True, "data-no": False, "aria-label": mark_safe("<b>")}
            assert fast.as_widget(attrs=extra) == django.as_widget(attrs=extra)
            assert str(forms_[1][name]) == str(forms_[3][name])


def _selects(fast: bool):
    """A form of <select>s: printed in Python (`core.forms.Select`), or Django's own."""
    widget = Select if fast else forms.Select
    grouped = [
        ("", "—"),
        ("Roster", [(1, "Anne"), (2, 'Bram "Q" <b>&</b>'), (3, mark_safe("<i>Chloé</i>"))]),
        ("Guests <x>", [("g-1", "Dirk-Jan")]),
        (0, "zero"),
    ]
    return type(
        "Selects",
        (forms.Form,),
        {
            "plain": forms.ChoiceField(choices=[("a", "A"), ("b", "l'été")], widget=widget),
            "grouped": forms.ChoiceField(
                choices=grouped, required=False, widget=widget(attrs={"data-x": '"<>&'})
            ),
            "empty": forms.ChoiceField(choices=[], required=False, widget=widget),
        },
    )


@pytest.mark.parametrize(
    "data", [None, {"plain": "b", "grouped": "2"}, {"plain": "zz", "grouped": "0"}]
)
@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_selects_print_as_djangos_templates_print_them(data, language):
    with translation.override(language):
        fast, django = _selects(True)(data), _selects(False)(data)
        fast.is_valid(), django.is_valid()
        for name in ("plain", "grouped", "empty"):
            assert str(fast[name]) == str(django[name])
            extra = {"disabled": True, "data-no": False, "aria-label": mark_safe("<b>")}
            assert fast[name].as_widget(attrs=extra) == django[name].as_widget(attrs=extra)
        html = str(fast["grouped"])
        assert '<optgroup label="Guests &lt;x&gt;">' in html and "<i>Chloé</i>" in html
        assert html.count("<option") == 6


def test_a_select_whose_options_have_a_template_of_their_own_is_djangos():
    """An option template other than Django's is rendered by it, the whole <select> too."""

    class Own(Select):
        option_template_name = "django/forms/widgets/input.html"  # (any other template)

    class Django(forms.Select):
        option_template_name = "django/forms/widgets/input.html"

    own = forms.ChoiceField(choices=[("a", "A")], widget=Own).widget.render("x", "a")
    assert own == forms.ChoiceField(choices=[("a", "A")], widget=Django).widget.render("x", "a")
    assert "<input" in own


def _as_django(field) -> str:
    """`field` printed by Django's own widget of the same class, attributes and choices."""
    widget = field.field.widget
    base = next(c for c in type(widget).__mro__ if c.__module__.startswith("django.forms"))
    twin = base(attrs=dict(widget.attrs))
    if hasattr(widget, "choices"):
        twin.choices = widget.choices
    return field.as_widget(widget=twin)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_the_directors_forms_print_as_djangos_widgets_print_them(make_players, language):
    """The director's page's registration and ranking forms (tournaments.forms), whose
    widgets are printed in Python: the roster of players to register, a guest's name, a
    licence, a team, the ranking; empty, refused, and for a duplicate tournament."""
    make_players("Anne", "B<r>&m", "Dirk-Jan", "Eva 'E'")
    free, _ = make_tournament(4, rounds=1, deals=1)
    duplicate, _ = make_tournament(8, rounds=1, deals=4, format="duplicate", tables=2)
    with translation.override(language):
        for form in (
            RegisterForm(None, tournament=free),
            RegisterForm({"player": "x", "licence": "<b>", "team": '"T"'}, tournament=free),
            RegisterForm({"orientation": "zz", "start_table": "0"}, tournament=duplicate),
            RankingForm(initial={"ranking": "total"}),
            RankingForm({"ranking": "<nope>"}),
        ):
            form.is_valid()
            for field in form:
                if isinstance(field.field.widget, Select | TextInput):
                    assert str(field) == _as_django(field)
        # the lists of every player (the games' and the standings' filters)
        chooser = type("F", (forms.Form,), {"p": PlayerFilterField(Player.objects.all())})
        for data in (None, {"p": "2"}, {"p": "x"}):
            form = chooser(data)
            form.is_valid()
            assert str(form["p"]) == _as_django(form["p"]) and "<option" in str(form["p"])
        roster = str(RegisterForm(None, tournament=free)["player"])
        # the empty choice, the four above, the duplicate's eight (not registered here)
        assert ">B&lt;r&gt;&amp;m</option>" in roster and roster.count("<option") == 1 + 4 + 8
