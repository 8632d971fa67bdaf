"""The French Tarot score sheet as a django-tables2 table fed with the sheet's rows."""

from __future__ import annotations

import contextlib
from functools import cached_property
from html import escape as _html_escape
from weakref import WeakKeyDictionary

import django_tables2 as tables
from django.template import Context
from django.template.base import render_value_in_context
from django.template.loader import get_template
from django.templatetags.l10n import localize, unlocalize
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_tables2.columns.linkcolumn import BaseLinkColumn
from django_tables2.columns.manytomanycolumn import ManyToManyColumn
from django_tables2.utils import A, AttributeDict, signature

from tarotclub.core.text import no_break_hyphens
from tarotclub.games.forms import choice_cols
from tarotclub.games.presenters import number, signed


class ScoreColumn(tables.Column):
    """One player's score for each deal, with the running total under it; the total in the foot."""

    def __init__(self, *, pk: int, total: int, leader: bool, title: str = "", **kwargs):
        self.pk = pk
        cls = "num score leader" if leader else "num score"
        attrs = {"th": {"class": cls, "title": title}, "td": {"class": cls}, "tf": {"class": cls}}
        super().__init__(
            accessor=tables.A(f"scores__{pk}"),
            attrs=attrs,
            footer=number(total),
            orderable=False,
            default=0,
            **kwargs,
        )

    def render(self, value, record):
        running = record["running"].get(self.pk, 0)
        css = "pos" if value > 0 else "neg" if value < 0 else ""
        # two whole numbers, a class of ours: nothing to escape (format_html's cost a cell)
        return mark_safe(
            f'<span class="{css}">{signed(int(value))}</span>'
            f'<br><small class="muted">{number(int(running))}</small>'
        )

    def value(self, value, record):  # export: the plain number
        return value


