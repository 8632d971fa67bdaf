from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tarotclub.reports import club


class Command(BaseCommand):
    help = (
        "Export the whole club's data (players, games, deals, tournaments, history) as a "
        "documented JSON file or a spreadsheet workbook (see docs/club-export.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=("json", "xlsx"), default="json")
        parser.add_argument(
            "-o", "--output", help="The file to write (default: a dated name here; - for stdout)"
        )

    def handle(self, *args, format: str, output: str | None, **options):
        data = club.club_data()
        content = club.club_json(data) if format == "json" else club.club_workbook(data)
        if output == "-":
            if format != "json":
                raise CommandError("Only the JSON export can go to the standard output.")
            self.stdout.write(content.decode("utf-8"))
            return
        path = Path(output or club.export_file_name(format))
        try:
            path.write_bytes(content)
        except OSError as e:
            raise CommandError(f"Cannot write {path}: {e.strerror}") from e
        self.stderr.write(
            f"{path}: {len(data['players'])} players, {len(data['games'])} games, "
            f"{len(data['tournaments'])} tournaments."
        )
