"""Unit tests of ``segment_blocked``: the exact line tracing behind sight, effect and cover.

Each map below is drawn with one character per square and turned into a mask:
``#`` a solid square, ``T`` a ddm2008 forest square (blocks only a line across two opposite
sides, M08-124), ``/`` ``\\`` ``L`` ``J`` the solid triangles of diagonal walls (solid
top-left, top-right, bottom-left, bottom-right). Points are in square units: square
``(x, y)`` covers ``[x, x+1] x [y, y+1]``.

The readings come from the ddm2008 Decisions (M08-092, lost line-of-sight text): touching a
corner or running along an obstacle's outer edge is clear (M08-097, M03-087); a line along the
seam between two solid squares, or through the point where two solid squares meet
diagonally, is blocked.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.core.lines import _pattern_blocked, _traced_blocked, segment_blocked

GLYPHS = {".": None, "#": "full", "T": "opposite_sides", "/": "nw", "\\": "ne", "L": "sw", "J": "se"}


def mask_of(*rows: str) -> tuple[tuple[str | None, ...], int, int]:
    """The mask, width and height of a map drawn as rows of glyphs."""
    width = len(rows[0])
    assert all(len(r) == width for r in rows)
    return tuple(GLYPHS[ch] for row in rows for ch in row), width, len(rows)


def blocked(rows: tuple[str, ...], p, q, p_owner=None, q_owner=None, extra=()) -> bool:
    mask, w, h = mask_of(*rows)
    return segment_blocked(p, q, mask, w, h, extra, p_owner, q_owner)


def blocked_both_ways(rows: tuple[str, ...], p, q, p_owner=None, q_owner=None) -> bool:
    """``segment_blocked`` in both directions; the tests assert the two agree."""
    forward = blocked(rows, p, q, p_owner, q_owner)
    backward = blocked(rows, q, p, q_owner, p_owner)
    assert forward == backward, f"segment {p}->{q} is not symmetric"
    return forward


ONE_WALL = (
    "....",
    ".#..",
    "....",
    "....",
)


# Walls.

def test_m08_097_line_through_a_wall_is_blocked():
    # The wall square (1, 1) covers [1, 2] x [1, 2]; this line crosses its inside.
    assert blocked_both_ways(ONE_WALL, (0, 1), (3, 2))
    assert blocked_both_ways(ONE_WALL, (0, 0), (3, 3))


def test_m08_097_same_line_on_an_open_map_is_clear():
    open_map = ("....",) * 4
    assert not blocked_both_ways(open_map, (0, 1), (3, 2))
    assert not blocked_both_ways(open_map, (0, 0), (3, 3))


def test_m08_097_line_touching_only_a_wall_corner_is_clear():
    # x + y = 2 meets the wall only at its corner (1, 1).
    assert not blocked_both_ways(ONE_WALL, (0, 2), (2, 0))
    # x + y = 4 meets it only at its corner (2, 2).
    assert not blocked_both_ways(ONE_WALL, (0, 4), (4, 0))


def test_m03_087_line_along_the_outer_edge_of_a_wall_is_clear():
    # Along the top edge (y = 1) and the left edge (x = 1) of the single wall.
    assert not blocked_both_ways(ONE_WALL, (0, 1), (4, 1))
    assert not blocked_both_ways(ONE_WALL, (1, 0), (1, 4))
    # Along the outer face of a longer wall too.
    long_wall = (
        "......",
        ".####.",
        "......",
    )
    assert not blocked_both_ways(long_wall, (0, 2), (6, 2))
    assert not blocked_both_ways(long_wall, (0, 1), (6, 1))


def test_m08_092_line_along_the_seam_between_two_walls_is_blocked():
    """ddm2008 Decisions: grazing is clear only along the outer edge of an obstacle."""
    side_by_side = (
        "....",
        ".##.",
        "....",
    )
    # x = 2 runs between the two walls (1, 1) and (2, 1).
    assert blocked_both_ways(side_by_side, (2, 0), (2, 3))
    stacked = (
        "...",
        ".#.",
        ".#.",
        "...",
    )
    # y = 2 runs between (1, 1) and (1, 2).
    assert blocked_both_ways(stacked, (0, 2), (3, 2))


def test_m08_092_line_through_the_point_where_two_walls_meet_diagonally_is_blocked():
    pinch = (
        ".....",
        ".#...",
        "..#..",
        ".....",
    )
    # Walls (1, 1) and (2, 2) meet at the point (2, 2); x + y = 4 passes between them.
    assert blocked_both_ways(pinch, (0, 4), (4, 0))
    # The same line with only one of the two walls touches a corner: clear.
    one_of_them = (
        ".....",
        ".#...",
        ".....",
        ".....",
    )
    assert not blocked_both_ways(one_of_them, (0, 4), (4, 0))


# Viewers in corners (a line's end belongs to a square).

def test_m08_092_viewer_in_a_concave_corner_can_look_out_along_the_wall():
    corner = (
        "#####",
        "#....",
        "#....",
    )
    # The viewer stands in (1, 1); its top-left corner (1, 1) touches three wall squares.
    # Looking out along the wall (y = 1) and down the other wall (x = 1): clear.
    assert not blocked_both_ways(corner, (1, 1), (5, 1), p_owner=(1, 1), q_owner=(4, 1))
    assert not blocked_both_ways(corner, (1, 1), (1, 3), p_owner=(1, 1), q_owner=(1, 2))
    # And diagonally out into the room.
    assert not blocked_both_ways(corner, (1, 1), (4, 3), p_owner=(1, 1), q_owner=(3, 2))


def test_m08_092_viewer_cannot_look_through_the_point_where_two_walls_meet():
    pinch = (
        "....",
        "..#.",
        ".#..",
        "....",
    )
    # The viewer stands in (2, 2); walls (2, 1) and (1, 2) meet at its corner (2, 2).
    # From that corner out to the open square (0, 0): between the two walls, blocked.
    assert blocked_both_ways(pinch, (2, 2), (0, 0), p_owner=(2, 2), q_owner=(0, 0))
    # The same corner, looking away from the pinch, is clear.
    assert not blocked_both_ways(pinch, (2, 2), (4, 4), p_owner=(2, 2), q_owner=(3, 3))


def test_m08_092_shared_corner_between_diagonal_neighbours_squeezed_by_walls():
    """Two creatures diagonally adjacent with walls on both other squares see nothing of each other
    through their shared corner (a zero-length line between two owners)."""
    squeezed = (
        ".#",
        "#.",
    )
    assert blocked(squeezed, (1, 1), (1, 1), p_owner=(0, 0), q_owner=(1, 1))
    one_wall = (
        ".#",
        "..",
    )
    assert not blocked(one_wall, (1, 1), (1, 1), p_owner=(0, 0), q_owner=(1, 1))


def test_extra_squares_count_as_solid():
    """Creatures in the way (cover from creatures: M08-095, M03-084, E5-112) are passed as
    ``extra`` square indices and block like walls."""
    open_map = ("....",) * 4
    w = 4
    assert blocked(open_map, (0, 1), (3, 2), extra={1 * w + 1})
    assert not blocked(open_map, (0, 1), (3, 2), extra={3 * w + 3})
    # Running along the edge of a creature's square is still clear.
    assert not blocked(open_map, (0, 1), (4, 1), extra={1 * w + 1})


# Forest (ddm2008, M08-124).

FOREST = (
    "....",
    ".T..",
    "....",
    "....",
)


def test_m08_124_forest_blocks_a_line_across_two_opposite_sides():
    # Enters (1, 1) through its left side at y = 1.33 and leaves through its right side at y = 1.67.
    assert blocked_both_ways(FOREST, (0, 1), (3, 2))
    # Top to bottom.
    assert blocked_both_ways(FOREST, (1, 0), (2, 4))


def test_m08_124_forest_does_not_block_a_line_across_two_adjacent_sides():
    # Enters through the left side at y = 1.5 and leaves through the top at x = 1.33.
    assert not blocked_both_ways(FOREST, (0, 3), (2, 0))


def test_m08_124_forest_does_not_block_a_line_that_only_clips_a_corner_or_grazes():
    assert not blocked_both_ways(FOREST, (0, 2), (2, 0))  # touches its corner (1, 1)
    assert not blocked_both_ways(FOREST, (0, 1), (4, 1))  # along its top edge


def test_m08_124_two_forest_squares_each_crossed_on_adjacent_sides_do_not_block():
    two = (
        "......",
        "..T...",
        ".T....",
        "......",
    )
    # x + y = 3.5 crosses (1, 2) from its left side to its top, then (2, 1) from its left side
    # to its top: never two opposite sides of the same square.
    assert not blocked_both_ways(two, (0.0, 3.5), (3.5, 0.0))
    # x = 1.5 crosses (1, 2) from top to bottom: blocked.
    assert blocked_both_ways(two, (1.5, 0.0), (1.5, 4.0))


def test_m08_124_forest_corner_to_corner_diagonal_counts_as_opposite_sides():
    """The diagonal of the square runs from one side to the opposite one (corners included)."""
    assert blocked_both_ways(FOREST, (0, 0), (3, 3))


# Diagonal walls (M08-049, M08-102).

@pytest.mark.parametrize(
    ("glyph", "grazing", "crossing"),
    [
        # "/": solid top-left; its hypotenuse runs from (2, 1) to (1, 2).
        ("/", ((3, 0), (0, 3)), ((0, 0), (3, 3))),
        # "J": solid bottom-right; same hypotenuse.
        ("J", ((3, 0), (0, 3)), ((0, 0), (3, 3))),
        # "\\": solid top-right; its hypotenuse runs from (1, 1) to (2, 2).
        ("\\", ((0, 0), (3, 3)), ((0, 3), (3, 0))),
        # "L": solid bottom-left; same hypotenuse.
        ("L", ((0, 0), (3, 3)), ((0, 3), (3, 0))),
    ],
)
def test_m08_102_diagonal_wall_grazing_the_hypotenuse_is_clear_crossing_it_is_blocked(glyph, grazing, crossing):
    rows = ("....", f".{glyph}..", "....", "....")
    assert not blocked_both_ways(rows, *grazing)
    assert blocked_both_ways(rows, *crossing)


def test_m08_102_diagonal_wall_line_through_the_open_half_only_is_clear():
    rows = ("....", "./..", "....", "....")  # solid top-left half of (1, 1)
    # From (3, 0) to (1, 3): inside (1, 1) it runs from (2, 1.5) to (1.67, 2), all in the open half.
    assert not blocked_both_ways(rows, (3, 0), (1, 3))
    # The mirrored line through the solid half is blocked.
    assert blocked_both_ways(rows, (0, 3), (2, 0))


def test_m08_102_diagonal_wall_along_its_solid_leg_on_the_map_edge_side_is_clear():
    rows = ("....", "./..", "....", "....")
    # The solid top-left triangle has legs on the top and left edges; running along them, with
    # open squares on the other side, is grazing an outer edge.
    assert not blocked_both_ways(rows, (0, 1), (4, 1))
    assert not blocked_both_ways(rows, (1, 0), (1, 4))


def test_m08_102_diagonal_wall_next_to_a_full_wall_blocks_the_seam():
    rows = (
        "....",
        "#/..",
        "....",
    )
    # x = 1 runs between the wall (0, 1) and the solid left leg of "/" at (1, 1): a seam.
    assert blocked_both_ways(rows, (1, 0), (1, 3))


def test_m08_102_diagonal_wall_vertex_pinches_against_a_full_wall():
    """The open side of "J" faces the wall, but its solid triangle's vertex (1, 2) meets the
    wall's corner there: two solids meeting at a point, so a line between them is blocked."""
    alone = (
        "....",
        ".J..",
        "....",
    )
    assert not blocked_both_ways(alone, (1, 0), (1, 3))
    beside_wall = (
        "....",
        "#J..",
        "....",
    )
    assert blocked_both_ways(beside_wall, (1, 0), (1, 3))
    # Stopping short of the vertex, along the wall's outer edge only, is clear.
    assert not blocked_both_ways(beside_wall, (1, 0), (1, 1.5))


