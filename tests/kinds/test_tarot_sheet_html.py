"""Issue 12: the score sheet's rows are printed from cells the table makes once per row and
column (`SheetTable.rows_html`, `head_cells`, `foot_cells`) rather than by django-tables2 a
cell at a time, and the markup is the same to the byte: the whole sheet (render_table, the
table made by `SheetTable.whole_html`, also without its head, its foot or an empty text) and a
poll's changes (games/_sheet_changes.html), with partners, bonuses, negative scores, names with
markup, leaders, a correction, an undo and an empty sheet, in every language. A page of rows
(nothing pages the sheet) is django-tables2's own template's."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.template.loader import get_template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from tarotclub.games import kinds, views
from tarotclub.games import selectors as game_selectors
from tarotclub.games.models import Game
from tarotclub.games.services import game_start
from tarotclub.kinds.tarot import selectors
from tarotclub.kinds.tarot import services as tarot
from tarotclub.kinds.tarot.tables import SheetTable

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "fr", "nl"]

#: games/_sheet_changes.html as it was, each cell printed by django-tables2 (`row.items`,
#: `column.attrs`): the markup the poll's answer must keep. (A phone that showed no deal yet,
#: `changes.all_new`, gets the whole body: its "no deal yet" row goes.)
TABLES2_CHANGES = (
    "{# the template's comment line #}\n"
    '<div id="sheet-top" hx-swap-oob="true">{% include "games/_sheet_top.html" %}</div>\n'
    '<template><thead {{ table.attrs.thead.as_html }} hx-swap-oob="true"><tr>{% for column in '
    "table.columns %}<th {{ column.attrs.th.as_html }}>{{ column.header }}</th>{% endfor %}"
    "</tr></thead>\n"
    '<tfoot {{ table.attrs.tfoot.as_html }} hx-swap-oob="true"><tr>{% for column in '
    "table.columns %}<td {{ column.attrs.tf.as_html }}>{{ column.footer }}</td>{% endfor %}"
    "</tr></tfoot>\n"
    '{% for number in changes.removed %}<tr id="{{ table.row_prefix }}{{ number }}" '
    'hx-swap-oob="delete"></tr>\n'
    "{% endfor %}{% for row in table.paginated_rows %}{% if row.record.number in "
    'changes.replaced %}<tr {{ row.attrs.as_html }} hx-swap-oob="true">{% for column, cell in '
    "row.items %}<td {{ column.attrs.td.as_html }}>{{ cell }}</td>{% endfor %}</tr>\n"
    "{% endif %}{% endfor %}{% if changes.added %}{% if changes.all_new %}<tbody {{ "
    'table.attrs.tbody.as_html }} hx-swap-oob="true">{% else %}<tbody '
    'hx-swap-oob="beforeend:#{{ table.attrs.tbody.id }}">{% endif %}{% for row in '
    "table.paginated_rows %}{% if row.record.number in "
    "changes.added %}<tr {{ row.attrs.as_html }}>{% for column, cell in row.items %}<td {{ "
    "column.attrs.td.as_html }}>{{ cell }}</td>{% endfor %}</tr>{% endif %}{% endfor %}"
    "</tbody>{% endif %}\n"
    '{% include "games/_sheet_state.html" with oob=True %}</template>\n'
    '{% if game.options.deals %}{% include "games/_sheet_progress.html" with oob=True %}'
    "{% endif %}\n"
    '{% if send_actions %}{% include "games/_sheet_live_actions.html" %}{% endif %}\n'
)


def _deals(game: Game) -> list[tarot.DealInput]:
    """A deal of every shape: won and lost, a partner (or alone) at five, petit au bout,
    poignées, a slam announced and failed."""
    players = game_selectors.seat_players(game)
    pks = [p.pk for p in players]
    five = len(pks) == 5
    return [
        tarot.DealInput(
            taker=pks[1], contract="garde", bouts=2, points=49, partner=pks[3] if five else None
        ),
        tarot.DealInput(
            taker=pks[2],
            contract="prise",
            bouts=1,
            points=40,
            partner=pks[2] if five else None,
            petit_au_bout="defence",
        ),
        tarot.DealInput(
            taker=pks[0 if five else -1],
            contract="garde_sans",
            bouts=3,
            points=60,
            partner=pks[4] if five else None,
            poignees=((pks[2], "double"),),
            petit_au_bout="attack",
        ),
        tarot.DealInput(
            taker=pks[1],
            contract="garde_contre",
            bouts=2,
            points=70.5,
            partner=pks[2] if five else None,
            chelem="announced_failed",
        ),
    ]


def _play(game: Game, count: int) -> Game:
    shapes = _deals(game)
    for i in range(count):
        tarot.deal_add(game=game, data=shapes[i % len(shapes)])
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def names(make_players):
    """Players whose names need escaping and keep their hyphens together."""
    return make_players(
        "Jean-Baptiste <b>&</b> Fils", 'Bram "Q" O\'Neil', "Chloé", "Dirk-Jan", "Eva"
    )


def _game(players, count: int) -> Game:
    return _play(game_start(players=players, first_dealer=0), count)


def _request():
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    return request


def _rendered(table: SheetTable, template: str | None) -> str:
    """`{% render_table %}` of `table`: with its own template, or with `template`."""
    tag = "{% render_table table %}"
    if template is not None:
        tag = f'{{% render_table table "{template}" %}}'
    source = "{% load django_tables2 %}" + tag
    return engines["django"].from_string(source).render({"table": table}, request=_request())


def _whole(game: Game, *, template: str | None, link: bool) -> str:
    sheet = selectors.game_sheet(game)
    table = SheetTable(
        sheet,
        link=(lambda n: reverse("games:deal", args=[game.token, n])) if link else None,
        compact=True,
    )
    return _rendered(table, template)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seats", [3, 4, 5])
def test_the_whole_sheet_is_django_tables2s_markup(names, language, seats):
    game = _game(names[:seats], 7)
    with translation.override(language):
        for link in (True, False):
            expected = _whole(game, template="django_tables2/table.html", link=link)
            fast = _whole(game, template=None, link=link)
            assert fast == expected
            assert fast.count('<tr id="deal-') == 7


def test_an_empty_sheet_is_django_tables2s_markup(names):
    game = _game(names[:4], 0)
    expected = _whole(game, template="django_tables2/table.html", link=True)
    assert _whole(game, template=None, link=True) == expected
    assert "<tr><td colspan=" in expected


@pytest.mark.parametrize("count", [0, 3])
@pytest.mark.parametrize(
    "options",
    [
        {"show_header": False},
        {"show_footer": False},
        {"show_header": False, "show_footer": False},
        {"empty_text": ""},
    ],
)
def test_a_sheet_without_its_header_or_footer_is_django_tables2s_markup(names, options, count):
    """`SheetTable.whole_html` prints table.html's every branch: no head, no foot, no text in
    an empty body."""
    game = _game(names[:4], count)

    def table():
        return SheetTable(selectors.game_sheet(game), compact=True, **options)

    expected = _rendered(table(), "django_tables2/table.html")
    fast = _rendered(table(), None)
    assert fast == expected
    assert ("<thead" in fast) is options.get("show_header", True)
    assert ("<tfoot" in fast) is options.get("show_footer", True)
    assert fast.count('<tr id="deal-') == count


def test_a_paginated_sheet_is_django_tables2s_own(names):
    """A page of the sheet's rows (nothing pages it today) is printed by django-tables2's
    template, with its page links, rather than by `whole_html`, which prints every row."""
    game = _game(names[:4], 5)

    def table():
        paged = SheetTable(selectors.game_sheet(game), compact=True)
        paged.paginate(page=2, per_page=2)
        return paged

    expected = _rendered(table(), "django_tables2/table.html")
    assert _rendered(table(), None) == expected
    assert 'class="pagination"' in expected and expected.count('<tr id="deal-') == 2


def _changes(game: Game, since: int, shown: int, source: str | None) -> str:
    """The poll's answer since revision `since` for a phone showing `shown` deals, with the
    site's template (`source` None) or with `source`."""
    game = game_selectors.game_by_token(game.token)
    played, parts = kinds.get("tarot").sheet_changes(game, since=since, shown=shown)
    request = _request()
    context = views.sheet_context(request, game, played, parts=parts)
    if source is None:
        return get_template("games/_sheet_changes.html").render(context, request)
    return engines["django"].from_string(source).render(context, request)


