"""`make bench`: every figure the project measures, printed (nothing is asserted).

On SQLite. When DATABASE_URL is set (say, to PostgreSQL), every bench first runs on SQLite in
a child process (DATABASE_URL left out), then the benches that touch the database run again
here on the database it names (each in a throw-away test database, bench/django_env.py);
the summary at the end lists every goal on both.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
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
    "bench.poll",
    "bench.ratings",
    "bench.seasons",
    "bench.load",
    "bench.players",
    "bench.size",
]


#: Benches that read or write no database: run once, on the SQLite pass.
NO_DATABASE = {"bench.seating", "bench.parsers", "bench.coldstart"}


def main() -> None:
    from bench import goals

    benches = sys.argv[1:] or BENCHES  # `bench/run.py bench.size bench.pages`: only those
    if os.environ.get("DATABASE_URL") and not os.environ.get("BENCH_GOALS_OUT"):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "goals.json")
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            print("== every bench on SQLite (a child process without DATABASE_URL) ==", flush=True)
            subprocess.run(
                [sys.executable, __file__, *benches],
                env={**env, "BENCH_GOALS_OUT": out},
                check=True,
            )
            goals.load(out)
        print("\n== the benches that touch the database, on DATABASE_URL's ==")
        benches = [name for name in benches if name not in NO_DATABASE]
    for name in benches:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            print(f"({name}: not available: {e})")
            continue
        print(f"\n== {name} ==")
        module.main()
    if os.environ.get("BENCH_GOALS_OUT"):  # a child: the parent prints the summary
        goals.dump(os.environ["BENCH_GOALS_OUT"])
        return
    print("\n== every goal of issue 12, as measured in this run ==")
    print(goals.summary())


if __name__ == "__main__":
    main()
