"""Tests of areas of effect: bursts, cones, lines, blasts and radius areas, and who they affect.

The core functions in ``skirmish.core.areas`` give squares; ``Position.area`` (the scenario
runner's ``area`` question) turns them into creatures, applying line of effect from the
area's origin and refusing origins the rules forbid (M08-083..M08-089, M08-064).
"""

from __future__ import annotations

import textwrap

import pytest

from skirmish.core import areas
from skirmish.core.coords import Coord
from skirmish.core.grid import Grid
from skirmish.errors import IllegalActionError, InvalidActionError
from skirmish.rulesets import find_ruleset
from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run

DDM2008 = find_ruleset("ddm2008")


def open_grid(width: int = 12, height: int = 11) -> Grid:
    return Grid.parse("\n".join(["." * width] * height), DDM2008.legend)


def build(rows: str, attacks: list[str], creatures: list[str], steps: list[str], at: Coord = (1, 3),
          size: str = "medium") -> str:
    """A ddm2008 scenario with a wizard carrying ``attacks``, plus other creatures and steps."""
    lines = ["ruleset: ddm2008", "map:", "  rows: |"]
    lines += [f"    {row.strip()}" for row in textwrap.dedent(rows).strip().splitlines()]
    lines += ["creatures:", "  - id: wizard", "    side: heroes", f"    at: {list(at)}", "    stats:",
              f"      size: {size}", "      attacks:"]
    lines += [f"        - {a}" for a in attacks]
    lines += [f"  - {c}" for c in creatures]
    lines.append("steps:" if steps else "steps: []")
    lines += [f"  - {s}" for s in steps]
    return "\n".join(lines) + "\n"


def area(rows: str, attack: str, creatures: list[str], at: Coord | None = None, wizard_at: Coord = (1, 3),
         size: str = "medium") -> list[str]:
    """The sorted ids the wizard's only attack ``blast`` would affect."""
    where = f", at: {list(at)}" if at is not None else ""
    text = build(rows, [attack], creatures, [f"{{ask: area, actor: wizard, with: blast{where}}}"],
                 at=wizard_at, size=size)
    (answer,) = run(load_scenario_text(text))["answers"]
    return sorted(answer["value"])


def refused(rows: str, attack: str, creatures: list[str], at: Coord | None = None,
            wizard_at: Coord = (1, 3)) -> StepRefused:
    where = f", at: {list(at)}" if at is not None else ""
    text = build(rows, [attack], creatures, [f"{{ask: area, actor: wizard, with: blast{where}}}"], at=wizard_at)
    with pytest.raises(StepRefused) as caught:
        run(load_scenario_text(text))
    return caught.value


def creature(cid: str, side: str, at: Coord) -> str:
    return f"{{id: {cid}, side: {side}, at: {list(at)}, stats: {{}}}}"


ROOM = """
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
"""


# Burst (M08-084, M08-064).

def test_m08_084_burst_hits_creatures_within_n_but_not_the_user():
    hit = area(ROOM, "{name: blast, kind: close, area: burst 2}", [
        creature("orc1", "monsters", (3, 3)),     # 2 away
        creature("orc2", "monsters", (4, 3)),     # 3 away
        creature("orc3", "monsters", (0, 1)),     # 2 away, diagonally
    ])
    assert hit == ["orc1", "orc3"]


def test_m08_064_burst_affects_allies_inside_it():
    hit = area(ROOM, "{name: blast, kind: close, area: burst 1}", [
        creature("squire", "heroes", (2, 4)),
        creature("orc", "monsters", (0, 2)),
    ])
    assert hit == ["orc", "squire"]


PINCHED = """
    ........
    ........
    ........
    #.......
    .#......
    ........
    ........
"""


def test_m08_084_burst_needs_line_of_effect():
    """Both orcs are within 3 of the wizard at (1, 3): "seen" at (3, 5) is 2 away; "hidden" at
    (0, 5) is 3 away counting past the walls' corners, but every line to it passes the point
    (1, 4) where the walls (0, 3) and (1, 4) meet, so it has no line of effect."""
    hit = area(PINCHED, "{name: blast, kind: close, area: burst 3}", [
        creature("hidden", "monsters", (0, 5)),
        creature("seen", "monsters", (3, 5)),
    ])
    assert hit == ["seen"]
    grid = Grid.parse(textwrap.dedent(PINCHED).strip(), DDM2008.legend)
    assert (0, 5) in areas.burst(grid, DDM2008().policy, [(1, 3)], 3)


