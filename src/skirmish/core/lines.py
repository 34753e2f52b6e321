"""Exact tracing of straight lines across the grid: the one primitive behind sight, effect and cover.

A line is blocked when it passes through the inside of solid matter. It stays clear
when it only touches a corner of a solid square or runs along the outer edge of an
obstacle (M08-097, M03-087). Two readings settle the edge cases (ddm2008 Decisions,
M08-092): a line through the point where two solid squares meet diagonally, or along
the seam between two solid squares, is blocked.

Where a line passes through a grid point, it is blocked when solid matter lies on both
of its sides there: turning around the point from where the line comes in to where it
goes out, both ways round meet a solid square. At a line's own end, the square the
end belongs to (the viewer's or the target's) stands for the missing half of the line,
so a creature standing in a corner can look out along a wall, but not through the
point where two walls meet diagonally.

A *mask* says, per square index (``y * width + x``), what a square holds for one kind
of question: ``None`` (nothing), ``"full"`` (a solid square), ``"nw"``/``"ne"``/
``"sw"``/``"se"`` (the solid triangle of a diagonal wall, named by its right-angle
corner) or ``"opposite_sides"`` (blocks only a line that crosses two opposite sides of
that same square: ddm2008 forest, M08-124).
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator, Sequence
from math import floor
from typing import Any

from skirmish.core.coords import Coord, Point

Mask = Sequence[str | None]

_EPS = 1e-9
_TRIANGLES = {"nw": (0, 0), "ne": (1, 0), "sw": (0, 1), "se": (1, 1)}
# Edges of a square that a diagonal wall's two legs lie on.
_TRIANGLE_EDGES = {
    "nw": frozenset(("top", "left")),
    "ne": frozenset(("top", "right")),
    "sw": frozenset(("bottom", "left")),
    "se": frozenset(("bottom", "right")),
}
# Around a grid point, eight directions in clockwise order (y grows downwards):
# even slots are the four squares meeting there, odd slots the four edges between them.
_SLOT_OF_SIGNS = {
    (-1, -1): 0, (0, -1): 1, (1, -1): 2, (1, 0): 3,
    (1, 1): 4, (0, 1): 5, (-1, 1): 6, (-1, 0): 7,
}
# Offset from the grid point to the top-left of the square in each even slot.
_SLOT_SQUARE = {0: (-1, -1), 2: (0, -1), 4: (0, 0), 6: (-1, 0)}


def _sign(v: float) -> int:
    return 1 if v > _EPS else (-1 if v < -_EPS else 0)


def _kind(mask: Mask, width: int, height: int, x: int, y: int, extra: Collection[int]) -> str | None:
    if not (0 <= x < width and 0 <= y < height):
        return "full"  # beyond the map's edge there is nothing to see through

    i = y * width + x
    if i in extra:
        return "full"
    return mask[i]


def _edge_solid(kind: str | None, edge: str) -> bool:
    if kind is None or kind == "opposite_sides":
        return False
    if kind == "full":
        return True
    return edge in _TRIANGLE_EDGES[kind]


def _touches_corner(kind: str | None, cx: int, cy: int) -> bool:
    """Whether the solid part of a square contains its local corner (cx, cy) in {0,1}^2."""
    if kind is None or kind == "opposite_sides":
        return False
    if kind == "full":
        return True
    tx, ty = _TRIANGLES[kind]
    return cx == tx or cy == ty  # a triangle holds every corner but the opposite one


def _inside_triangle(kind: str, u: float, v: float) -> float:
    """Negative where (u, v), local to the square, is inside the triangle."""
    tx, ty = _TRIANGLES[kind]
    return abs(u - tx) + abs(v - ty) - 1.0


def _owner_slot(point: tuple[int, int], owner: Coord) -> int | None:
    ox, oy = owner[0] - point[0], owner[1] - point[1]
    for slot, off in _SLOT_SQUARE.items():
        if off == (ox, oy):
            return slot
    return None


def segment_blocked(
    p: Point,
    q: Point,
    mask: Mask,
    width: int,
    height: int,
    extra: Collection[int] = (),
    p_owner: Coord | None = None,
    q_owner: Coord | None = None,
) -> bool:
    """Whether the segment from ``p`` to ``q`` is blocked by the solid matter of ``mask``.

    Args:
        p: start point (a corner, or a square centre for movement steps).
        q: end point.
        mask: per-square solid kinds for this question (see the module docstring).
        width: map width in squares.
        height: map height in squares.
        extra: square indices that count as fully solid too (creatures in the way).
        p_owner: the square whose corner ``p`` is, if the line starts at a creature's corner.
        q_owner: the square whose corner ``q`` is, likewise.

    Returns:
        True when the line passes through solid matter, along a seam between two solid
        squares, or between two solid squares that meet at a point.
    """
    if p == q:
        return _traced_blocked(p, q, mask, width, height, extra, p_owner, q_owner)
    return _pattern_blocked(p, q, mask, width, height, extra, p_owner, q_owner)


# Compiled lines. What a segment crosses depends only on its direction, length and where in its
# first square it starts, so each such shape is traced once (for every map) into a pattern of
# relative squares, each with the kinds of matter that block there; asking a line is then a walk
# over that pattern. ``_traced_blocked`` below judges the same walk (``_walk``) square by square, and the
# patterns are checked against it.

_BLOCKING_KINDS = ("full", "nw", "ne", "sw", "se", "opposite_sides")
_EDGE_KINDS = {edge: frozenset(k for k in _BLOCKING_KINDS if _edge_solid(k, edge))
               for edge in ("top", "bottom", "left", "right")}
# Per even slot around a grid point: the square's offset and the kinds whose solid part holds that point.
_SLOT_TOUCH = {slot: (ox, oy, frozenset(k for k in _BLOCKING_KINDS if _touches_corner(k, -ox, -oy)))
               for slot, (ox, oy) in _SLOT_SQUARE.items()}

Arc = tuple[tuple[int, int, frozenset[str]], ...]


class _Pattern:
    """One traced shape of segment, relative to the square its start lies in."""

    __slots__ = ("box", "by_width", "cells", "end", "seams", "slot_back", "slot_fwd", "squeezes", "start")

    def __init__(self) -> None:
        self.box = (0, 0, 0, 0)  # the squares it reads: least x, least y, greatest x, greatest y
        self.by_width: dict[int, tuple[Any, Any]] = {}
        self.start: tuple[int, int] | None = None  # the start's grid point, if it is one
        self.end: tuple[int, int] | None = None
        self.slot_fwd = self.slot_back = 0
        # Grid points passed on the way: (x, y, one side's squares, the other side's).
        self.squeezes: list[tuple[int, int, Arc, Arc]] = []
        # Pieces inside a square: (x, y, the kinds that block that piece).
        self.cells: list[tuple[int, int, frozenset[str]]] = []
        # Pieces along an edge: both squares beside it, each with the kinds solid on that edge.
        self.seams: list[tuple[int, int, frozenset[str], int, int, frozenset[str]]] = []

    def finish(self) -> None:
        """Work out the box of the squares the pattern reads."""
        xs = [x for x, _, _ in self.cells] + [x for s in self.seams for x in (s[0], s[3])]
        ys = [y for _, y, _ in self.cells] + [y for s in self.seams for y in (s[1], s[4])]
        for x, y, one, other in self.squeezes:
            xs.extend(x + ox for ox, _, _ in one + other)
            ys.extend(y + oy for _, oy, _ in one + other)
        self.box = (min(xs, default=0), min(ys, default=0), max(xs, default=0), max(ys, default=0))

    def flat(self, width: int) -> tuple[Any, Any]:
        """The pattern over square indices of a map ``width`` wide, relative to the first square: the
        pieces inside squares as (offset, kinds), and the pairs of sides that block together (seams
        and squeezes) as two groups of (offset, kinds), each group blocking if any of it does."""
        found = self.by_width.get(width)
        if found is None:
            cells = tuple((y * width + x, k) for x, y, k in self.cells)
            pairs: tuple[tuple[tuple[tuple[int, frozenset[str]], ...], tuple[tuple[int, frozenset[str]], ...]], ...]
            pairs = tuple((((ya * width + xa, ka),), ((yb * width + xb, kb),)) for xa, ya, ka, xb, yb, kb in self.seams)
            pairs += tuple((tuple(((y + oy) * width + x + ox, t) for ox, oy, t in one),
                            tuple(((y + oy) * width + x + ox, t) for ox, oy, t in other))
                           for x, y, one, other in self.squeezes)
            found = self.by_width[width] = (cells, pairs)
        return found


def _arc(slot_in: int, slot_out: int, step: int) -> Arc:
    out = []
    s = (slot_in + step) % 8
    while s != slot_out:
        if s % 2 == 0:
            out.append(_SLOT_TOUCH[s])
        s = (s + step) % 8
    return tuple(out)


_PATTERNS: dict[tuple[float, float, float, float], _Pattern] = {}


def _pattern(dx: float, dy: float, fx: float, fy: float) -> _Pattern:
    """The pattern of a segment from (fx, fy) (in square (0, 0)) by (dx, dy), traced once."""
    key = (dx, dy, fx, fy)
    found = _PATTERNS.get(key)
    if found is not None:
        return found
    pat = _Pattern()
    pat.slot_fwd = _SLOT_OF_SIGNS[(_sign(dx), _sign(dy))]
    pat.slot_back = (pat.slot_fwd + 4) % 8
    for item in _walk((fx, fy), (fx + dx, fy + dy)):
        if item[0] == "point":
            _, t, lx, ly = item
            if t == 0.0:
                pat.start = (lx, ly)
            elif t == 1.0:
                pat.end = (lx, ly)
            else:
                pat.squeezes.append((lx, ly, _arc(pat.slot_back, pat.slot_fwd, 1),
                                     _arc(pat.slot_back, pat.slot_fwd, -1)))
        elif item[0] == "seam":
            _, xa, ya, edge_a, xb, yb, edge_b = item
            pat.seams.append((xa, ya, _EDGE_KINDS[edge_a], xb, yb, _EDGE_KINDS[edge_b]))
        else:
            _, cx, cy, ax, ay, bx, by = item
            kinds = {"full"}
            if _crosses_opposite_sides(ax, ay, bx, by):
                kinds.add("opposite_sides")
            for tri in _TRIANGLES:
                if min(_inside_triangle(tri, ax, ay), _inside_triangle(tri, bx, by)) < -_EPS:
                    kinds.add(tri)
            pat.cells.append((cx, cy, frozenset(kinds)))
    pat.finish()
    if len(_PATTERNS) > 200_000:
        _PATTERNS.clear()
    _PATTERNS[key] = pat
    return pat


def _pattern_blocked(p: Point, q: Point, mask: Mask, width: int, height: int, extra: Collection[int],
                     p_owner: Coord | None, q_owner: Coord | None) -> bool:
    """``segment_blocked`` of a segment of some length, by its compiled pattern."""
    x0, y0 = floor(p[0]), floor(p[1])
    pat = _pattern(q[0] - p[0], q[1] - p[1], p[0] - x0, p[1] - y0)
    bx0, by0, bx1, by1 = pat.box
    if x0 + bx0 >= 0 and y0 + by0 >= 0 and x0 + bx1 < width and y0 + by1 < height:
        # Every square it reads is on the map: walk square indices.
        cells, pairs = pat.flat(width)
        base = y0 * width + x0
        look = mask.__getitem__ if not extra else (lambda i: "full" if i in extra else mask[i])
        for off, inside in cells:
            if look(base + off) in inside:
                return True
        for one, other in pairs:
            if any(look(base + o) in k for o, k in one) and any(look(base + o) in k for o, k in other):
                return True
        return _ends_squeezed(pat, x0, y0, mask, width, height, extra, p_owner, q_owner)

    def kind(x: int, y: int) -> str | None:
        x += x0
        y += y0
        if not (0 <= x < width and 0 <= y < height):
            return "full"
        i = y * width + x
        return "full" if i in extra else mask[i]

    for x, y, inside in pat.cells:
        if kind(x, y) in inside:
            return True
    for xa, ya, edge_a, xb, yb, edge_b in pat.seams:
        if kind(xa, ya) in edge_a and kind(xb, yb) in edge_b:
            return True
    for x, y, one, other in pat.squeezes:
        if (any(kind(x + ox, y + oy) in touch for ox, oy, touch in one)
                and any(kind(x + ox, y + oy) in touch for ox, oy, touch in other)):
            return True
    return _ends_squeezed(pat, x0, y0, mask, width, height, extra, p_owner, q_owner)


def _ends_squeezed(pat: _Pattern, x0: int, y0: int, mask: Mask, width: int, height: int, extra: Collection[int],
                   p_owner: Coord | None, q_owner: Coord | None) -> bool:
    """Whether the line squeezes between solid matter at its own ends, where they are grid points."""
    if pat.start is not None and p_owner is not None:
        lx, ly = pat.start[0] + x0, pat.start[1] + y0
        slot_in = _owner_slot((lx, ly), p_owner)
        if slot_in is not None and _squeezes(lx, ly, slot_in, pat.slot_fwd, mask, width, height, extra):
            return True
    if pat.end is not None and q_owner is not None:
        lx, ly = pat.end[0] + x0, pat.end[1] + y0
        slot_out = _owner_slot((lx, ly), q_owner)
        if slot_out is not None and _squeezes(lx, ly, pat.slot_back, slot_out, mask, width, height, extra):
            return True
    return False


_ARCS = {(a, b): (_arc(a, b, 1), _arc(a, b, -1)) for a in range(8) for b in range(8) if a != b}
"""Both ways round a grid point from one slot to another: the squares passed, each with the kinds that
hold the point."""


def _squeezes(lx: int, ly: int, slot_in: int, slot_out: int, mask: Mask, width: int, height: int,
                 extra: Collection[int]) -> bool:
    """Whether a line through grid point (lx, ly), in from ``slot_in`` and out to ``slot_out``, has solid
    matter on both its sides there."""
    if slot_in == slot_out:
        return False

    def solid(ox: int, oy: int, touch: frozenset[str]) -> bool:
        x, y = lx + ox, ly + oy
        if not (0 <= x < width and 0 <= y < height):
            return True  # beyond the map's edge is solid all through
        i = y * width + x
        return i in extra or mask[i] in touch

    one, other = _ARCS[(slot_in, slot_out)]
    return any(solid(*a) for a in one) and any(solid(*a) for a in other)


def _crossings(p: Point, q: Point) -> list[float]:
    """Where (0 and 1 included, in order) the segment from ``p`` to ``q`` meets a grid line."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    ts = {0.0, 1.0}
    if _sign(dx):
        lo, hi = sorted((px, q[0]))
        for k in range(floor(lo) + 1, floor(hi) + 1):
            t = (k - px) / dx
            if 0.0 < t < 1.0:
                ts.add(t)
    if _sign(dy):
        lo, hi = sorted((py, q[1]))
        for k in range(floor(lo) + 1, floor(hi) + 1):
            t = (k - py) / dy
            if 0.0 < t < 1.0:
                ts.add(t)
    return sorted(ts)


