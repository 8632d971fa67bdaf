"""A backup of the whole club, and its restore into an empty database.

One portable file for SQLite and PostgreSQL alike: gzipped JSON holding a header (format,
version, the site's version and migrations, when, from which database, how many rows of
each model) and every row of every installed model in Django's serialization, so a club can
move from the laptop (SQLite) to a server (PostgreSQL) and back.

- The snapshot is consistent and the site keeps running: every table is read inside one
  read-only transaction (PostgreSQL: REPEATABLE READ; SQLite: one deferred read transaction,
  which in WAL mode sees one state of the database while phones keep writing).
- Rows keep their ids, so links and the history's references stay right; content types and
  permissions, which every database numbers its own way, are named by natural keys.
- Restoring loads everything in one transaction into a database that holds nothing yet, checks
  every reference and the counts of the header, then moves the id sequences past the restored
  ids. Any problem, and nothing is restored.

Generic over the installed apps (this module imports none of the project's apps): a model
added later is backed up without a change here.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gzip
import io
import json
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import IO

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import action

FORMAT = "tarotclub-backup"
VERSION = 1

#: What `migrate` makes by itself (content types, permissions), what is only of the moment
#: (sessions, login throttling records): not backed up.
SKIPPED_APPS = frozenset({"contenttypes", "sessions", "axes"})
SKIPPED_MODELS = frozenset({"auth.Permission"})

CHUNK = 2000

BACKUP_DOWNLOADED = action("backup.downloaded", _("backup downloaded"))


class BackupError(Exception):
    """A backup that cannot be read or restored; the message says why and what to do."""


def backed_up_models() -> list[type[models.Model]]:
    """Every model whose rows make the club, in an order that restores (natural keys first)."""
    chosen = [
        (
            config,
            [
                m
                for m in config.get_models()
                if m._meta.managed and not m._meta.proxy and m._meta.label not in SKIPPED_MODELS
            ],
        )
        for config in apps.get_app_configs()
        if config.label not in SKIPPED_APPS
    ]
    return serializers.sort_dependencies(chosen, allow_cycles=True)


def site_version() -> str:
    try:
        return metadata.version("tarotclub")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a bare checkout
        return "unknown"


def _applied_migrations(using: str) -> list[list[str]]:
    return sorted(
        [app, name] for app, name in MigrationRecorder(connections[using]).applied_migrations()
    )


@contextlib.contextmanager
def snapshot(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """One consistent, read-only view of the database for everything read inside.

    Inside a transaction already (a test), that transaction is the view.
    """
    connection = connections[using]
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        # The site begins its transactions IMMEDIATE (a write lock); a backup only reads, so it
        # begins DEFERRED: phones keep writing, in WAL mode the backup keeps seeing one state.
        connection.ensure_connection()
        mode = connection.transaction_mode
        connection.transaction_mode = "DEFERRED"
        try:
            with transaction.atomic(using=using):
                connection.transaction_mode = mode
                yield
        finally:
            connection.transaction_mode = mode
        return
    with transaction.atomic(using=using):
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            elif connection.vendor == "mysql":  # pragma: no cover - not a supported database
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def _queryset(model: type[models.Model], using: str) -> models.QuerySet:
    """All rows, with what their natural keys need joined (one query, not one per row)."""
    natural = [
        f.name
        for f in model._meta.fields
        if f.remote_field and hasattr(f.remote_field.model, "natural_key")
    ]
    qs = model._base_manager.using(using).order_by("pk")
    return qs.select_related(*natural) if natural else qs


class _Encoder(DjangoJSONEncoder):
    """Django's JSON, but times keep their microseconds (Django's drops them)."""

    def default(self, o):
        if isinstance(o, dt.datetime | dt.time):
            return o.isoformat()
        return super().default(o)


def _chunks(iterable, size: int):
    chunk = []
    for item in iterable:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def write_backup(out: IO[bytes], *, using: str = DEFAULT_DB_ALIAS) -> dict:
    """Write a gzipped backup of the whole club to the binary file `out`; returns its header."""
    with snapshot(using):
        chosen = backed_up_models()
        querysets = [(m, _queryset(m, using)) for m in chosen]
        header = {
            "format": FORMAT,
            "version": VERSION,
            "app_version": site_version(),
            "created_at": timezone.now().isoformat(),
            "database": connections[using].vendor,
            "migrations": _applied_migrations(using),
            "counts": {m._meta.label: qs.count() for m, qs in querysets},
        }
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as raw:
            text = io.TextIOWrapper(raw, encoding="utf-8")
            text.write(json.dumps(header, ensure_ascii=False)[:-1])
            text.write(', "objects": [')
            first = True
            for _model, qs in querysets:
                for chunk in _chunks(qs.iterator(chunk_size=CHUNK), CHUNK):
                    for obj in serializers.serialize(
                        "python", chunk, use_natural_foreign_keys=True
                    ):
                        text.write("\n" if first else ",\n")
                        text.write(json.dumps(obj, cls=_Encoder, ensure_ascii=False))
                        first = False
            text.write("\n]}\n")
            text.flush()
            text.detach()
    return header


def backup_file_name(now: dt.datetime | None = None) -> str:
    """tarotclub-backup-2026-12-01-1830.json.gz (local time)."""
    now = timezone.localtime(now)
    return f"tarotclub-backup-{now:%Y-%m-%d-%H%M}.json.gz"


def backup_to_path(path: Path, *, using: str = DEFAULT_DB_ALIAS) -> tuple[Path, dict]:
    """Back up to `path` (a new file, or a folder to put a dated file in), written whole or not
    at all. Returns the file's path and the header."""
    path = Path(path)
    if path.is_dir():
        path = path / backup_file_name()
    if path.exists():
        raise BackupError(f"{path} exists already: give another file name or a folder.")
    part = path.with_name(path.name + ".part")
    try:
        with open(part, "xb") as out:
            header = write_backup(out, using=using)
        part.replace(path)
    except FileExistsError:
        raise BackupError(f"{part} exists already: is another backup running?") from None
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return path, header


