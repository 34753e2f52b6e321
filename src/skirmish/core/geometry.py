"""Sight, effect, distance, cover and flanking between creatures, under a rule set's policy.

Every function takes the map and the rule set's ``GeometryPolicy``; creatures are given
as footprints (the tuple of squares they occupy), so N x N creatures work everywhere and
"any square it occupies may be used" (M08-098, M08-111, M03-065) is the default.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from skirmish.core.coords import DIRECTIONS_8, Coord, Point, centre, corners
from skirmish.core.grid import Grid
from skirmish.core.lines import segment_blocked
from skirmish.core.policy import GeometryPolicy

Footprint = Sequence[Coord]

NONE, PARTIAL, THREE_QUARTERS, TOTAL = 0, 1, 2, 3
"""Cover degrees: none; cover (half cover in dnd5e); three-quarters; total (no line of effect)."""


# Lines between squares.

_SEGMENT_CACHE_LIMIT = 500_000
_COVER_CACHE_LIMIT = 200_000


def blocked(grid: Grid, question: str, p: Point, q: Point, extra: Collection[int] = (),
            p_owner: Coord | None = None, q_owner: Coord | None = None,
            mask: Sequence[str | None] | None = None) -> bool:
    """``segment_blocked`` on the map's mask for ``question``, cached per map.

    Only the creatures in the way (``extra``) that stand within a square of the line's bounding
    box can change the answer, so they alone are part of the cache key.
    """
    if mask is None:
        mask = grid.mask(question)
    w, h = grid.width, grid.height
    near: tuple[int, ...] = ()
    if extra:
        x0, x1 = min(p[0], q[0]) - 1, max(p[0], q[0]) + 1
        y0, y1 = min(p[1], q[1]) - 1, max(p[1], q[1]) + 1
        near = tuple(sorted(i for i in extra if x0 <= i % w <= x1 and y0 <= i // w <= y1))
    table: dict[tuple[Any, ...], bool] = grid.cached(("segments", question), dict)  # type: ignore[assignment]
    key = (p, q, p_owner, q_owner, near)
    found = table.get(key)
    if found is None:
        if len(table) > _SEGMENT_CACHE_LIMIT:
            table.clear()
        found = segment_blocked(p, q, mask, w, h, near, p_owner, q_owner)
        table[key] = found
    return found

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
    if len(a) == 1 and len(b) == 1:  # the common case, without the loops
        dx, dy = abs(a[0][0] - b[0][0]), abs(a[0][1] - b[0][1])
    else:
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
    n = w * h
    steps = count_steps(grid, policy.count_past_corners)
    src = grid.index(source)
    if policy.diagonal == "one":
        dist = [-1] * n
        dist[src] = 0
        queue = deque([src])
        while queue:
            i = queue.popleft()
            for j, _diagonal in steps[i]:
                if dist[j] < 0:
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
            for j, diagonal in steps[i]:
                if diagonal:
                    nd, np = d + (2 if parity else 1), 1 - parity
                else:
                    nd, np = d + 1, parity
                if best[j][np] == -1 or nd < best[j][np]:
                    best[j][np] = nd
                    heapq.heappush(heap, (nd, j, np))
        dist = [min((v for v in pair if v >= 0), default=-1) for pair in best]
    table[key] = dist
    return dist


def count_steps(grid: Grid, past_corners: bool) -> list[tuple[tuple[int, bool], ...]]:
    """Per square, the squares a count of distance may step to next: (index, diagonal).

    Walls stop a count; creatures do not. A diagonal count may pass a wall's corner when the
    rule set says so (M08-090), never squeeze between two walls that meet at a point, and never
    cross the solid half of a diagonal wall. Built once per map.
    """

    def build() -> list[tuple[tuple[int, bool], ...]]:
        w, h = grid.width, grid.height
        kinds = grid.kinds
        move = grid.mask("move")
        has_solid = any(m is not None for m in move)  # walls that do not block corners pinch too
        out: list[tuple[tuple[int, bool], ...]] = []
        for i in range(w * h):
            x, y = i % w, i // w
            row: list[tuple[int, bool]] = []
            if kinds[i].entry != "none":
                for dx, dy in DIRECTIONS_8:
                    nx, ny = x + dx, y + dy
                    if not (0 <= nx < w and 0 <= ny < h) or kinds[ny * w + nx].entry == "none":
                        continue
                    if dx and dy:
                        side1 = kinds[y * w + nx].blocks_corners
                        side2 = kinds[ny * w + x].blocks_corners
                        if (side1 and side2) or (not past_corners and (side1 or side2)):
                            continue
                    if has_solid and segment_blocked(centre((x, y)), centre((nx, ny)), move, w, h):
                        continue
                    row.append((ny * w + nx, bool(dx and dy)))
            out.append(tuple(row))
        return out

    return grid.cached(("count_steps", past_corners), build)  # type: ignore[return-value]


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
    if origins is None:
        # The answer depends on the two footprints and on the blockers near them only: cached per map.
        xs = [x for x, _ in attacker] + [x for x, _ in target]
        ys = [y for _, y in attacker] + [y for _, y in target]
        w = grid.width
        x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
        near = tuple(sorted(i for i in blockers if x0 <= i % w <= x1 and y0 <= i // w <= y1)) if blockers else ()
        table: dict[tuple[Any, ...], int] = grid.cached(("cover", policy.cover_model), dict)  # type: ignore[assignment]
        key = (tuple(attacker), tuple(target), kind, near)
        found = table.get(key)
        if found is None:
            if len(table) > _COVER_CACHE_LIMIT:
                table.clear()
            found = table[key] = _cover(grid, policy, attacker, target, kind, near, None)
        return found
    return _cover(grid, policy, attacker, target, kind, blockers, origins)


def _cover(grid: Grid, policy: GeometryPolicy, attacker: Footprint, target: Footprint, kind: str,
           blockers: Collection[int], origins: Iterable[tuple[Point, Coord | None]] | None) -> int:
    """``cover`` worked out."""
    question = f"cover:{kind}"
    mask = grid.mask(question)

    def blocked_line(p: Point, q: Point, extra: Collection[int], po: Coord | None, qo: Coord | None) -> bool:
        return blocked(grid, question, p, q, extra, po, qo, mask)

    origin_list: list[tuple[Point, Coord | None]]
    if origins is None:
        origin_list = [(p, sq) for sq in attacker for p in open_corners(sq, mask, grid.width)]
    else:
        origin_list = list(origins)
    if policy.cover_model == "degrees":
        return _cover_degrees(grid, attacker, target, kind, blockers, origin_list)
    if policy.cover_model == "half_blocked":
        best = TOTAL
        any_effect = False
        for p, owner in origin_list:
            for t in target:
                count = 0
                for q in open_corners(t, mask, grid.width):
                    if blocked_line(p, q, blockers, owner, t):
                        count += 1
                    if not blocked(grid, "effect", p, q, (), owner, t):
                        any_effect = True
                best = min(best, PARTIAL if count >= 2 else NONE)
        return best if any_effect else TOTAL
    # any_line, melee: the attacker picks one of its squares and one of the target's; any blocked line
    # between their corners gives cover (M08-099, M03-066; so a target diagonally around a wall corner
    # has cover, ddm2008 Decisions on M08-091). Everything else: one chosen attacker corner to the
    # target's corners, any blocked line gives cover (M08-098, M03-086).
    w = grid.width
    if kind == "melee" and origins is None:
        for a in attacker:
            for t in target:
                if not any(blocked_line(p, q, blockers, a, t)
                           for p in open_corners(a, mask, w) for q in open_corners(t, mask, w)):
                    return NONE
        return PARTIAL if footprints_clear(grid, "effect", attacker, target) else TOTAL
    for p, owner in origin_list:
        for t in target:
            if not any(blocked_line(p, q, blockers, owner, t) for q in open_corners(t, mask, w)):
                return NONE
    if origins is None:
        return PARTIAL if footprints_clear(grid, "effect", attacker, target) else TOTAL
    effect_seen = any(point_sees_square(grid, "effect", p, t, owner) for p, owner in origin_list for t in target)
    return PARTIAL if effect_seen else TOTAL


_SOLID_CORNER = {"nw": 0, "ne": 1, "se": 2, "sw": 3}
"""Index in ``corners()`` of the right-angle corner of each diagonal wall's solid triangle."""


