"""Issue 12: the director's long lists (registered players, a round's tables) are rendered in
Python (`tables.entries_html`, `tables.round_tables_html`), with the markup the templates made:
these are the template loops they replace, rendered side by side, in every language. The
director is a member: the names link to the players' pages (issue 13)."""

from __future__ import annotations

import pytest
from django.template import engines
from django.test import RequestFactory
from django.test.html import parse_html
from django.urls import reverse
from django.utils import translation

from tarotclub.players.services import player_create
from tarotclub.tournaments import selectors, services
from tarotclub.tournaments.models import Entry, Table
from tarotclub.tournaments.tables import entries_html, round_tables_html

from .helpers import make_tournament, play_table

pytestmark = pytest.mark.django_db

ENTRIES = """{% load i18n typography %}
  {% for e in entries %}
    <li><a class="player-link" href="{% url 'players:detail' e.player.pk %}">{{ e.player.name|nobreak }}</a>{% if e.player.guest %} <small class="badge">{% translate "guest" %}</small>{% endif %}{% if e.licence %} <small class="muted">{{ e.licence }}</small>{% endif %}
      {% if e.first_round > 1 %}<span class="badge">{% blocktranslate with n=e.first_round %}from round {{ n }}{% endblocktranslate %}</span>{% endif %}
      {% if e.withdrawn %}<span class="badge bad">{% blocktranslate with n=e.last_round %}withdrew after round {{ n }}{% endblocktranslate %}</span>
      {% elif t.status != "finished" %}<a class="button small" href="{% url 'tournaments:withdraw' t.pk e.pk %}">{% if t.status == "registration" %}{% translate "remove" %}{% else %}{% translate "withdraw" %}{% endif %}</a>{% endif %}
    </li>
  {% endfor %}"""  # noqa: E501

TABLES = """{% load i18n typography %}
  {% for x in tables %}
    <li class="round-table state-{{ x.state }}">
      <a class="table-number" href="{% url 'games:sheet' x.game.token %}">{% blocktranslate with n=x.table.number %}Table {{ n }}{% endblocktranslate %}</a>
      <span class="table-state">{% if x.state == "confirmed" %}<span class="badge good">{% translate "confirmed" %}</span>{% elif x.state == "in_progress" %}<span class="badge">{% blocktranslate with done=x.done count planned=x.planned %}{{ done }} of {{ planned }} deal{% plural %}{{ done }} of {{ planned }} deals{% endblocktranslate %}</span>{% else %}<span class="badge bad">{% translate "not started" %}</span>{% endif %}</span>
      <ul class="table-seats">{% for seat, p in x.seats %}<li><small class="muted">{{ seat }}</small> <a class="player-link" href="{% url 'players:detail' p.pk %}">{{ p.name|nobreak }}</a>{% if p.guest %} <small class="badge">{% translate "guest" %}</small>{% endif %}</li>{% endfor %}</ul>
      <div class="table-actions">{% if x.state == "confirmed" and t.status == "running" %}<form method="post" action="{% url 'tournaments:unlock' t.pk x.table.pk %}">{% csrf_token %}<button type="submit" class="button">{% translate "Unlock" %}</button></form>{% else %}<a class="button" href="{% url 'games:sheet' x.game.token %}">{% translate "Open" %}</a>{% endif %}</div>
    </li>
  {% endfor %}"""  # noqa: E501

TOKEN = "the-token"


def template(text: str, **context) -> str:
    request = RequestFactory().get("/")
    return engines["django"].from_string(text).render({**context, "csrf_token": TOKEN}, request)


def html(text: str):
    return parse_html(f"<ul>{text}</ul>")


def tournament():
    t, players = make_tournament(11, rounds=3, deals=2)
    Entry.objects.filter(tournament=t, player=players[0]).update(licence="L<1>")
    players[1].name = "Jean-Baptiste <b>&</b> Fils"
    players[1].save(update_fields=["name"])
    services.entry_register(tournament=t, guest_name="Anne-Guest")
    t = services.tournament_start(tournament=t)
    first, second, *_ = Table.objects.filter(tournament=t, round=1).order_by("number")
    play_table(first)
    play_table(second, confirm=False)
    services.entry_withdraw(entry=Entry.objects.get(tournament=t, player=players[2]))
    services.entry_register(tournament=t, player=player_create(name="Late"))  # from round 2
    t.refresh_from_db()
    return t


