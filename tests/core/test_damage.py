"""The shared damage pipeline: each rule set's steps and order, temporary hit points, dice logged once."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.core.creatures import Condition, Creature, CreatureTemplate
from skirmish.core.damage import (
    ALL,
    DamageRules,
    Defences,
    Step,
    apply_damage,
    halve,
    merge,
    plus,
    roll_damage,
)
from skirmish.core.dice import Dice, DiceExpr
from skirmish.core.events import Event


class Dnd5e(DamageRules):
    order: ClassVar[tuple[Step, ...]] = ("reduction", "immunity", "halve", "double")
    hp_floor = 0


class Ddm2008(DamageRules):
    order: ClassVar[tuple[Step, ...]] = ("immunity", "subtract", "add")
    critical = "multiply_total"


class DrawSteel(DamageRules):
    order: ClassVar[tuple[Step, ...]] = ("halve", "add", "immunity", "subtract")


class Table:
    """A position as damage rolling sees it: dice and a log."""

    def __init__(self, forced: list[int]) -> None:
        self.dice = Dice(0, forced)
        self.events: list[Event] = []

    def log(self, event: Event) -> None:
        self.events.append(event)


# --- 5e ------------------------------------------------------------------------------------------


def test_e5_125_resistance_after_an_aura_that_reduces_all_damage_by_5() -> None:
    """25 bludgeoning against bludgeoning resistance inside an aura of -5: (25 - 5) / 2 = 10 (E5-124, E5-125)."""
    result = Dnd5e().compute({"bludgeoning": 25}, Defences(reduction=5, halve=frozenset({"bludgeoning"})), hp=30)
    assert (result.total, result.hp_lost, result.hp_after) == (10, 10, 20)
    assert result.parts[0].steps == (("reduction", 20), ("halve", 10))


def test_e5_124_resistance_then_vulnerability() -> None:
    """A creature both resistant and vulnerable: halved (rounding down), then doubled: 25 -> 12 -> 24."""
    defences = Defences(halve=frozenset({"fire"}), double=frozenset({"fire"}))
    assert Dnd5e().compute({"fire": 25}, defences).total == 24


def test_e5_126_several_resistances_to_one_damage_halve_once() -> None:
    """Fire resistance and resistance to all damage against fire: halved, not quartered."""
    assert Dnd5e().compute({"fire": 20}, Defences(halve=frozenset({"fire", ALL}))).total == 10


def test_g5_03_resistance_rounds_down() -> None:
    assert Dnd5e().compute({"slashing": 21}, Defences(halve=frozenset({"slashing"}))).total == 10


def test_e5_123_resistance_and_vulnerability_touch_only_their_type() -> None:
    defences = Defences(halve=frozenset({"fire"}), double=frozenset({"cold"}), immune=frozenset({"poison"}))
    result = Dnd5e().compute({"fire": 9, "cold": 4, "poison": 7, None: 3}, defences)
    assert [(p.type, p.taken) for p in result.parts] == [("fire", 4), ("cold", 8), ("poison", 0), (None, 3)]
    assert result.total == 15 and result.taken("cold") == 8 and result.rolled == 23


def test_e5_reduction_is_spent_on_the_largest_amounts_first() -> None:
    result = Dnd5e().compute({"fire": 3, "cold": 8}, Defences(reduction=5))
    assert [(p.type, p.taken) for p in result.parts] == [("fire", 3), ("cold", 3)]
    result = Dnd5e().compute({"fire": 3, "cold": 3}, Defences(reduction=4))
    assert [(p.type, p.taken) for p in result.parts] == [("fire", 0), ("cold", 2)]


def test_e5_143_temporary_hit_points_absorb_first() -> None:
    """5 temporary hit points and 7 damage: all 5 are lost and 2 hit points."""
    result = Dnd5e().compute({"slashing": 7}, hp=20, temp_hp=5)
    assert (result.absorbed, result.temp_after, result.hp_lost, result.hp_after) == (5, 0, 2, 18)
    c = Creature("pc1", "party", CreatureTemplate("pc1", max_hp=20), (0, 0), temp_hp=5)
    apply_damage(c, result)
    assert (c.hp, c.temp_hp) == (18, 0)


def test_e5_133_overflow_past_0_and_the_floor() -> None:
    """Max 12, current 6, 18 damage: 12 past 0 (instant death at 12, E5-132); hit points stop at 0."""
    result = Dnd5e().compute({"piercing": 18}, hp=6)
    assert (result.hp_after, result.overflow) == (0, 12)
    assert result.crossed(0) and not result.crossed(-1)


def test_e5_damage_below_0_after_modifiers_is_0() -> None:
    """An unarmed strike with Strength -1 deals 0 (E5 Decisions), healing nobody."""
    result = Dnd5e().compute({"bludgeoning": -1}, hp=10)
    assert (result.total, result.hp_after) == (0, 10)


def test_damage_threshold_ignores_a_smaller_hit() -> None:
    assert Dnd5e().compute({"slashing": 9}, Defences(threshold=10), hp=30).below_threshold
    assert Dnd5e().compute({"slashing": 9}, Defences(threshold=10), hp=30).hp_after == 30
    assert Dnd5e().compute({"slashing": 10}, Defences(threshold=10), hp=30).hp_after == 20


# --- ddm2008 and 3e -----------------------------------------------------------------------------


def test_m08_010_resistance_subtracts_the_larger_of_its_own_and_all() -> None:
    defences = Defences(subtract={"fire": 5, ALL: 10}, add={"cold": 5}, immune=frozenset({"necrotic"}))
    result = Ddm2008().compute({"fire": 15, None: 15, "cold": 10, "necrotic": 20}, defences, hp=60)
    assert [(p.type, p.taken) for p in result.parts] == [("fire", 5), (None, 5), ("cold", 5), ("necrotic", 0)]
    assert result.hp_after == 45


def test_m08_010_resistance_and_vulnerability_net_out_before_the_floor() -> None:
    """5 fire against resist fire 10 and vulnerable fire 10: 5 - 10 + 10 = 5, not 0 + 10."""
    assert Ddm2008().compute({"fire": 5}, Defences(subtract={"fire": 10}, add={"fire": 10})).total == 5


def test_m08_060_hit_points_may_go_below_0_without_a_floor() -> None:
    result = Ddm2008().compute({None: 30}, hp=10)
    assert result.hp_after == -20 and result.crossed(0)


def test_m08_061_bloodied_is_a_threshold_crossed() -> None:
    assert Ddm2008().compute({None: 10}, hp=30).crossed(25)
    assert not Ddm2008().compute({None: 4}, hp=30).crossed(25)


def test_g35_damage_reduction_applies_to_its_types_only() -> None:
    """DR 5/- against a flaming sword: the physical part loses 5, the fire part none."""
    defences = Defences(reduction=5, reduction_types=frozenset({None, "slashing"}))
    result = Dnd5e().compute({"slashing": 7, "fire": 4}, defences)
    assert [(p.type, p.taken) for p in result.parts] == [("slashing", 2), ("fire", 4)]


# --- Draw Steel ---------------------------------------------------------------------------------


def test_ds_155_immunity_last() -> None:
    """Fire immunity 5 against 8 fire: 3; an ally's halving first: 4, then 0."""
    assert DrawSteel().compute({"fire": 8}, Defences(subtract={"fire": 5})).total == 3
    assert DrawSteel().compute({"fire": 8}, Defences(subtract={"fire": 5}, halve=frozenset({"fire"}))).total == 0