def open_corners(square: Coord, mask: Sequence[str | None], width: int) -> tuple[Point, ...]:
    """The corners of a square that lines of cover may use: all four, or for a square split by a
    diagonal wall only those of its open half (M08-102: "only the wall-free part counts")."""
    cs = corners(square)
    i = square[1] * width + square[0]
    kind = mask[i] if 0 <= square[0] < width and 0 <= i < len(mask) else None
    if kind in _SOLID_CORNER:
        solid = _SOLID_CORNER[kind]
        return tuple(c for i, c in enumerate(cs) if i != solid)
    return cs


def _cover_degrees(grid: Grid, attacker: Footprint, target: Footprint, kind: str,
                   blockers: Collection[int], origins: list[tuple[Point, Coord | None]]) -> int:
    """The DMG's grid method: count blocked lines, capped by what the obstacles can give."""
    w = grid.width
    effect = grid.mask("effect")

    def layers() -> list[tuple[int, str, tuple[str | None, ...]]]:
        # Each layer holds its obstacles and every more protective one, so a line along the seam
        # between a wall and a portcullis counts as blocked at the portcullis's degree.
        words = {"total": TOTAL, "three_quarters": THREE_QUARTERS, "half": PARTIAL}
        out: list[tuple[int, str, tuple[str | None, ...]]] = [(TOTAL, "effect", tuple(effect))]
        for degree in (THREE_QUARTERS, PARTIAL):
            layer = tuple(
                k.shape if k.blocks_effect or (kind in k.cover_against and words.get(k.cover_degree or "", 0) >= degree)
                else None
                for k in grid.kinds
            )
            out.append((degree, f"degrees:{kind}:{degree}", layer))
        return out

    by_degree: list[tuple[int, str, tuple[str | None, ...]]] = grid.cached(("degree_layers", kind), layers)  # type: ignore[assignment]
    empty: tuple[str | None, ...] = grid.cached("empty_mask", lambda: (None,) * (grid.width * grid.height))  # type: ignore[assignment]
    best = TOTAL
    reachable = False
    for p, owner in origins:
        for t in target:
            count = 0
            cap = NONE
            for q in open_corners(t, effect, w):
                line = NONE
                for degree, question, layer in by_degree:
                    if blocked(grid, question, p, q, (), owner, t, layer):
                        line = degree
                        break
                if line != TOTAL:
                    reachable = True
                if line == NONE and blockers and blocked(grid, "empty", p, q, blockers, owner, t, empty):
                    line = PARTIAL  # a creature in the way gives half cover (E5-112)
                if line:
                    count += 1
                    cap = max(cap, min(line, THREE_QUARTERS))
            degree_here = NONE if count == 0 else (PARTIAL if count <= 2 else THREE_QUARTERS)
            best = min(best, min(degree_here, cap))
    return best if reachable else TOTAL


