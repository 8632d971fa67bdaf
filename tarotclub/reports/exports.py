"""CSV and Excel downloads, made by django-tables2's export from the tables shown on screen."""

from __future__ import annotations

import re

from django.http import Http404, HttpResponse
from django.utils.text import slugify
from django_tables2 import Table
from django_tables2.export import TableExport

FORMATS = ("csv", "xlsx")


def check_format(fmt: str) -> str:
    """The format if we export to it, else 404."""
    if fmt not in FORMATS:
        raise Http404
    return fmt


def filename(kind: str, name: str, date, ext: str) -> str:
    """standings-winter-cup-2026-11-29.csv"""
    stem = "-".join(x for x in (kind, slugify(name), date.isoformat() if date else "") if x)
    return f"{stem}.{ext}"


def _sheet_title(title: str) -> str:
    """Excel refuses some characters in a sheet's name, and more than 31 of them."""
    return re.sub(r"[\[\]:*?/\\]", " ", str(title)).strip()[:31] or "Export"


def export_response(table: Table, fmt: str, *, name: str, title: str) -> HttpResponse:
    """The table's rows as plain values under its on-screen headers, as an attachment.

    CSV starts with a byte-order mark so that Excel reads the accents right.
    """
    exporter = TableExport(check_format(fmt), table, dataset_kwargs={"title": _sheet_title(title)})
    content = exporter.export()
    if fmt == "csv":
        content = "\ufeff" + content
    response = HttpResponse(content, content_type=exporter.content_type())
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