def test_m08_092_continuous_diagonal_wall_of_triangles_blocks_across_clears_along():
    wall = (
        ".....",
        "...J.",
        "..J..",
        ".J...",
        ".....",
    )
    # The hypotenuses join into one line from (4, 1) to (1, 4): along it is clear.
    assert not blocked_both_ways(wall, (4, 1), (1, 4))
    # Straight across it through the point (3, 2) where two triangles meet: blocked.
    assert blocked_both_ways(wall, (2, 1), (4, 3))
    # Straight across it through a triangle's solid half: blocked.
    assert blocked_both_ways(wall, (2, 2), (4, 4))
    assert blocked_both_ways(wall, (0, 0), (5, 5))


# Tracing and compiled patterns agree.

GLYPH_LIST = list(GLYPHS)


def draw_line(data, open_share: int):
    """A random map (``open_share`` empty squares to one of each solid kind), two corner or centre
    points, creatures in the way and the squares that own the points."""
    w = data.draw(st.integers(2, 7), label="width")
    h = data.draw(st.integers(2, 7), label="height")
    cells = data.draw(st.lists(st.sampled_from(["."] * open_share + GLYPH_LIST), min_size=w * h, max_size=w * h))
    mask = tuple(GLYPHS[c] for c in cells)
    half = data.draw(st.booleans(), label="centres")

    def point():
        if half:
            return (data.draw(st.integers(0, w - 1)) + 0.5, data.draw(st.integers(0, h - 1)) + 0.5)
        return (data.draw(st.integers(0, w)), data.draw(st.integers(0, h)))

    p, q = point(), point()
    extra = frozenset(data.draw(st.lists(st.integers(0, w * h - 1), max_size=2)))
    owners = data.draw(st.booleans(), label="owners")
    p_owner = q_owner = None
    if owners and not half:
        def owner(pt):
            """One of the (up to four) squares meeting at the corner."""
            dx, dy = data.draw(st.sampled_from([(-1, -1), (0, -1), (-1, 0), (0, 0)]))
            return (min(max(int(pt[0]) + dx, 0), w - 1), min(max(int(pt[1]) + dy, 0), h - 1))

        p_owner, q_owner = owner(p), owner(q)
    return mask, w, h, p, q, extra, p_owner, q_owner