def test_ds_156_only_the_highest_immunity_applies() -> None:
    assert DrawSteel().compute({"fire": 12}, Defences(subtract={ALL: 5, "fire": 10})).total == 2


def test_ds_157_to_159_weakness_first_highest_only() -> None:
    assert DrawSteel().compute({"fire": 10}, Defences(add={"fire": 5})).total == 15
    assert DrawSteel().compute({"fire": 10}, Defences(add={"fire": 5, ALL: 3})).total == 15
    assert DrawSteel().compute({"fire": 3}, Defences(add={"fire": 5}, subtract={"fire": 5})).total == 3


def test_ds_154_immunity_all_ignores_the_type() -> None:
    assert DrawSteel().compute({"poison": 30, None: 4}, Defences(immune=frozenset({"poison"}))).total == 4


def test_ds_172_temporary_stamina_first_then_below_0() -> None:
    """10 temporary Stamina and 16 damage: temporary 0, Stamina down 6 (to -1 from 5)."""
    result = DrawSteel().compute({None: 16}, hp=5, temp_hp=10)
    assert (result.temp_after, result.hp_lost, result.hp_after) == (0, 6, -1)


@given(st.dictionaries(st.sampled_from([None, "fire", "cold", "acid"]), st.integers(-5, 40), max_size=4),
       st.integers(0, 10), st.integers(0, 50), st.integers(0, 20))
