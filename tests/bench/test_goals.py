"""bench/goals.py's summary table (nothing timed): a figure over its goal says NO, and a figure
the issue sets no goal for on that database is printed without one, never as met."""

from __future__ import annotations

import pytest

from bench import goals


@pytest.fixture(autouse=True)
def recorded(monkeypatch) -> list[goals.Goal]:
    """The goals of this test alone (the module keeps them in a list for the whole run)."""
    fresh: list[goals.Goal] = []
    monkeypatch.setattr(goals, "GOALS", fresh)
    return fresh


def test_met_over_and_no_goal_are_told_apart(recorded):
    met = goals.Goal("save, sqlite", 1.5, "ms", 2.4, database="sqlite", trivial_ms=0.3)
    over = goals.Goal("save, slow", 3.0, "ms", 2.4, database="sqlite", trivial_ms=0.3)
    none = goals.Goal("save, pg", 3.0, "ms", None, database="postgresql", trivial_ms=0.3)
    assert (met.met, over.met, none.met) == (True, False, None)
    recorded += [met, over, none]
    first, second, third = goals.summary().splitlines()[1:]
    assert first.endswith("5.0×  yes") and "≤   2.4 ms" in first
    assert second.endswith("10.0×  NO")
    assert third.endswith("10.0×  -") and " none " in third and "≤" not in third


def test_a_goal_without_a_limit_survives_the_childs_dump(recorded, tmp_path):
    path = tmp_path / "goals.json"
    recorded.append(goals.Goal("save (CPU)", 7.5, "×", None, database="postgresql"))
    goals.dump(str(path))
    recorded.clear()
    goals.load(str(path))
    assert recorded[0].limit is None and recorded[0].met is None