@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_m08_097_segment_blocked_answers_as_tracing_on_open_maps(data):
    """On random mostly open maps, corner and centre points, creatures in the way and owners,
    ``segment_blocked`` answers exactly as tracing does."""
    mask, w, h, p, q, extra, p_owner, q_owner = draw_line(data, open_share=4)
    assert segment_blocked(p, q, mask, w, h, extra, p_owner, q_owner) == _traced_blocked(
        p, q, mask, w, h, extra, p_owner, q_owner)


@settings(max_examples=1000, deadline=None)
@given(data=st.data())
def test_m08_092_m08_097_compiled_lines_answer_as_tracing(data):
    """Each shape of segment is traced once into a pattern shared by every map: on random maps with
    every kind of solid matter (walls, diagonal walls, forest), corner and centre points, creatures
    in the way and owners, the pattern answers exactly as tracing the line does."""
    mask, w, h, p, q, extra, p_owner, q_owner = draw_line(data, open_share=1)
    if p != q:
        assert _pattern_blocked(p, q, mask, w, h, extra, p_owner, q_owner) == _traced_blocked(
            p, q, mask, w, h, extra, p_owner, q_owner)


def test_m08_092_walls_meeting_at_the_viewers_corner_block_outside_the_lines_box():
    """M08-092: from the corner where two walls meet diagonally, the viewer (the square up-left of
    that corner) cannot look out between them, though both walls lie outside the line's own box."""
    rows = (
        "......",
        "..#...",
        ".#....",
        "......",
        "......",
        "......",
    )
    assert blocked(rows, (2, 2), (4, 4), p_owner=(1, 1), q_owner=(4, 4))
    assert not blocked(rows, (2, 2), (4, 4), p_owner=(2, 2), q_owner=(4, 4))
