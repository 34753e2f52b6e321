"""Sight, effect, distance, cover and flanking between creatures, under a rule set's policy.

Every function takes the map and the rule set's ``GeometryPolicy``; creatures are given
as footprints (the tuple of squares they occupy), so N x N creatures work everywhere and
"any square it occupies may be used" (M08-098, M08-111, M03-065) is the default.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Collection, Iterable, Sequence

from skirmish.core.coords import DIRECTIONS_8, Coord, Point, centre, corners
from skirmish.core.grid import Grid
from skirmish.core.lines import segment_blocked
from skirmish.core.policy import GeometryPolicy

Footprint = Sequence[Coord]

NONE, PARTIAL, THREE_QUARTERS, TOTAL = 0, 1, 2, 3
"""Cover degrees: none; cover (half cover in dnd5e); three-quarters; total (no line of effect)."""


# Lines between squares.

def squares_clear(grid: Grid, question: str, a: Coord, b: Coord) -> bool:
    """Whether some line from a corner of square ``a`` to a corner of square ``b`` is clear.

    Cached per map and question; the relation is symmetric.
    """
    if a == b:
        return True
    ia, ib = grid.index(a), grid.index(b)
    key = (ia, ib) if ia < ib else (ib, ia)
    table: dict[tuple[int, int], bool] = grid.cached(("clear", question), dict)  # type: ignore[assignment]
    found = table.get(key)
    if found is None:
        found = _any_corner_line_clear(grid, grid.mask(question), a, b, ())
        table[key] = found
    return found


def _any_corner_line_clear(grid: Grid, mask: Sequence[str | None], a: Coord, b: Coord,
                           extra: Collection[int]) -> bool:
    w, h = grid.width, grid.height
    cb = corners(b)
    for p in corners(a):
        for q in cb:
            if not segment_blocked(p, q, mask, w, h, extra, a, b):
                return True
    return False


def footprints_clear(grid: Grid, question: str, a: Footprint, b: Footprint) -> bool:
    """Whether any square of ``a`` has a clear corner-to-corner line to any square of ``b``."""
    return any(squares_clear(grid, question, sa, sb) for sa in a for sb in b)


def line_of_sight(grid: Grid, a: Footprint, b: Footprint) -> bool:
    """Line of sight, corner to corner (M08-092, M08-097; ddm2008 Decisions)."""
    return footprints_clear(grid, "sight", a, b)


def line_of_effect(grid: Grid, a: Footprint, b: Footprint) -> bool:
    """Line of effect, corner to corner: only terrain that blocks effect stops it (M08-129)."""
    return footprints_clear(grid, "effect", a, b)


def point_sees_square(grid: Grid, question: str, p: Point, b: Coord, owner: Coord | None = None) -> bool:
    """Whether a clear line runs from point ``p`` to some corner of square ``b``."""
    mask = grid.mask(question)
    return any(not segment_blocked(p, q, mask, grid.width, grid.height, (), owner, b) for q in corners(b))


# Distance.

def distance(grid: Grid, policy: GeometryPolicy, a: Footprint, b: Footprint) -> int | None:
    """Squares between two creatures as the rule set counts them (M08-090, M03-049, E5-060).

    Returns:
        The count, or None when walls leave no way round to the other creature.
    """
    if policy.distance == "direct":
        return direct_distance(policy, a, b)
    best: int | None = None
    for sa in a:
        field = distance_field(grid, policy, sa)
        for sb in b:
            d = field[grid.index(sb)]
            if d >= 0 and (best is None or d < best):
                best = d
    return best


def direct_distance(policy: GeometryPolicy, a: Footprint, b: Footprint) -> int:
    """Distance ignoring walls: Chebyshev, or 1-2-1 when diagonals alternate."""
    dx = min(abs(sa[0] - sb[0]) for sa in a for sb in b)
    dy = min(abs(sa[1] - sb[1]) for sa in a for sb in b)
    if policy.diagonal == "alternating":
        return max(dx, dy) + min(dx, dy) // 2
    return max(dx, dy)


def distance_field(grid: Grid, policy: GeometryPolicy, source: Coord) -> list[int]:
    """Counted distance from one square to every square, around walls (-1: no way round).

    Walls stop the count; creatures do not. A diagonal count may pass a wall's corner when
    the policy allows it, but never squeeze between two walls that meet at a point.
    Cached per map, policy and source square.
    """
    key = ("dist", grid.cache_key(policy), source)
    table: dict[object, list[int]] = grid.cached("distance_fields", dict)  # type: ignore[assignment]
    found = table.get(key)
    if found is not None:
        return found
    w, h = grid.width, grid.height
    kinds = grid.kinds
    n = w * h
    wall = [k.entry == "none" for k in kinds]
    corner_block = [k.blocks_corners for k in kinds]
    src = grid.index(source)
    if policy.diagonal == "one":
        dist = [-1] * n
        dist[src] = 0
        queue = deque([src])
        while queue:
            i = queue.popleft()
            x, y = i % w, i // w
            for dx, dy in DIRECTIONS_8:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h):
                    continue
                j = ny * w + nx
                if dist[j] >= 0 or wall[j]:
                    continue
                if dx and dy and not _count_diagonal_ok(corner_block, w, x, y, dx, dy, policy):
                    continue
                dist[j] = dist[i] + 1
                queue.append(j)
    else:
        best = [[-1, -1] for _ in range(n)]
        best[src][0] = 0
        heap = [(0, src, 0)]
        while heap:
            d, i, parity = heapq.heappop(heap)
            if best[i][parity] != d:
                continue
            x, y = i % w, i // w
            for dx, dy in DIRECTIONS_8:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h):
                    continue
                j = ny * w + nx
                if wall[j]:
                    continue
                if dx and dy:
                    if not _count_diagonal_ok(corner_block, w, x, y, dx, dy, policy):
                        continue
                    nd, np = d + (2 if parity else 1), 1 - parity
                else:
                    nd, np = d + 1, parity
                if best[j][np] == -1 or nd < best[j][np]:
                    best[j][np] = nd
                    heapq.heappush(heap, (nd, j, np))
        dist = [min((v for v in pair if v >= 0), default=-1) for pair in best]
    table[key] = dist
    return dist


def _count_diagonal_ok(corner_block: list[bool], w: int, x: int, y: int, dx: int, dy: int,
                       policy: GeometryPolicy) -> bool:
    side1 = corner_block[y * w + x + dx]
    side2 = corner_block[(y + dy) * w + x]
    if side1 and side2:
        return False
    return policy.count_past_corners or not (side1 or side2)


# Cover.

def cover(
    grid: Grid,
    policy: GeometryPolicy,
    attacker: Footprint,
    target: Footprint,
    kind: str,
    blockers: Collection[int] = (),
    origins: Iterable[tuple[Point, Coord | None]] | None = None,
) -> int:
    """The target's cover against one attack, from the attacker's best choice of corners.

    Args:
        grid: the map.
        policy: the rule set's geometry policy (its ``cover_model``).
        attacker: the attacker's squares (or an area's origin square).
        target: the target's squares; for a big target the attacker picks the best one.
        kind: attack kind (``melee``, ``ranged``, ``close``, ``area``): which terrain covers.
        blockers: square indices of creatures that give cover against this attack.
        origins: explicit origin points (with the square that owns each, or None) for
            cones and lines (M08-101); default: every corner of the attacker's squares.

    Returns:
        A degree: NONE, PARTIAL (cover / half cover), THREE_QUARTERS or TOTAL.
    """
    origin_list = [(p, sq) for sq in attacker for p in corners(sq)] if origins is None else list(origins)
    mask = grid.mask(f"cover:{kind}")
    if policy.cover_model == "degrees":
        return _cover_degrees(grid, attacker, target, kind, blockers, origin_list)
    if policy.cover_model == "half_blocked":
        best = TOTAL
        effect = grid.mask("effect")
        any_effect = False
        for p, owner in origin_list:
            for t in target:
                blocked = 0
                for q in corners(t):
                    if segment_blocked(p, q, mask, grid.width, grid.height, blockers, owner, t):
                        blocked += 1
                    if not segment_blocked(p, q, effect, grid.width, grid.height, (), owner, t):
                        any_effect = True
                best = min(best, PARTIAL if blocked >= 2 else NONE)
        return best if any_effect else TOTAL
    # any_line: melee uses the attacker's four corners to one chosen target corner (M08-099);
    # everything else one chosen attacker corner to the target's four corners (M08-098).
    if kind == "melee" and origins is None:
        for a in attacker:
            for t in target:
                for q in corners(t):
                    if not any(segment_blocked(p, q, mask, grid.width, grid.height, blockers, a, t)
                               for p in corners(a)):
                        return NONE
        return PARTIAL if footprints_clear(grid, "effect", attacker, target) else TOTAL
    for p, owner in origin_list:
        for t in target:
            if not any(segment_blocked(p, q, mask, grid.width, grid.height, blockers, owner, t)
                       for q in corners(t)):
                return NONE
    if origins is None:
        return PARTIAL if footprints_clear(grid, "effect", attacker, target) else TOTAL
    effect_seen = any(point_sees_square(grid, "effect", p, t, owner) for p, owner in origin_list for t in target)
    return PARTIAL if effect_seen else TOTAL


def _cover_degrees(grid: Grid, attacker: Footprint, target: Footprint, kind: str,
                   blockers: Collection[int], origins: list[tuple[Point, Coord | None]]) -> int:
    """The DMG's grid method: count blocked lines, capped by what the obstacles can give."""
    w, h = grid.width, grid.height
    effect = grid.mask("effect")
    by_degree = [(TOTAL, effect)]
    for degree, word in ((THREE_QUARTERS, "three_quarters"), (PARTIAL, "half")):
        layer = tuple(
            k.shape if kind in k.cover_against and k.cover_degree == word and not k.blocks_effect else None
            for k in grid.kinds
        )
        by_degree.append((degree, layer))
    empty: tuple[str | None, ...] = (None,) * (w * h)
    best = TOTAL
    reachable = False
    for p, owner in origins:
        for t in target:
            blocked = 0
            cap = NONE
            for q in corners(t):
                line = NONE
                for degree, layer in by_degree:
                    if segment_blocked(p, q, layer, w, h, (), owner, t):
                        line = degree
                        break
                if line != TOTAL:
                    reachable = True
                if line == NONE and blockers and segment_blocked(p, q, empty, w, h, blockers, owner, t):
                    line = PARTIAL  # a creature in the way gives half cover (E5-112)
                if line:
                    blocked += 1
                    cap = max(cap, min(line, THREE_QUARTERS))
            count = NONE if blocked == 0 else (PARTIAL if blocked <= 2 else THREE_QUARTERS)
            best = min(best, min(count, cap))
    return best if reachable else TOTAL


