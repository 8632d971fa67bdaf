"""Time the parsers of what a person types: ``python bench/parsers.py`` from the repository root.

`points=1e30000000` once took 47 s of CPU in the deal preview. Each row is the median and the
worst time of 100 calls on one hostile text (the worst includes the machine's hiccups). A
refusal stays within microseconds whatever the text holds; the bound of the last column is
generous, and only a figure: nothing is asserted.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarotclub.settings.test")

import django  # noqa: E402

django.setup()

from django.core.exceptions import ValidationError  # noqa: E402

from scoring import RuleError, fft  # noqa: E402
from tarotclub.core.forms import StrictDateField, WholeNumberField, parse_whole  # noqa: E402

BOUND = 0.001  # one millisecond per call: a thousand times what a refusal takes
TEXTS = {
    "49": "49",
    "40,5": "40,5",
    "1e30000000": "1e30000000",
    "1e-30000000": "1e-30000000",
    "9 × 10,000": "9" * 10_000,
    "spaces × 1 MB + 40": " " * 1_000_000 + "40",
    "٤ × 10,000": "٤" * 10_000,
    "Decimal 1e30000000": Decimal("1e30000000"),
    "Decimal 1e-30000000": Decimal("1e-30000000"),
}


def timings(call, value, repeat: int = 100) -> tuple[float, float]:
    """(median, worst) seconds of `repeat` calls, after one to warm up."""
    with contextlib.suppress(RuleError, ValidationError):
        call(value)  # the first refusal loads the message catalogue
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with contextlib.suppress(RuleError, ValidationError):
            call(value)
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    whole = WholeNumberField(min_value=0, max_value=20)
    date = StrictDateField()
    parsers = {
        "fft.parse_points": fft.parse_points,
        "fft.parse_bouts": fft.parse_bouts,
        "core.parse_whole": parse_whole,
        "WholeNumberField": whole.clean,
        "StrictDateField": date.clean,
    }
    print(
        f"{'parser':<18} {'text':<22} {'median':>10} {'worst':>10}"
        f"  median within {BOUND * 1000:g} ms"
    )
    for pname, call in parsers.items():
        for tname, value in TEXTS.items():
            if not isinstance(value, str) and pname != "fft.parse_points":
                continue
            median, slowest = timings(call, value)
            ok = "yes" if median < BOUND else "NO"
            print(f"{pname:<18} {tname:<22} {median * 1e6:>7.1f} µs {slowest * 1e6:>7.1f} µs  {ok}")


if __name__ == "__main__":
    main()