def _traced_blocked(p: Point, q: Point, mask: Mask, width: int, height: int, extra: Collection[int],
                    p_owner: Coord | None, q_owner: Coord | None) -> bool:
    """``segment_blocked`` by tracing the segment square by square."""
    px, py = p
    qx, qy = q
    dx, dy = qx - px, qy - py
    sx, sy = _sign(dx), _sign(dy)

    if sx == 0 and sy == 0:
        # A shared corner: the line is the point itself, between its two owners.
        if p_owner is None or q_owner is None or p_owner == q_owner:
            return False
        lx, ly = round(px), round(py)
        a, b = _owner_slot((lx, ly), p_owner), _owner_slot((lx, ly), q_owner)
        if a is None or b is None:
            return False
        return _squeezes(lx, ly, a, b, mask, width, height, extra)

    slot_fwd = _SLOT_OF_SIGNS[(sx, sy)]
    slot_back = (slot_fwd + 4) % 8
    for item in _walk(p, q):
        if item[0] == "point":
            # A grid point on the line: squeezing between solid matter that meets there.
            _, t, lx, ly = item
            slot_in: int | None
            slot_out: int | None
            if t == 0.0:
                if p_owner is None:
                    continue
                slot_in = _owner_slot((lx, ly), p_owner)
                slot_out = slot_fwd
            elif t == 1.0:
                if q_owner is None:
                    continue
                slot_in = slot_back
                slot_out = _owner_slot((lx, ly), q_owner)
            else:
                slot_in, slot_out = slot_back, slot_fwd
            if slot_in is None or slot_out is None:
                continue
            if _squeezes(lx, ly, slot_in, slot_out, mask, width, height, extra):
                return True
        elif item[0] == "seam":
            # Along an edge: blocked when both squares beside it are solid on that edge.
            _, xa, ya, edge_a, xb, yb, edge_b = item
            if (_edge_solid(_kind(mask, width, height, xa, ya, extra), edge_a)
                    and _edge_solid(_kind(mask, width, height, xb, yb, extra), edge_b)):
                return True
        else:
            # Inside a square.
            _, cx, cy, ax, ay, bx, by = item
            kind = _kind(mask, width, height, cx, cy, extra)
            if kind is None:
                continue
            if kind == "full":
                return True
            if kind == "opposite_sides":
                if _crosses_opposite_sides(ax, ay, bx, by):
                    return True
                continue
            if min(_inside_triangle(kind, ax, ay), _inside_triangle(kind, bx, by)) < -_EPS:
                return True
    return False