def _same_changes(game: Game, since: int, shown: int) -> str:
    expected = _changes(game, since, shown, TABLES2_CHANGES)
    fast = _changes(game, since, shown, None)
    assert fast == expected
    return fast


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seats", [4, 5])
def test_a_polls_changes_are_django_tables2s_markup(names, language, seats):
    game = _game(names[:seats], 2)
    since = game.revision
    game = _play(game, 5)  # five new deals
    with translation.override(language):
        html = _same_changes(game, since, 2)
    assert [f'<tr id="deal-{n}" class=' in html for n in range(3, 8)] == [True] * 5
    # a correction of deal 1 and a new deal: one row replaced, one added
    since = game.revision
    deal = game.deals.get(number=1)
    data = tarot.DealInput(taker=deal.taker_id, contract="garde", bouts=2, points=30)
    if seats == 5:
        data = tarot.DealInput(
            taker=deal.taker_id, contract="garde", bouts=2, points=30, partner=deal.taker_id
        )
    tarot.deal_correct(deal=deal, data=data, expected_version=1)
    game = _play(game, 1)
    with translation.override(language):
        html = _same_changes(game, since, 7)
    assert 'hx-swap-oob="true"><td' in html and 'id="deal-8"' in html
    # an undo: the row taken away
    since = game.revision
    tarot.deal_undo_last(game=game, number=8)
    with translation.override(language):
        html = _same_changes(Game.objects.get(pk=game.pk), since, 8)
    assert '<tr id="deal-8" hx-swap-oob="delete">' in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_on_an_empty_sheet_gets_the_whole_body(names, language):
    """At a round's start every phone shows the empty sheet: its first poll after the first
    deals gets them as changes, its body ("no deal yet") replaced whole, not the whole sheet."""
    game = _game(names[:4], 0)
    since = game.revision
    game = _play(game, 3)
    with translation.override(language):
        html = _same_changes(game, since, 0)
    assert '<tbody id="sheet-rows" hx-swap-oob="true"><tr id="deal-1" class=' in html
    assert "beforeend" not in html and "<td colspan=" not in html
    assert [f'<tr id="deal-{n}" class=' in html for n in range(1, 5)] == [True] * 3 + [False]


