"""`make bench`: every figure the project measures, printed (nothing is asserted)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BENCHES = [
    "bench.seating",
    "bench.standings",
    "bench.reports",
    "bench.parsers",
    "bench.coldstart",
    "bench.pages",
    "bench.save",
    "bench.size",
]


def main() -> None:
    for name in BENCHES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            print(f"({name}: not available: {e})")
            continue
        print(f"\n== {name} ==")
        module.main()
    from bench import goals

    print("\n== every goal of issue 12, as measured in this run ==")
    print(goals.summary())


if __name__ == "__main__":
    main()