def _walk(p: Point, q: Point) -> Iterator[tuple[Any, ...]]:
    """What the segment from ``p`` to ``q`` meets, in order: each grid point on it, as ``("point",
    t, x, y)``; then each piece between grid lines, along an edge as ``("seam", xa, ya, edge_a, xb,
    yb, edge_b)`` (the squares on both sides, and which of its edges each shows the line) or inside
    a square as ``("cell", x, y, ax, ay, bx, by)`` (where it enters and leaves, local to the square)."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    sx, sy = _sign(dx), _sign(dy)
    params = _crossings(p, q)
    for t in params:
        lxf, lyf = px + dx * t, py + dy * t
        lx, ly = round(lxf), round(lyf)
        if abs(lxf - lx) <= _EPS and abs(lyf - ly) <= _EPS:
            yield ("point", t, lx, ly)
    for t0, t1 in itertools.pairwise(params):
        if t1 - t0 < _EPS:
            continue
        tm = (t0 + t1) / 2
        mx, my = px + dx * tm, py + dy * tm
        if sx == 0 and abs(mx - round(mx)) < _EPS:
            k, row = round(mx), floor(my)
            yield ("seam", k - 1, row, "right", k, row, "left")
            continue
        if sy == 0 and abs(my - round(my)) < _EPS:
            k, col = round(my), floor(mx)
            yield ("seam", col, k - 1, "bottom", col, k, "top")
            continue
        cx, cy = floor(mx), floor(my)
        yield ("cell", cx, cy, px + dx * t0 - cx, py + dy * t0 - cy, px + dx * t1 - cx, py + dy * t1 - cy)


def _on(v: float, k: float) -> bool:
    return abs(v - k) < _EPS


def _crosses_opposite_sides(ax: float, ay: float, bx: float, by: float) -> bool:
    """Whether a piece of line inside a unit square runs from one side to the opposite one."""
    left_right = (_on(ax, 0) and _on(bx, 1)) or (_on(ax, 1) and _on(bx, 0))
    top_bottom = (_on(ay, 0) and _on(by, 1)) or (_on(ay, 1) and _on(by, 0))
    return left_right or top_bottom