# Flanking.

def centre_line_flanks(a: Coord, b: Coord, target: Coord) -> bool:
    """Whether the line between the centres of ``a`` and ``b`` passes through two opposite
    sides of ``target``, opposite corners included (M08-110, M03-065, DS-147)."""
    return line_crosses_box(centre(a), centre(b), (target[0], target[1], target[0] + 1, target[1] + 1))


def line_crosses_box(p: Point, q: Point, box: tuple[float, float, float, float]) -> bool:
    """Whether segment p-q passes through two opposite sides of an axis-aligned box (corners count)."""
    (ax, ay), (bx, by) = p, q
    x0, y0, x1, y1 = box
    eps = 1e-9
    if abs(ax - bx) > eps and min(ax, bx) <= x0 + eps and max(ax, bx) >= x1 - eps:
        ya = ay + (by - ay) * (x0 - ax) / (bx - ax)
        yb = ay + (by - ay) * (x1 - ax) / (bx - ax)
        if y0 - eps <= ya <= y1 + eps and y0 - eps <= yb <= y1 + eps:
            return True
    if abs(ay - by) > eps and min(ay, by) <= y0 + eps and max(ay, by) >= y1 - eps:
        xa = ax + (bx - ax) * (y0 - ay) / (by - ay)
        xb = ax + (bx - ax) * (y1 - ay) / (by - ay)
        if x0 - eps <= xa <= x1 + eps and x0 - eps <= xb <= x1 + eps:
            return True
    return False


def spaces_flank(a: Coord, a_size: int, b: Coord, b_size: int, t: Coord, t_size: int) -> bool:
    """The centre-line test between the centres of whole spaces, through the target's whole space
    (DS-147: "from the centre of your space to the centre of your ally's space")."""
    pa = (a[0] + a_size / 2, a[1] + a_size / 2)
    pb = (b[0] + b_size / 2, b[1] + b_size / 2)
    return line_crosses_box(pa, pb, (t[0], t[1], t[0] + t_size, t[1] + t_size))


def footprints_flank(a: Footprint, b: Footprint, target: Footprint) -> bool:
    """The centre-line test with any square of each creature (M08-111)."""
    return any(centre_line_flanks(sa, sb, st) for sa in a for sb in b for st in target)


def adjacent(a: Footprint, b: Footprint) -> bool:
    """Whether two footprints touch, diagonals included, without overlapping."""
    if len(a) == 1 and len(b) == 1:  # the common case, without the loops
        (ax, ay), (bx, by) = a[0], b[0]
        return max(abs(ax - bx), abs(ay - by)) == 1
    touching = False
    for sa in a:
        for sb in b:
            d = max(abs(sa[0] - sb[0]), abs(sa[1] - sb[1]))
            if d == 0:
                return False
            if d == 1:
                touching = True
    return touching
