"""The one-square fast path of ``reachable`` agrees with the general footprint search."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.core.grid import Grid
from skirmish.core.pathing import MoveRequest, Passage, _reachable_footprint, _reachable_unit
from skirmish.core.policy import GeometryPolicy
from skirmish.core.terrain import BASE_LEGEND, DIAGONAL_WALLS

LEGEND = {**BASE_LEGEND, **DIAGONAL_WALLS}


@st.composite
def cases(draw):
    w, h = draw(st.integers(3, 8)), draw(st.integers(3, 8))
    rows = ["".join(draw(st.sampled_from(".....#~/J")) for _ in range(w)) for _ in range(h)]
    free = [(x, y) for y in range(h) for x in range(w) if rows[y][x] != "#"]
    if not free:
        rows[0] = "." + rows[0][1:]
        free = [(0, 0)]
    at = draw(st.sampled_from(free))
    occupied = {}
    for _ in range(draw(st.integers(0, 4))):
        x, y = draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))
        if (x, y) != at:
            occupied[y * w + x] = draw(st.sampled_from([
                Passage(enter=False), Passage(enter=True), Passage(enter=True, difficult=True),
                Passage(enter=True, end=True, difficult=True)]))
    policy = GeometryPolicy(diagonal=draw(st.sampled_from(["one", "alternating"])))
    req = MoveRequest(at=at, size=1, budget=draw(st.integers(0, 7)), occupied=occupied,
                      min_one_square=draw(st.booleans()), flying=draw(st.booleans()),
                      extra_per_square=draw(st.integers(0, 1)), parity=draw(st.integers(0, 1)))
    return Grid.parse("\n".join(rows), LEGEND), policy, req


@settings(max_examples=150, deadline=None)
@given(cases())
def test_fast_path_matches_general_search(case):
    """M08-040 / M03-049 costs, M08-045 minimum one square, M08-046 passage: both searches agree."""
    grid, policy, req = case
    fast = _reachable_unit(grid, policy, req)
    slow = _reachable_footprint(grid, policy, req)
    assert fast.costs == slow.costs
    for sq in fast.costs:
        path = [req.at, *fast.path(sq)]
        assert path[-1] == sq
        for a, b in itertools.pairwise(path):
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1
