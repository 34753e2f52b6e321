"""The seeds' geometry figures, rebuilt as positions and asked through the scenario runner.

The seeds' figures are lost: only their captions survive (ddm2008 Gaps, GAP-M08-5 and
GAP-M08-9). Every map below uses coordinates invented for this file that satisfy the caption
it cites exactly; the caption's id is in each test's name or docstring. Maps are drawn with
row 0 at the top and x counting from 0 at the left, as the scenario format says.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from skirmish.core import areas
from skirmish.core.grid import Grid
from skirmish.core.lines import segment_blocked
from skirmish.rulesets.ddm2008.ruleset import LEGEND as DDM2008_LEGEND
from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run


def answers(text: str) -> list[Any]:
    """The answer values of a scenario's questions, in order."""
    return [a["value"] for a in run(load_scenario_text(textwrap.dedent(text)))["answers"]]


def build(ruleset: str, rows: str, creatures: list[str], steps: list[str]) -> str:
    """Scenario text from a map drawing, one-line creature mappings and one-line steps."""
    lines = [f"ruleset: {ruleset}", "map:", "  rows: |"]
    lines += [f"    {row.strip()}" for row in textwrap.dedent(rows).strip().splitlines()]
    lines.append("creatures:")
    lines += [f"  - {c}" for c in creatures]
    lines.append("steps:")
    lines += [f"  - {s}" for s in steps]
    return "\n".join(lines) + "\n"


def reachable(text: str) -> dict[tuple[int, int], int]:
    """The single ``reachable`` answer of a scenario, as {square: cost}."""
    (value,) = answers(text)
    return {(x, y): cost for (x, y), cost in value}


# ddm2008: line of sight (M08-092).

LOS_FIGURE = """
    ruleset: ddm2008
    map:
      rows: |
        ............
        ............
        .......#....
        .......#....
        ...####.....
        ............
    creatures:
      - {id: dwarf, side: dwarves, at: [1, 2], stats: {}}
      - {id: goblin1, side: goblins, at: [5, 1], stats: {}}
      - {id: goblin2, side: goblins, at: [8, 1], stats: {}}
      - {id: goblin3, side: goblins, at: [9, 4], stats: {}}
    steps:
      - {ask: line_of_sight, from: dwarf, to: goblin1}
      - {ask: line_of_sight, from: dwarf, to: goblin2}
      - {ask: line_of_sight, from: dwarf, to: goblin3}
      - {ask: line_of_sight, from: goblin1, to: dwarf}
      - {ask: line_of_sight, from: goblin2, to: dwarf}
      - {ask: line_of_sight, from: goblin3, to: dwarf}
"""


def test_m08_092_dwarf_sees_goblins_1_and_2_but_not_goblin_3():
    """Caption M08-092: "the dwarf can see goblins 1 and 2, but not goblin 3" (blocking terrain); the
    lost line-of-sight section (GAP-M08-5) is read as the checklist's Decisions say.

    Goblin 1 is in the open; goblin 2 peeks past the top end of the wall at x = 7; goblin 3
    is under that wall, and the only gap towards it is the point (7, 4) where the walls (7, 3)
    and (6, 4) meet diagonally, which blocks (ddm2008 Decisions). Sight is symmetric.
    """
    assert answers(LOS_FIGURE) == [True, True, False, True, True, False]


def test_m08_092_goblin_3_is_hidden_only_by_the_pinch_between_two_walls():
    """The line from the dwarf's corner (1, 2) to goblin 3's corner (10, 5) touches the two walls
    only at their shared corner (7, 4): it is blocked there, and the same line is clear when
    either wall is gone. Opening the wall (6, 4) brings goblin 3 into view."""
    pos = load_scenario_text(textwrap.dedent(LOS_FIGURE)).position
    grid = pos.grid
    mask = list(grid.mask("sight"))
    assert segment_blocked((1, 2), (10, 5), mask, grid.width, grid.height, (), (1, 2), (9, 4))
    for wall in [(7, 3), (6, 4)]:
        without = list(mask)
        without[grid.index(wall)] = None
        assert not segment_blocked((1, 2), (10, 5), without, grid.width, grid.height, (), (1, 2), (9, 4))
    opened = LOS_FIGURE.replace("...####.....", "...###......")
    assert answers(opened) == [True, True, True, True, True, True]


# ddm2008: line X (M08-086).

LINE_FIGURE = """
    ruleset: ddm2008
    map:
      rows: |
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
        ..........
    creatures:
      - id: wizard
        side: heroes
        at: [2, 5]
        stats:
          attacks:
            - {name: lightning, kind: close, area: line 5}
      - {id: goblin1, side: monsters, at: [5, 2], stats: {}}
      - {id: naga, side: monsters, at: [6, 5], stats: {}}
      - {id: goblin2, side: monsters, at: [4, 7], stats: {}}
      - {id: goblin4, side: monsters, at: [4, 4], stats: {}}
      - {id: goblin5, side: monsters, at: [5, 3], stats: {}}
    steps:
      - {ask: area, actor: wizard, with: lightning, at: [6, 1], origin: [3, 5]}
      - {ask: area, actor: wizard, with: lightning, at: [7, 5], origin: [3, 5]}
      - {ask: area, actor: wizard, with: lightning, at: [4, 8], origin: [3, 5]}
"""