@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_the_lists_are_the_templates_markup(language):
    t = tournament()
    entries = list(t.entries.select_related("player").order_by("player__name"))
    tables = selectors.round_tables(t, 1)
    assert {x["state"] for x in tables} == {"confirmed", "in_progress", "not_started"}
    csrf = f'<input type="hidden" name="csrfmiddlewaretoken" value="{TOKEN}">'
    with translation.override(language):
        assert html(entries_html(t, entries)) == html(template(ENTRIES, t=t, entries=entries))
        # the director's page reads its entries in plain SQL: the same list, the same markup
        assert entries_html(t, selectors.director_entries(t)) == entries_html(t, entries)
        assert html(round_tables_html(t, tables, csrf_input=csrf)) == html(
            template(TABLES, t=t, tables=tables)
        )
        services.tournament_next_round(tournament=t, force=True)
        t.refresh_from_db()  # round 1 over: no unlock button
        assert html(round_tables_html(t, tables, csrf_input=csrf)) == html(
            template(TABLES, t=t, tables=tables)
        )


@pytest.mark.parametrize(
    "language, words",
    [
        ("fr", [">validée<", ">pas commencée<", ">Déverrouiller<", ">Ouvrir<", ">retirer<"]),
        ("nl", [">bevestigd<", ">niet begonnen<", ">Ontgrendelen<", ">Openen<", ">terugtrekken<"]),
    ],
)
def test_the_lists_words_are_in_the_directors_language(admin_client, language, words):
    """The lists' own words (badges, buttons) are in the catalogues: makemessages finds them
    in the Python that prints the lists, and a French or Dutch director reads none in English."""
    t = tournament()
    page = admin_client.get(
        reverse("tournaments:manage", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for word in words:
        assert word in page, word
    for english in (">confirmed<", ">not started<", ">Unlock<", ">Open<", ">withdraw<"):
        assert english not in page, english
    t, _ = make_tournament(3, rounds=1, deals=1)
    with translation.override(language):
        removed = entries_html(t, t.entries.select_related("player"))
    assert {"fr": ">supprimer</a>", "nl": ">verwijderen</a>"}[language] in removed


def test_during_registration_an_entry_is_removed_not_withdrawn():
    t, _ = make_tournament(3, rounds=1, deals=1)
    entries = list(t.entries.select_related("player").order_by("player__name"))
    assert ">remove</a>" in entries_html(t, entries)
    assert html(entries_html(t, entries)) == html(template(ENTRIES, t=t, entries=entries))


@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_a_number_in_a_list_prints_as_the_template_prints_it(settings, grouped, language):
    """`tables._text` spares whole numbers Django's `localize` unless thousands are grouped:
    the same text as `{{ value }}` either way."""
    from django.utils.formats import localize
    from django.utils.html import conditional_escape

    from tarotclub.tournaments.tables import _text

    settings.USE_THOUSAND_SEPARATOR = grouped
    with translation.override(language):
        for value in (0, 7, -12, 12345, 1234567, True, 2.5, "E3", "<b>"):
            assert _text(value) == conditional_escape(localize(value)), value
            assert _text(value) == template("{{ v }}", v=value), value
    if grouped:
        with translation.override("en"):
            assert _text(12345) == "12,345"


@pytest.mark.parametrize(
    "language, prompt",
    [("en", "Choose a player"), ("fr", "Choisissez un joueur"), ("nl", "Kies een speler")],
)
def test_the_roster_list_asks_for_a_player_in_the_directors_language(
    admin_client, language, prompt
):
    """The registration form's roster opens on a prompt in the director's language, not
    Django's "---------"; the roster players not registered yet follow it."""
    t, _ = make_tournament(4, rounds=1, deals=1)
    waiting = player_create(name="Zoé Roster")
    page = admin_client.get(
        reverse("tournaments:manage", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    roster = page[page.index('<select name="player"') :]
    roster = roster[: roster.index("</select>")]
    first = roster.index("<option")
    assert roster[first:].startswith(f'<option value="" selected>{prompt}</option>')
    assert f'<option value="{waiting.pk}">Zoé Roster</option>' in roster
    assert "---------" not in page