def test_m08_084_burst_squares_exclude_every_square_of_a_large_user():
    grid = open_grid()
    policy = DDM2008().policy
    user = [(4, 4), (5, 4), (4, 5), (5, 5)]
    squares = areas.burst(grid, policy, user, 1)
    assert not squares & set(user)
    assert squares == {(x, y) for x in range(3, 7) for y in range(3, 7)} - set(user)


def test_m08_084_large_user_burst_counts_from_every_square():
    hit = area(ROOM, "{name: blast, kind: close, area: burst 1}", [
        creature("orc1", "monsters", (4, 5)),
        creature("orc2", "monsters", (1, 2)),
        creature("orc3", "monsters", (5, 3)),
    ], wizard_at=(2, 3), size="large")
    # The Large wizard holds (2..3, 3..4): orc1 is adjacent to (3, 4), orc2 to (2, 3); orc3 is
    # 2 squares from (3, 3).
    assert hit == ["orc1", "orc2"]


# Cones (M08-085; GAP-M08-6: the templates are lost, areas.cone is the project's definition).

def test_m08_085_cone_small_is_the_documented_90_degree_wedge_of_length_3():
    """Apex: the attacker's corner nearest the aimed square's centre ((6, 5) for (8, 5): a tie with
    (6, 6), the first corner wins); axis: the nearest of eight directions, here east; squares:
    centres within 45 degrees of the axis and within 3 of the apex."""
    squares, apex, owner = areas.cone(open_grid(), [(5, 5)], (8, 5), 3)
    assert apex == (6, 5) and owner == (5, 5)
    assert squares == {(6, 4), (6, 5),
                       (7, 3), (7, 4), (7, 5), (7, 6),
                       (8, 3), (8, 4), (8, 5), (8, 6)}


def test_m08_085_cone_large_reaches_5_and_contains_the_small_cone():
    grid = open_grid()
    small, _, _ = areas.cone(grid, [(5, 5)], (8, 5), 3)
    large, _, _ = areas.cone(grid, [(5, 5)], (8, 5), 5)
    assert small < large
    assert len(large) == 24
    assert {(9, 1), (9, 8), (10, 3), (10, 6)} <= large
    assert (10, 2) not in large     # centre 5.4 from the apex
    assert (11, 5) not in large     # centre 5.5 from the apex


def test_m08_085_cone_along_a_diagonal():
    squares, apex, _ = areas.cone(open_grid(), [(5, 5)], (8, 8), 3)
    assert apex == (6, 6)
    assert squares == {(6, 6), (6, 7), (6, 8), (7, 6), (7, 7), (7, 8), (8, 6), (8, 7)}


def test_m08_085_cone_excludes_the_attackers_own_squares():
    """Aimed back into a Large attacker's own square, the wedge would hold its squares; they are
    removed."""
    user = [(4, 4), (5, 4), (4, 5), (5, 5)]
    squares, apex, _ = areas.cone(open_grid(), user, (4, 4), 3)
    assert apex == (4, 4)
    assert not squares & set(user)
    assert squares == {(4, 6), (5, 6), (6, 4), (6, 5)}


def test_m08_085_ddm2008_small_and_large_cone_lengths():
    policy = DDM2008().policy
    assert policy.cone_length("small") == 3
    assert policy.cone_length("large") == 5
    assert policy.cone_length("huge") is None


def test_m08_085_small_cone_misses_what_the_large_cone_hits():
    creatures = [creature("orc_near", "monsters", (4, 3)), creature("orc_far", "monsters", (6, 3)),
                 creature("squire", "heroes", (3, 3))]
    assert area(ROOM, "{name: blast, kind: close, area: cone small}", creatures, at=(6, 3)) == [
        "orc_near", "squire"]
    assert area(ROOM, "{name: blast, kind: close, area: cone large}", creatures, at=(6, 3)) == [
        "orc_far", "orc_near", "squire"]


