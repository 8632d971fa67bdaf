"""`python manage.py restore PATH`: load a backup into an empty, migrated database."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from tarotclub.core.backup import BackupError, read_backup, restore


class Command(BaseCommand):
    help = (
        "Restore a backup made by `manage.py backup` (or downloaded from the site) into an "
        "empty database: make a new one, run `manage.py migrate`, then this. A database that "
        "holds anything is refused; nothing is restored unless everything is."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup file (….json.gz)")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias")

    def handle(self, *args, path, database, **options):
        try:
            data = read_backup(path)
            loaded = restore(data, using=database)
        except BackupError as e:
            raise CommandError(str(e)) from e
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored {sum(loaded.values())} rows from the backup of {data['created_at']} "
                f"({data['database']}, site version {data.get('app_version', '?')})."
            )
        )
        if options["verbosity"] > 1:
            for label, count in loaded.items():
                self.stdout.write(f"  {label}: {count}")
