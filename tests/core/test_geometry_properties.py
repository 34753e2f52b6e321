"""Property tests of the core geometry on random maps, under every rule set's policy.

Maps are drawn from each rule set's own legend (walls, difficult terrain, diagonal walls and
the rule set's special terrain), with open floor the most common square. The properties:

- distance is symmetric and never below the rule set's direct count (Chebyshev, or 1-2-1);
  where walls leave no way round it is None both ways (M08-090, M03-049, E5-060);
- line of sight and line of effect are symmetric (M08-092, M08-097);
- every reachable square's cost is what its returned path costs, recomputed step by step from
  the terrain, and is the cheapest such cost (an independent search agrees);
- no path enters a wall or cuts a wall's corner (M08-048, E5-059, DS-043, G35-04);
- no creature's square is ever an end square (M08-046, E5-045, DS-040 between equal sizes);
- every cost is within the budget; only the minimum-one-square step (M08-045, M03-052) may
  cost more than the budget, and it is then reported at the budget.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from skirmish.core import geometry
from skirmish.core.coords import DIRECTIONS_8, Coord, centre, chebyshev, footprint
from skirmish.core.grid import Grid
from skirmish.core.lines import segment_blocked
from skirmish.core.pathing import ALLY, BLOCKED, MoveRequest, Passage, Reach, reachable
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.core.terrain import TerrainKind
from skirmish.rulesets import find_ruleset
from skirmish.scenario.loader import load_scenario_text

RULESETS = ["ddm2008", "ddm2003", "dnd5e", "dnd3", "drawsteel"]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def legend_of(name: str) -> Mapping[str, TerrainKind]:
    return find_ruleset(name).legend


def policy_of(name: str) -> GeometryPolicy:
    return find_ruleset(name)().policy


def glyphs(name: str) -> list[str]:
    """The squares a random map is drawn from: floor six times as likely as anything else,
    walls and difficult terrain twice as likely as the rest of the legend."""
    others = sorted(set(legend_of(name)) - {".", "#", "~"})
    return ["."] * 6 + ["#", "#", "~", "~"] + others


@st.composite
def maps(draw: st.DrawFn, name: str, max_side: int = 8) -> list[str]:
    w = draw(st.integers(3, max_side))
    h = draw(st.integers(3, max_side))
    cells = draw(st.lists(st.sampled_from(glyphs(name)), min_size=w * h, max_size=w * h))
    return ["".join(cells[y * w:(y + 1) * w]) for y in range(h)]


def grid_of(name: str, rows: list[str]) -> Grid:
    """A fresh grid (no tables shared with any other test)."""
    return Grid.parse("\n".join(rows), legend_of(name))


def standable(grid: Grid) -> list[Coord]:
    """Squares a creature may stand on: not a wall, not a pit, not a statue."""
    return [sq for sq in grid.squares() if grid.kind(sq).entry == "all" and grid.kind(sq).occupiable]


# Distance.

@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(data=st.data())
def test_distance_is_symmetric_and_never_below_the_direct_count(name, data):
    """M08-090, M03-049, E5-060, G35-04, DS-037."""
    rows = data.draw(maps(name))
    grid = grid_of(name, rows)
    policy = policy_of(name)
    squares = [sq for sq in grid.squares() if grid.kind(sq).entry != "none"]
    assume(len(squares) >= 2)
    a = data.draw(st.sampled_from(squares))
    b = data.draw(st.sampled_from(squares))
    there = geometry.distance(grid, policy, [a], [b])
    back = geometry.distance(grid_of(name, rows), policy, [b], [a])
    assert there == back
    direct = geometry.direct_distance(policy, [a], [b])
    assert direct >= chebyshev(a, b)
    if policy.distance == "direct":
        assert there == direct
    elif there is not None:
        assert there >= direct
    if a == b:
        assert there == 0


@pytest.mark.parametrize("name", ["ddm2008", "ddm2003"])
@SETTINGS
@given(data=st.data())
def test_distance_around_walls_is_none_only_when_a_wall_separates(name, data):
    """M08-090, M03-040: with no walls on the map (diagonal walls included), counting around walls is
    the direct count."""
    rows = [r.translate(str.maketrans({c: "." for c in "#/\\LJ"})) for r in data.draw(maps(name))]
    grid = grid_of(name, rows)
    policy = policy_of(name)
    squares = [sq for sq in grid.squares() if grid.kind(sq).entry != "none"]
    a = data.draw(st.sampled_from(squares))
    b = data.draw(st.sampled_from(squares))
    assert geometry.distance(grid, policy, [a], [b]) == geometry.direct_distance(policy, [a], [b])


# Sight and effect.

@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(data=st.data())
def test_line_of_sight_and_effect_are_symmetric(name, data):
    """M08-092, M08-097: corner-to-corner lines; each direction computed on its own grid."""
    rows = data.draw(maps(name))
    grid = grid_of(name, rows)
    squares = list(grid.squares())
    a = data.draw(st.sampled_from(squares))
    b = data.draw(st.sampled_from(squares))
    assert geometry.line_of_sight(grid, [a], [b]) == geometry.line_of_sight(grid_of(name, rows), [b], [a])
    assert geometry.line_of_effect(grid, [a], [b]) == geometry.line_of_effect(grid_of(name, rows), [b], [a])


@pytest.mark.parametrize("name", ["ddm2008", "dnd5e"])
@SETTINGS
@given(data=st.data())
def test_every_corner_line_is_symmetric(name, data):
    """M08-092, M08-097: each corner-to-corner line is blocked or clear whichever end it starts from."""
    rows = data.draw(maps(name, max_side=6))
    grid = grid_of(name, rows)
    mask = grid.mask("sight")
    squares = list(grid.squares())
    a = data.draw(st.sampled_from(squares))
    b = data.draw(st.sampled_from(squares))
    w, h = grid.width, grid.height
    for p in [(a[0], a[1]), (a[0] + 1, a[1]), (a[0] + 1, a[1] + 1), (a[0], a[1] + 1)]:
        for q in [(b[0], b[1]), (b[0] + 1, b[1]), (b[0] + 1, b[1] + 1), (b[0], b[1] + 1)]:
            assert segment_blocked(p, q, mask, w, h, (), a, b) == segment_blocked(q, p, mask, w, h, (), b, a)


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(data=st.data())
def test_adjacent_open_squares_always_see_each_other(name, data):
    """M08-097: two orthogonally adjacent squares share a side, and a line along it is clear
    (grazing) unless one of the two squares is itself solid."""
    rows = data.draw(maps(name))
    grid = grid_of(name, rows)
    a = data.draw(st.sampled_from(list(grid.squares())))
    d = data.draw(st.sampled_from([(1, 0), (0, 1), (-1, 0), (0, -1)]))
    b = (a[0] + d[0], a[1] + d[1])
    assume(grid.inside(b))
    assume(grid.kind(a).shape == "full" and grid.kind(b).shape == "full")
    assume(grid.kind(a).sight == "clear" and grid.kind(b).sight == "clear")
    assert geometry.line_of_sight(grid, [a], [b])


# Movement: an independent replay of the step rules.

def step(grid: Grid, policy: GeometryPolicy, req: MoveRequest, at: Coord, parity: int,
         d: Coord) -> tuple[int, int] | None:
    """The cost of one step and the parity after it, or None where the step is illegal.

    One king step, on the map; no diagonal past the corner of a square that blocks corners
    (M08-048, E5-059, DS-043) nor across a diagonal wall's solid half (M08-049); no wall or,
    for walkers, pit entered (M08-125); creatures' squares as the passage table says. The cost
    is the worst newly entered square (M08-058, M08-059), at least 2 for a difficult creature
    square (E5-044, DS-039), diagonals 1-2-1 under "alternating" with 3 into difficult terrain
    (M03-049, G35-05), plus the per-square extra (E5-040, DS-068).
    """
    w, h = grid.width, grid.height
    (x, y), (dx, dy) = at, d
    nx, ny = x + dx, y + dy
    if not (0 <= nx <= w - req.size and 0 <= ny <= h - req.size):
        return None
    held = set(footprint(at, req.size))
    if not req.through_walls:
        move_mask = grid.mask("move")
        for sx, sy in held:
            if dx and dy and (grid.kind((sx + dx, sy)).blocks_corners or grid.kind((sx, sy + dy)).blocks_corners):
                return None
            if segment_blocked(centre((sx, sy)), centre((sx + dx, sy + dy)), move_mask, w, h):
                return None
    worst = 1
    for sq in footprint((nx, ny), req.size):
        if sq in held:
            continue
        kind = grid.kind(sq)
        if kind.entry == "none" and not req.through_walls:
            return None
        if kind.entry == "flyers" and not (req.flying or req.through_walls):
            return None
        cost = 1 if req.ignore_terrain or (req.flying and not kind.difficult_for_flyers) else kind.move_cost
        passage = req.occupied.get(grid.index(sq))
        if passage is not None:
            if not passage.enter:
                return None
            if passage.difficult:
                cost = max(cost, 2)
        worst = max(worst, cost)
    if dx and dy and policy.diagonal == "alternating":
        cost = (1 + parity) if worst == 1 else policy.difficult_diagonal_cost
        parity = 1 - parity
    else:
        cost = worst
    return cost + req.extra_per_square, parity


def start_parity(policy: GeometryPolicy, req: MoveRequest) -> int:
    return req.parity if policy.diagonal == "alternating" else 0


def can_end(grid: Grid, req: MoveRequest, at: Coord) -> bool:
    for sq in footprint(at, req.size):
        kind = grid.kind(sq)
        if not kind.occupiable or kind.entry == "none" or (kind.entry == "flyers" and not req.flying):
            return False
        passage = req.occupied.get(grid.index(sq))
        if passage is not None and not passage.end:
            return False
    return True


def replay(grid: Grid, policy: GeometryPolicy, req: MoveRequest, path: list[Coord]) -> int:
    at, parity, total = req.at, start_parity(policy, req), 0
    for sq in path:
        d = (sq[0] - at[0], sq[1] - at[1])
        assert d in DIRECTIONS_8, f"{at} -> {sq} is not a one-square step"
        found = step(grid, policy, req, at, parity, d)
        assert found is not None, f"illegal step {at} -> {sq} on the path {path}"
        cost, parity = found
        total += cost
        at = sq
    return total


def reference_costs(grid: Grid, policy: GeometryPolicy, req: MoveRequest) -> dict[Coord, int]:
    """Cheapest cost to every square the mover may end in: a plain Dijkstra over (square, parity)."""
    start = (req.at, start_parity(policy, req))
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        spent, state = heapq.heappop(heap)
        if spent != best[state]:
            continue
        for d in DIRECTIONS_8:
            found = step(grid, policy, req, state[0], state[1], d)
            if found is None:
                continue
            cost, parity = found
            nxt = ((state[0][0] + d[0], state[0][1] + d[1]), parity)
            total = spent + cost
            if total <= req.budget and total < best.get(nxt, total + 1):
                best[nxt] = total
                heapq.heappush(heap, (total, nxt))
    out: dict[Coord, int] = {}
    for (sq, _), spent in best.items():
        if sq != req.at and can_end(grid, req, sq):
            out[sq] = min(spent, out.get(sq, spent))
    if req.min_one_square and req.budget >= 1:
        for d in DIRECTIONS_8:
            if step(grid, policy, req, req.at, start[1], d) is None:
                continue
            sq = (req.at[0] + d[0], req.at[1] + d[1])
            if sq not in out and can_end(grid, req, sq):
                out[sq] = req.budget
    return out


PASSAGES = [ALLY, BLOCKED, Passage(enter=True, difficult=True), Passage(enter=False, difficult=True),
            Passage(enter=True, end=True), Passage(enter=True, end=True, difficult=True)]


@st.composite
def move_requests(draw: st.DrawFn, name: str) -> tuple[Grid, GeometryPolicy, MoveRequest]:
    rows = draw(maps(name))
    grid = grid_of(name, rows)
    policy = policy_of(name)
    size = draw(st.sampled_from([1, 1, 1, 2]))
    starts = [(x, y) for x in range(grid.width - size + 1) for y in range(grid.height - size + 1)
              if all(grid.kind(sq).entry != "none" for sq in footprint((x, y), size))]
    assume(starts)
    at = draw(st.sampled_from(starts))
    own = {grid.index(sq) for sq in footprint(at, size)}
    others = [i for i in range(grid.width * grid.height) if i not in own]
    occupied_at = draw(st.lists(st.sampled_from(others), max_size=4, unique=True)) if others else []
    occupied = {i: draw(st.sampled_from(PASSAGES)) for i in occupied_at}
    rarely = st.sampled_from([False, False, False, True])
    through_walls = draw(rarely)  # burrowing or phasing (M08-051, M08-054): terrain ignored too
    req = MoveRequest(
        at=at, size=size, budget=draw(st.integers(0, 8)), occupied=occupied,
        ignore_terrain=draw(rarely) or through_walls,
        through_walls=through_walls, flying=draw(rarely),
        extra_per_square=draw(st.sampled_from([0, 0, 0, 1])), min_one_square=draw(st.booleans()),
        parity=draw(st.integers(0, 1)),
    )
    return grid, policy, req


def check_reach(grid: Grid, policy: GeometryPolicy, req: MoveRequest, reach: Reach) -> None:
    for sq in reach:
        path = reach.path(sq)
        assert path and path[-1] == sq and req.at not in path
        spent = replay(grid, policy, req, path)
        reported = reach.cost(sq)
        assert reported <= req.budget
        if spent != reported:
            assert req.min_one_square and len(path) == 1 and spent > req.budget == reported, (
                f"path to {sq} costs {spent}, reported {reported}: {path}")


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(case=st.data())
def test_reachable_costs_agree_with_the_returned_paths(name, case):
    """Each path replays legally and costs what is reported (M08-040, M08-045, M08-058, M03-049,
    E5-057, G35-05, DS-037); only the minimum-one-square step may cost more than the budget."""
    grid, policy, req = case.draw(move_requests(name))
    reach = reachable(grid, policy, req)
    check_reach(grid, policy, req, reach)


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(case=st.data())
def test_reachable_costs_are_the_cheapest(name, case):
    """An independent search over the same step rules finds the same squares at the same costs
    (M08-040, M03-049, E5-057, G35-04, DS-037)."""
    grid, policy, req = case.draw(move_requests(name))
    assert reachable(grid, policy, req).costs == reference_costs(grid, policy, req)


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(case=st.data())
def test_no_path_enters_a_wall_or_cuts_a_wall_corner(name, case):
    """M08-048, E5-059, DS-043, G35-04: checked directly, without the replay."""
    grid, policy, req = case.draw(move_requests(name))
    assume(not req.through_walls)
    reach = reachable(grid, policy, req)
    for sq in reach:
        at = req.at
        for nxt in reach.path(sq):
            dx, dy = nxt[0] - at[0], nxt[1] - at[1]
            for s in footprint(nxt, req.size):
                assert grid.kind(s).entry != "none", f"the path to {sq} enters the wall {s}"
            if dx and dy:
                for sx, sy in footprint(at, req.size):
                    for side in ((sx + dx, sy), (sx, sy + dy)):
                        assert not grid.kind(side).blocks_corners, f"{at} -> {nxt} cuts the corner of {side}"
            at = nxt


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(case=st.data())
def test_reachable_never_ends_on_a_creature_it_may_not_share(name, case):
    """M08-046, E5-045, DS-040: a creature's square is an end square only where its passage says so."""
    grid, policy, req = case.draw(move_requests(name))
    reach = reachable(grid, policy, req)
    for sq in reach:
        assert sq != req.at
        for s in footprint(sq, req.size):
            passage = req.occupied.get(grid.index(s))
            assert passage is None or passage.end, f"{sq} overlaps a creature's square {s}"


