"""Tests of ``reachable``: where a creature can end a move, at what cost, by which path.

Most tests ask the scenario runner's ``reachable`` question on a small map; the last group
calls the core directly and replays every returned path square by square, checking that each
step is legal and that the steps' costs add up to the reported cost.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from skirmish.core.coords import DIRECTIONS_8, Coord, centre, footprint
from skirmish.core.grid import Grid
from skirmish.core.lines import segment_blocked
from skirmish.core.pathing import ALLY, BLOCKED, MoveRequest, Passage, Reach, reachable
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.rulesets import find_ruleset
from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import run


def build(ruleset: str, rows: str, creatures: list[str], actor: str = "mover") -> str:
    """Scenario text asking where ``actor`` can move, from a map drawing and one-line creatures."""
    lines = [f"ruleset: {ruleset}", "map:", "  rows: |"]
    lines += [f"    {row.strip()}" for row in textwrap.dedent(rows).strip().splitlines()]
    lines.append("creatures:")
    lines += [f"  - {c}" for c in creatures]
    lines += ["steps:", f"  - {{ask: reachable, actor: {actor}}}"]
    return "\n".join(lines) + "\n"


def costs(ruleset: str, rows: str, *creatures: str) -> dict[Coord, int]:
    """The ``reachable`` answer as {square: cost}."""
    result = run(load_scenario_text(build(ruleset, rows, list(creatures))))
    (answer,) = result["answers"]
    return {(x, y): cost for (x, y), cost in answer["value"]}


CORRIDOR = """
    #########
    .........
    #########
