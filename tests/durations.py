"""How long each test module took, for the order pytest-xdist hands modules out in (conftest.py).

`--dist loadfile` keeps a module in one process; xdist hands out the modules with the most
tests first, so the modules of a single long test (a crawl, a whole session in the browser)
went last and one process ran them alone at the end. conftest.py orders the modules by the
seconds recorded in tests/durations.json instead, the longest first (the longest-first rule
of scheduling: the short ones fill in at the end). A module it does not list counts half a
second a test. The figures only order the run: stale ones make it slower, never wrong.

Refresh them after a full run (SQLite, both processes):

    .venv/bin/python -m pytest -n 2 --dist loadfile --durations=0 -q \
        | .venv/bin/python -m tests.durations > var/durations.json
    mv var/durations.json tests/durations.json

(written beside, then moved: the run being measured reads tests/durations.json for its order).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

FILE = Path(__file__).with_name("durations.json")
#: The seconds of a test in a module durations.json does not list.
UNKNOWN = 0.5
LINE = re.compile(r"^([\d.]+)s (?:setup|call|teardown)\s+([^:\s]+)::")


def recorded() -> dict[str, float]:
    try:
        return json.loads(FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def module_order(items) -> list:
    """`items` with each module's tests together, the modules longest first (stable)."""
    seconds = recorded()
    modules: dict[str, list] = {}
    for item in items:
        modules.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    ordered = sorted(modules.items(), key=lambda kv: -seconds.get(kv[0], UNKNOWN * len(kv[1])))
    return [item for _module, group in ordered for item in group]


def main() -> None:
    total: Counter = Counter()
    for line in sys.stdin:
        match = LINE.match(line)
        if match:
            total[match.group(2)] += float(match.group(1))
    json.dump({m: round(s, 1) for m, s in sorted(total.items())}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