def test_pipeline_never_heals_and_accounts_for_every_point(amounts: dict[Any, int], reduction: int, hp: int,
                                                           temp: int) -> None:
    defences = Defences(reduction=reduction, halve=frozenset({"fire"}), double=frozenset({"cold"}),
                        subtract={"acid": 3}, add={ALL: 1})
    for rules in (Dnd5e(), Ddm2008(), DrawSteel()):
        result = rules.compute(amounts, defences, hp=hp, temp_hp=temp)
        assert result.total == sum(p.taken for p in result.parts) >= 0
        assert result.absorbed + result.hp_lost == result.total
        assert result.hp_after <= hp and result.temp_after <= temp


def plain_dnd5e(by_type: dict[Any, int], reduction: int, immune: list[str], resist: list[str],
                vulnerable: list[str]) -> int:
    """The loop dnd5e's take_damage runs today, kept as an independent reference."""
    total = 0
    for dtype, amount in sorted(by_type.items(), key=lambda kv: -kv[1]):
        cut = min(reduction, max(0, amount))
        reduction -= cut
        amount = max(0, amount - cut)
        if dtype in immune:
            amount = 0
        if dtype in resist:
            amount //= 2
        if dtype in vulnerable:
            amount *= 2
        total += amount
    return total


def plain_ddm2008(by_type: dict[Any, int], resist: dict[str, int], vulnerable: dict[str, int],
                  immune: list[str]) -> int:
    """The loop ddm2008's take_damage runs today, kept as an independent reference."""
    total = 0
    for dtype, amount in by_type.items():
        if dtype is not None and dtype in immune:
            continue
        amount -= max(resist.get(dtype, 0) if dtype else 0, resist.get("all", 0))
        amount += vulnerable.get(dtype, 0) if dtype else 0
        total += max(0, amount)
    return total


TYPES = st.sampled_from([None, "fire", "cold", "acid"])
SOME_TYPES = st.lists(st.sampled_from(["fire", "cold", "acid"]), max_size=3)


@given(st.dictionaries(TYPES, st.integers(-3, 40), max_size=4), st.integers(0, 12), SOME_TYPES, SOME_TYPES,
       SOME_TYPES)
def test_e5_124_pipeline_agrees_with_todays_dnd5e_loop(amounts: dict[Any, int], reduction: int, immune: list[str],
                                                       resist: list[str], vulnerable: list[str]) -> None:
    defences = Defences(reduction=reduction, immune=frozenset(immune), halve=frozenset(resist),
                        double=frozenset(vulnerable))
    assert Dnd5e().compute(amounts, defences).total == plain_dnd5e(amounts, reduction, immune, resist, vulnerable)


@given(st.dictionaries(TYPES, st.integers(-3, 40), max_size=4),
       st.dictionaries(st.sampled_from(["fire", "cold", "all"]), st.integers(0, 10)),
       st.dictionaries(st.sampled_from(["fire", "cold"]), st.integers(0, 10)), SOME_TYPES)
def test_m08_010_pipeline_agrees_with_todays_ddm2008_loop(amounts: dict[Any, int], resist: dict[str, int],
                                                          vulnerable: dict[str, int], immune: list[str]) -> None:
    defences = Defences(subtract=resist, add=vulnerable, immune=frozenset(immune))
    assert Ddm2008().compute(amounts, defences).total == plain_ddm2008(amounts, resist, vulnerable, immune)


