"""How long the big printouts take, and how much memory: the standings of 200 players, the
sheets of 50 tables. Both are drawn (reports/drawn.py), not laid out by WeasyPrint.

Run with `python bench/reports.py` (or `make bench`). It builds a finished 200-player
tournament (5 rounds of 4 deals, 50 tables a round) in a throw-away test database.

- Time: each PDF is made in this process (a warm worker: Django loaded, the tournament read)
  as the view makes it (the paper's rows read, then drawn), a few times, on one core (no
  process pool); the best wall time is kept and its CPU time printed, each beside its goal
  with their ratio (on a shared machine the CPU time is the steadier figure).
- Memory: the paper (its rows, its words already translated) is handed pickled to a fresh
  Python process that loads Django and ReportLab, draws a one-row paper (fonts loaded), then
  the whole paper; its peak resident memory is the figure, with the baseline before the
  drawing printed beside it. The peak is the kernel's high-water mark of the process's own
  memory (VmHWM in /proc/self/status): `ru_maxrss` would not do, Linux carries it over from
  the parent through fork and exec.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import goals  # noqa: E402
from bench.django_env import test_database  # noqa: E402

STANDINGS_SECONDS, SHEETS_SECONDS, PEAK_MIB = 1.0, 3.0, 150.0


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


def against(value: float, goal: float, unit: str) -> str:
    """ "2.41 s, goal ≤ 3 s: 0.80× the goal (met)": the figure, the goal and their ratio."""
    ratio = value / goal
    return (
        f"{value:.2f} {unit}, goal ≤ {goal:g} {unit}: {ratio:.2f}× the goal "
        f"({'met' if ratio <= 1 else 'NOT met'})"
    )


def resident_kib(field: str) -> int:
    """A line of /proc/self/status, in KiB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def _child_figures(argument: str, path: Path) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, argument, str(path)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tarotclub.settings.test"},
    ).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    return {
        **figures,
        "peak_mib": figures["peak"] / 1024,
        "baseline_mib": figures["baseline"] / 1024,
    }


def drawn_child(paper_file: str) -> None:
    """In a fresh process: the peak memory of drawing a paper (reports/drawn.py)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarotclub.settings.test")
    import django

    django.setup()
    from tarotclub.reports import drawn

    what, paper, warm_up, frame = pickle.loads(Path(paper_file).read_bytes())
    draw = getattr(drawn, what)
    draw(warm_up, **frame)  # fonts loaded
    baseline = resident_kib("VmHWM")
    start = time.perf_counter()
    made = draw(paper, **frame)
    seconds = time.perf_counter() - start
    peak = resident_kib("VmHWM")
    print(json.dumps({"seconds": seconds, "pages": made.pages, "baseline": baseline, "peak": peak}))


def peak_memory(what: str, paper, warm_up, frame: dict) -> dict:
    """Peak and baseline resident memory of a fresh process drawing `paper` with
    `reports.drawn.<what>`, in MiB; the paper is handed over pickled (its words already in
    the reader's language)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "paper.pickle"
        path.write_bytes(pickle.dumps((what, paper, warm_up, frame)))
        return _child_figures("--drawn-child", path)


def _plain(sheet):
    """The sheet with its lazy words (seat names) made plain strings, and its grid built."""
    for p in sheet.players:
        p.seat, p.initial = str(p.seat), str(p.initial)
    sheet.fed  # noqa: B018 - built here, in the reader's language
    return sheet


def run() -> list[str]:
    from django.utils import translation

    from tarotclub.demo.builders import make_tournament, play_round
    from tarotclub.reports import documents
    from tarotclub.reports.printouts import (
        drawn_frame,
        round_sheets_pdf,
        standings_paper,
        standings_pdf,
    )
    from tarotclub.tournaments import services

    translation.activate("en")
    start = time.perf_counter()
    t, _ = make_tournament(200, rounds=5, deals=4)
    t = services.tournament_start(tournament=t)
    for _ in range(t.rounds):
        play_round(t)
        t = services.tournament_next_round(tournament=t)
    lines = [f"(a finished 200-player tournament built in {time.perf_counter() - start:.1f} s)"]

    seconds, cpu, pdf = best_of(3, lambda: standings_pdf(t))
    lines.append(
        f"standings PDF, 200 players ({pdf.pages} pages): "
        f"{against(seconds, STANDINGS_SECONDS, 's')}; CPU {against(cpu, STANDINGS_SECONDS, 's')}"
    )
    goals.record("standings PDF, 200 players", seconds, "s", STANDINGS_SECONDS)
    paper = standings_paper(t)
    memory = peak_memory(
        "standings_pdf", paper, {**paper, "lines": paper["lines"][:1]}, drawn_frame(t, "Standings")
    )
    lines.append(
        "standings PDF, 200 players, fresh process: peak "
        f"{against(memory['peak_mib'], PEAK_MIB, 'MiB')} "
        f"(baseline after imports {memory['baseline_mib']:.0f} MiB, "
        f"+{memory['peak_mib'] - memory['baseline_mib']:.0f} MiB; {memory['seconds']:.2f} s)"
    )
    goals.record("standings PDF, 200 players: peak memory", memory["peak_mib"], "MiB", PEAK_MIB)

    base_url = "http://127.0.0.1:8000/"
    for filled, label in ((False, "empty"), (True, "filled")):
        # drawn (reports/drawn.py), as the view makes them: the round's sheets read, then drawn
        seconds, cpu, pdf = best_of(
            3,
            lambda filled=filled: round_sheets_pdf(t, t.rounds, filled=filled, base_url=base_url),
        )
        lines.append(
            f"table sheets PDF, 50 tables ({label}, {pdf.pages} pages, one core): "
            f"{against(seconds, SHEETS_SECONDS, 's')}; CPU {against(cpu, SHEETS_SECONDS, 's')}"
        )
        goals.record(f"table sheets PDF, 50 tables ({label})", seconds, "s", SHEETS_SECONDS)
        sheets = documents.round_sheets(t, t.rounds, filled=filled, base_url=base_url)
        sheets = [_plain(sheet) for sheet in sheets]
        memory = peak_memory("sheets_pdf", sheets, sheets[:1], drawn_frame(t, "Table sheets"))
        lines.append(
            f"table sheets PDF, 50 tables ({label}), fresh process: peak "
            f"{against(memory['peak_mib'], PEAK_MIB, 'MiB')} (the standings' memory goal; "
            f"baseline after imports {memory['baseline_mib']:.0f} MiB, "
            f"+{memory['peak_mib'] - memory['baseline_mib']:.0f} MiB; {memory['seconds']:.2f} s)"
        )
    return lines


def main() -> None:
    with test_database():
        for line in run():
            print(line, flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--drawn-child"]:
        drawn_child(sys.argv[2])
    else:
        main()