class SheetTable(tables.Table):
    """The deals, a column per player. On a phone (games.css) each deal becomes a card: the
    deal in words on top, a link over the whole card (it opens the deal), the scores under it
    in as many even columns as `choice_cols` gives (all five players on one line)."""

    number = tables.Column(
        verbose_name="#",
        orderable=False,
        attrs={
            "th": {"class": "deal-number"},
            "td": {"class": "num deal-number"},
            "tf": {"class": "total-label"},
        },
        footer=_("Total"),
    )
    dealer = tables.Column(verbose_name=_("Dealer"), orderable=False)
    deal = tables.Column(
        verbose_name=_("Deal"),
        orderable=False,
        empty_values=(),
        attrs={"th": {"class": "deal"}, "td": {"class": "deal"}, "tf": {"class": "deal"}},
    )

    #: each deal's row is `<tr id="deal-N">`, so a poll replaces or takes away that row alone
    row_prefix = "deal-"

    class Meta:
        attrs = {"class": "data sheet"}
        row_attrs = {"id": lambda record: f"deal-{record['number']}"}
        empty_text = _("No deal yet. Tap “New deal” to enter the first one.")
        orderable = False
        template_name = "kinds/tarot/_sheet_table.html"

    def __init__(self, sheet, *args, link=None, compact=False, **kwargs):
        extra = [
            (
                f"p{p.pk}",
                ScoreColumn(
                    pk=p.pk,
                    total=sheet.totals.get(p.pk, 0),
                    leader=p.pk in sheet.leaders,
                    # on screen the compact name (the full one as the title); exports: the label
                    verbose_name=getattr(p, "compact", p.label) if compact else p.label,
                    title=p.name,
                ),
            )
            for p in sheet.players
        ]
        rows = [
            {
                "number": r.number,
                "dealer": r.dealer,
                "taker": r.taker,
                "contract": r.contract,
                "result": r.result,
                "won": r.won,
                "bonuses": r.bonuses,
                "scores": r.scores,
                "running": r.running,
            }
            for r in sheet.rows
        ]
        self.link = link
        kwargs.setdefault(
            "attrs",
            {
                "class": f"data sheet sheet-cards {choice_cols(len(sheet.players))}",
                # a poll swaps the head (who leads), the foot (the totals) and rows by id
                "thead": {"id": "sheet-head"},
                "tbody": {"id": "sheet-rows"},
                "tfoot": {"id": "sheet-foot"},
            },
        )
        super().__init__(rows, *args, extra_columns=extra, **kwargs)

    # --- the sheet's HTML without django-tables2's cost a cell ---------------------------------
    #
    # django-tables2 spends some 90 µs a cell (an accessor and a signature inspection for the
    # cell, its column's attributes computed again, a template variable each): most of a poll's
    # time when it brings a few deals, and of the whole sheet's. `rows_html`, `head_cells` and
    # `foot_cells` give the same rows and cells, with what does not change from one cell of a
    # column to the next (its attributes, which arguments its render method takes) worked out
    # once per column; `whole_html` (the whole table, printed by kinds/tarot/_sheet_table.html)
    # and `changes_html` (a poll's, games/_sheet_changes.html) put them together.
    # tests/kinds/test_tarot_sheet_html.py proves the markup the one django-tables2 prints.

    @property
    def rows_html(self):
        """The rows, as `paginated_rows` yields them: each new iteration counts its rows on
        the table's counter (odd and even classes), as django-tables2's rows do; a row's
        cells are made once, when first printed."""
        for row in self.paginated_rows:
            yield RowHtml(self, row)

    @cached_property
    def _columns_shown(self) -> list:
        """Each column shown, with its attributes (th, td, tf): none of the sheet's depends
        on the row, so they are computed once."""
        return [(column, column.attrs) for column in self.columns]

    @cached_property
    def _context(self) -> Context:
        return Context()  # how a template prints a value (autoescape, localization)

    @cached_property
    def _cell_makers(self) -> list:
        """For each column shown: its <td>'s attributes, and what makes a cell's content."""
        return [
            (_attrs_html(attrs["td"]), _cell_maker(column, self._context))
            for column, attrs in self._columns_shown
        ]

    @cached_property
    def _cells(self) -> dict:
        return {}

    def cells_html(self, row) -> list[str]:
        """The <td>s of a `BoundRow`, as django-tables2's table.html prints them, each made
        once however often the row is printed."""
        found = self._cells.get(id(row.record))
        if found is None:
            # (the record is kept with its cells: its id stays its own)
            cells = [mark_safe(f"<td {td}>{make(row)}</td>") for td, make in self._cell_makers]
            found = self._cells[id(row.record)] = (row.record, cells)
        return found[1]

    def row_attrs_html(self, row) -> str:
        """A `BoundRow`'s attributes (`BoundRow.attrs`: Meta.row_attrs, then odd or even)."""
        if any(isinstance(value, dict) for value in self.row_attrs.values()):
            return row.attrs.as_html()  # (nested attributes: django-tables2's own)
        given = {"table": self, "record": row.record}
        attrs = {
            key: _call(value, given) if callable(value) else value
            for key, value in self.row_attrs.items()
        }
        css = row.get_even_odd_css_class()
        attrs["class"] = f"{attrs['class']} {css}" if attrs.get("class") else css
        return _attrs_html(AttributeDict(attrs))

    @property
    def _heads(self) -> list[tuple[str, str]]:
        """Each column's <th> attributes and header, as table.html prints them."""
        return [
            (_attrs_html(attrs["th"]), render_value_in_context(column.header, self._context))
            for column, attrs in self._columns_shown
        ]

    @property
    def head_cells(self) -> list[str]:
        """Each column's <th>, as `<th {{ column.attrs.th.as_html }}>{{ column.header }}</th>`."""
        return [mark_safe(f"<th {th}>{header}</th>") for th, header in self._heads]

    @property
    def foot_cells(self) -> list[str]:
        """Each column's footer, as `<td {{ column.attrs.tf.as_html }}>{{ column.footer }}</td>`."""
        return [
            mark_safe(
                f"<td {_attrs_html(attrs['tf'])}>"
                f"{render_value_in_context(_footer(column), self._context)}</td>"
            )
            for column, attrs in self._columns_shown
        ]

    def whole_html(self) -> str:
        """The whole table as django-tables2's table.html prints it, to the byte (its
        indentation and blank lines included): what kinds/tarot/_sheet_table.html prints, but
        for the final line break, which is the template file's own. Made here rather than by
        the template, which spent a quarter of a sheet page's time on its loops and lookups.

        For the sheet's table as it is: no column sorts, no page of rows. Were it sorted or
        paginated, django-tables2's template prints it instead (`table.html`'s links and page
        numbers need the request, which `{% render_table %}` gives the table as `context`)."""
        if getattr(self, "page", None) is not None or any(c.orderable for c in self.columns):
            context = getattr(self, "context", None)
            request = context.get("request") if context is not None else None
            html = get_template("django_tables2/table.html").render({"table": self}, request)
            return mark_safe(html.removesuffix("\n"))  # (the file's line break comes after)
        attrs = self.attrs
        out = [
            f'\n\n\n\n\n<div class="table-container">\n    \n        '
            f"<table {_attrs_html(AttributeDict(attrs))}>\n            \n            "
        ]
        if self.show_header:
            out.append(f"\n                <thead {_attrs_html(attrs.get('thead'))}>\n")
            out.append("                    <tr>\n                    ")
            out += [
                f"\n                        <th {th}>\n                            \n"
                f"                                {header}\n                            \n"
                "                        </th>\n                    "
                for th, header in self._heads
            ]
            out.append("\n                    </tr>\n                </thead>\n            ")
        tbody = _attrs_html(attrs.get("tbody"))
        out.append(f"\n            \n            \n                <tbody {tbody}>")
        out.append("\n                ")
        empty = True
        for row in self.rows_html:
            empty = False
            out.append(f"\n                    \n                    <tr {row.attrs}>")
            out.append("\n                        ")
            cell_line = "\n                            {}\n                        "
            out += [cell_line.format(cell) for cell in row.cells]
            out.append("\n                    </tr>\n                    \n                ")
        if empty:
            out.append("\n                    ")
            if self.empty_text:
                text = render_value_in_context(self.empty_text, self._context)
                out.append(
                    "\n                    \n                    "
                    f'<tr><td colspan="{len(self.columns)}">{text}</td></tr>'
                    "\n                    \n                    "
                )
            out.append("\n                ")
        out.append("\n                </tbody>\n            \n            \n            ")
        if self.has_footer():
            out.append(f"\n            <tfoot {_attrs_html(attrs.get('tfoot'))}>")
            out.append("\n                <tr>\n                ")
            out += [f"\n                    {cell}\n                " for cell in self.foot_cells]
            out.append("\n                </tr>\n            </tfoot>\n            ")
        out.append("\n            \n        </table>\n    \n</div>\n    \n        \n    \n")
        return mark_safe("".join(out))  # each part escaped, or safe already

    def changes_html(self, changes) -> str:
        """What a poll's answer swaps in out of band for the table (games/_sheet_changes.html):
        its head (who leads), its foot (the totals), the rows an undo took away, the rows to
        replace, the rows to add; `changes` is a `selectors.SheetChanges` and this table holds
        its rows only. Made here rather than by the template, which spent most of a poll's
        time looking up each row's attributes and cells.

        The markup is the one the template printed before (tests/kinds/test_tarot_sheet_html.py
        holds that template), the rows' odd and even classes included: the rows are counted
        on the table's counter as two iterations of `rows_html` count them. A phone that
        shows no deal yet (`changes.all_new`) has the empty sheet's "no deal yet" row in its
        body: the body is replaced whole, with the new rows."""
        thead, tbody, tfoot = (self.attrs.get(part) for part in ("thead", "tbody", "tfoot"))
        out = [
            f'<thead {_attrs_html(thead)} hx-swap-oob="true"><tr>{"".join(self.head_cells)}</tr>'
            f'</thead>\n<tfoot {_attrs_html(tfoot)} hx-swap-oob="true"><tr>'
            f"{''.join(self.foot_cells)}</tr></tfoot>\n"
        ]
        prefix = _escaped(self.row_prefix)
        out += [f'<tr id="{prefix}{n}" hx-swap-oob="delete"></tr>\n' for n in changes.removed]
        out += [
            f'<tr {row.attrs} hx-swap-oob="true">{"".join(row.cells)}</tr>\n'
            for row in self.rows_html
            if row.number in changes.replaced
        ]
        if changes.added:
            if changes.all_new:
                out.append(f'<tbody {_attrs_html(tbody)} hx-swap-oob="true">')
            else:
                target = _escaped((tbody or {}).get("id", ""))
                out.append(f'<tbody hx-swap-oob="beforeend:#{target}">')
            out += [
                f"<tr {row.attrs}>{''.join(row.cells)}</tr>"
                for row in self.rows_html
                if row.number in changes.added
            ]
            out.append("</tbody>")
        return mark_safe("".join(out))  # each part escaped, or safe already

    def render_deal(self, record):
        # format_html's markup, each value escaped as it escapes them (`_escaped`), without
        # its cost: a tenth of a poll's time went to this cell
        badge = "good" if record["won"] else "bad"
        bonuses = (
            f'<br><small class="muted">{_escaped(no_break_hyphens(record["bonuses"]))}</small>'
            if record["bonuses"]
            else ""
        )
        said = (
            f'<span class="deal-no">{_escaped(gettext("Deal %(n)s") % {"n": record["number"]})}'
            f"</span> <strong>{_escaped(no_break_hyphens(record['taker']))}</strong> "
            f'{_escaped(record["contract"])}<br><span class="badge {badge}">'
            f"{_escaped(record['result'])}</span>{bonuses}"
        )
        if self.link:
            # the whole row is this link's target (a stretched link, games.css)
            said = f'<a class="row-link" href="{_escaped(self.link(record["number"]))}">{said}</a>'
        return mark_safe(said)  # each value escaped

    def value_deal(self, record):
        return f"{record['taker']} {record['contract']} {record['result']} {record['bonuses']}"


