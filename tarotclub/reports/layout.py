"""Lay out one HTML document as a PDF, in a worker process (WeasyPrint only, no Django).

A long document made of independent pages (a round's table sheets) is cut in parts that
`pdf.render_pdf_split` lays out side by side on the machine's cores, then joins.
"""

from __future__ import annotations

import gc

import weasyprint


def layout(html: str, css: str, base_url: str, static_uri: str) -> tuple[bytes, int]:
    """(PDF bytes, page count). Only inline data and the site's static files are read."""

    def fetch(url: str, *args, **kwargs):
        if url.startswith("data:") or url.startswith(static_uri + "/"):
            return weasyprint.default_url_fetcher(url, *args, **kwargs)
        raise ValueError(f"refused to fetch {url!r} while printing")

    gc.disable()  # a worker lays out one document and ends: no cycles worth collecting
    document = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetch).render(
        stylesheets=[weasyprint.CSS(string=css, base_url=base_url)]
    )
    return document.write_pdf(), len(document.pages)
