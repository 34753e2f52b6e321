"""Squares, points and footprints on the square grid.

A square is ``(x, y)``: x the column from 0 at the left, y the row from 0 at the top.
Square ``(x, y)`` covers the unit area ``[x, x+1] x [y, y+1]``; its corners are the
integer points ``(x, y)``, ``(x+1, y)``, ``(x, y+1)`` and ``(x+1, y+1)``. Lines of
sight and effect run between such corners; flanking runs between square centres.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

Coord = tuple[int, int]
"""A square, ``(x, y)``."""

Point = tuple[float, float]
"""A point of the plane in square units; corners are integer points."""

CreatureId = str
SideName = str

DIRECTIONS_8: tuple[Coord, ...] = (
    (0, -1), (1, 0), (0, 1), (-1, 0),  # orthogonal first: paths prefer them on ties
    (1, -1), (1, 1), (-1, 1), (-1, -1),
)


@cache
def footprint(at: Coord, size: int) -> tuple[Coord, ...]:
    """The squares of an N x N creature whose top-left square is ``at`` (memoized: maps are small)."""
    x, y = at
    return tuple((x + dx, y + dy) for dy in range(size) for dx in range(size))


def corners(square: Coord) -> tuple[Point, Point, Point, Point]:
    """The four corners of a square, clockwise from the top-left."""
    x, y = square
    return ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))


def centre(square: Coord) -> Point:
    """The centre point of a square."""
    return (square[0] + 0.5, square[1] + 0.5)


def chebyshev(a: Coord, b: Coord) -> int:
    """Squares between two squares when every diagonal counts 1."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def alternating(a: Coord, b: Coord) -> int:
    """Squares between two squares when diagonals count 1, 2, 1, 2, ... (M03-049, G35-04)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


def box_gap(a: Coord, a_size: int, b: Coord, b_size: int) -> Coord:
    """Per-axis gap in squares between two N x N footprints (0 where they overlap)."""
    dx = max(0, b[0] - (a[0] + a_size - 1), a[0] - (b[0] + b_size - 1))
    dy = max(0, b[1] - (a[1] + a_size - 1), a[1] - (b[1] + b_size - 1))
    return dx, dy


def adjacent_squares(at: Coord, size: int) -> Iterator[Coord]:
    """The ring of squares touching an N x N footprint, diagonals included."""
    x0, y0 = at
    for y in range(y0 - 1, y0 + size + 1):
        for x in range(x0 - 1, x0 + size + 1):
            if x0 <= x < x0 + size and y0 <= y < y0 + size:
                continue
            yield (x, y)
