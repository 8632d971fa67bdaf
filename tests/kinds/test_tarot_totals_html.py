"""Issue 12: the top of a tarot sheet (each player's total, the zero-sum check, who deals
next: kinds/tarot/_totals.html) is printed by a tag (`{% tarot_totals %}`) rather than by the
template's loop and translation tags, and the markup is the template's as it was, to the byte:
in every language, for three to five players, members (names are links) and not, leaders,
totals that do or do not add up to 0, a finished or confirmed sheet, planned deals all in or
not, a dealer who sits out, and names and values that need escaping."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from tarotclub.kinds.tarot.selectors import Sheet

LANGUAGES = ["en", "fr", "nl"]

#: kinds/tarot/_totals.html as it was, printed by the template's own tags.
TEMPLATE = (
    "{% load typography i18n scores players %}{# The top of a tarot sheet. #}\n"
    '<ol class="totals {{ totals_cols }}" aria-label="{% translate \'Totals\' %}">{% for p, '
    "total, leads in sheet.standing %}\n"
    '  <li class="total-card{% if leads %} leader{% endif %}">{% player_href p.pk as href %}'
    '{% if href %}<a class="player-box" href="{{ href }}">{% endif %}<span class="name" '
    'title="{{ p.name }}">{{ p.compact|default:p.label }}</span><span class="value" '
    'data-player="{{ p.pk }}">{{ total|score }}</span>{% if href %}</a>{% endif %}</li>'
    "{% endfor %}\n"
    "</ol>\n"
    '<p class="zero-sum {% if sheet.zero_sum %}ok{% else %}bad{% endif %}">\n'
    "  {% if sheet.zero_sum %}{% blocktranslate count n=sheet.deal_count %}{{ n }} deal · the "
    "totals add up to 0 ✓{% plural %}{{ n }} deals · the totals add up to 0 ✓"
    '{% endblocktranslate %}{% else %}{% translate "The totals do not add up to 0: check the '
    'deals." %}{% endif %}\n'
    "</p>\n"
    "{% if not game.finished and not game.locked and sheet.next_dealer and not all_deals_in %}"
    "\n{# The same sentence with __N__ and __NAME__ for the phone. #}\n"
    '{% blocktranslate with name="__NAME__" n="__N__" asvar next_text %}Deal {{ n }}: '
    "<strong>{{ name }}</strong> deals.{% endblocktranslate %}\n"
    '<p class="next-dealer" data-next-count="{{ sheet.deal_count }}" data-next-dealers="{{ '
    'sheet.dealers_json }}"{% if deals_planned %} data-next-planned="{{ deals_planned }}"'
    '{% endif %} data-next-text="{{ next_text|force_escape }}{% if game.dealer_sits_out %} '
    '{% translate "The dealer sits out this deal." %}{% endif %}">{% blocktranslate with '
    "name=sheet.next_dealer.label|nobreak n=sheet.deal_count|add:1 %}Deal {{ n }}: <strong>"
    "{{ name }}</strong> deals.{% endblocktranslate %}{% if game.dealer_sits_out %} "
    '{% translate "The dealer sits out this deal." %}{% endif %}</p>\n'
    "{% endif %}\n"
)

MEMBER = SimpleNamespace(is_authenticated=True)


def person(pk, name, label=None, compact=None):
    p = SimpleNamespace(pk=pk, name=name, label=label if label is not None else name)
    if compact is not None:  # (a player read elsewhere may have no compact name)
        p.compact = compact
    return p


def both(context: dict) -> tuple[str, str]:
    """(the template as it was, the template as it is) for `context`."""
    old = engines["django"].from_string(TEMPLATE).render(context)
    new = get_template("kinds/tarot/_totals.html").render(context)
    return old, new


def context_of(players, totals, *, leaders=(), count=None, dealer=0, user=None, **extra):
    sheet = Sheet(
        game=None,
        players=players,
        rows=[],
        totals=dict(zip([p.pk for p in players], totals, strict=True)),
        leaders=set(leaders),
        next_dealer=players[dealer] if dealer is not None else None,
        dealers=players[dealer or 0 :] + players[: dealer or 0],
        count=count,
    )
    game = SimpleNamespace(
        finished=extra.pop("finished", None),
        locked=extra.pop("locked", False),
        dealer_sits_out=extra.pop("sits_out", False),
    )
    return {
        "sheet": sheet,
        "game": game,
        "user": user if user is not None else AnonymousUser(),
        "totals_cols": f"cols-{len(players)}",
        **extra,
    }


NAMES = ["Anne", "Jean-Pierre", 'B<r>&m "Bob"', "Zoë-Éloïse d'Arc", "Dirk"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("member", [False, True])
@pytest.mark.parametrize(
    "state",
    [
        {},
        {"finished": "2026-12-05"},
        {"locked": True},
        {"sits_out": True},
        {"deals_planned": 4, "all_deals_in": False},
        {"deals_planned": 4, "all_deals_in": True},
        {"dealer": None},
    ],
)
def test_the_totals_are_the_templates(language, size, member, state):
    players = [
        person(i + 1, name, compact=name[:6] if i % 2 else None)
        for i, name in enumerate(NAMES[:size])
    ]
    totals = [150, -75, -75, 0, 0][:size]
    state = dict(state)
    dealer = state.pop("dealer", 1)
    context = context_of(
        players,
        totals,
        leaders=[1],
        count=7,
        dealer=dealer,
        user=MEMBER if member else None,
        **state,
    )
    with translation.override(language):
        old, new = both(context)
    assert new == old
    # who deals next: while the sheet takes deals, and someone deals
    shown = dealer is not None and not any(
        state.get(k) for k in ("finished", "locked", "all_deals_in")
    )
    assert ('class="next-dealer"' in new) is shown


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("count", [0, 1, 2, 1234])
def test_plurals_a_count_in_thousands_and_totals_that_do_not_add_up(language, count):
    players = [person(i + 1, n) for i, n in enumerate(NAMES[:4])]
    for totals in ([10, -10, 0, 0], [10, 0, 0, 0], [12345, -12345, 0, 0]):
        with translation.override(language):
            old, new = both(context_of(players, totals, count=count))
        assert new == old


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.text(min_size=1, max_size=12), min_size=3, max_size=5),
    totals=st.lists(st.integers(-100_000, 100_000), min_size=5, max_size=5),
    leaders=st.sets(st.integers(1, 5)),
    count=st.integers(0, 5000),
    member=st.booleans(),
    flags=st.fixed_dictionaries(
        {
            "locked": st.booleans(),
            "sits_out": st.booleans(),
            "deals_planned": st.one_of(st.none(), st.integers(0, 40)),
            "all_deals_in": st.booleans(),
        }
    ),
    language=st.sampled_from(LANGUAGES),
)
def test_any_names_and_totals_print_as_the_template_printed(
    names, totals, leaders, count, member, flags, language
):
    players = [person(i + 1, n, label=n[:8], compact=n[:4]) for i, n in enumerate(names)]
    context = context_of(
        players,
        totals[: len(players)],
        leaders=leaders,
        count=count,
        user=MEMBER if member else None,
        **flags,
    )
    with translation.override(language):
        old, new = both(context)
    assert new == old


@pytest.mark.django_db
def test_a_sheet_and_a_poll_show_the_totals_with_links_for_members(client, django_user_model):
    """The tag in place: a member's sheet names each player with a link to their page, and a
    poll after a deal sends the totals again."""
    from tarotclub.demo.history import sheet_deal, tarot_sheet
    from tarotclub.kinds.tarot import services as tarot
    from tarotclub.players.services import player_create

    players = [player_create(name=n) for n in ("Anne", "Bram", "Chloé", "Dirk")]
    game = tarot_sheet(players, deals=2)
    since = game.revision
    tarot.deal_add(game=game, data=sheet_deal(game, players, 3))
    sheet = reverse("games:sheet", args=[game.token])
    poll = reverse("games:poll", args=[game.token]) + f"?rev={since}&n=2&a="
    page = client.get(sheet).content.decode()
    assert page.count('<li class="total-card') == 4 and "player-box" not in page
    assert "3 deals · the totals add up to 0 ✓" in page
    client.force_login(django_user_model.objects.create_user("member"))
    page = client.get(sheet).content.decode()
    for p in players:
        assert f'<a class="player-box" href="{reverse("players:detail", args=[p.pk])}">' in page
    answer = client.get(poll, headers={"HX-Request": "true"}).content.decode()
    assert answer.count('<li class="total-card') == 4
    assert "3 deals · the totals add up to 0 ✓" in answer
