"""HTML templates → PDF with WeasyPrint: the print stylesheet, the page counter, the response."""

from __future__ import annotations

import gc
import io
import multiprocessing
import os
import re
import threading
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    import weasyprint

# WeasyPrint, pypdf and the layout worker (which imports WeasyPrint) are imported in the
# functions that make a PDF, not here: this module is imported with the URLconf, and they
# would add some 400 ms to the first request of every new worker (issue 12).

PRINT_CSS = Path(settings.BASE_DIR) / "static" / "css" / "print.css"


@dataclass(frozen=True)
class Pdf:
    content: bytes
    pages: int


_CUSTOM_PROPERTY = re.compile(r"(--[\w-]+)\s*:\s*([^;}]+)[;}]")
_VAR = re.compile(r"var\(\s*(--[\w-]+)\s*\)")


def inline_custom_properties(css: str) -> str:
    """Replace each `var(--x)` by the value declared for `--x` (in `:root`).

    WeasyPrint resolves `var()` again for every element, which makes a page of ruled grids
    some 10 % slower; the stylesheet keeps its named colours, the PDF gets the plain values.
    """
    values = {name: value.strip() for name, value in _CUSTOM_PROPERTY.findall(css)}
    return _VAR.sub(lambda m: values.get(m.group(1), m.group(0)), css)


@lru_cache(maxsize=2)
def _stylesheet(path: str, mtime: float) -> weasyprint.CSS:
    """Parsed once per version of the file (a changed print.css is read again)."""
    import weasyprint

    css = inline_custom_properties(Path(path).read_text(encoding="utf-8"))
    return weasyprint.CSS(string=css, base_url=path)


def stylesheet() -> weasyprint.CSS:
    return _stylesheet(str(PRINT_CSS), PRINT_CSS.stat().st_mtime)


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def page_counter_css(total: int | None = None) -> SafeString:
    """The CSS `content` of the page number, in the user's language: "Page 2 of 5".

    With `total`, the number of pages is that figure rather than the document's own count
    (for a part of a longer document).
    """
    marker_page, marker_pages = "\x00page\x00", "\x00pages\x00"
    text = _("Page %(page)s of %(pages)s") % {"page": marker_page, "pages": marker_pages}
    parts = []
    for chunk in text.split("\x00"):
        if chunk == "page":
            parts.append("counter(page)")
        elif chunk == "pages":
            parts.append(_css_string(str(total)) if total else "counter(pages)")
        elif chunk:
            parts.append(_css_string(chunk))
    return mark_safe(" ".join(parts))  # only escaped CSS strings and counters


def _fetch(url: str, *args, **kwargs):
    """Only inline data and the site's own static files: a PDF never fetches over the network."""
    import weasyprint

    static = (Path(settings.BASE_DIR) / "static").resolve().as_uri()
    if url.startswith("data:") or url.startswith(static + "/"):
        return weasyprint.default_url_fetcher(url, *args, **kwargs)
    raise ValueError(f"refused to fetch {url!r} while printing")


_gc_lock = threading.Lock()
_gc_renders = 0
_gc_was_enabled = True


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector while WeasyPrint lays out and writes a PDF.

    Layout makes a great many small objects, and each collection walks the whole heap again:
    on 50 table sheets that was some 40 % of the time. Garbage left meanwhile is collected as
    usual afterwards. Renders in other threads keep it paused until the last one ends.
    """
    global _gc_renders, _gc_was_enabled
    with _gc_lock:
        if _gc_renders == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_renders += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_renders -= 1
            if _gc_renders == 0 and _gc_was_enabled:
                gc.enable()


def render_pdf(template_name: str, context: dict, *, request=None) -> Pdf:
    """Render the template (which extends reports/base_pdf.html) and lay it out as a PDF."""
    context = {
        "club_name": settings.CLUB_NAME,
        "page_counter": page_counter_css(),
        **context,
    }
    import weasyprint

    html = render_to_string(template_name, context, request=request)
    with collector_paused():
        document = weasyprint.HTML(
            string=html, base_url=str(settings.BASE_DIR), url_fetcher=_fetch
        ).render(stylesheets=[stylesheet()])
        return Pdf(content=document.write_pdf(), pages=len(document.pages))


def render_pdf_split(
    template_name: str, context: dict, *, key: str, request=None, min_items: int = 12
) -> Pdf:
    """Like `render_pdf` for a document of one page per item of `context[key]` (table sheets):
    the items are laid out in parts on the machine's cores, then the parts are joined.

    Falls back to one layout on a single core, for a short document, or when an item did not
    fit on one page (the page numbers would then be wrong).
    """
    items = list(context[key])
    workers = min(os.cpu_count() or 1, 4)
    if workers < 2 or len(items) < min_items:
        return render_pdf(template_name, context, request=request)
    size = -(-len(items) // workers)
    parts = []
    for start in range(0, len(items), size):
        part = {
            "club_name": settings.CLUB_NAME,
            "page_counter": page_counter_css(total=len(items)),
            **context,
            key: items[start : start + size],
            "first_page": start + 1,
        }
        parts.append((render_to_string(template_name, part, request=request), start, size))
    css = inline_custom_properties(PRINT_CSS.read_text(encoding="utf-8"))
    base_url = str(settings.BASE_DIR)
    static_uri = (Path(settings.BASE_DIR) / "static").resolve().as_uri()
    import pypdf

    from . import layout

    spawn = multiprocessing.get_context("spawn")  # no fork of a threaded web server
    with ProcessPoolExecutor(max_workers=len(parts), mp_context=spawn) as pool:
        futures = [
            pool.submit(layout.layout, html, css, base_url, static_uri) for html, _s, _n in parts
        ]
        results = [f.result() for f in futures]
    expected = [len(items[start : start + size]) for _html, start, size in parts]
    if [pages for _pdf, pages in results] != expected:
        return render_pdf(template_name, context, request=request)
    writer = pypdf.PdfWriter()
    for content, _pages in results:
        writer.append(pypdf.PdfReader(io.BytesIO(content)))
    out = io.BytesIO()
    writer.write(out)
    return Pdf(content=out.getvalue(), pages=len(items))


def pdf_response(pdf: Pdf, filename: str) -> HttpResponse:
    """Shown in the browser (to print), saved under `filename`."""
    response = HttpResponse(pdf.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