# --- rolling ------------------------------------------------------------------------------------


def test_m08_066_damage_dice_are_logged_once_each_with_the_rule() -> None:
    table = Table([5, 2])
    roll = roll_damage(table, DiceExpr.parse("2d8+3 fire"), "damage of orc1's greataxe", "M08-066")
    assert roll.amounts == {"fire": 10} and roll.rolls == (5, 2) and table.dice.forced_left == 0
    assert [e.text for e in table.events] == ["d8 for damage of orc1's greataxe: 5",
                                              "d8 for damage of orc1's greataxe: 2"]
    assert table.events[0] == Event("roll", "d8 for damage of orc1's greataxe: 5", "M08-066",
                                    {"die": 8, "result": 5, "label": "damage of orc1's greataxe", "forced": True})


def test_rolling_without_log_or_with_bare_dice_logs_no_event() -> None:
    table = Table([3])
    roll_damage(table, DiceExpr.parse("1d6"), "extra", "E5-116", log=False)
    assert table.events == []
    assert roll_damage(Dice(0, [4]), DiceExpr.parse("1d6+1"), "x").total == 5


def test_e5_119_critical_rolls_every_die_twice_and_adds_modifiers_once() -> None:
    table = Table([1, 2, 3, 4])
    roll = Dnd5e().roll(table, DiceExpr.parse("2d6+3 slashing"), "damage", "E5-116", critical=True)
    assert roll.amounts == {"slashing": 13} and len(table.events) == 4 and roll.critical


def test_m08_074_critical_doubles_the_plus_bonus_too() -> None:
    """Young Silver Dragon's bite "15+10 cold" crits for 30 + 20 = 50."""
    assert Ddm2008().roll(Dice(), DiceExpr.parse("15+10 cold"), "bite", critical=True).amounts == {"cold": 50}


def test_m03_056_critical_does_not_double_the_plus_bonus() -> None:
    """Dragon Samurai "10 magic + 5 fire" crits for 10 x 2 + 5 = 25."""
    roll = roll_damage(Dice(), DiceExpr.parse("10 magic + 5 fire"), "x", critical="multiply_first_term")
    assert roll.amounts == {"magic": 20, "fire": 5} and roll.total == 25


def test_e35_041_critical_rolls_the_whole_damage_again_modifiers_included() -> None:
    """Krusk's greataxe, x3: 1d12 + 4 three times = 3d12 + 12."""
    table = Table([1, 2, 3])
    roll = roll_damage(table, DiceExpr.parse("1d12+4"), "greataxe", "E35-039", critical="repeat_roll", multiplier=3)
    assert roll.total == 18 and roll.rolls == (1, 2, 3) and len(roll.results) == 3 and len(table.events) == 3


def test_amount_helpers() -> None:
    assert halve({"fire": 15, None: 7}) == {"fire": 7, None: 3}
    assert plus({"fire": 15}, 10) == {"fire": 25}
    assert plus({}, 10) == {None: 10}
    assert merge({"piercing": 5}, {None: 7, "poison": 2}) == {"piercing": 12, "poison": 2}


def test_damage_asks_the_defences_hook_and_changes_nothing() -> None:
    class Petrified(Dnd5e):
        def defences(self, pos: Any, target: Creature, source: Creature | None) -> Defences:
            return Defences(halve=frozenset({ALL})) if target.has("petrified") else Defences()

    stone = Creature("s", "x", CreatureTemplate("s", max_hp=30), (0, 0), conditions=[Condition("petrified")])
    result = Petrified().damage(None, stone, {None: 9, "fire": 9})  # type: ignore[arg-type]
    assert (result.total, result.hp_after, stone.hp) == (8, 22, 30)


def test_an_unknown_step_is_refused() -> None:
    class Odd(DamageRules):
        order = ("sideways",)  # type: ignore[assignment]

    with pytest.raises(ValueError, match="sideways"):
        Odd().compute({None: 1})