def test_m08_085_cone_needs_line_of_effect_from_its_apex():
    rows = """
        ..........
        ..........
        ....#.....
        ....#.....
        ....#.....
        ..........
    """
    # The apex is the wizard's corner (2, 3); every line from it to the square (5, 3) crosses the
    # wall or runs along the seam between (4, 2) and (4, 3).
    creatures = [creature("behind", "monsters", (5, 3)), creature("beside", "monsters", (3, 3))]
    assert area(rows, "{name: blast, kind: close, area: cone large}", creatures, at=(6, 3)) == ["beside"]


def test_m08_085_unknown_cone_template_is_refused():
    with pytest.raises(StepRefused, match="no 'huge' cone"):
        area(ROOM, "{name: blast, kind: close, area: cone huge}", [], at=(5, 3))


# Blast (close, next to the user).

def test_m08_083_blast_touching_the_user_hits_the_creatures_in_the_block():
    """A close blast (M08-083) caught an ally too (M08-064)."""
    hit = area(ROOM, "{name: blast, kind: close, area: blast 2}", [
        creature("orc1", "monsters", (2, 2)), creature("orc2", "monsters", (3, 3)),
        creature("orc3", "monsters", (4, 3)), creature("squire", "heroes", (3, 2))], at=(2, 2))
    # The 2 x 2 block at (2, 2) holds (2..3, 2..3); it touches the wizard at (1, 3).
    assert hit == ["orc1", "orc2", "squire"]


def test_m08_083_blast_not_touching_the_user_is_refused():
    error = refused(ROOM, "{name: blast, kind: close, area: blast 2}", [], at=(3, 3))
    assert error.rule == "M08-083"
    assert error.actor == "wizard"


def test_m08_083_blast_overlapping_the_user_is_refused():
    error = refused(ROOM, "{name: blast, kind: close, area: blast 2}", [], at=(0, 2))
    assert error.rule == "M08-083"


# Radius and area origins (M08-088, M08-089).

def test_m08_088_m08_064_radius_includes_its_origin_square_and_allies():
    hit = area(ROOM, "{name: blast, kind: area, range: 10, area: radius 1}", [
        creature("orc", "monsters", (6, 3)), creature("squire", "heroes", (7, 4)),
        creature("orc2", "monsters", (8, 3))], at=(6, 3))
    assert hit == ["orc", "squire"]


def test_m08_088_radius_area_can_catch_its_own_user():
    hit = area(ROOM, "{name: blast, kind: area, range: 10, area: radius 2}", [
        creature("orc", "monsters", (3, 3))], at=(2, 3))
    assert hit == ["orc", "wizard"]


def test_m08_089_area_origin_out_of_range_is_refused():
    error = refused(ROOM, "{name: blast, kind: area, range: 4, area: radius 1}", [], at=(6, 3))
    assert error.rule == "M08-089"
    assert "5 squares" in error.reason


def test_m08_089_area_origin_at_exactly_its_range_is_accepted():
    assert area(ROOM, "{name: blast, kind: area, range: 5, area: radius 1}",
                [creature("orc", "monsters", (7, 3))], at=(6, 3)) == ["orc"]


def test_m08_088_area_origin_out_of_line_of_effect_is_refused():
    rows = """
        ..........
        ....#.....
        ....#.....
        ....#.....
        ....#.....
        ....#.....
        ..........
    """
    error = refused(rows, "{name: blast, kind: area, range: 10, area: radius 1}", [], at=(6, 3))
    assert error.rule == "M08-088"


def test_m08_088_refusal_is_an_illegal_action_error_from_the_position():
    text = build(ROOM, ["{name: blast, kind: area, range: 2, area: radius 1}"], [], [])
    pos = load_scenario_text(text).position
    wizard = pos.creature("wizard")
    attack = wizard.template.attack("blast")
    with pytest.raises(IllegalActionError) as caught:
        pos.area(wizard, attack, (8, 3))
    assert caught.value.rule == "M08-089"
    assert pos.area(wizard, attack, (3, 3)) == []


def test_m08_089_sight_area_origin_must_be_seen():
    rows = """
        ..........
        ..........
        ....S.....
        ....S.....
        ....S.....
        ..........
    """
    error = refused(rows, "{name: blast, kind: area, range: sight, area: radius 1}", [], at=(7, 3))
    assert error.rule == "M08-089"
    assert area(rows, "{name: blast, kind: area, range: sight, area: radius 1}",
                [creature("orc", "monsters", (7, 0))], at=(7, 0)) == ["orc"]


