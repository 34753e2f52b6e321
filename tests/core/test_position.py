"""Positions: cheap independent clones, dice from one generator with every roll logged."""

from __future__ import annotations

import pytest

from skirmish.core.creatures import Condition, Creature, CreatureTemplate, Duration
from skirmish.core.dice import Dice
from skirmish.core.grid import Grid
from skirmish.core.position import Position
from skirmish.errors import DiceError, InvalidActionError
from skirmish.rulesets import find_ruleset


def make(forced=()):
    rs = find_ruleset("ddm2008")()
    grid = Grid.parse("....\n.#..\n....", rs.legend)
    a = Creature("a", "x", CreatureTemplate("a", max_hp=20), (0, 0))
    b = Creature("b", "y", CreatureTemplate("b", max_hp=10), (3, 2))
    return Position(grid, rs, [a, b], Dice(5, forced))


def test_clone_is_independent_and_shares_the_map():
    pos = make()
    other = pos.clone()
    assert other.grid is pos.grid
    assert other.creature("a") == pos.creature("a") and other.creature("a") is not pos.creature("a")
    other.creature("a").hp = 3
    other.creature("a").conditions.append(Condition("dazed", Duration("end_of_next_turn", "a")))
    assert pos.creature("a").hp == 20 and pos.creature("a").conditions == []
    assert [pos.roll(20, "x") for _ in range(5)] == [other.roll(20, "x") for _ in range(5)]


def test_every_roll_is_an_event_forced_dice_first():
    pos = make(forced=[17, 3])
    assert pos.roll(20, "attack roll of a") == 17
    assert pos.roll(6, "damage of a") == 3
    third = pos.roll(20, "save of b")
    assert 1 <= third <= 20
    rolls = [e for e in pos.events if e.type == "roll"]
    assert [e.data["result"] for e in rolls] == [17, 3, third]
    assert [e.data["forced"] for e in rolls] == [True, True, False]
    assert rolls[0].text == "d20 for attack roll of a: 17 (forced)"


def test_forced_die_outside_its_range_names_the_roll():
    pos = make(forced=[7])
    with pytest.raises(DiceError) as e:
        pos.roll(6, "damage of orc1's greataxe")
    assert "damage of orc1's greataxe" in str(e.value) and "1..6" in str(e.value)


def test_same_seed_same_rolls():
    assert [make().roll(20, "r") for _ in range(3)] == [make().roll(20, "r") for _ in range(3)]


def test_unknown_creature_is_an_invalid_action():
    with pytest.raises(InvalidActionError, match="no creature is called 'zz'"):
        make().creature("zz")


def test_occupancy_and_sides():
    pos = make()
    assert pos.sides() == ["x", "y"]
    assert pos.occupancy()[pos.grid.index((3, 2))].id == "b"
    pos.creature("b").status = "dead"
    assert pos.grid.index((3, 2)) not in pos.occupancy()
