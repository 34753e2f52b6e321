"""Where a creature can move: every square it could end a move in, with its cost and path.

The core knows terrain, footprints and step costs; who may pass whom is the rule set's
business, handed in as a table of ``Passage`` values for the squares other creatures hold.
Paths come back with the costs, so a move can be checked square by square for
opportunity attacks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from skirmish.core.coords import DIRECTIONS_8, Coord, centre
from skirmish.core.grid import Grid
from skirmish.core.lines import segment_blocked
from skirmish.core.policy import GeometryPolicy

MoveMode = str
"""``walk``, ``fly``, ``burrow``, ``phase``, ``climb``, ``swim``... as the rule sets name them."""


@dataclass(frozen=True, slots=True)
class Passage:
    """What another creature's square means for the mover.

    Attributes:
        enter: the mover may pass through it (allies: M08-046, E5-042, DS-038).
        end: the mover may end its move there (rarely: DS-040 two sizes apart).
        difficult: the square counts as difficult terrain (E5-044, DS-039).
    """

    enter: bool
    end: bool = False
    difficult: bool = False


BLOCKED = Passage(enter=False)
ALLY = Passage(enter=True)


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """One movement question.

    Attributes:
        at: the mover's top-left square.
        size: its footprint is size x size squares.
        budget: squares of movement it may spend.
        mode: movement mode.
        occupied: per square index held by another creature, the passage it allows.
        ignore_terrain: the mode is slowed by no terrain (ddm2008 flight, burrow, phasing:
            M08-052, M08-056).
        through_walls: the mode passes walls and other impassable squares, though it may
            not end there (ddm2008 burrow and phasing: M08-051, M08-054).
        flying: may enter squares only flyers may enter (pits: M08-125).
        extra_per_square: added to every step (crawling while prone: E5-040, DS-068).
        min_one_square: may always step one square, whatever it costs (M08-045, M03-052).
        parity: under the alternating diagonal rule, 1 if the next diagonal costs 2.
    """

    at: Coord
    size: int
    budget: int
    mode: MoveMode = "walk"
    occupied: Mapping[int, Passage] = field(default_factory=dict)
    ignore_terrain: bool = False
    through_walls: bool = False
    flying: bool = False
    extra_per_square: int = 0
    min_one_square: bool = False
    parity: int = 0


class Reach:
    """The result of a movement search: costs and paths to every square it can end in."""

    __slots__ = ("_best", "_parent", "_via", "_width", "costs", "start")

    def __init__(self, start: Coord, costs: dict[Coord, int], parent: dict[Any, Any], best: dict[Coord, Any],
                 width: int = 0) -> None:
        """``parent`` and ``best`` hold search states: (square, parity) pairs, or with ``width`` the
        one-square search's flat states (square index * 2 + parity; -1 in ``best``: one step)."""
        self.start = start
        self.costs = costs
        self._parent = parent
        self._best = best
        self._width = width
        self._via: dict[Coord, Reach] = {}

    def merged(self, other: Reach) -> Reach:
        """A search holding the cheaper way to each square of two searches (two movement modes)."""
        out = Reach(self.start, dict(self.costs), self._parent, self._best, self._width)
        out._via = dict(self._via)
        for sq, cost in other.costs.items():
            if sq not in out.costs or cost < out.costs[sq]:
                out.costs[sq] = cost
                out._via[sq] = other
        return out

    def __contains__(self, sq: object) -> bool:
        return sq in self.costs

    def __iter__(self) -> Iterator[Coord]:
        return iter(sorted(self.costs, key=lambda s: (self.costs[s], s[1], s[0])))

    def __len__(self) -> int:
        return len(self.costs)

    def cost(self, sq: Coord) -> int:
        """Movement spent to end at ``sq`` (its top-left square for a big creature)."""
        return self.costs[sq]

    def path(self, sq: Coord) -> list[Coord]:
        """The squares entered on the way to ``sq``, in order, ``sq`` last, start excluded."""
        if sq in self._via:
            return self._via[sq].path(sq)
        w = self._width
        state = self._best[sq]
        if w and state < 0:
            return [sq]  # the one step of the minimum-one-square rule
        states = []
        while (before := self._parent.get(state)) is not None:
            states.append(state)
            state = before
        states.reverse()
        if w:
            return [((s >> 1) % w, (s >> 1) // w) for s in states]
        return [s[0] for s in states]


def unit_steps(grid: Grid) -> list[tuple[bool, ...]]:
    """Per square and direction, whether a one-square step is geometrically possible.

    A step must stay on the map, may not cut the corner of terrain that fills its square
    (M08-048, E5-059, DS-043; a diagonal wall's corner does not count, M08-049), and may
    not cross the solid half of a diagonal wall. Entry rules (walls, pits, creatures)
    are checked separately. Built once per map.
    """

    def build() -> list[tuple[bool, ...]]:
        w, h = grid.width, grid.height
        move = grid.mask("move")
        has_solid = any(m is not None for m in move)  # walls that do not block corners pinch too
        table: list[tuple[bool, ...]] = []
        for y in range(h):
            for x in range(w):
                row = []
                for dx, dy in DIRECTIONS_8:
                    nx, ny = x + dx, y + dy
                    ok = 0 <= nx < w and 0 <= ny < h
                    if ok and dx and dy and (grid.kinds[y * w + nx].blocks_corners
                                             or grid.kinds[ny * w + x].blocks_corners):
                        ok = False
                    if ok and has_solid and segment_blocked(
                            centre((x, y)), centre((nx, ny)), move, w, h):
                        ok = False
                    row.append(ok)
                table.append(tuple(row))
        return table

    return grid.cached("unit_steps", build)  # type: ignore[return-value]


def unit_moves(grid: Grid) -> list[tuple[tuple[int, int, bool], ...]]:
    """Per square index, the one-square steps geometry allows: (target index, direction, diagonal)."""

    def build() -> list[tuple[tuple[int, int, bool], ...]]:
        steps = unit_steps(grid)
        w = grid.width
        out = []
        for i, row in enumerate(steps):
            x, y = i % w, i // w
            out.append(tuple(((y + dy) * w + x + dx, d, bool(dx and dy))
                             for d, (dx, dy) in enumerate(DIRECTIONS_8) if row[d]))
        return out

    return grid.cached("unit_moves", build)  # type: ignore[return-value]


def reachable(grid: Grid, policy: GeometryPolicy, req: MoveRequest) -> Reach:
    """Every square where the mover could end a move now, with its cost and path.

    Costs follow the policy's diagonal rule; entering difficult terrain costs its
    ``move_cost`` (a big creature pays for the worst square it newly enters, and ignores
    the squares it leaves: M08-058, M08-059); allies are passed but not stopped in;
    enemies and walls block as ``req`` says.
    """
    if req.size == 1 and not req.through_walls:
        return _reachable_unit(grid, policy, req)
    return _reachable_footprint(grid, policy, req)


def step_cost(grid: Grid, policy: GeometryPolicy, req: MoveRequest, state: tuple[Coord, int], dx: int, dy: int
              ) -> tuple[int, tuple[Coord, int]] | None:
    """The cost of one step of a move and the state after it, or None when the step is not allowed.

    ``state`` is (top-left square, diagonal parity). Squares the creature already holds cost
    nothing (M08-058); the worst square it newly enters sets the price (M08-059).
    """
    w, h = grid.width, grid.height
    size = req.size
    (x, y), parity = state
    nx, ny = x + dx, y + dy
    if not (nx >= 0 and ny >= 0 and nx + size <= w and ny + size <= h):
        return None
    steps = unit_steps(grid)
    kinds = grid.kinds
    d = DIRECTIONS_8.index((dx, dy))
    if not req.through_walls:
        for sy in range(y, y + size):
            for sx in range(x, x + size):
                if not steps[sy * w + sx][d]:
                    return None
    worst = 1
    for sy in range(ny, ny + size):
        for sx in range(nx, nx + size):
            if x <= sx < x + size and y <= sy < y + size:
                continue
            i = sy * w + sx
            kind = kinds[i]
            if kind.entry == "none" and not req.through_walls:
                return None
            if kind.entry == "flyers" and not (req.flying or req.through_walls):
                return None
            cost = 1
            if not req.ignore_terrain and (not req.flying or kind.difficult_for_flyers):
                cost = kind.move_cost
            passage = req.occupied.get(i)
            if passage is not None:
                if not passage.enter:
                    return None
                if passage.difficult:
                    cost = max(cost, 2)  # difficult terrain does not stack (E5-036)
            worst = max(worst, cost)
    if dx and dy and policy.diagonal == "alternating":
        cost = (1 + parity) if worst == 1 else policy.difficult_diagonal_cost
        new_parity = 1 - parity
    else:
        cost = worst
        new_parity = parity
    return cost + req.extra_per_square, ((nx, ny), new_parity)


def path_cost(grid: Grid, policy: GeometryPolicy, req: MoveRequest, path: list[Coord]) -> int | None:
    """What a given path costs the mover, or None when a step of it is not allowed or it does
    not end where the creature may stop."""
    state = (req.at, req.parity)
    total = 0
    for sq in path:
        dx, dy = sq[0] - state[0][0], sq[1] - state[0][1]
        if (dx, dy) not in DIRECTIONS_8:
            return None
        found = step_cost(grid, policy, req, state, dx, dy)
        if found is None:
            return None
        total += found[0]
        state = found[1]
    if not path or not _can_end(grid, req, path[-1]):
        return None
    return total


def _reachable_footprint(grid: Grid, policy: GeometryPolicy, req: MoveRequest) -> Reach:
    """``reachable`` for any footprint and mode: the general search."""
    start = req.at
    start_state = (start, req.parity if policy.diagonal == "alternating" else 0)
    dist: dict[tuple[Coord, int], int] = {start_state: 0}
    parent: dict[tuple[Coord, int], tuple[Coord, int] | None] = {start_state: None}
    buckets: list[list[tuple[Coord, int]]] = [[] for _ in range(req.budget + 1)]
    buckets[0].append(start_state)

    def step(state: tuple[Coord, int], dx: int, dy: int) -> tuple[int, tuple[Coord, int]] | None:
        return step_cost(grid, policy, req, state, dx, dy)

    for spent in range(req.budget + 1):
        bucket = buckets[spent]
        while bucket:
            state = bucket.pop()
            if dist.get(state) != spent:
                continue
            for dx, dy in DIRECTIONS_8:
                found = step(state, dx, dy)
                if found is None:
                    continue
                cost, nxt = found
                total = spent + cost
                if total > req.budget:
                    continue
                if nxt not in dist or total < dist[nxt]:
                    dist[nxt] = total
                    parent[nxt] = state
                    buckets[total].append(nxt)

    costs: dict[Coord, int] = {}
    best: dict[Coord, tuple[Coord, int]] = {}
    for state, spent in dist.items():
        sq = state[0]
        if sq == start or not _can_end(grid, req, sq):
            continue
        if sq not in costs or spent < costs[sq]:
            costs[sq] = spent
            best[sq] = state

    if req.min_one_square and req.budget >= 1:
        # Minimum one square (M08-045): an adjacent step is always allowed, whatever it costs.
        for dx, dy in DIRECTIONS_8:
            found = step(start_state, dx, dy)
            if found is None:
                continue
            _, nxt = found
            sq = nxt[0]
            if sq not in costs and _can_end(grid, req, sq):
                costs[sq] = req.budget
                best[sq] = nxt
                parent[nxt] = start_state
    return Reach(start, costs, parent, best)


def _reachable_unit(grid: Grid, policy: GeometryPolicy, req: MoveRequest) -> Reach:
    """``reachable`` for a one-square creature: the same rules over flat indices, for speed."""
    w = grid.width
    moves = unit_moves(grid)
    kinds = grid.kinds
    occupied = req.occupied
    flying = req.flying
    ignore = req.ignore_terrain
    extra = req.extra_per_square
    alternating = policy.diagonal == "alternating"
    diag_difficult = policy.difficult_diagonal_cost
    budget = req.budget
    start = req.at[1] * w + req.at[0]
    start_state = start * 2 + (req.parity if alternating else 0)
    dist = {start_state: 0}
    parent: dict[int, int] = {}
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start_state)

    def enter_cost(j: int) -> int:
        """Cost to enter square j, or 0 when it cannot be entered."""
        kind = kinds[j]
        if kind.entry != "all" and not (kind.entry == "flyers" and flying):
            return 0
        cost = 1 if ignore or (flying and not kind.difficult_for_flyers) else kind.move_cost
        passage = occupied.get(j)
        if passage is not None:
            if not passage.enter:
                return 0
            if passage.difficult and cost < 2:
                cost = 2
        return cost

    costs_cache: dict[int, int] = {}
    for spent in range(budget + 1):
        bucket = buckets[spent]
        while bucket:
            state = bucket.pop()
            if dist[state] != spent:
                continue
            i, parity = state >> 1, state & 1
            for j, _d, diagonal in moves[i]:
                c = costs_cache.get(j)
                if c is None:
                    c = costs_cache[j] = enter_cost(j)
                if not c:
                    continue
                if diagonal and alternating:
                    c = (1 + parity) if c == 1 else diag_difficult
                    nstate = j * 2 + (1 - parity)
                else:
                    nstate = j * 2 + parity
                total = spent + c + extra
                if total > budget:
                    continue
                old = dist.get(nstate)
                if old is None or total < old:
                    dist[nstate] = total
                    parent[nstate] = state
                    buckets[total].append(nstate)

    def sq(i: int) -> Coord:
        return (i % w, i // w)

    costs: dict[Coord, int] = {}
    best: dict[Coord, int] = {}
    for state, spent in dist.items():
        i = state >> 1
        if i == start or not _can_end_index(grid, req, i):
            continue
        square = sq(i)
        if square not in costs or spent < costs[square]:
            costs[square] = spent
            best[square] = state
    if req.min_one_square and budget >= 1:
        for j, _d, _diagonal in moves[start]:
            square = sq(j)
            c = costs_cache.get(j)
            if c is None:
                c = enter_cost(j)
            if c and square not in costs and _can_end_index(grid, req, j):
                costs[square] = budget
                best[square] = -1  # a path of its own, one step, so no search path is overwritten
    return Reach(req.at, costs, parent, best, w)


def _can_end_index(grid: Grid, req: MoveRequest, i: int) -> bool:
    kind = grid.kinds[i]
    if not kind.occupiable or kind.entry == "none" or (kind.entry == "flyers" and not req.flying):
        return False
    passage = req.occupied.get(i)
    return passage is None or passage.end


def _can_end(grid: Grid, req: MoveRequest, at: Coord) -> bool:
    w = grid.width
    x, y = at
    for sy in range(y, y + req.size):
        for sx in range(x, x + req.size):
            i = sy * w + sx
            kind = grid.kinds[i]
            if not kind.occupiable or kind.entry == "none":
                return False
            if kind.entry == "flyers" and not req.flying:
                return False
            passage = req.occupied.get(i)
            if passage is not None and not passage.end:
                return False
    return True