"""


def mover(speed: Any = 6, **extra: Any) -> str:
    fields = ", ".join(f"{k}: {v}" for k, v in {"speed": speed, **extra}.items())
    return f"{{id: mover, side: heroes, at: [0, 1], stats: {{{fields}}}}}"


def mover_with(conditions: str, speed: Any = 6) -> str:
    return f"{{id: mover, side: heroes, at: [0, 1], stats: {{speed: {speed}}}, conditions: {conditions}}}"


def other(cid: str, side: str, at: Coord, stats: str = "{}") -> str:
    return f"{{id: {cid}, side: {side}, at: {list(at)}, stats: {stats}}}"


# Allies and enemies (M08-046, M08-052, M08-054, M08-051).

def test_m08_046_allies_are_passed_but_not_stopped_in():
    found = costs("ddm2008", CORRIDOR, mover(), other("squire", "heroes", (2, 1)))
    assert found == {(1, 1): 1, (3, 1): 3, (4, 1): 4, (5, 1): 5, (6, 1): 6}


def test_m08_046_enemies_block():
    found = costs("ddm2008", CORRIDOR, mover(), other("orc", "monsters", (2, 1)))
    assert found == {(1, 1): 1}


def test_m08_046_enemy_in_the_open_is_walked_around():
    room = """
        .....
        .....
        .....
    """
    found = costs("ddm2008", room, "{id: mover, side: heroes, at: [0, 1], stats: {speed: 2}}",
                  other("orc", "monsters", (1, 1)))
    assert (1, 1) not in found
    assert found[(2, 1)] == 2      # over the orc's top or bottom neighbour
    assert found[(2, 0)] == 2


def test_m08_052_flyer_passes_over_non_flying_enemies_but_not_walls():
    rows = """
        ########
        .....#..
        ########
    """
    found = costs("ddm2008", rows, mover("F6"), other("orc", "monsters", (2, 1)))
    assert found == {(1, 1): 1, (3, 1): 3, (4, 1): 4}


def test_m08_052_flyer_does_not_pass_a_flying_enemy():
    found = costs("ddm2008", CORRIDOR, mover("F6"), other("bat", "monsters", (2, 1), "{speed: F8}"))
    assert found == {(1, 1): 1}


def test_m08_052_walker_does_not_pass_a_flying_enemy_either():
    found = costs("ddm2008", CORRIDOR, mover(6), other("bat", "monsters", (2, 1), "{speed: F8}"))
    assert found == {(1, 1): 1}


def test_m08_054_phasing_passes_enemies_walls_and_ignores_terrain_but_ends_legally():
    rows = """
        ########
        ...#~O..
        ########
    """
    found = costs("ddm2008", rows, mover(6, abilities="{phasing: true}"), other("orc", "monsters", (1, 1)))
    # Not on the orc (1, 1), the wall (3, 1) or the pit (5, 1); difficult terrain (4, 1) costs 1.
    assert found == {(2, 1): 2, (4, 1): 4, (6, 1): 6}


def test_m08_051_burrowing_passes_under_a_wall():
    rows = """
        ########
        ..#.....
        ########
    """
    found = costs("ddm2008", rows, mover("{walk: 2, burrow: 4}"))
    assert found == {(1, 1): 1, (3, 1): 3, (4, 1): 4}


def test_m08_056_flying_and_phasing_are_not_slowed_by_difficult_terrain():
    rows = """
        ######
        .~~~~.
        ######
    """
    walker = costs("ddm2008", rows, mover(4))
    assert walker == {(1, 1): 2, (2, 1): 4}
    assert costs("ddm2008", rows, mover("F4")) == {(1, 1): 1, (2, 1): 2, (3, 1): 3, (4, 1): 4}
    assert costs("ddm2008", rows, mover(4, abilities="{phasing: true}")) == {(1, 1): 1, (2, 1): 2, (3, 1): 3,
                                                                        (4, 1): 4}


# Speed and conditions (M08-045, M08-143, M08-146).

def test_m08_045_minimum_one_square_into_difficult_terrain_with_speed_1():
    rows = """
        ~~~
        ~.~
        ~~#
    """
    found = costs("ddm2008", rows, "{id: mover, side: heroes, at: [1, 1], stats: {speed: 1}}")
    # Every difficult neighbour, diagonals included, at the whole (one-square) budget; not the wall.
    assert found == {sq: 1 for sq in [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)]}


def test_m08_045_minimum_one_square_does_not_pass_a_wall_corner():
    rows = """
        ~#~
        ~.~
        ###
    """
    found = costs("ddm2008", rows, "{id: mover, side: heroes, at: [1, 1], stats: {speed: 1}}")
    assert found == {(0, 1): 1, (2, 1): 1}


def test_m08_045_minimum_one_square_needs_some_speed():
    found = costs("ddm2008", "~~~\n~.~\n~~~", "{id: mover, side: heroes, at: [1, 1], stats: {speed: 0}}")
    assert found == {}


def test_m08_045_minimum_one_square_only_when_the_square_costs_more_than_the_speed():
    found = costs("ddm2008", CORRIDOR, mover(2))
    assert found == {(1, 1): 1, (2, 1): 2}
    rough = costs("ddm2008", "####\n.~~.\n####", mover(2))
    assert rough == {(1, 1): 2}


def test_m08_146_slowed_creature_moves_2():
    found = costs("ddm2008", CORRIDOR, mover_with("[slowed]"))
    assert found == {(1, 1): 1, (2, 1): 2}


def test_m08_146_slowed_does_not_raise_a_lower_speed():
    found = costs("ddm2008", CORRIDOR, mover_with("[slowed]", speed=1))
    assert found == {(1, 1): 1}


@pytest.mark.parametrize("condition", ["immobilized", "stunned", "helpless"])
def test_m08_143_immobilized_and_inactive_creatures_cannot_move(condition):
    assert costs("ddm2008", CORRIDOR, mover_with(f"[{condition}]")) == {}


# Large creatures (M08-057, M08-058, M08-059).

def test_m08_058_large_creature_leaving_difficult_terrain_ignores_its_start_squares():
    rows = """
        .......
        .~~....
        .~~....
        .......
    """
    found = costs("ddm2008", rows, "{id: mover, side: heroes, at: [1, 1], stats: {speed: 2, size: large}}")
    # One step right: it still stands half in the difficult block, but only newly entered
    # squares count, and (3, 1), (3, 2) are open.
    assert found[(2, 1)] == 1
    assert found[(3, 1)] == 2
    assert found[(0, 0)] == 1


def test_m08_059_large_creature_entering_difficult_terrain_is_slowed():
    rows = """
        .......
        .~~....
        .~~....
        .......
    """
    found = costs("ddm2008", rows, "{id: mover, side: heroes, at: [3, 1], stats: {speed: 4, size: large}}")
    assert found[(2, 1)] == 2      # enters (2, 1) and (2, 2)
    assert found[(4, 1)] == 1
    assert found[(1, 1)] == 4      # then (1, 1) and (1, 2): 2 more


def test_m08_057_large_creature_cannot_pass_through_an_enemy_with_any_square():
    rows = """
        ######
        ......
        ......
        ######
    """
    found = costs("ddm2008", rows, "{id: mover, side: heroes, at: [0, 1], stats: {speed: 6, size: large}}",
                  other("orc", "monsters", (3, 2)))
    assert found == {(1, 1): 1}


def test_m08_057_large_creature_passes_an_ally_and_needs_room_to_stop():
    rows = """
        ######
        ......
        ......
        ######
    """
    found = costs("ddm2008", rows, "{id: mover, side: heroes, at: [0, 1], stats: {speed: 6, size: large}}",
                  other("squire", "heroes", (3, 2)))
    assert found == {(1, 1): 1, (4, 1): 4}


# Terrain (M08-125, M08-130, M08-121).

def test_m08_125_pit_only_for_flyers():
    rows = """
        #######
        ...O...
        #######
    """
    assert costs("ddm2008", rows, mover(6)) == {(1, 1): 1, (2, 1): 2}
    flyer = costs("ddm2008", rows, mover("F6"))
    assert flyer[(4, 1)] == 4
    assert flyer[(6, 1)] == 6


def test_m08_130_statue_costs_2_can_be_crossed_but_not_ended_on():
    rows = """
        #######
        ..I....
        #######
    """
    assert costs("ddm2008", rows, mover(6)) == {(1, 1): 1, (3, 1): 4, (4, 1): 5, (5, 1): 6}


def test_m08_121_difficult_terrain_costs_2():
    rows = """
        ######
        .~.~..
        ######
    """
    assert costs("ddm2008", rows, mover(6)) == {(1, 1): 2, (2, 1): 3, (3, 1): 5, (4, 1): 6}


def test_m08_048_walls_block_movement():
    rows = """
        ######
        ..#...
        ######
    """
    assert costs("ddm2008", rows, mover(6)) == {(1, 1): 1}


def test_m03_051_ddm2003_statues_and_narrow_spaces_cost_2():
    rows = """
        ########
        .I.N....
        ########
    """
    assert costs("ddm2003", rows, mover(6)) == {(1, 1): 2, (2, 1): 3, (3, 1): 5, (4, 1): 6}


def test_m03_050_ddm2003_allies_passed_enemies_block():
    assert costs("ddm2003", CORRIDOR, mover(4), other("ally", "heroes", (2, 1))) == {
        (1, 1): 1, (3, 1): 3, (4, 1): 4}
    assert costs("ddm2003", CORRIDOR, mover(4), other("orc", "monsters", (2, 1))) == {(1, 1): 1}


def test_g35_13_dnd3_enemy_three_sizes_apart_may_be_passed():
    assert costs("dnd3", CORRIDOR, mover(4), other("rat", "monsters", (2, 1), "{size: fine}")) == {
        (1, 1): 1, (3, 1): 3, (4, 1): 4}
    assert costs("dnd3", CORRIDOR, mover(4), other("dog", "monsters", (2, 1), "{size: small}")) == {(1, 1): 1}


# Paths.

def test_m08_046_path_goes_through_the_ally_square_by_square():
    scenario = load_scenario_text(build("ddm2008", CORRIDOR, [mover(6), other("squire", "heroes", (2, 1))]))
    pos = scenario.position
    reach = pos.reach(pos.creature("mover"))
    assert reach.path((4, 1)) == [(1, 1), (2, 1), (3, 1), (4, 1)]
    assert reach.cost((4, 1)) == 4
    assert (2, 1) not in reach


def test_g35_04_alternation_carries_over_from_an_earlier_move():
    """A move that continues after an odd number of diagonals starts with a 2-cost diagonal."""
    grid = Grid.parse("....\n....\n....", find_ruleset("dnd3").legend)
    policy = find_ruleset("dnd3")().policy
    fresh = reachable(grid, policy, MoveRequest(at=(0, 0), size=1, budget=3))
    carried = reachable(grid, policy, MoveRequest(at=(0, 0), size=1, budget=3, parity=1))
    assert fresh.cost((1, 1)) == 1 and fresh.cost((2, 2)) == 3
    assert carried.cost((1, 1)) == 2 and carried.cost((2, 2)) == 3
    assert carried.cost((2, 1)) == 3 and fresh.cost((2, 1)) == 2


# Replaying every path.

def replay(grid: Grid, policy: GeometryPolicy, req: MoveRequest, path: list[Coord]) -> int:
    """Recompute a path's cost square by square, asserting each step is legal.

    The rules replayed: one king step at a time, on the map; no diagonal past the corner of a
    square that fills its corner (M08-048, E5-059, DS-043) nor across a diagonal wall's solid
    half; no wall or (for walkers) pit entered; other creatures entered only where the passage
    table allows; each step costs the worst newly entered square (M08-058, M08-059), difficult
    creature squares at least 2 (E5-044, DS-039), diagonals 1-2-1 under "alternating" with a
    diagonal into difficult terrain costing ``difficult_diagonal_cost`` (M03-049, G35-05), plus
    ``extra_per_square`` (E5-040).
    """
    w, h = grid.width, grid.height
    move_mask = grid.mask("move")
    x, y = req.at
    parity = req.parity if policy.diagonal == "alternating" else 0
    total = 0
    for nx, ny in path:
        dx, dy = nx - x, ny - y
        assert (dx, dy) in DIRECTIONS_8, f"{(x, y)} -> {(nx, ny)} is not a one-square step"
        assert 0 <= nx <= w - req.size and 0 <= ny <= h - req.size, f"{(nx, ny)} is off the map"
        held = set(footprint((x, y), req.size))
        if not req.through_walls:
            for sx, sy in held:
                if dx and dy:
                    for side in ((sx + dx, sy), (sx, sy + dy)):
                        assert not grid.kind(side).blocks_corners, f"step {(x, y)} -> {(nx, ny)} cuts {side}"
                assert not segment_blocked(centre((sx, sy)), centre((sx + dx, sy + dy)), move_mask, w, h), (
                    f"step {(x, y)} -> {(nx, ny)} crosses a diagonal wall")
        worst = 1
        for sq in footprint((nx, ny), req.size):
            if sq in held:
                continue
            kind = grid.kind(sq)
            if not req.through_walls:
                assert kind.entry != "none", f"path enters the wall {sq}"
                assert kind.entry != "flyers" or req.flying, f"walker enters the pit {sq}"
            cost = 1 if req.ignore_terrain or (req.flying and not kind.difficult_for_flyers) else kind.move_cost
            passage = req.occupied.get(grid.index(sq))
            if passage is not None:
                assert passage.enter, f"path enters {sq}, which it may not"
                if passage.difficult:
                    cost = max(cost, 2)
            worst = max(worst, cost)
        if dx and dy and policy.diagonal == "alternating":
            step = (1 + parity) if worst == 1 else policy.difficult_diagonal_cost
            parity = 1 - parity
        else:
            step = worst
        total += step + req.extra_per_square
        x, y = nx, ny
    return total


def can_end(grid: Grid, req: MoveRequest, at: Coord) -> bool:
    for sq in footprint(at, req.size):
        kind = grid.kind(sq)
        if not kind.occupiable or kind.entry == "none" or (kind.entry == "flyers" and not req.flying):
            return False
        passage = req.occupied.get(grid.index(sq))
        if passage is not None and not passage.end:
            return False
    return True


def check_every_path(grid: Grid, policy: GeometryPolicy, req: MoveRequest, reach: Reach) -> None:
    for sq in reach:
        path = reach.path(sq)
        assert path and path[-1] == sq
        assert can_end(grid, req, sq), f"{sq} is listed but cannot be ended in"
        spent = replay(grid, policy, req, path)
        if spent != reach.cost(sq):
            # Only the minimum-one-square step may cost more than it reports (M08-045).
            assert req.min_one_square and len(path) == 1 and spent > req.budget == reach.cost(sq), (
                f"path to {sq} costs {spent}, reported {reach.cost(sq)}: {path}")
        assert reach.cost(sq) <= req.budget


MAZE = """
    ..........
    .##~~.#...
    .#..~~#.J.
    ...#..~~..
    .~~.L.#...
    ..O.#.~.I.
    ..........