def test_m08_086_lines_a_and_c_hit_goblins_line_b_hits_the_naga():
    """Caption M08-086: the wizard's line A and line C hit goblins, line B hits the naga.

    Each line starts at the wizard's top-right corner (3, 5) and ends at the corner of the
    chosen square farthest from it. Line A runs at 45 degrees to (7, 1) and passes through
    goblin 1's square (5, 2); it only touches the corners of goblin 4's square (4, 4) and of
    goblin 5's square (5, 3), so they are not affected.
    """
    line_a, line_b, line_c = answers(LINE_FIGURE)
    assert line_a == ["goblin1"]
    assert line_b == ["naga"]
    assert line_c == ["goblin2"]


def test_m08_086_line_touching_only_a_corner_affects_nobody_there():
    """Line A passes exactly through the top-left corners (4, 4) and (5, 3) of goblin 4's and
    goblin 5's squares, and leaves them alone; moved one square up, goblin 4 stands in a square
    the line crosses and is hit."""
    line_a = answers(LINE_FIGURE)[0]
    assert "goblin4" not in line_a and "goblin5" not in line_a
    moved = LINE_FIGURE.replace("{id: goblin4, side: monsters, at: [4, 4]", "{id: goblin4, side: monsters, at: [4, 3]")
    assert sorted(answers(moved)[0]) == ["goblin1", "goblin4"]


def test_m08_086_line_along_an_edge_or_through_a_corner_passes_through_no_square():
    """A line that runs along a square's edge or only touches its corner has no effect on it."""
    grid = Grid.parse("\n".join(["." * 10] * 9), DDM2008_LEGEND)
    # Along the vertical grid line x = 3 and the horizontal grid line y = 5: no square at all.
    assert areas.line_squares(grid, (3, 5), (3, 0)) == []
    assert areas.line_squares(grid, (3, 5), (8, 5)) == []
    # The 45-degree line of line A: only the squares it crosses, never the ones it touches.
    assert areas.line_squares(grid, (3, 5), (7, 1)) == [(3, 4), (4, 3), (5, 2), (6, 1)]


def test_m08_086_line_origin_must_be_a_corner_of_the_attackers_square():
    text = LINE_FIGURE.replace("at: [6, 1], origin: [3, 5]", "at: [6, 1], origin: [4, 4]")
    with pytest.raises(StepRefused, match="corner"):
        answers(text)


def test_m08_086_line_cannot_reach_beyond_its_length():
    text = LINE_FIGURE.replace("at: [6, 1], origin: [3, 5]", "at: [8, 1], origin: [3, 5]")
    with pytest.raises(StepRefused) as refused:
        answers(text)
    assert refused.value.rule == "M08-086"


# ddm2008: radius (M08-088).

RADIUS_FIGURE = """
    ruleset: ddm2008
    map:
      rows: |
        ..........
        ..........
        ..........
        ..........
        .......#..
        .......#..
        .......#..
        ..........
    creatures:
      - id: wizard
        side: heroes
        at: [0, 5]
        stats:
          attacks:
            - {name: burst2, kind: area, range: 10, area: radius 2}
            - {name: burst3, kind: area, range: 10, area: radius 3}
            - {name: burst4, kind: area, range: 10, area: radius 4}
      - {id: goblin1, side: monsters, at: [6, 4], stats: {}}
      - {id: goblin2, side: monsters, at: [5, 2], stats: {}}
      - {id: goblin3, side: monsters, at: [8, 5], stats: {}}
    steps:
      - {ask: area, actor: wizard, with: burst2, at: [5, 5]}
      - {ask: area, actor: wizard, with: burst3, at: [5, 5]}
      - {ask: area, actor: wizard, with: burst4, at: [5, 5]}
"""


def test_m08_088_radius_2_hits_goblin_1_radius_3_also_goblin_2_goblin_3_never():
    """Caption M08-088: goblin 3 is never hit because it has no line of effect from the origin.

    Origin (5, 5). Goblin 1 is 1 square away, goblin 2 is 3, goblin 3 is 4 counted around the
    wall (over its top end); every line from the origin square to goblin 3's square crosses
    the wall or runs along a seam between its squares.
    """
    r2, r3, r4 = answers(RADIUS_FIGURE)
    assert sorted(r2) == ["goblin1"]
    assert sorted(r3) == ["goblin1", "goblin2"]
    assert sorted(r4) == ["goblin1", "goblin2"]


