"""The first request of a new worker against a warm one, each in a fresh Python process.

A child process does what a server worker does at boot (imports tarotclub.wsgi: Django set
up, the middleware loaded, the URLconf and so every view module imported), then times its
first request and then the same request warm. The request is a trivial view (/favicon.ico,
a redirect), so the difference is the cold start alone; it is also given as a ratio to that
warm view.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_MS = 100.0  # issue 12: the first request at most 100 ms over a warm one
URL = "/favicon.ico"


def child() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarotclub.settings.test")
    start = time.perf_counter()
    import django

    django.setup()
    from django.test import Client

    import tarotclub.wsgi  # noqa: F401 - what a server worker imports when it boots

    client = Client()
    client.handler.load_middleware()  # (the WSGI handler's middleware, for the test client)
    booted = time.perf_counter() - start
    start = time.perf_counter()
    response = client.get(URL)
    first = time.perf_counter() - start
    assert response.status_code == 302, response.status_code
    warm = []
    for _ in range(200):
        start = time.perf_counter()
        client.get(URL)
        warm.append(time.perf_counter() - start)
    heavy = sorted(m for m in ("weasyprint", "pypdf") if m in sys.modules)
    print(
        json.dumps(
            {"boot": booted, "first": first, "warm": statistics.median(warm), "heavy": heavy}
        )
    )


def measure(runs: int = 5) -> dict:
    """Medians over `runs` fresh processes."""
    results = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-m", "bench.coldstart", "--child"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    return {
        key: statistics.median(r[key] for r in results) for key in ("boot", "first", "warm")
    } | {"heavy": results[-1]["heavy"]}


def main() -> None:
    m = measure()
    warm = m["warm"] * 1000
    over = m["first"] * 1000 - warm
    print(f"Cold start: first request of a fresh process vs warm ({URL}, medians of 5 processes)")
    print(f"  boot (setup + middleware) {m['boot'] * 1000:8.1f} ms")
    first = m["first"] * 1000
    print(f"  first request             {first:8.1f} ms  ({first / warm:.0f}× warm)")
    print(f"  warm request (trivial)    {warm:8.2f} ms")
    print(
        f"  first over warm           {over:8.1f} ms  goal ≤ {GOAL_MS:.0f} ms  "
        f"({over / GOAL_MS:.2f} of the goal; {over / warm:.0f}× the trivial view)"
    )
    print(f"  PDF libraries loaded without a PDF: {', '.join(m['heavy']) or 'none'}")
    from bench import goals

    goals.record(
        "cold start: first request over a warm one",
        over,
        "ms",
        GOAL_MS,
        trivial_ms=warm,
        database="",
    )
    goals.record("cold start: PDF libraries loaded", len(m["heavy"]), "", 0, database="")


if __name__ == "__main__":
    if "--child" in sys.argv:
        child()
    else:
        main()
