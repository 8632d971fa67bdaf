"""How a printout is laid out (reports/pdf.py): one document in this process, the garbage
collector running, and the same pages as collapsed borders gave."""

from __future__ import annotations

import gc
import io

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tarotclub.reports import pdf
from tarotclub.reports.printouts import round_sheets_context

from .conftest import pdf_pages

pytestmark = pytest.mark.django_db


def html_of(template: str, context: dict) -> str:
    context = {"club_name": settings.CLUB_NAME, "page_counter": pdf.page_counter_css(), **context}
    return render_to_string(template, context)


def stock_pdf(html: str) -> pdf.Pdf:
    """The same HTML with the borderless tables of the table sheets in collapsed borders, as
    they had (separate borders with no spacing are cheaper to lay out)."""
    import weasyprint

    css = pdf.inline_custom_properties(pdf.PRINT_CSS.read_text(encoding="utf-8"))
    for table in ("table.seats {", "table.signatures {"):
        rule = next(line for line in css.splitlines() if line.startswith(table))
        assert "border-collapse: separate; border-spacing: 0;" in rule
        css = css.replace(
            rule,
            rule.replace(
                "border-collapse: separate; border-spacing: 0;", "border-collapse: collapse;"
            ),
        )
    document = weasyprint.HTML(
        string=html, base_url=str(settings.BASE_DIR), url_fetcher=pdf._fetcher()
    ).render(stylesheets=[weasyprint.CSS(string=css)])
    return pdf.Pdf(content=document.write_pdf(), pages=len(document.pages))


def page_images(content: bytes) -> list[bytes]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(content)
    try:
        return [page.render(scale=1).to_pil().convert("RGB").tobytes() for page in document]
    finally:
        document.close()


def documents(t) -> dict[str, str]:
    """Sheets laid out from the template, with their seats and signatures tables (a casual
    game's and a triplette's sheet are; a free-deal round's are drawn: reports/drawn.py)."""
    with translation.override("en"):
        sheets = round_sheets_context(t, 5, filled=True, base_url="http://testserver/")
        return {
            "filled sheets": html_of(
                "reports/table_sheets_pdf.html", {**sheets, "sheets": sheets["sheets"][:3]}
            ),
        }


def test_borderless_tables_print_as_they_did_with_collapsed_borders(big):
    for name, html in documents(big).items():
        ours, stock = pdf.html_to_pdf(html), stock_pdf(html)
        assert ours.pages == stock.pages > 0, name
        assert pdf_pages(ours.content) == pdf_pages(stock.content), name
        assert page_images(ours.content) == page_images(stock.content), name


def test_the_collector_keeps_running_while_a_printout_is_made(big, english_client, monkeypatch):
    from weasyprint.document import Document

    seen = []
    write_pdf = Document.write_pdf

    def spy(self, *args, **kwargs):
        seen.append(gc.isenabled())
        return write_pdf(self, *args, **kwargs)

    monkeypatch.setattr(Document, "write_pdf", spy)
    assert gc.isenabled()
    response = english_client.get(reverse("reports:deals_pdf", args=[big.pk]) + "?round=5")
    assert response.status_code == 200
    assert seen == [True]
    assert gc.isenabled()


def test_50_table_sheets_are_one_document_made_in_this_process(big, director_client, monkeypatch):
    import multiprocessing.process

    def refuse(self):
        raise AssertionError("a printout started a process")

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", refuse)
    response = director_client.get(reverse("reports:round_sheets_pdf", args=[big.pk, 5]))
    assert response.status_code == 200
    from pypdf import PdfReader

    assert len(PdfReader(io.BytesIO(response.content)).pages) == 50


def test_a_printout_fetches_only_inline_data_and_the_sites_static_files():
    fetcher = pdf._fetcher()
    css = (pdf.PRINT_CSS).resolve().as_uri()
    assert fetcher.fetch(css).read().startswith(b"/* Printouts made by WeasyPrint")
    assert fetcher.fetch("data:text/plain,hello").read() == b"hello"
    for url in (
        "http://127.0.0.1:9/logo.png",
        "file:///etc/passwd",
        (pdf.PRINT_CSS.parent.parent.parent / "manage.py").resolve().as_uri(),
        "ftp://example.org/x",
    ):
        with pytest.raises(ValueError, match="refused to fetch"):
            fetcher.fetch(url)


def test_the_collector_runs_less_often_while_printouts_are_laid_out_then_as_before(monkeypatch):
    import threading

    from weasyprint.document import Document

    seen, inside, release = [], threading.Event(), threading.Event()
    write_pdf = Document.write_pdf

    def spy(self, *args, **kwargs):
        seen.append(gc.get_threshold())
        if threading.current_thread().name == "first":
            inside.set()
            assert release.wait(10)
        return write_pdf(self, *args, **kwargs)

    monkeypatch.setattr(Document, "write_pdf", spy)
    before = gc.get_threshold()
    assert before != pdf.LAYOUT_GC_THRESHOLDS
    first = threading.Thread(target=pdf.html_to_pdf, args=("<p>one</p>",), name="first")
    first.start()
    assert inside.wait(30)
    pdf.html_to_pdf("<p>two</p>")  # starts and ends while the first is still being made
    assert gc.get_threshold() == pdf.LAYOUT_GC_THRESHOLDS  # the first still needs it
    release.set()
    first.join(30)
    assert seen == [pdf.LAYOUT_GC_THRESHOLDS] * 2
    assert gc.get_threshold() == before
    assert gc.isenabled()


def test_a_failed_layout_gives_the_collector_its_thresholds_back(monkeypatch):
    import weasyprint

    before = gc.get_threshold()

    def broken(self, *args, **kwargs):
        raise RuntimeError("layout failed")

    monkeypatch.setattr(weasyprint.HTML, "render", broken)
    with pytest.raises(RuntimeError, match="layout failed"):
        pdf.html_to_pdf("<p>x</p>")
    assert gc.get_threshold() == before