def test_m08_088_goblin_3_square_is_inside_radius_4_so_only_line_of_effect_excludes_it():
    scenario = load_scenario_text(textwrap.dedent(RADIUS_FIGURE))
    pos = scenario.position
    inside = areas.radius(pos.grid, pos.ruleset.policy, (5, 5), 4)
    assert (8, 5) in inside
    assert (8, 5) not in areas.radius(pos.grid, pos.ruleset.policy, (5, 5), 3)
    # With the wall gone, radius 4 reaches goblin 3.
    opened = RADIUS_FIGURE.replace(".......#..", "..........")
    assert sorted(answers(opened)[2]) == ["goblin1", "goblin2", "goblin3"]


# ddm2008: flanking (M08-110, M08-111, M08-139).

def flanking(target_at, attacker, ally, *, ally_stats="{}", ally_conditions="[]", attacker_conditions="[]"):
    """Whether the fighter flanks the orc, and whether the rogue does."""
    return answers(build("ddm2008", "\n".join(["........"] * 7), [
        f"{{id: orc, side: monsters, at: {list(target_at)}, stats: {{}}}}",
        f"{{id: fighter, side: heroes, at: {list(attacker)}, stats: {{}}, conditions: {attacker_conditions}}}",
        f"{{id: rogue, side: heroes, at: {list(ally)}, stats: {ally_stats}, conditions: {ally_conditions}}}",
    ], [
        "{ask: flanking, attacker: fighter, target: orc}",
        "{ask: flanking, attacker: rogue, target: orc}",
    ]))


def test_m08_110_opposite_sides_flank():
    assert flanking((3, 3), (2, 3), (4, 3)) == [True, True]
    assert flanking((3, 3), (3, 2), (3, 4)) == [True, True]


def test_m08_110_opposite_corners_flank():
    assert flanking((3, 3), (2, 2), (4, 4)) == [True, True]
    assert flanking((3, 3), (4, 2), (2, 4)) == [True, True]


def test_m08_110_line_through_two_adjacent_sides_does_not_flank():
    # Centres (2.5, 3.5) and (4.5, 2.5): the line enters the left side and leaves the top.
    assert flanking((3, 3), (2, 3), (4, 2)) == [False, False]
    # Side and corner next to each other: the line only touches a corner.
    assert flanking((3, 3), (2, 3), (3, 2)) == [False, False]


def test_m08_111_large_creature_may_use_any_square_it_occupies():
    """A Medium rogue at (4, 2) does not flank with the fighter at (2, 3); a Large rogue whose
    top-left square is (4, 2) also holds (4, 3), opposite the fighter, and does."""
    assert flanking((3, 3), (2, 3), (4, 2)) == [False, False]
    assert flanking((3, 3), (2, 3), (4, 2), ally_stats="{size: large}") == [True, True]


def test_m08_109_flankers_must_both_be_adjacent():
    assert flanking((3, 3), (2, 3), (5, 3)) == [False, False]


def test_m08_139_dazed_ally_does_not_flank():
    assert flanking((3, 3), (2, 3), (4, 3), ally_conditions="[dazed]") == [False, False]
    assert flanking((3, 3), (2, 3), (4, 3), attacker_conditions="[dazed]") == [False, False]


@pytest.mark.parametrize("condition", ["stunned", "helpless", "staggered"])
def test_m08_109_inactive_or_staggered_ally_does_not_flank(condition):
    """M08-140, M08-141, M08-142: staggered, stunned and helpless are "as dazed" (M08-139)."""
    assert flanking((3, 3), (2, 3), (4, 3), ally_conditions=f"[{condition}]") == [False, False]


# ddm2008: diagonal walls (M08-102, M08-049, M08-048).

DIAGONAL_WALL_FIGURE = """
    ruleset: ddm2008
    map:
      rows: |
        ........
        ...J....
        ..J.....
        .J......
        ........
    creatures:
      - {id: naga, side: monsters, at: [0, 0], stats: {}}
      - {id: dwarf, side: heroes, at: [2, 2], stats: {}}
      - {id: mercenary, side: heroes, at: [5, 1], stats: {}}
      - {id: elf, side: heroes, at: [0, 3], stats: {}}
    steps:
      - {ask: cover, from: naga, to: dwarf, kind: ranged}
      - {ask: cover, from: naga, to: mercenary, kind: ranged}
      - {ask: line_of_sight, from: naga, to: dwarf}
      - {ask: line_of_sight, from: naga, to: mercenary}
      - {ask: cover, from: naga, to: elf, kind: ranged}
"""
# The diagonal wall runs from (4, 1) to (1, 4) through the squares (3, 1), (2, 2) and (1, 3);
# the solid half of each ("J") is the bottom-right one, away from the naga.


def test_m08_102_naga_to_mercenary_has_cover_past_the_end_of_a_diagonal_wall():
    """Caption M08-102: naga to mercenary = cover. The mercenary stands just past the wall's
    end at (4, 1): the naga sees it, but from every corner some line to it crosses the solid
    half of (3, 1)."""
    values = answers(DIAGONAL_WALL_FIGURE)
    assert values[1] == "cover"
    assert values[3] is True


