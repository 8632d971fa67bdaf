"""No file of the project keeps a merge's conflict markers (templates are not linted)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.MULTILINE)


def tracked_text_files():
    names = subprocess.run(
        ["git", "ls-files", "*.html", "*.py", "*.css", "*.js", "*.md", "*.txt", "*.po"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [ROOT / n for n in names if "vendor/" not in n]


def test_no_file_keeps_conflict_markers():
    files = tracked_text_files()
    assert len(files) > 100  # the listing worked
    found = [
        str(p.relative_to(ROOT))
        for p in files
        if p.exists() and MARKER.search(p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert found == []