# Flanking.

def centre_line_flanks(a: Coord, b: Coord, target: Coord) -> bool:
    """Whether the line between the centres of ``a`` and ``b`` passes through two opposite
    sides of ``target``, opposite corners included (M08-110, M03-065, DS-147)."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    tx, ty = target
    eps = 1e-9
    if abs(ax - bx) > eps and min(ax, bx) <= tx + eps and max(ax, bx) >= tx + 1 - eps:
        y0 = ay + (by - ay) * (tx - ax) / (bx - ax)
        y1 = ay + (by - ay) * (tx + 1 - ax) / (bx - ax)
        if ty - eps <= y0 <= ty + 1 + eps and ty - eps <= y1 <= ty + 1 + eps:
            return True
    if abs(ay - by) > eps and min(ay, by) <= ty + eps and max(ay, by) >= ty + 1 - eps:
        x0 = ax + (bx - ax) * (ty - ay) / (by - ay)
        x1 = ax + (bx - ax) * (ty + 1 - ay) / (by - ay)
        if tx - eps <= x0 <= tx + 1 + eps and tx - eps <= x1 <= tx + 1 + eps:
            return True
    return False


def footprints_flank(a: Footprint, b: Footprint, target: Footprint) -> bool:
    """The centre-line test with any square of each creature (M08-111)."""
    return any(centre_line_flanks(sa, sb, st) for sa in a for sb in b for st in target)


def adjacent(a: Footprint, b: Footprint) -> bool:
    """Whether two footprints touch, diagonals included, without overlapping."""
    touching = False
    for sa in a:
        for sb in b:
            d = max(abs(sa[0] - sb[0]), abs(sa[1] - sb[1]))
            if d == 0:
                return False
            if d == 1:
                touching = True
    return touching