def test_m08_102_creature_in_the_open_beside_a_diagonal_wall_has_no_cover():
    """The elf stands in an open square touching the diagonal wall on the naga's side."""
    values = answers(DIAGONAL_WALL_FIGURE)
    assert values[4] == "none"
    assert values[2] is True


def test_m08_102_naga_to_dwarf_in_the_open_half_of_a_diagonal_wall_square_has_no_cover():
    """Caption M08-102: naga to dwarf = no cover. The dwarf stands in the open (top-left) half of
    the diagonal-wall square (2, 2), facing the naga; the solid half is behind it."""
    assert answers(DIAGONAL_WALL_FIGURE)[0] == "none"


def test_m08_049_step_diagonally_past_a_diagonal_walls_corner():
    """M08-049: a diagonal step past the corner of a diagonal wall is allowed; M08-048: past
    the corner of a normal wall it is not (the step to (2, 2) then costs 2)."""
    diagonal = reachable("""
        ruleset: ddm2008
        map:
          rows: |
            .....
            ..L..
            .....
            .....
        creatures:
          - {id: scout, side: heroes, at: [1, 1], stats: {speed: 2}}
        steps:
          - {ask: reachable, actor: scout}
    """)
    assert diagonal[(2, 2)] == 1
    normal = reachable("""
        ruleset: ddm2008
        map:
          rows: |
            .....
            ..#..
            .....
            .....
        creatures:
          - {id: scout, side: heroes, at: [1, 1], stats: {speed: 2}}
        steps:
          - {ask: reachable, actor: scout}
    """)
    assert normal[(2, 2)] == 2
    assert (2, 1) not in normal
    # Round the normal wall's other corner too: (2, 0) is reached through (1, 0), not diagonally.
    assert normal[(2, 0)] == 2


def test_m08_048_no_diagonal_step_between_two_diagonal_walls_that_meet_at_the_corner():
    """Two diagonal walls whose solid halves meet at the corner (2, 2) close the gap."""
    closed = reachable(r"""
        ruleset: ddm2008
        map:
          rows: |
            .....
            ..J..
            .\...
            .....
        creatures:
          - {id: scout, side: heroes, at: [1, 1], stats: {speed: 1}}
        steps:
          - {ask: reachable, actor: scout}
    """)
    assert (2, 2) not in closed


CLOSED_DIAGONAL_WALL = """
    ruleset: ddm2008
    map:
      rows: |
        .....J
        ....J.
        ...J..
        ..J...
        .J....
        J.....
    creatures:
      - {id: dwarf, side: heroes, at: [1, 1], stats: {speed: 10}}
      - {id: naga, side: monsters, at: [4, 4], stats: {}}
    steps:
      - {ask: line_of_effect, from: dwarf, to: naga}
      - {ask: reachable, actor: dwarf}
      - {ask: distance, from: dwarf, to: naga}
"""
# A diagonal wall from corner to corner of the map: the solid bottom-right halves of the "J"
# squares leave no way from the dwarf's side to the naga's.


def test_m08_049_diagonal_wall_across_the_map_cannot_be_crossed():
    effect, reach, _ = answers(CLOSED_DIAGONAL_WALL)
    assert effect is False
    squares = {(x, y) for (x, y), _ in reach}
    # Every square on the dwarf's side, and the open halves of the diagonal-wall squares.
    assert squares == {(x, y) for x in range(6) for y in range(6) if x + y <= 5} - {(1, 1)}


def test_m08_090_distance_is_not_counted_through_a_diagonal_wall():
    assert answers(CLOSED_DIAGONAL_WALL)[2] is None


# ddm2008: cover (M08-091, M08-095, M08-096, M08-098, M08-099).

CORNER = """
    ruleset: ddm2008
    map:
      rows: |
        .....
        ..#..
        .....
        .....
    creatures:
      - id: fighter
        side: heroes
        at: [1, 1]
        stats: {attacks: [{name: axe, kind: melee}]}
      - {id: orc, side: monsters, at: [2, 2], stats: {}}
    steps:
      - {ask: distance, from: fighter, to: orc}
      - {ask: cover, from: fighter, to: orc, with: axe}
"""


def test_m08_091_target_diagonally_adjacent_around_a_wall_corner_can_be_meleed():
    """M08-090/M08-091: the orc around the wall's corner counts as adjacent (distance 1)."""
    assert answers(CORNER)[0] == 1


def test_m08_091_target_diagonally_adjacent_around_a_wall_corner_has_melee_cover():
    assert answers(CORNER)[1] == "cover"