def test_m08_089_range_x_area_origin_must_be_in_line_of_sight():
    rows = """
        ..........
        ..........
        ....S.....
        ....S.....
        ....S.....
        ..........
    """
    error = refused(rows, "{name: blast, kind: area, range: 10, area: radius 1}", [], at=(7, 3))
    assert error.rule == "M08-089"


def test_m08_089_nearest_area_must_contain_the_nearest_enemy():
    attack = "{name: blast, kind: area, range: nearest, area: radius 1}"
    creatures = [creature("near", "monsters", (4, 3)), creature("far", "monsters", (8, 3))]
    assert area(ROOM, attack, creatures, at=(5, 3)) == ["near"]
    error = refused(ROOM, attack, creatures, at=(8, 3))
    assert error.rule == "M08-089"
    assert "near" in error.reason


def test_m08_089_nearest_means_nearest_in_line_of_sight():
    """M08-082: "nearest" is the nearest creature in line of sight. The orc behind the smoke is 2
    squares from the wizard, the one in the open 3; the open one is the nearest."""
    rows = """
        ..........
        ..S.......
        ..S.......
        ..S.......
        ..........
        ..........
    """
    attack = "{name: blast, kind: area, range: nearest, area: radius 1}"
    creatures = [creature("hidden", "monsters", (3, 2)), creature("seen", "monsters", (0, 5))]
    assert area(rows, attack, creatures, at=(0, 5), wizard_at=(1, 2)) == ["seen"]
    error = refused(rows, attack, creatures, at=(3, 2), wizard_at=(1, 2))
    assert error.rule == "M08-089"
    assert "seen" in error.reason


# Line (M08-086).

def test_m08_086_m08_064_line_affects_allies_and_stops_at_a_wall():
    rows = """
        ..........
        ..........
        ..........
        ......#...
        ..........
    """
    creatures = [creature("squire", "heroes", (3, 3)), creature("orc", "monsters", (5, 3)),
                 creature("orc2", "monsters", (7, 3))]
    assert area(rows, "{name: blast, kind: close, area: line 6}", creatures, at=(7, 3)) == ["orc", "squire"]


def test_m08_086_line_squares_stop_at_the_first_solid_square():
    grid = Grid.parse("..........\n.....#....", DDM2008.legend)
    mask = grid.mask("effect")
    assert areas.line_squares(grid, (1, 1), (9, 2)) == [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1),
                                                        (7, 1), (8, 1)]
    assert areas.line_squares(grid, (1, 1), (9, 2), mask) == [(1, 1), (2, 1), (3, 1), (4, 1)]


def test_m08_086_far_corner_is_the_line_end():
    assert areas.far_corner((6, 1), (3, 5)) == (7, 1)
    assert areas.far_corner((1, 1), (3, 5)) == (1, 1)
    assert areas.far_corner((3, 1), (3, 5)) == (4, 1)


# Questions the runner refuses.

def test_area_question_needs_an_attack_with_an_area():
    """Scenario format, ``ask: area``: the attack must have an area (M08-083, M08-087)."""
    with pytest.raises(StepRefused, match="has no area"):
        area(ROOM, "{name: blast, kind: ranged, range: 10}", [], at=(5, 3))


def test_radius_area_needs_an_origin_square():
    """M08-088: a radius is centred on a chosen origin square."""
    with pytest.raises(StepRefused, match="needs an origin"):
        area(ROOM, "{name: blast, kind: area, range: 10, area: radius 1}", [])


def test_area_origin_off_the_map_is_refused():
    """M08-088: the origin is a square of the map."""
    text = build(ROOM, ["{name: blast, kind: area, range: 30, area: radius 1}"], [], [])
    pos = load_scenario_text(text).position
    wizard = pos.creature("wizard")
    with pytest.raises(InvalidActionError, match="off the"):
        pos.area(wizard, wizard.template.attack("blast"), (20, 3))


def test_m08_090_within_counts_around_walls():
    grid = Grid.parse(".....\n.###.\n.....", DDM2008.legend)
    policy = DDM2008().policy
    squares = areas.within(grid, policy, [(2, 0)], 2)
    assert (2, 2) not in squares      # 4 around the wall's end
    assert (0, 1) in squares          # (1, 0) then diagonally past the wall's corner (M08-090)
    assert (0, 2) not in squares
    assert not squares & {(1, 1), (2, 1), (3, 1)}