class RowHtml:
    """A sheet row for the templates: its deal's number, its <tr>'s attributes, its <td>s."""

    def __init__(self, table: SheetTable, row):
        self.table = table
        self.row = row

    @property
    def number(self) -> int:
        return self.row.record["number"]

    @property
    def attrs(self) -> str:
        return self.table.row_attrs_html(self.row)

    @property
    def cells(self) -> list[str]:
        return self.table.cells_html(self.row)


#: What django-tables2 offers a column's render method (`BoundRow._optional_cell_arguments`).
CELL_ARGUMENTS = ("value", "record", "column", "bound_column", "bound_row", "table")


def _cell_maker(column, context: Context):
    """`make(row)`: the content of `column`'s cell in a `BoundRow`, as table.html prints it
    (`BoundRow.get_cell`, localized or not as the column says, escaped unless safe), with the
    column's render method inspected once rather than for every cell. Only for the records
    and columns django-tables2 takes no other way for (a dict; not a link or many-to-many
    column): any other cell is django-tables2's own."""
    if isinstance(column.column, BaseLinkColumn | ManyToManyColumn):
        return lambda row: _printed(column, row.get_cell(column.name), context)
    if type(column.column) is ScoreColumn and column.localize is None and not column.link:
        return _score_maker(column, context)
    accessor = A(column.accessor)
    render, link = column.render, column.link
    args, catch_all = _signature(render)
    missing = any(arg not in CELL_ARGUMENTS for arg in args)
    empty = column.column.empty_values

    # the value is read only where something uses it: a column whose render method takes
    # no value and that has no empty values (the deal's words) never looks it up
    unused = not (catch_all or link or empty or "value" in args)

    def make(row):
        record = row.record
        if not isinstance(record, dict):
            return _printed(column, row.get_cell(column.name), context)
        try:
            value = None if unused else accessor.resolve(record)
        except Exception:
            value = None
        if value in empty:
            return _printed(column, column.default, context)
        given = {
            "value": value,
            "record": record,
            "column": column.column,
            "bound_column": column,
            "bound_row": row,
            "table": row.table,
        }
        if catch_all:
            content = render(**given)
        elif missing:  # (django-tables2 does not call it either)
            content = None
        else:
            content = render(**{arg: given[arg] for arg in args})
        if link:
            content = link(content, **given)
        return _printed(column, content, context)

    return make