def ranged_cover(rows: str, attacker_at, target_at, *extra_creatures: str, kind: str = "ranged") -> str:
    (value,) = answers(build("ddm2008", rows, [
        f"{{id: archer, side: heroes, at: {list(attacker_at)}, stats: {{}}}}",
        f"{{id: orc, side: monsters, at: {list(target_at)}, stats: {{}}}}",
        *extra_creatures,
    ], [f"{{ask: cover, from: archer, to: orc, kind: {kind}}}"]))
    return value


PILLAR = """
    ........
    ...#....
    ........
    ........
"""


def test_m08_098_target_peeking_past_a_wall_has_ranged_cover():
    """From every corner of the archer's square some line to the orc's corners crosses the wall,
    though a line along the wall's bottom edge keeps line of sight."""
    assert ranged_cover(PILLAR, (1, 1), (5, 1)) == "cover"


def test_m08_098_attacker_picks_the_corner_that_leaves_no_cover():
    """Orc one row lower: from the archer's corner (2, 2) every line runs along or below the
    wall's bottom edge, so there is no cover."""
    assert ranged_cover(PILLAR, (1, 1), (5, 2)) == "none"


def test_m08_098_ranged_cover_is_none_in_the_open():
    assert ranged_cover("........\n........\n........", (1, 1), (5, 1)) == "none"


OPEN_ROW = """
    ........
    ........
    ........
"""


def test_m08_095_enemy_between_attacker_and_target_gives_ranged_cover():
    blocker = "{id: goblin, side: monsters, at: [3, 1], stats: {}}"
    assert ranged_cover(OPEN_ROW, (1, 1), (5, 1), blocker) == "cover"


def test_m08_095_ally_between_attacker_and_target_never_gives_cover():
    blocker = "{id: squire, side: heroes, at: [3, 1], stats: {}}"
    assert ranged_cover(OPEN_ROW, (1, 1), (5, 1), blocker) == "none"


@pytest.mark.parametrize("kind", ["melee", "close", "area"])
def test_m08_096_creatures_give_no_cover_against_melee_close_or_area(kind):
    blocker = "{id: goblin, side: monsters, at: [2, 1], stats: {}}"
    assert ranged_cover(OPEN_ROW, (1, 1), (3, 1), blocker, kind=kind) == "none"
    assert ranged_cover(OPEN_ROW, (1, 1), (3, 1), blocker, kind="ranged") == "cover"


def test_m08_099_melee_against_target_with_a_wall_across_the_line_has_cover():
    """A reach attack past a wall square: every line from some corner crosses it."""
    assert ranged_cover("....\n.#..\n....", (0, 1), (2, 1), kind="melee") == "cover"


def test_m08_099_melee_along_a_wall_edge_has_no_cover():
    """Attacker and target side by side under a wall: lines along its edge are clear."""
    assert ranged_cover("....\n.##.\n....", (1, 2), (2, 2), kind="melee") == "none"


# ddm2003: 1-2-1 diagonals (M03-049) and grazing (M03-086, M03-087).

def test_m03_049_diagonals_count_1_2_1_for_movement():
    costs = reachable("""
        ruleset: ddm2003
        map:
          rows: |
            ........
            ........
            ........
            ........
            ........
            ........
            ........
        creatures:
          - {id: orc, side: orcs, at: [0, 0], stats: {speed: 6}}
        steps:
          - {ask: reachable, actor: orc}
    """)
    assert costs[(1, 1)] == 1      # one diagonal
    assert costs[(2, 2)] == 3      # 1 + 2
    assert costs[(3, 3)] == 4      # three diagonals: 1 + 2 + 1
    assert costs[(2, 3)] == 4      # two diagonals and one straight: 1 + 2 + 1
    assert costs[(4, 4)] == 6      # 1 + 2 + 1 + 2
    assert costs[(6, 0)] == 6
    assert (5, 5) not in costs     # 1 + 2 + 1 + 2 + 1 = 7 > 6
    assert costs[(5, 3)] == 6      # three diagonals (4) and two straight


@pytest.mark.parametrize(("at", "expected"), [([1, 1], 1), ([2, 2], 3), ([3, 3], 4), ([2, 3], 4),
                                               ([4, 4], 6), ([6, 1], 6), ([5, 3], 6)])
def test_m03_049_diagonals_count_1_2_1_for_distance(at, expected):
    (value,) = answers(f"""
        ruleset: ddm2003
        map:
          rows: |
            ........
            ........
            ........
            ........
            ........
            ........
        creatures:
          - {{id: orc, side: orcs, at: [0, 0], stats: {{}}}}
          - {{id: elf, side: elves, at: {at}, stats: {{}}}}
        steps:
          - {{ask: distance, from: orc, to: elf}}
    """)
    assert value == expected


def ddm2003_cover(rows: str, attacker_at, target_at) -> str:
    (value,) = answers(build("ddm2003", rows, [
        f"{{id: archer, side: lg, at: {list(attacker_at)}, stats: {{}}}}",
        f"{{id: orc, side: ce, at: {list(target_at)}, stats: {{}}}}",
    ], ["{ask: cover, from: archer, to: orc, kind: ranged}"]))
    return value


