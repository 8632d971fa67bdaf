"""The site's seating with substitutes (`duplicate.round_plan`) seats whom the grading counts
(`scoring.duplicate.player_in`): a property over movements, substitutes and their rounds. No
database: entries are plain objects."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.duplicate import player_in
from scoring.movement import ORIENTATIONS, movement
from tarotclub.tournaments import duplicate


@st.composite
def sessions(draw):
    tables = draw(st.integers(2, 6))
    rounds = draw(st.integers(2, tables))
    m = movement(tables, rounds)
    seats = list(m.players())
    entries = [
        SimpleNamespace(pk=i + 1, player_id=100 + i, orientation=o, start_table=t, replaces_id=None)
        for i, (o, t) in enumerate(seats)
    ]
    chosen = draw(st.lists(st.sampled_from(range(len(seats))), unique=True, max_size=4))
    subs = {}
    for n, i in enumerate(chosen):
        start = draw(st.integers(2, rounds))
        entries.append(
            SimpleNamespace(
                pk=1000 + n,
                player_id=5000 + n,
                orientation="",
                start_table=None,
                replaces_id=entries[i].pk,
                first_round=start,
            )
        )
        subs[seats[i]] = start
    return m, entries, subs


@settings(max_examples=60, deadline=None)
@given(sessions())
def test_round_plan_seats_whom_the_grading_counts(session):
    m, entries, subs = session
    by_key = {(e.orientation, e.start_table): e.player_id for e in entries if e.orientation}
    for e in entries:
        if e.replaces_id:
            own = next(x for x in entries if x.pk == e.replaces_id)
            by_key[(own.orientation, own.start_table, e.first_round)] = e.player_id
    for r in range(1, m.rounds + 1):
        plan = duplicate.round_plan(m, entries, r)
        for s in m.seating(r):
            expected = [by_key[player_in(s.seats[o], r, subs)] for o in ORIENTATIONS]
            assert plan[s.table - 1] == expected
        # everyone seated once a round: 4 players a table, nobody twice
        seated = [pk for table in plan for pk in table]
        assert len(seated) == len(set(seated)) == 4 * m.tables