def _score_maker(column, context: Context):
    """`make(row)` for a player's score (`ScoreColumn`), the same cell as the general maker
    gives, in a fraction of its time (four or five such cells a row): the score read from the
    record's scores, the column's default when there is none; `ScoreColumn.render`'s markup
    is printed as it is (safe, not localized)."""
    pk, render, empty = column.column.pk, column.column.render, column.column.empty_values

    def make(row):
        record = row.record
        if not isinstance(record, dict):
            return _printed(column, row.get_cell(column.name), context)
        value = record["scores"].get(pk)
        if value in empty:
            return _printed(column, column.default, context)
        return render(value, record)

    return make


def _printed(column, cell, context: Context):
    """`cell` as table.html prints it in a <td>."""
    if column.localize is None:
        return render_value_in_context(cell, context)
    if column.localize:
        return render_value_in_context(localize(cell), context)
    return render_value_in_context(unlocalize(cell), context)


def _escaped(value) -> str:
    """Django's `conditional_escape(value)`, the same text: markup made safe as it is, anything else
    escaped (Django's `escape` is `html.escape`), without the check for lazy arguments that
    Django's escaping functions make at each call."""
    as_html = getattr(value, "__html__", None)
    return as_html() if as_html is not None else _html_escape(str(value))


def _attrs_html(attrs) -> str:
    """`AttributeDict.as_html()`, the same text (`format_html_join(" ", '{}="{}"', ...)`),
    made without format_html's cost; nothing for anything else, as `{{ attrs.as_html }}`
    prints (a part of the table without attributes)."""
    if not isinstance(attrs, AttributeDict):
        return ""
    return mark_safe(  # each name and value escaped
        " ".join(f'{_escaped(key)}="{_escaped(value)}"' for key, value in attrs._iteritems())
    )


def _footer(column):
    """`BoundColumn.footer`, its column's method inspected once."""
    return _call(column.column.footer, {"bound_column": column, "table": column._table})


def _call(function, given: dict):
    """django-tables2's `call_with_appropriate`, `function` inspected once."""
    args, catch_all = _signature(function)
    if not catch_all:
        given = {key: given[key] for key in given if key in args}
        if any(arg not in given for arg in args):
            return None
    return function(**given)


#: django-tables2's `signature` of each function, and of each method (whose leaves out `self`)
_SIGNATURES = {False: WeakKeyDictionary(), True: WeakKeyDictionary()}


def _signature(function) -> tuple:
    """django-tables2's `signature(function)`, worked out once for each function or method
    (the same for every object of the method's class)."""
    method = getattr(function, "__func__", None)
    known = _SIGNATURES[method is not None]
    key = function if method is None else method
    try:
        return known[key]
    except (KeyError, TypeError):
        found = signature(function)
    with contextlib.suppress(TypeError):  # (a callable that takes no weak reference)
        known[key] = found
    return found