def test_m03_087_line_running_along_a_wall_gives_no_cover():
    """M03-086/M03-087: from the archer's corner (1, 2) the lines to the orc's top corners run
    exactly along the wall's bottom edge; the others pass below it. Grazing: no cover."""
    assert ddm2003_cover("""
        ........
        ..###...
        ........
        ........
    """, (0, 2), (6, 2)) == "none"


def test_m03_086_wall_square_in_the_way_gives_cover():
    """The same archer and orc with a wall square in their row: every corner has a blocked line."""
    assert ddm2003_cover("""
        ........
        ........
        ...#....
        ........
    """, (0, 2), (6, 2)) == "cover"


def test_m03_066_enemy_adjacent_around_a_wall_corner_has_melee_cover():
    (value,) = answers("""
        ruleset: ddm2003
        map:
          rows: |
            .....
            ..#..
            .....
        creatures:
          - {id: fighter, side: lg, at: [1, 1], stats: {}}
          - {id: orc, side: ce, at: [2, 2], stats: {}}
        steps:
          - {ask: cover, from: fighter, to: orc, kind: melee}
    """)
    assert value == "cover"


# drawsteel: corners (DS-043), difficult terrain (DS-089), creatures' spaces (DS-039, DS-040).

def test_ds_043_moving_round_a_buildings_corner_takes_3_squares_not_2():
    costs = reachable("""
        ruleset: drawsteel
        map:
          rows: |
            ......
            ..##..
            ..##..
            ......
            ......
        creatures:
          - {id: fury, side: heroes, at: [1, 1], stats: {speed: 5}}
        steps:
          - {ask: reachable, actor: fury}
    """)
    # (1, 1) -> (1, 2) -> (2, 3) would cut the building's corner at (2, 3): not allowed.
    assert costs[(2, 3)] == 3
    assert costs[(1, 2)] == 1
    assert costs[(2, 0)] == 2      # nor past its top-left corner: through (1, 0)
    assert costs[(1, 3)] == 2


def test_ds_043_no_corner_cutting_applies_to_objects_never_to_creatures():
    costs = reachable("""
        ruleset: drawsteel
        map:
          rows: |
            ......
            ......
            ......
            ......
        creatures:
          - {id: fury, side: heroes, at: [1, 1], stats: {speed: 5}}
          - {id: ogre, side: monsters, at: [2, 1], stats: {}}
          - {id: goblin, side: monsters, at: [1, 2], stats: {}}
        steps:
          - {ask: reachable, actor: fury}
    """)
    # Squeezing diagonally between two creatures is a legal one-square step.
    assert costs[(2, 2)] == 1


def test_ds_089_fury_with_speed_6_through_water_and_brush():
    """Caption DS-089: each difficult square (water "w", brush "~") counts 2; no more than 6 spent."""
    costs = reachable("""
        ruleset: drawsteel
        map:
          rows: |
            #########
            ..w~.~...
            #########
          legend:
            w: {name: water, move_cost: 2}
        creatures:
          - {id: fury, side: heroes, at: [0, 1], stats: {speed: 6}}
        steps:
          - {ask: reachable, actor: fury}
    """)
    assert costs == {(1, 1): 1, (2, 1): 3, (3, 1): 5, (4, 1): 6}


def drawsteel_flanking(ally: str) -> list[bool]:
    return answers(build("drawsteel", "\n".join(["........"] * 8), [
        "{id: goblin, side: monsters, at: [4, 4], stats: {}}",
        "{id: fury, side: heroes, at: [3, 3], stats: {}}",
        ally,
    ], ["{ask: flanking, attacker: fury, target: goblin}"]))


def test_ds_146_ds_147_opposite_corners_flank():
    assert drawsteel_flanking("{id: tactician, side: heroes, at: [5, 5], stats: {}}") == [True]
    assert drawsteel_flanking("{id: tactician, side: heroes, at: [4, 5], stats: {}}") == [False]


def test_ds_147_size_2_ally_flanks_from_the_centre_of_its_space():
    assert drawsteel_flanking("{id: ogre, side: heroes, at: [4, 5], stats: {size: '2'}}") == [False]


def corridor(ruleset: str, mover: str, *others: str) -> dict[tuple[int, int], int]:
    """Where ``mover`` can end a move in a one-square-wide corridor."""
    text = build(ruleset, "########\n........\n########", [mover, *others],
                 ["{ask: reachable, actor: mover}"])
    return reachable(text)


def test_ds_039_ds_040_enemy_space_is_difficult_and_cannot_be_ended_in():
    costs = corridor("drawsteel", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 5}}",
                     "{id: goblin, side: monsters, at: [2, 1], stats: {}}")
    assert costs == {(1, 1): 1, (3, 1): 4, (4, 1): 5}


