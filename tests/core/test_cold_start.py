"""A new worker's first request imports the URLconf, hence every view module: the PDF
libraries (WeasyPrint, pypdf: some 400 ms; ReportLab for the drawn table sheets) must be
imported only where a PDF is made."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import json, sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # imports every view module, as a worker's first request does
print(json.dumps(sorted(m for m in ("weasyprint", "pypdf", "reportlab") if m in sys.modules)))
"""


def _modules_after(code: str) -> list[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tarotclub.settings.test"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_importing_the_urlconf_loads_no_pdf_library():
    assert _modules_after(CHECK) == []


def test_making_a_pdf_still_loads_them():
    code = CHECK.replace(
        "print(",
        "from tarotclub.reports.pdf import stylesheet\nstylesheet()\nprint(",
    )
    assert _modules_after(code) == ["weasyprint"]
    code = CHECK.replace("print(", "from tarotclub.reports import drawn\nprint(")
    assert _modules_after(code) == ["reportlab"]


def test_a_worker_imports_the_urlconf_when_it_boots_not_at_its_first_request():
    """The server imports tarotclub.wsgi in each worker before it takes a request: the URLconf
    (every view module) is imported there, still without a PDF library, so a new worker's
    first phone does not wait some 250 ms for it (bench/coldstart.py)."""
    code = """
import json, sys
import tarotclub.wsgi
from django.urls import get_resolver
loaded = "url_patterns" in vars(get_resolver())
heavy = sorted(m for m in ("weasyprint", "pypdf", "reportlab") if m in sys.modules)
print(json.dumps([loaded, heavy]))
"""
    assert _modules_after(code) == [True, []]
