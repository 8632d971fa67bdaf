"""How long the big printouts take: the standings of 200 players, the sheets of 50 tables.

Run with `python bench/reports.py` (or `make bench`). It builds a finished 200-player
tournament (5 rounds of 4 deals, 50 tables a round) in a throw-away test database, renders
each PDF three times and prints the best time.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.django_env import test_database  # noqa: E402


def best_of(runs: int, render) -> tuple[float, float, object]:
    """Best wall-clock time of `runs` renderings, the CPU time of that run, the last result."""
    best, cpu, result = float("inf"), 0.0, None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = render()
        elapsed = time.perf_counter() - start
        if elapsed < best:
            best, cpu = elapsed, time.process_time() - start_cpu
    return best, cpu, result


def run() -> list[str]:
    from django.utils import translation

    from tarotclub.demo.builders import make_tournament, play_round
    from tarotclub.reports.pdf import render_pdf, render_pdf_split
    from tarotclub.reports.printouts import round_sheets_context, standings_context
    from tarotclub.tournaments import services

    translation.activate("en")
    start = time.perf_counter()
    t, _ = make_tournament(200, rounds=5, deals=4)
    t = services.tournament_start(tournament=t)
    for _ in range(t.rounds):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    lines = [f"(a finished 200-player tournament built in {time.perf_counter() - start:.1f} s)"]

    seconds, cpu, pdf = best_of(
        3, lambda: render_pdf("reports/standings_pdf.html", standings_context(t))
    )
    lines.append(
        f"standings PDF, 200 players: {seconds:.2f} s ({pdf.pages} pages; {cpu:.2f} s of CPU)"
    )
    base_url = "http://127.0.0.1:8000/"
    for filled, label in ((False, "empty"), (True, "filled")):
        for render, how in ((render_pdf, "one process"), (render_pdf_split, "split on cores")):
            seconds, cpu, pdf = best_of(
                3,
                lambda filled=filled, render=render: render(
                    "reports/table_sheets_pdf.html",
                    round_sheets_context(t, t.rounds, filled=filled, base_url=base_url),
                    **({"key": "sheets"} if render is render_pdf_split else {}),
                ),
            )
            lines.append(
                f"table sheets PDF, 50 tables ({label}, {how}): {seconds:.2f} s "
                f"({pdf.pages} pages; {cpu:.2f} s of CPU in this process)"
            )
    return lines


def main() -> None:
    with test_database():
        for line in run():
            print(line, flush=True)


if __name__ == "__main__":
    main()
