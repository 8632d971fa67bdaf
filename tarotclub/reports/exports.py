"""CSV and Excel downloads, made from the django-tables2 tables shown on screen.

Every cell of text goes through `safe_cell` first (OWASP "CSV Injection"): a name such as
`=HYPERLINK(...)` is shown as text, never run as a formula. Numbers stay numbers.
"""

from __future__ import annotations

import csv
import re

import tablib
from django.http import Http404, HttpResponse
from django.utils.text import slugify
from django_tables2.export import TableExport

FORMATS = ("csv", "xlsx")

#: What makes a spreadsheet read a cell as a formula (OWASP), with the full-width forms that
#: some spreadsheets fold to the ASCII ones.
FORMULA_STARTS = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")
#: Control characters an Excel file cannot hold (openpyxl refuses them).
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def safe_cell(value):
    """A cell's value as a spreadsheet will show it and never evaluate it.

    Text that starts with = + - @ (also after spaces, and their full-width forms), a tab or a
    carriage return gets a leading apostrophe; control characters are dropped. Anything else
    (numbers, None) is returned as it is, so that a score of -35 stays the number -35.
    """
    if not isinstance(value, str):
        return value
    value = _ILLEGAL.sub("", value)
    if value and (value[0] in FORMULA_STARTS or value.lstrip()[:1] in FORMULA_STARTS):
        return "'" + value
    return value


def check_format(fmt: str) -> str:
    """The format if we export to it, else 404."""
    if fmt not in FORMATS:
        raise Http404
    return fmt


def filename(kind: str, name: str, date, ext: str) -> str:
    """standings-winter-cup-2026-11-29.csv (ASCII letters, digits and dashes only)."""
    stem = "-".join(x for x in (kind, slugify(name), date.isoformat() if date else "") if x)
    return f"{stem}.{ext}"


def _sheet_title(title: str) -> str:
    """Excel refuses some characters in a sheet's name, and more than 31 of them."""
    return re.sub(r"[\[\]:*?/\\]", " ", str(title)).strip()[:31] or "Export"


def clean_cell(value):
    """A cell as it goes into a download: text without leading, trailing or doubled spaces
    (nor line breaks), then made safe (`safe_cell`); numbers and empties as they are."""
    if isinstance(value, str):
        value = " ".join(value.split())
    return safe_cell(value)


def rows_dataset(headers: list, rows: list[list], *, title: str) -> tablib.Dataset:
    """Rows of plain values (numbers as numbers, None for an empty cell), every cell made safe."""
    return tablib.Dataset(
        *[[clean_cell(v) for v in row] for row in rows],
        headers=[clean_cell(str(h)) for h in headers],
        title=_sheet_title(title),
    )


def rows_response(headers, rows, fmt: str, *, name: str, title: str) -> HttpResponse:
    """Rows built for a spreadsheet (`reports.spreadsheets`) as an attachment."""
    return dataset_response(rows_dataset(headers, rows, title=title), fmt, name=name)


def dataset_response(dataset: tablib.Dataset, fmt: str, *, name: str) -> HttpResponse:
    """A dataset as an attachment.

    CSV starts with a byte-order mark so that Excel reads the accents right, and quotes every
    field of text (numbers are left bare, so that they are read as numbers).
    """
    if check_format(fmt) == "csv":
        content = "\ufeff" + dataset.export("csv", quoting=csv.QUOTE_NONNUMERIC)
    else:
        content = dataset.export(fmt)
    response = HttpResponse(content, content_type=TableExport.FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
