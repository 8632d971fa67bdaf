"""HTML templates → PDF with WeasyPrint: the print stylesheet, the page counter, the response."""

from __future__ import annotations

import contextlib
import gc
import re
import threading
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

# WeasyPrint is imported in the functions that make a PDF, not here: this module is imported
# with the URLconf, and it would add some 400 ms to the first request of every new worker
# (issue 12).

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


def page_counter_css() -> SafeString:
    """The CSS `content` of the page number, in the user's language: "Page 2 of 5"."""
    marker_page, marker_pages = "\x00page\x00", "\x00pages\x00"
    text = _("Page %(page)s of %(pages)s") % {"page": marker_page, "pages": marker_pages}
    parts = []
    for chunk in text.split("\x00"):
        if chunk == "page":
            parts.append("counter(page)")
        elif chunk == "pages":
            parts.append("counter(pages)")
        elif chunk:
            parts.append(_css_string(chunk))
    return mark_safe(" ".join(parts))  # only escaped CSS strings and counters


@lru_cache(maxsize=1)
def _fetcher_class():
    import weasyprint

    static = (Path(settings.BASE_DIR) / "static").resolve().as_uri()

    class StaticOnlyFetcher(weasyprint.URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith("data:") or url.startswith(static + "/"):
                return super().fetch(url, headers)
            raise ValueError(f"refused to fetch {url!r} while printing")

    return StaticOnlyFetcher


def _fetcher():
    """Only inline data and the site's own static files: a PDF never fetches over the network.
    One per printout (a fetcher keeps the request it follows between two calls)."""
    return _fetcher_class()(allowed_protocols={"data", "file"})


# While a printout is laid out, the garbage collector runs less often. A layout makes hundreds
# of thousands of objects (boxes, styles, text layouts) that all live until the PDF is written,
# so each collection walks them and frees next to nothing, and CPython (700 allocations a young
# collection, a full one every 100 young) collects again and again while the document grows: a
# third of the CPU of the standings of 200 players. With 10,000 and a full collection every
# 1,000 young ones, the same pages cost less CPU (interleaved in one process: 50 filled table
# sheets 12–17 % less, the standings 20–35 %) and the peak memory is nearly the same (50 filled
# sheets 238 → 247 MiB, the standings 129 MiB either way: the cyclic garbage of a layout is
# small). The collector still runs (tests/reports/test_pdf.py). The thresholds are the
# process's, so they are set when the first of the printouts being made starts and put back
# when the last one ends.
LAYOUT_GC_THRESHOLDS = (10_000, 10, 100)
_layouts = 0
_layouts_lock = threading.Lock()
_saved_thresholds: tuple[int, ...] = ()


@contextlib.contextmanager
def _fewer_collections():
    global _layouts, _saved_thresholds
    with _layouts_lock:
        if _layouts == 0:
            _saved_thresholds = gc.get_threshold()
            gc.set_threshold(*LAYOUT_GC_THRESHOLDS)
        _layouts += 1
    try:
        yield
    finally:
        with _layouts_lock:
            _layouts -= 1
            if _layouts == 0:
                gc.set_threshold(*_saved_thresholds)


def html_to_pdf(html: str) -> Pdf:
    """Lay out a whole printout as one document (the collector runs, less often)."""
    import weasyprint

    with _fewer_collections():
        document = weasyprint.HTML(
            string=html, base_url=str(settings.BASE_DIR), url_fetcher=_fetcher()
        ).render(stylesheets=[stylesheet()])
        return Pdf(content=document.write_pdf(), pages=len(document.pages))


def render_pdf(template_name: str, context: dict, *, request=None) -> Pdf:
    """Render the template (which extends reports/base_pdf.html) and lay it out as a PDF."""
    context = {
        "club_name": settings.CLUB_NAME,
        "page_counter": page_counter_css(),
        **context,
    }
    return html_to_pdf(render_to_string(template_name, context, request=request))


def pdf_response(pdf: Pdf, filename: str) -> HttpResponse:
    """Shown in the browser (to print), saved under `filename`."""
    response = HttpResponse(pdf.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
