"""Write every duplicate printout from sample data, to look at them (and time them)."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tarotclub.reports.duplicate_samples import example_documents, sample_documents


class Command(BaseCommand):
    help = (
        "Write the duplicate printouts (guide cards, diagrams, slips, grading sheets, rankings, "
        "records, team results) for seeded sessions and the rulebook's examples, with the "
        "CPU time each took; --png also renders every page to PNG (pypdfium2)."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory")
        parser.add_argument("--tables", type=int, nargs="*", default=[3, 5])
        parser.add_argument("--lang", default="fr")
        parser.add_argument("--png", action="store_true")
        parser.add_argument("--scale", type=float, default=1.4)

    def handle(self, *args, directory, tables, lang, png, scale, **options):
        out = Path(directory)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CommandError(f"Cannot write into {out}: {e.strerror}") from e
        with translation.override(lang):
            makers = example_documents()
            for t in tables:
                makers.update(sample_documents(t))
            for stem, make in makers.items():
                start = time.process_time()
                made = make()
                cpu = time.process_time() - start
                path = out / f"{stem}-{lang}.pdf"
                path.write_bytes(made.content)
                self.stdout.write(f"{path.name}: {made.pages} pages, {cpu * 1000:.0f} ms CPU")
                if png:
                    self._png(made.content, out / f"{stem}-{lang}", scale)

    def _png(self, content: bytes, stem: Path, scale: float) -> None:
        import pypdfium2 as pdfium

        document = pdfium.PdfDocument(content)
        try:
            for i, page in enumerate(document, start=1):
                page.render(scale=scale).to_pil().save(f"{stem}-p{i}.png")
        finally:
            document.close()