"""


def requests(ruleset: str) -> list[tuple[Position, MoveRequest]]:
    """One move request per movement mode of the mover on MAZE, with creatures on it."""
    rows = MAZE if ruleset == "ddm2008" else MAZE.replace("O", "~").replace("I", "~")  # pit, statue
    text = build(ruleset, rows, [
        "{id: mover, side: heroes, at: [0, 0], stats: {speed: 7}}",
        other("friend", "heroes", (2, 3)),
        other("foe", "monsters", (5, 3)),
        other("foe2", "monsters", (7, 0)),
    ])
    pos = load_scenario_text(text).position
    actor = pos.creature("mover")
    out = []
    occupancy = pos.occupancy()
    for move in pos.ruleset.movements(pos, actor):
        occupied: dict[int, Passage] = {
            i: pos.ruleset.passage(pos, actor, c, move) for i, c in occupancy.items() if c is not actor}
        out.append((pos, MoveRequest(
            at=actor.at, size=actor.size, budget=move.budget, mode=move.mode, occupied=occupied,
            ignore_terrain=move.ignore_terrain, through_walls=move.through_walls, flying=move.flying,
            extra_per_square=move.extra_per_square, min_one_square=move.min_one_square)))
    return out


@pytest.mark.parametrize("ruleset", ["ddm2008", "ddm2003", "dnd5e", "dnd3", "drawsteel"])
def test_every_returned_path_is_legal_and_costs_what_is_reported(ruleset):
    """Each rule set's own movement hooks on a maze: every path replays legally (M08-048, E5-059,
    DS-043, M08-046, E5-043, DS-039) and costs what is reported (M08-040, M03-049, G35-05)."""
    for pos, req in requests(ruleset):
        reach = reachable(pos.grid, pos.ruleset.policy, req)
        assert len(reach) > 10
        check_every_path(pos.grid, pos.ruleset.policy, req, reach)
        # The runner's answer is this search (one movement mode).
        answer = pos.reach(pos.creature("mover"))
        assert answer.costs == reach.costs


@pytest.mark.parametrize("ruleset", ["ddm2008", "ddm2003", "dnd5e", "dnd3", "drawsteel"])
def test_every_path_of_a_large_creature_is_legal(ruleset):
    """M08-057, M08-058, M08-059: a 2 x 2 mover's paths, with an enemy and an ally on the maze."""
    pos = requests(ruleset)[0][0]
    grid, policy = pos.grid, pos.ruleset.policy
    req = MoveRequest(at=(7, 2), size=2, budget=6, occupied={grid.index((5, 3)): BLOCKED,
                                                             grid.index((2, 3)): ALLY})
    reach = reachable(grid, policy, req)
    assert len(reach) > 3
    check_every_path(grid, policy, req, reach)