def test_the_sheet_reads_in_one_query_what_the_orm_read(names, django_assert_num_queries):
    """`selectors.game_sheet` reads the deals and their lines in one plain query: the same
    deals (every field), the same lines, the same totals as the ORM's reads, and the deal's
    players and lines then cost no query."""
    from django.db.models import Sum

    from tarotclub.kinds.tarot.models import DealLine

    game = _game(names, 6)
    deal = game.deals.get(number=2)
    data = tarot.DealInput(taker=deal.taker_id, contract="garde", bouts=2, points=30)
    data = tarot.DealInput(**{**data.__dict__, "partner": deal.partner_id or deal.taker_id})
    tarot.deal_correct(deal=deal, data=data, expected_version=1)
    game = game_selectors.game_by_token(game.token)
    game_selectors.seat_players(game)
    with django_assert_num_queries(1):
        sheet = selectors.game_sheet(game)
        for row in sheet.rows:
            lines = list(row.deal.lines.all())
            assert {line.player_id: line.score for line in lines} == row.scores
            assert (row.deal.dealer.pk, row.deal.taker.pk) == (
                row.deal.dealer_id,
                row.deal.taker_id,
            )
            partner = row.deal.partner
            assert (partner.pk if partner else None) == row.deal.partner_id
    orm = list(game.deals.select_related("dealer", "taker", "partner").prefetch_related("lines"))
    fields = [f.attname for f in orm[0]._meta.concrete_fields]
    assert [[getattr(d, f) for f in fields] for d in orm] == [
        [getattr(r.deal, f) for f in fields] for r in sheet.rows
    ]
    for d, row in zip(orm, sheet.rows, strict=True):
        expected = sorted((line.pk, line.player_id, line.score) for line in d.lines.all())
        assert [(line.pk, line.player_id, line.score) for line in row.deal.lines.all()] == expected
    sums = dict(
        DealLine.objects.filter(deal__game=game)
        .values_list("player_id")
        .annotate(total=Sum("score"))
        .values_list("player_id", "total")
    )
    assert sheet.totals == sums
