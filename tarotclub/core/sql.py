"""Hand-written SELECTs made into models, for the few reads every save and every page of a
game makes (issue 12): the ORM compiled those queries in several times the time they ran.

`columns_of(Model, "alias")` gives the SQL list of a model's columns under a table alias and
makes a slice of a result row into the model, with each field's own conversions from the
database (dates, JSON, booleans), exactly as the ORM's read would. `fields_of(Model, "alias",
"name", ...)` does the same for a few fields, as plain values (the ORM's `values_list`).
"""

from __future__ import annotations

import functools

from django.db import DEFAULT_DB_ALIAS, connection, models


def _converters(fields, alias: str) -> list:
    """(index, the field's converters from the database, its column expression) for each of
    `fields` that has any: what the ORM applies to a value read from that column."""
    converters = []
    for i, f in enumerate(fields):
        col = f.get_col(alias)
        funcs = [*connection.ops.get_db_converters(col), *f.get_db_converters(connection)]
        if funcs:
            converters.append((i, funcs, col))
    return converters


def _converted(values, converters) -> list:
    """A row's values with each column's converters applied, as the ORM would give them."""
    values = list(values)
    for i, funcs, col in converters:
        for func in funcs:
            values[i] = func(values[i], col, connection)
    return values


class ModelColumns:
    def __init__(self, model: type[models.Model], alias: str):
        qn = connection.ops.quote_name
        fields = model._meta.concrete_fields
        self.model = model
        self.width = len(fields)
        self.sql = ", ".join(f"{alias}.{qn(f.column)}" for f in fields)
        self.names = [f.attname for f in fields]
        self.converters = _converters(fields, alias)

    def build(self, row, start: int = 0) -> models.Model:
        """The model of `row[start:start + width]`, as if read by the ORM."""
        values = _converted(row[start : start + self.width], self.converters)
        # (`connection` is the default database's: its alias, without asking the proxy for it
        # a row, a sixth of the time of a list of 200 players)
        return self.model.from_db(DEFAULT_DB_ALIAS, self.names, values)


class FieldColumns:
    """A few fields of a model under a table alias: their SQL and their values converted."""

    def __init__(self, model: type[models.Model], alias: str, names: tuple[str, ...]):
        qn = connection.ops.quote_name
        fields = [model._meta.get_field(name) for name in names]
        self.width = len(fields)
        self.sql = ", ".join(f"{alias}.{qn(f.column)}" for f in fields)
        self.converters = _converters(fields, alias)

    def values(self, row, start: int = 0) -> list:
        """The fields' values in `row[start:start + width]`, as the ORM would give them."""
        values = _converted(row[start : start + self.width], self.converters)
        return values


@functools.cache
def _fields(model: type[models.Model], alias: str, names: tuple, vendor: str) -> FieldColumns:
    return FieldColumns(model, alias, names)


def fields_of(model: type[models.Model], alias: str, *names: str) -> FieldColumns:
    """`columns_of` for the fields `names` only, read as values (no model is made)."""
    return _fields(model, alias, names, connection.vendor)


@functools.cache
def _columns(model: type[models.Model], alias: str, vendor: str) -> ModelColumns:
    return ModelColumns(model, alias)


def columns_of(model: type[models.Model], alias: str) -> ModelColumns:
    """Made once per process and database vendor, shared by the threads: the converters of
    SQLite's and PostgreSQL's operations read settings only (the time zone), never the
    connection they were taken from, and the fields' own converters are given the caller's."""
    return _columns(model, alias, connection.vendor)


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model: type[models.Model]) -> str:
    return quote(model._meta.db_table)


def column(model: type[models.Model], field: str) -> str:
    return quote(model._meta.get_field(field).column)