def test_ds_038_ally_space_is_passed_freely_but_not_ended_in():
    costs = corridor("drawsteel", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 5}}",
                     "{id: tactician, side: heroes, at: [2, 1], stats: {}}")
    assert costs == {(1, 1): 1, (3, 1): 3, (4, 1): 4, (5, 1): 5}


def test_ds_040_space_of_a_creature_two_sizes_apart_can_be_ended_in():
    costs = corridor("drawsteel", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 5}}",
                     "{id: pixie, side: monsters, at: [2, 1], stats: {size: 1T}}")
    assert costs == {(1, 1): 1, (2, 1): 3, (3, 1): 4, (4, 1): 5}


# dnd5e: the grid variant (E5-057, E5-059, E5-060), crawling (E5-040), creatures (E5-043, E5-044).

def test_e5_057_e5_059_diagonal_costs_1_but_not_past_a_wall_corner():
    costs = reachable("""
        ruleset: dnd5e
        map:
          rows: |
            ......
            ......
            ...#..
            ......
            ......
            ......
        creatures:
          - {id: fighter, side: heroes, at: [2, 2], stats: {speed: 3}}
        steps:
          - {ask: reachable, actor: fighter}
    """)
    assert costs[(1, 1)] == 1
    assert costs[(0, 0)] == 2      # two diagonals, 1 each (E5-057)
    assert costs[(0, 4)] == 2
    assert costs[(3, 1)] == 2      # the diagonal would cross the wall's corner (E5-059)
    assert costs[(3, 3)] == 2
    assert costs[(4, 4)] == 3
    assert (4, 2) not in costs     # (3, 1) -> (4, 2) would cut the corner too: it costs 4


def test_e5_060_distance_is_the_shortest_count_chebyshev_even_across_a_wall():
    values = answers("""
        ruleset: dnd5e
        map:
          rows: |
            ........
            ...#....
            ...#....
            ...#....
            ........
        creatures:
          - {id: fighter, side: heroes, at: [1, 2], stats: {}}
          - {id: orc, side: monsters, at: [6, 2], stats: {}}
          - {id: goblin, side: monsters, at: [4, 0], stats: {}}
          - {id: wolf, side: monsters, at: [2, 3], stats: {}}
        steps:
          - {ask: distance, from: fighter, to: orc}
          - {ask: distance, from: fighter, to: goblin}
          - {ask: distance, from: fighter, to: wolf}
          - {ask: distance, from: orc, to: fighter}
    """)
    assert values == [5, 3, 1, 5]


def test_g5_18_a_big_creature_is_measured_from_its_nearest_square():
    """G5-18: distance and reach from the nearest square of a Large creature's space."""
    values = answers("""
        ruleset: dnd5e
        map:
          rows: |
            ........
            ........
            ........
        creatures:
          - {id: ogre, side: monsters, at: [0, 0], stats: {size: large}}
          - {id: fighter, side: heroes, at: [5, 1], stats: {}}
          - {id: rogue, side: heroes, at: [2, 2], stats: {}}
        steps:
          - {ask: distance, from: ogre, to: fighter}
          - {ask: distance, from: ogre, to: rogue}
    """)
    assert values == [4, 1]


def test_e5_040_crawling_costs_2_per_square_and_3_through_difficult_terrain():
    costs = corridor("dnd5e", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 6}, conditions: [prone]}")
    assert costs == {(1, 1): 2, (2, 1): 4, (3, 1): 6}
    rough = reachable("""
        ruleset: dnd5e
        map:
          rows: |
            ######
            .~.~..
            ######
        creatures:
          - {id: mover, side: heroes, at: [0, 1], stats: {speed: 6}, conditions: [prone]}
        steps:
          - {ask: reachable, actor: mover}
    """)
    assert rough == {(1, 1): 3, (2, 1): 5}


def test_e5_043_hostile_creature_of_the_same_size_blocks():
    costs = corridor("dnd5e", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 6}}",
                     "{id: orc, side: monsters, at: [2, 1], stats: {}}")
    assert costs == {(1, 1): 1}


def test_e5_043_e5_044_hostile_creature_two_sizes_apart_is_passed_as_difficult_terrain():
    costs = corridor("dnd5e", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 6}}",
                     "{id: rat, side: monsters, at: [2, 1], stats: {size: tiny}}")
    # Entering the rat's space costs 2 (E5-044) and it may not end there (E5-045).
    assert costs == {(1, 1): 1, (3, 1): 4, (4, 1): 5, (5, 1): 6}


def test_e5_043_hostile_creature_one_size_apart_still_blocks():
    costs = corridor("dnd5e", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 6}}",
                     "{id: kobold, side: monsters, at: [2, 1], stats: {size: small}}")
    assert costs == {(1, 1): 1}


