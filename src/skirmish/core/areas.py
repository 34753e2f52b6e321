"""Areas of effect: which squares a burst, blast, cube, cone, line or radius covers.

Each function returns the squares of the area; the position turns squares into the
creatures standing in them and applies line of effect from the area's origin
(M08-084..M08-089, M03-113).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from math import floor

from skirmish.core.coords import Coord, Point, centre, corners
from skirmish.core.geometry import Footprint, distance, distance_field
from skirmish.core.grid import Grid
from skirmish.core.lines import segment_blocked
from skirmish.core.policy import GeometryPolicy

_EPS = 1e-9
_DIRECTIONS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def within(grid: Grid, policy: GeometryPolicy, origin: Footprint, n: int) -> set[Coord]:
    """Squares within ``n`` squares of a footprint, counted as the rule set counts."""
    out: set[Coord] = set()
    if policy.distance == "around_walls":
        for o in origin:
            field = distance_field(grid, policy, o)
            for i, d in enumerate(field):
                if 0 <= d <= n:
                    out.add(grid.square(i))
        return out
    for sq in grid.squares():
        counted = distance(grid, policy, origin, [sq])
        if counted is not None and counted <= n:
            out.add(sq)
    return out


def burst(grid: Grid, policy: GeometryPolicy, origin: Footprint, n: int) -> set[Coord]:
    """Close burst N: squares within N of the attacker, its own squares excluded (M08-084)."""
    return within(grid, policy, origin, n) - set(origin)


def radius(grid: Grid, policy: GeometryPolicy, origin: Coord, n: int) -> set[Coord]:
    """Radius N around an origin square, the origin included (M08-088)."""
    return within(grid, policy, [origin], n)


def block(grid: Grid, at: Coord, n: int) -> set[Coord]:
    """An N x N block whose top-left square is ``at`` (a blast or a cube), clipped to the map."""
    x0, y0 = at
    return {(x, y) for y in range(y0, y0 + n) for x in range(x0, x0 + n) if grid.inside((x, y))}


def nearest_corner(squares: Footprint, toward: Point) -> tuple[Point, Coord]:
    """The corner of a footprint nearest a point, with the square that owns it."""
    best: tuple[float, Point, Coord] | None = None
    for sq in squares:
        for c in corners(sq):
            d = (c[0] - toward[0]) ** 2 + (c[1] - toward[1]) ** 2
            if best is None or d < best[0] - _EPS:
                best = (d, c, sq)
    assert best is not None
    return best[1], best[2]


def cone(grid: Grid, attacker: Footprint, toward: Coord, length: int) -> tuple[set[Coord], Point, Coord]:
    """A 90-degree cone from the attacker's corner nearest ``toward`` (M08-085).

    The ddm2008 templates are lost (GAP-M08-6); the project draws a cone as the squares
    whose centres lie within 45 degrees of the axis (one of eight directions, the nearest
    to ``toward``) and within ``length`` squares of the apex, the attacker's own squares
    excluded.

    Returns:
        The squares, the apex point and the attacker square that owns the apex.
    """
    target = centre(toward)
    apex, owner = nearest_corner(attacker, target)
    vx, vy = target[0] - apex[0], target[1] - apex[1]
    angle = math.atan2(vy, vx)
    ax, ay = min(_DIRECTIONS, key=lambda d: abs(_angle_diff(math.atan2(d[1], d[0]), angle)))
    norm = math.hypot(ax, ay)
    ux, uy = ax / norm, ay / norm
    out: set[Coord] = set()
    own = set(attacker)
    for sq in grid.squares():
        if sq in own:
            continue
        cx, cy = centre(sq)
        dx, dy = cx - apex[0], cy - apex[1]
        dist = math.hypot(dx, dy)
        if dist > length + _EPS:
            continue
        if (dx * ux + dy * uy) >= dist * math.cos(math.pi / 4) - _EPS:
            out.add(sq)
    return out, apex, owner


def _angle_diff(a: float, b: float) -> float:
    d = (a - b + math.pi) % (2 * math.pi) - math.pi
    return d


def line_squares(grid: Grid, start: Point, end: Point, stop_mask: Sequence[str | None] | None = None,
                 start_owner: Coord | None = None) -> list[Coord]:
    """Squares whose inside a straight line passes through, in order (M08-086).

    A square the line only touches at a corner or runs along an edge of is not included.
    With ``stop_mask``, the line ends at the first square whose solid part it enters.
    """
    px, py = start
    qx, qy = end
    dx, dy = qx - px, qy - py
    ts = {0.0, 1.0}
    for k in range(floor(min(px, qx)) + 1, floor(max(px, qx)) + 1):
        if abs(dx) > _EPS:
            t = (k - px) / dx
            if 0 < t < 1:
                ts.add(t)
    for k in range(floor(min(py, qy)) + 1, floor(max(py, qy)) + 1):
        if abs(dy) > _EPS:
            t = (k - py) / dy
            if 0 < t < 1:
                ts.add(t)
    params = sorted(ts)
    out: list[Coord] = []
    for t0, t1 in itertools.pairwise(params):
        if t1 - t0 < _EPS:
            continue
        tm = (t0 + t1) / 2
        mx, my = px + dx * tm, py + dy * tm
        if abs(mx - round(mx)) < _EPS or abs(my - round(my)) < _EPS:
            continue  # running along an edge: no effect on either square
        sq = (floor(mx), floor(my))
        if not grid.inside(sq):
            break
        if stop_mask is not None and segment_blocked(
                (px + dx * t0, py + dy * t0), (px + dx * t1, py + dy * t1), stop_mask, grid.width, grid.height):
            break
        if sq not in out:
            out.append(sq)
    return out


def far_corner(square: Coord, origin: Point) -> Point:
    """The corner of ``square`` farthest from ``origin``: a line's end point (M08-086)."""
    return max(corners(square), key=lambda c: ((c[0] - origin[0]) ** 2 + (c[1] - origin[1]) ** 2, c))