def test_m08_045_minimum_one_square_path_is_one_step_reported_at_the_budget():
    grid = Grid.parse("~~~\n~.~\n~~~", find_ruleset("ddm2008").legend)
    policy = find_ruleset("ddm2008")().policy
    req = MoveRequest(at=(1, 1), size=1, budget=1, min_one_square=True)
    reach = reachable(grid, policy, req)
    assert len(reach) == 8
    for sq in reach:
        assert reach.path(sq) == [sq]
        assert reach.cost(sq) == 1
        assert replay(grid, policy, req, [sq]) == 2
    without = reachable(grid, policy, MoveRequest(at=(1, 1), size=1, budget=1))
    assert len(without) == 0


def test_replay_catches_an_illegal_path():
    """The replay used above is strict: a corner-cutting step (M08-048) or a wall square fails it."""
    grid = Grid.parse("....\n.#..\n....", find_ruleset("ddm2008").legend)
    policy = find_ruleset("ddm2008")().policy
    req = MoveRequest(at=(0, 0), size=1, budget=6)
    with pytest.raises(AssertionError, match="cuts"):
        replay(grid, policy, req, [(1, 0), (2, 1)])
    with pytest.raises(AssertionError, match="wall"):
        replay(grid, policy, req, [(1, 1)])
    assert replay(grid, policy, req, [(1, 0), (2, 0), (3, 1)]) == 3