def test_e5_042_e5_044_ally_space_is_difficult_terrain_and_not_an_end():
    costs = corridor("dnd5e", "{id: mover, side: heroes, at: [0, 1], stats: {speed: 6}}",
                     "{id: cleric, side: heroes, at: [2, 1], stats: {}}")
    assert costs == {(1, 1): 1, (3, 1): 4, (4, 1): 5, (5, 1): 6}


def dnd5e_cover(rows: str, *extra_creatures: str, attacker_at=(1, 2), target_at=(7, 2)) -> str:
    (value,) = answers(build("dnd5e", rows, [
        f"{{id: archer, side: heroes, at: {list(attacker_at)}, stats: {{}}}}",
        f"{{id: orc, side: monsters, at: {list(target_at)}, stats: {{}}}}",
        *extra_creatures,
    ], ["{ask: cover, from: archer, to: orc, kind: ranged}"]))
    return value


def column(glyph: str) -> str:
    """A 5-row map with a 3-square column of ``glyph`` at x = 4, rows 1 to 3."""
    return "\n".join(["........", f"....{glyph}...", f"....{glyph}...", f"....{glyph}...", "........"])


def test_e5_110_no_cover_in_the_open():
    assert dnd5e_cover(column(".")) == "none"


def test_e5_112_low_wall_gives_half_cover_even_with_every_line_blocked():
    assert dnd5e_cover(column("=")) == "half"


def test_e5_113_portcullis_gives_three_quarters_cover():
    assert dnd5e_cover(column("|")) == "three_quarters"


def test_e5_114_wall_with_no_line_of_effect_gives_total_cover():
    assert dnd5e_cover(column("#")) == "total"


def test_e5_112_pillar_blocking_two_lines_gives_half_cover():
    """DMG corner method (dnd5e Decisions): from the archer's best corner 1-2 lines blocked."""
    assert dnd5e_cover("........\n........\n....#...\n........\n........") == "half"


def test_e5_113_pillar_blocking_three_lines_gives_three_quarters_cover():
    """G5-19, the DMG's corner method: the archer's best corner (1, 2) keeps one line to the orc's
    corner (7, 0) that only touches the pillar's corner; the other three cross it."""
    assert dnd5e_cover("........\n....#...\n........\n........\n........", target_at=(7, 0)) \
        == "three_quarters"


@pytest.mark.parametrize("side", ["heroes", "monsters"])
def test_e5_112_creature_in_the_way_friend_or_foe_gives_half_cover(side):
    blocker = f"{{id: bystander, side: {side}, at: [4, 2], stats: {{}}}}"
    assert dnd5e_cover(column("."), blocker) == "half"


def test_e5_111_most_protective_only_creature_and_portcullis_give_three_quarters():
    blocker = "{id: bystander, side: monsters, at: [2, 2], stats: {}}"
    assert dnd5e_cover(column("|"), blocker) == "three_quarters"


def test_e5_111_two_half_cover_sources_do_not_add_up():
    """A creature and a low wall each block some lines; together every line, yet still half."""
    blocker = "{id: bystander, side: monsters, at: [2, 2], stats: {}}"
    half_wall = "\n".join(["........", "........", "....=...", "....=...", "........"])
    assert dnd5e_cover(half_wall, blocker) == "half"


# dnd3: 1-2-1 diagonals (G35-04), diagonal into difficult terrain (G35-05).

def test_g35_04_diagonals_count_1_2_1_for_movement_and_distance():
    costs = reachable("""
        ruleset: dnd3
        map:
          rows: |
            .......
            .......
            .......
            .......
            .......
        creatures:
          - {id: tordek, side: heroes, at: [0, 0], stats: {speed: 6}}
        steps:
          - {ask: reachable, actor: tordek}
    """)
    assert costs[(1, 1)] == 1
    assert costs[(2, 2)] == 3
    assert costs[(3, 3)] == 4
    assert costs[(4, 4)] == 6
    assert costs[(6, 1)] == 6
    values = answers("""
        ruleset: dnd3
        map:
          rows: |
            .......
            .......
            .......
            .......
        creatures:
          - {id: tordek, side: heroes, at: [0, 0], stats: {}}
          - {id: orc, side: orcs, at: [3, 3], stats: {}}
          - {id: orc2, side: orcs, at: [5, 2], stats: {}}
        steps:
          - {ask: distance, from: tordek, to: orc}
          - {ask: distance, from: tordek, to: orc2}
    """)
    assert values == [4, 6]


def test_g35_05_diagonal_into_difficult_terrain_costs_3():
    costs = reachable("""
        ruleset: dnd3
        map:
          rows: |
            .~...
            .~...
            .....
        creatures:
          - {id: tordek, side: heroes, at: [0, 0], stats: {speed: 4}}
        steps:
          - {ask: reachable, actor: tordek}
    """)
    assert costs[(1, 0)] == 2      # straight into difficult terrain: 2
    assert costs[(1, 1)] == 3      # diagonally into it: 3
    assert costs[(0, 1)] == 1
    assert costs[(1, 2)] == 2      # round it: straight, then the first diagonal