# --- restore -----------------------------------------------------------------------------------


NOT_A_BACKUP = "{path} is not a tarot club backup (made by `manage.py backup` or the site)."
NEWER = (
    "This backup comes from a newer version of the site (backup format {version}, migrations "
    "{missing}). Update the site and run `python manage.py migrate`, then restore again."
)
NOT_EMPTY = (
    "The database is not empty ({what}): a backup is restored only into an empty database, "
    "so that nothing is mixed or overwritten. Make a new database (SQLite: point "
    "TAROTCLUB_VAR_DIR or DATABASE_URL at a new file; PostgreSQL: createdb), run "
    "`python manage.py migrate` on it, then restore into it."
)
FAILED = "Nothing was restored: {reason}"


def read_backup(path: Path) -> dict:
    """The backup's header and objects, or BackupError when it is not one we can restore."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, EOFError, UnicodeDecodeError, ValueError):
        raise BackupError(NOT_A_BACKUP.format(path=path)) from None
    if (
        not isinstance(data, dict)
        or data.get("format") != FORMAT
        or not isinstance(data.get("version"), int)
        or not isinstance(data.get("objects"), list)
        or not isinstance(data.get("counts"), dict)
    ):
        raise BackupError(NOT_A_BACKUP.format(path=path))
    if data["version"] > VERSION:
        raise BackupError(NEWER.format(version=data["version"], missing="unknown here"))
    return data


def _rows(using: str) -> dict[str, int]:
    return {
        m._meta.label: n for m in backed_up_models() if (n := m._base_manager.using(using).count())
    }


def restore(data: dict, *, using: str = DEFAULT_DB_ALIAS) -> dict[str, int]:
    """Load a backup read by `read_backup` into the empty database `using`; the counts loaded."""
    connection = connections[using]
    applied = {tuple(x) for x in MigrationRecorder(connection).applied_migrations()}
    missing = [f"{a}.{n}" for a, n in data.get("migrations", []) if (a, n) not in applied]
    if missing:
        raise BackupError(NEWER.format(version=data["version"], missing=", ".join(missing[:5])))
    present = _rows(using)
    if present:
        what = ", ".join(f"{n} {label}" for label, n in sorted(present.items()))
        raise BackupError(NOT_EMPTY.format(what=what))
    try:
        with transaction.atomic(using=using):
            loaded: dict[str, int] = {}
            deferred = []
            for item in serializers.deserialize(
                "python", data["objects"], using=using, handle_forward_references=True
            ):
                item.save(using=using, force_insert=True)
                if item.deferred_fields:
                    deferred.append(item)
                label = item.object._meta.label
                loaded[label] = loaded.get(label, 0) + 1
            for item in deferred:
                item.save_deferred_fields(using=using)
            connection.check_constraints()
            expected = {k: v for k, v in data["counts"].items() if v}
            if loaded != expected or _rows(using) != expected:
                raise BackupError("the file does not hold the rows its header counts.")
            chosen = backed_up_models()
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), chosen):
                    cursor.execute(sql)
    except BackupError as e:
        raise BackupError(FAILED.format(reason=e)) from e
    except Exception as e:  # a broken reference, a value out of range, an unknown model, ...
        raise BackupError(FAILED.format(reason=f"{type(e).__name__}: {e}")) from e
    return loaded
