"""`python manage.py backup PATH`: a consistent snapshot of the whole club, while it runs."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from tarotclub.core.backup import BackupError, backup_to_path


class Command(BaseCommand):
    help = (
        "Write a backup of the whole club (gzipped JSON, for SQLite and PostgreSQL alike) to "
        "PATH, a new file or a folder to put a dated file in. Safe while the site runs."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="a new file (….json.gz) or an existing folder")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias")

    def handle(self, *args, path, database, **options):
        try:
            made, header = backup_to_path(path, using=database)
        except BackupError as e:
            raise CommandError(str(e)) from e
        rows = sum(header["counts"].values())
        self.stdout.write(
            self.style.SUCCESS(f"Backup written to {made}: {rows} rows of {header['database']}.")
        )
        if options["verbosity"] > 1:
            for label, count in header["counts"].items():
                self.stdout.write(f"  {label}: {count}")
