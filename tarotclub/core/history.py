"""Reading the change history (`core.models.LogEntry`) as a person would: who did what to
which object, and what changed, field by field.

Apps name the fields of their before/after dicts once with `field("name", _("name"))`, as they
declare their actions with `action(...)`. A key ending in `_id` (or starting with `_`) is kept
for the record but not shown: put a readable value beside it (a player's name beside its pk).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

#: Labels of the keys of before/after dicts: {key: translated label}.
FIELDS: dict[str, object] = {}


def field(key: str, label) -> str:
    """Declare how the history page names a key of the before/after dicts."""
    FIELDS[key] = label
    return key


def label_of(key: str) -> str:
    return str(FIELDS.get(key, key.replace("_", " ")))


def _hidden(key) -> bool:
    return isinstance(key, str) and (key.startswith("_") or key.endswith("_id") or key == "id")


def show(value) -> str:
    """A JSON value, short and readable: yes/no, lists on one line, "—" for nothing."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if value is True:
        return gettext("yes")
    if value is False:
        return gettext("no")
    if isinstance(value, Mapping):
        return ", ".join(
            f"{label_of(str(k))}: {show(v)}" for k, v in value.items() if not _hidden(k)
        )
    if isinstance(value, (list, tuple)):
        nested = any(isinstance(v, (list, tuple, Mapping)) for v in value)
        return ("; " if nested else ", ").join(_item(v) for v in value)
    if isinstance(value, int | float) and value < 0:
        return f"\u2212{-value}"  # a real minus sign, as every figure of the site
    return str(value)


def _item(value) -> str:
    """One element of a list: a dict's visible values joined (no labels), else the value."""
    if isinstance(value, Mapping):
        return " · ".join(show(v) for k, v in value.items() if not _hidden(k)) or "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value) or "—"
    return show(value)


@dataclass(frozen=True)
class FieldChange:
    label: str
    before: str | None  # None: the field is new (created)
    after: str | None  # None: the field is gone (deleted)


def diff(before, after) -> list[FieldChange]:
    """What changed between two JSON values, field by field for dicts.

    Only fields that differ are listed; a creation (no `before`) lists what it holds, a
    deletion (no `after`) what it held.
    """
    if isinstance(before, Mapping) or isinstance(after, Mapping):
        old = before if isinstance(before, Mapping) else {}
        new = after if isinstance(after, Mapping) else {}
        keys = [k for k in new if not _hidden(k)]
        keys += [k for k in old if k not in new and not _hidden(k)]
        out = []
        for key in keys:
            if key in old and key in new and old[key] == new[key]:
                continue
            if before is None and show(new.get(key)) == "—":
                continue  # a new object's empty fields say nothing
            out.append(
                FieldChange(
                    label=label_of(str(key)),
                    before=show(old[key]) if before is not None and key in old else None,
                    after=show(new[key]) if after is not None and key in new else None,
                )
            )
        return out
    if before == after:
        return []
    return [
        FieldChange(
            label="",
            before=None if before is None else show(before),
            after=None if after is None else show(after),
        )
    ]


@dataclass
class Line:
    """One history entry, ready for `includes/_history.html`."""

    entry: object
    who: str
    what: str
    url: str | None = None
    changes: list[FieldChange] = dataclass_field(default_factory=list)


def lines(entries: Iterable) -> list[Line]:
    """Prepare `LogEntry` rows for the page: one query per kind of object that has a page
    (to link only what still exists), whatever the number of entries. Fetch the entries with
    `select_related("user", "content_type")`.
    """
    entries = list(entries)
    wanted: dict[object, set[int]] = defaultdict(set)
    for entry in entries:
        model = entry.content_type.model_class()
        if model is not None and hasattr(model, "get_absolute_url"):
            wanted[model].add(entry.object_id)
    urls: dict[tuple[object, int], str] = {}
    for model, pks in wanted.items():
        for pk, obj in model._base_manager.in_bulk(sorted(pks)).items():
            try:
                urls[model, pk] = obj.get_absolute_url()
            except Exception:  # noqa: BLE001 - a page that cannot be linked is not linked
                continue
    out = []
    for entry in entries:
        model = entry.content_type.model_class()
        out.append(
            Line(
                entry=entry,
                who=entry.user.get_username() if entry.user_id else str(PHONE),
                what=str(entry.action_label),
                url=urls.get((model, entry.object_id)),
                changes=diff(entry.before, entry.after),
            )
        )
    return out


PHONE = _("a phone at the table")