# Movement through the rule sets' own hooks, with real creatures.

@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(data=st.data())
def test_position_reach_never_includes_another_creatures_square(name, data):
    """M08-046, M03-050, E5-045, G35-13, DS-040: creatures of one size never end in each other's squares."""
    rows = data.draw(maps(name))
    grid = grid_of(name, rows)
    spots = standable(grid)
    assume(len(spots) >= 2)
    chosen = data.draw(st.lists(st.sampled_from(spots), min_size=2, max_size=5, unique=True))
    speed = data.draw(st.integers(0, 8))
    creatures = []
    for i, (x, y) in enumerate(chosen):
        side = "heroes" if i == 0 else data.draw(st.sampled_from(["heroes", "monsters"]))
        stats = f"{{speed: {speed}}}" if i == 0 else "{}"
        creatures.append(f"  - {{id: c{i}, side: {side}, at: [{x}, {y}], stats: {stats}}}")
    text = "\n".join([f"ruleset: {name}", "map:", "  rows: |", *[f"    {r}" for r in rows],
                      "creatures:", *creatures]) + "\n"
    pos: Position = load_scenario_text(text).position
    mover = pos.creature("c0")
    reach = pos.reach(mover)
    taken = {sq for c in pos.creatures.values() if c is not mover for sq in c.squares}
    assert not set(reach) & taken
    assert mover.at not in reach
    for sq in reach:
        assert reach.cost(sq) <= speed
        assert can_end(grid, MoveRequest(at=mover.at, size=1, budget=speed), sq)
