"""ddm2008 rules of attacks and their effects, played as scenarios (checklist M08, seed 000_17e4765beaa00265.txt).

Covered here: cost as victory points and destruction (M08-004, M08-005, M08-007), the basic attack (M08-008),
hit points and bloodied (M08-060..M08-062), attacks (M08-063..M08-075), stacking (M08-076..M08-079), attack
types and areas (M08-080..M08-089), range (M08-090, M08-091), cover (M08-093..M08-102), charge
(M08-103..M08-107), combat advantage (M08-108..M08-112), terrain (M08-121..M08-130), durations and
conditions (M08-134..M08-147) and powers (M08-148..M08-151).

Every test builds a small scenario, plays it through ``skirmish.scenario.runner.run`` with forced dice and
checks exact numbers. ``start: {first_side: x}`` skips the first initiative roll, so the dice are consumed
in the order: one d20 per attacked target (in the order given), then that attack's damage dice, a pit's
second attack, the saving throws at the end of a turn (one per save-ends effect), a confusion d20 when a
confused creature is activated. Side ``x`` is player A (``victory_a``), side ``y`` player B.

Readings of this file where the seed is unclear (see the checklist's Decisions and Gaps): the saving throw
succeeds on 10 or more; the confused table is the April 2008 one (1-5 own player, 6-15 nothing, 16-20 the
opponent); a helpless target grants combat advantage (+2, "as stunned") and a non-melee attack against it
also gets +4; enervated damage of 20 is 10.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run

# Building and playing scenarios.

OPEN = "......\n......\n......\n......\n"
"""A 6x4 open floor."""


def atk(name: str, **kw: Any) -> dict[str, Any]:
    """An attack of a stat card: melee, +0 vs AC, no damage unless given."""
    return {"name": name, **kw}


SWORD = atk("sword", bonus=5, damage="10")
BOW = atk("bow", kind="ranged", range=10, bonus=5, damage="10")


def cr(cid: str, side: str, at: tuple[int, int] | list[int], *, hp_now: int | None = None,
       conditions: list[str] | None = None, **stats: Any) -> dict[str, Any]:
    """A creature with inline stats (every stat defaulted: AC 10, DEF 10, speed 6, 10 HP)."""
    c: dict[str, Any] = {"id": cid, "side": side, "at": list(at), "stats": stats}
    if hp_now is not None:
        c["hp"] = hp_now
    if conditions:
        c["conditions"] = conditions
    return c


def scenario(rows: str | dict[str, Any], creatures: list[dict[str, Any]], steps: Sequence[dict[str, Any]] = (),
             dice: Sequence[int] = (), first: str = "x", **top: Any) -> Any:
    """A ddm2008 scenario: x acts first (no initiative roll in round 1), dice forced in roll order."""
    data: dict[str, Any] = {
        "ruleset": "ddm2008",
        "map": rows if isinstance(rows, dict) else {"rows": rows},
        "creatures": creatures,
        "dice": list(dice),
        "start": {"first_side": first},
        "steps": list(steps),
        **top,
    }
    return load_scenario_text(json.dumps(data))


def play(*args: Any, **kw: Any) -> dict[str, Any]:
    return run(scenario(*args, **kw))


def refused(*args: Any, **kw: Any) -> StepRefused:
    with pytest.raises(StepRefused) as info:
        run(scenario(*args, **kw))
    return info.value


def events(out: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in out["events"] if e["type"] == kind]


def attacks(out: dict[str, Any]) -> list[dict[str, Any]]:
    return events(out, "attack")


def rolls(out: dict[str, Any]) -> list[tuple[str, int, int, bool, bool]]:
    """(target, roll, total, hit, critical) of every attack roll, in order."""
    return [(e["target"], e["roll"], e["total"], e["hit"], e.get("critical", False)) for e in attacks(out)]


def hp(out: dict[str, Any], cid: str) -> int:
    return out["creatures"][cid]["hp"]


def conds(out: dict[str, Any], cid: str) -> list[str]:
    return out["creatures"][cid]["conditions"]


def status(out: dict[str, Any], cid: str) -> str:
    return out["creatures"][cid]["status"]


def damage_amounts(out: dict[str, Any]) -> list[tuple[str, int]]:
    return [(e["target"], e["amount"]) for e in events(out, "damage")]


def hit(attacker: str, target: str, with_: str = "sword") -> dict[str, Any]:
    return {"actor": attacker, "do": "attack", "with": with_, "target": target}


def end(actor: str) -> dict[str, Any]:
    return {"actor": actor, "do": "end_turn"}


def kinds(out: dict[str, Any]) -> list[str]:
    return [e["type"] for e in out["events"]]


# M08-004, M08-005, M08-007, M08-060, M08-071: cost as VP, ties hit, destroyed at 0.


def test_m08_004_destroying_an_enemy_scores_its_cost_and_a_tie_hits():
    """10 + 5 = 15 against AC 15 hits (M08-005); 10 damage takes 10 HP to 0: destroyed (M08-007) and
    the cost, 30, is scored (M08-004)."""
    out = play(OPEN, [cr("a", "x", (0, 0), cost=20, attacks=[SWORD]), cr("b", "y", (1, 0), cost=30, ac=15),
                      cr("spare", "y", (5, 3))],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 15, True, False)]
    assert attacks(out)[0]["against"] == 15
    assert status(out, "b") == "dead"
    assert hp(out, "b") <= 0
    assert out["score"] == {"x": 30, "y": 0}
    assert out["winner"] is None


def test_m08_005_one_below_the_defence_misses():
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 0), cost=30, ac=15)],
               [hit("a", "b")], dice=[9])
    assert rolls(out) == [("b", 9, 14, False, False)]
    assert hp(out, "b") == 10
    assert status(out, "b") == "active"
    assert out["score"] == {"x": 0, "y": 0}


def test_m08_007_damage_beyond_zero_destroys_and_the_last_enemy_gone_ends_the_battle():
    """30 damage to a 10 HP creature: destroyed, removed, its 25 points scored."""
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[atk("maul", damage="30")]), cr("b", "y", (1, 0), cost=25)],
               [hit("a", "b", "maul")], dice=[15])
    assert status(out, "b") == "dead"
    assert hp(out, "b") <= 0
    assert out["score"]["x"] == 25
    assert out["winner"] == "x"


def test_m08_007_a_destroyed_creature_is_no_longer_a_target():
    """After b is destroyed by a's breath, c cannot attack it (it is off the map)."""
    out_steps = [hit("a", "b", "breath"), end("a"), {"actor": "d", "do": "activate"}, end("d"),
                 hit("c", "b")]
    e = refused(OPEN, [cr("a", "x", (0, 0), attacks=[atk("breath", kind="ranged", range=5, damage="10")]),
                       cr("c", "x", (2, 1), attacks=[SWORD]),
                       cr("b", "y", (1, 0)), cr("d", "y", (5, 3))],
                out_steps, dice=[15, 15])
    assert e.index == 4


# M08-008: the first attack listed is the basic attack.

TWO_ATTACKS = [atk("claw", bonus=0, damage="5"), atk("bite", bonus=10, damage="20")]


def test_m08_008_an_opportunity_attack_is_made_with_the_basic_attack():
    """b leaves a's side: a's opportunity attack is its claw (listed first), not its better bite."""
    out = play(OPEN, [cr("b", "x", (1, 1), hp=30), cr("a", "y", (0, 1), attacks=TWO_ATTACKS)],
               [{"actor": "b", "do": "move", "to": [4, 1]}], dice=[15])
    (oa,) = attacks(out)
    assert oa["actor"] == "a"
    assert oa["with"] == "claw"
    assert oa["opportunity"] is True
    assert (oa["roll"], oa["total"]) == (15, 15)
    assert hp(out, "b") == 25


def test_m08_008_a_staggered_creature_may_use_its_basic_attack_only():
    creatures = [cr("a", "x", (0, 0), conditions=["staggered"], attacks=TWO_ATTACKS), cr("b", "y", (1, 0), hp=40),
                 cr("spare", "y", (5, 3))]
    e = refused(OPEN, creatures, [hit("a", "b", "bite")], dice=[15])
    assert e.rule == "M08-140"
    out = play(OPEN, creatures, [hit("a", "b", "claw")], dice=[15])
    assert rolls(out) == [("b", 15, 15, True, False)]
    assert hp(out, "b") == 35


def test_m08_008_a_confused_creature_may_use_its_basic_attack_only():
    """Confusion roll 3: its own player controls it, but only its basic attack is allowed (M08-144)."""
    creatures = [cr("a", "x", (0, 0), conditions=["confused"], attacks=TWO_ATTACKS), cr("b", "y", (1, 0), hp=40),
                 cr("spare", "y", (5, 3))]
    with pytest.raises(StepRefused):
        run(scenario(OPEN, creatures, [hit("a", "b", "bite")], dice=[3, 15]))
    out = play(OPEN, creatures, [hit("a", "b", "claw")], dice=[3, 15])
    assert [e["roll"] for e in events(out, "confused")] == [3]
    assert rolls(out) == [("b", 15, 15, True, False)]
    assert hp(out, "b") == 35


def test_m08_144_the_refused_attack_of_a_confused_creature_names_the_confused_rule():
    creatures = [cr("a", "x", (0, 0), conditions=["confused"], attacks=TWO_ATTACKS), cr("b", "y", (1, 0), hp=40),
                 cr("spare", "y", (5, 3))]
    e = refused(OPEN, creatures, [hit("a", "b", "bite")], dice=[3, 15])
    assert e.rule in ("M08-144", "M08-008")


# M08-060..M08-062: hit points and bloodied, rounded down to a multiple of 5.


@pytest.mark.parametrize(("max_hp", "start", "damage", "bloodied"), [
    (55, 35, "5", False),   # 30 left: half of 55 is 27, rounded down to 25
    (55, 35, "9", False),   # 26 left: still above 25
    (55, 35, "10", True),   # 25 left: bloodied
    (50, 35, "10", True),   # 25 left: half of 50 is 25
    (50, 35, "5", False),   # 30 left
    (60, 35, "5", True),    # 30 left: half of 60 is 30
])
def test_m08_061_bloodied_at_half_rounded_down_to_a_multiple_of_5(max_hp, start, damage, bloodied):
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[atk("hit", damage=damage)]),
                      cr("b", "y", (1, 0), hp_now=start, hp=max_hp)],
               [hit("a", "b", "hit")], dice=[15])
    assert hp(out, "b") == start - int(damage)
    assert [e["creature"] for e in events(out, "bloodied")] == (["b"] if bloodied else [])


def test_m08_060_damage_is_subtracted_at_once_and_the_creature_stays_until_0():
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[atk("hit", damage="9")]), cr("b", "y", (1, 0))],
               [hit("a", "b", "hit")], dice=[15])
    assert hp(out, "b") == 1
    assert status(out, "b") == "active"


# M08-063..M08-075: making attacks.


def test_m08_063_an_attack_needs_a_declared_target():
    e = refused(OPEN, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 0))],
                [{"actor": "a", "do": "attack", "with": "sword"}], dice=[15])
    assert e.rule == "M08-063"


def test_m08_064_an_ally_cannot_be_attacked_directly():
    e = refused(OPEN, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("c", "x", (1, 0)), cr("b", "y", (0, 1))],
                [hit("a", "c")], dice=[15])
    assert e.rule == "M08-064"


def test_m08_064_a_close_burst_still_attacks_an_ally_inside_it():
    """Every creature in the burst, ally or enemy, gets its own roll and takes the damage on a hit."""
    burst = atk("blast", kind="close", area="burst 1", bonus=5, damage="5")
    out = play(OPEN, [cr("a", "x", (1, 1), attacks=[burst]), cr("c", "x", (2, 1)), cr("b", "y", (0, 1)),
                      cr("far", "y", (5, 3))],
               [{"actor": "a", "do": "attack", "with": "blast"}], dice=[15, 15])
    assert sorted(e["target"] for e in attacks(out)) == ["b", "c"]
    assert all(e["hit"] and e["total"] == 20 for e in attacks(out))
    assert (hp(out, "b"), hp(out, "c"), hp(out, "far")) == (5, 5, 10)


def test_m08_064_an_area_attack_still_attacks_an_ally_inside_it():
    fireball = atk("fireball", kind="area", range=10, area="radius 1", bonus=5, damage="5 fire")
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[fireball]), cr("c", "x", (3, 2)), cr("b", "y", (4, 2)),
                      cr("far", "y", (5, 0))],
               [{"actor": "a", "do": "attack", "with": "fireball", "at": [4, 2]}], dice=[15, 15])
    assert sorted(e["target"] for e in attacks(out)) == ["b", "c"]
    assert (hp(out, "b"), hp(out, "c"), hp(out, "far")) == (5, 5, 10)


@pytest.mark.parametrize(("damage", "abilities", "left"), [
    ("10 fire", {}, 10),
    ("10 fire", {"resist": {"fire": 5}}, 15),
    ("10 cold", {"resist": {"fire": 5}}, 10),
    ("10 cold", {"vulnerable": {"cold": 5}}, 5),
    ("10 poison", {"immune": ["poison"]}, 20),
    ("10", {"resist": {"fire": 5}}, 10),
])
def test_m08_065_damage_types_meet_resistance_vulnerability_and_immunity(damage, abilities, left):
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[atk("zap", damage=damage)]),
                      cr("b", "y", (1, 0), hp=20, abilities=abilities)],
               [hit("a", "b", "zap")], dice=[15])
    assert hp(out, "b") == left


def test_m08_065_an_attack_vs_fort_is_rolled_against_def_not_ac():
    ray = atk("ray", kind="ranged", range=10, bonus=5, vs="fort", damage="10")
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[ray]), cr("b", "y", (4, 0), ac=20, defense=12, hp=20)],
               [hit("a", "b", "ray")], dice=[7])
    (e,) = attacks(out)
    assert (e["roll"], e["total"], e["against"], e["hit"]) == (7, 12, 12, True)
    assert hp(out, "b") == 10


def test_m08_066_m08_067_effects_of_a_hit_come_after_its_damage():
    daze = atk("club", damage="5", effects=["dazed"])
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[daze]), cr("b", "y", (1, 0))],
               [hit("a", "b", "club")], dice=[15])
    types = [t for t in kinds(out) if t in ("attack", "damage", "condition")]
    assert types == ["attack", "damage", "condition"]
    assert hp(out, "b") == 5
    assert conds(out, "b") == ["dazed"]


def test_m08_067_a_hit_that_destroys_the_target_applies_no_effect():
    daze = atk("club", damage="10", effects=["dazed"])
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[daze]), cr("b", "y", (1, 0)), cr("far", "y", (5, 3))],
               [hit("a", "b", "club")], dice=[15])
    assert status(out, "b") == "dead"
    assert events(out, "condition") == []


def test_m08_068_a_condition_lasts_until_the_end_of_the_targets_next_turn():
    """a dazes b in x's turn; b is still dazed after a's turn and during its own, and no longer after it."""
    daze = atk("club", damage="5", effects=["dazed"])
    creatures = [cr("a", "x", (0, 0), attacks=[daze]), cr("b", "y", (1, 0)), cr("b2", "y", (5, 3))]
    steps = [hit("a", "b", "club"), end("a"), {"actor": "b", "do": "activate"}, end("b")]
    assert conds(play(OPEN, creatures, steps[:1], dice=[15]), "b") == ["dazed"]
    assert conds(play(OPEN, creatures, steps[:3], dice=[15]), "b") == ["dazed"]
    out = play(OPEN, creatures, steps, dice=[15])
    assert conds(out, "b") == []
    assert [e["condition"] for e in events(out, "condition_end")] == ["dazed"]


def test_m08_068_a_condition_gained_in_its_own_turn_lasts_until_the_end_of_its_next_turn():
    """b provokes a's opportunity attack, which dazes it during its own turn: ending that turn does not
    end the daze."""
    daze = atk("club", damage="5", effects=["dazed"])
    creatures = [cr("a", "x", (0, 1), attacks=[daze]), cr("a2", "x", (5, 3)), cr("b", "y", (1, 1), hp=20)]
    out = play(OPEN, creatures, [{"actor": "b", "do": "move", "to": [3, 1]}, end("b")], dice=[15], first="y")
    assert hp(out, "b") == 15
    assert conds(out, "b") == ["dazed"]


def test_m08_069_an_attack_with_one_use_cannot_be_used_again():
    """Round 1: a breathes on b. Round 2 (initiative 15 to 5 for x, which goes first): a cannot breathe again."""
    breath = atk("breath", kind="close", area="burst 1", bonus=5, damage="5", uses=1)
    creatures = [cr("a", "x", (0, 0), attacks=[SWORD, breath]), cr("b", "y", (1, 0), hp=40)]
    steps = [{"actor": "a", "do": "attack", "with": "breath"}, end("a"), {"actor": "b", "do": "activate"},
             end("b"), {"actor": "a", "do": "attack", "with": "breath"}]
    e = refused(OPEN, creatures, steps, dice=[15, 15, 5])
    assert e.index == 4
    assert e.rule == "M08-069"
    out = play(OPEN, creatures, [*steps[:4], hit("a", "b")], dice=[15, 15, 5, 15])
    assert hp(out, "b") == 25


def test_m08_070_a_single_use_attack_recharges_when_its_creature_is_bloodied():
    """a (40 HP) breathes, b's 20 damage bloodies it, and in round 2 a may breathe again."""
    breath = atk("breath", kind="close", area="burst 1", bonus=5, damage="5", uses=1, recharge="bloodied")
    creatures = [cr("a", "x", (0, 0), hp=40, attacks=[SWORD, breath]),
                 cr("b", "y", (1, 0), hp=40, attacks=[atk("slam", damage="20")])]
    steps = [{"actor": "a", "do": "attack", "with": "breath"}, end("a"), hit("b", "a", "slam"), end("b"),
             {"actor": "a", "do": "attack", "with": "breath"}]
    out = play(OPEN, creatures, steps, dice=[15, 15, 15, 5, 15])
    assert [e["creature"] for e in events(out, "recharge")] == ["a"]
    assert hp(out, "a") == 20
    assert hp(out, "b") == 30


def test_m08_070_bloodied_before_the_use_does_not_recharge_it():
    """Bloodied first, then the single use spent: it does not come back (no new bloodying)."""
    breath = atk("breath", kind="close", area="burst 1", bonus=5, damage="5", uses=1, recharge="bloodied")
    creatures = [cr("a", "x", (0, 0), hp=40, hp_now=15, attacks=[SWORD, breath]),
                 cr("b", "y", (1, 0), hp=40, attacks=[atk("slam", damage="5")])]
    steps = [{"actor": "a", "do": "attack", "with": "breath"}, end("a"), hit("b", "a", "slam"), end("b"),
             {"actor": "a", "do": "attack", "with": "breath"}]
    e = refused(OPEN, creatures, steps, dice=[15, 15, 15, 5, 15])
    assert (e.index, e.rule) == (4, "M08-069")


def test_m08_071_the_roll_adds_the_bonus_and_modifiers():
    """d20 12 + 5 + 2 (sacred circle) = 19 against AC 19: a hit."""
    out = play("C.....\n......\n", [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 0), ac=19)],
               [hit("a", "b")], dice=[12])
    assert rolls(out) == [("b", 12, 19, True, False)]


def test_m08_072_several_targets_are_rolled_one_by_one_in_the_chosen_order():
    """Targets [c, b]: the first d20 (20) goes to c, the second (3) to b; c's damage and effect come
    before b's roll."""
    ray = atk("icy_ray", kind="ranged", range=10, targets=3, bonus=11, vs="fort", damage="25 cold",
              effects=["slowed"])
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[ray]), cr("b", "y", (3, 0), hp=60, defense=15),
                      cr("c", "y", (3, 2), hp=60, defense=15), cr("d", "y", (5, 3), hp=60, defense=15)],
               [{"actor": "a", "do": "attack", "with": "icy_ray", "targets": ["c", "b"]}], dice=[20, 3])
    assert rolls(out) == [("c", 20, 31, True, True), ("b", 3, 14, False, False)]
    order = [(e["type"], e.get("target") or e.get("creature")) for e in out["events"]
             if e["type"] in ("attack", "damage", "condition")]
    assert order == [("attack", "c"), ("damage", "c"), ("condition", "c"), ("attack", "b")]
    assert (hp(out, "c"), hp(out, "b"), hp(out, "d")) == (10, 60, 60)
    assert (conds(out, "c"), conds(out, "b"), conds(out, "d")) == (["slowed"], [], [])


def test_m08_072_fewer_targets_than_allowed_may_be_chosen():
    ray = atk("icy_ray", kind="ranged", range=10, targets=3, bonus=11, damage="25 cold")
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[ray]), cr("b", "y", (3, 0), hp=60), cr("c", "y", (3, 2), hp=60)],
               [hit("a", "b", "icy_ray")], dice=[10])
    assert rolls(out) == [("b", 10, 21, True, False)]
    assert (hp(out, "b"), hp(out, "c")) == (35, 60)


def test_m08_072_no_more_targets_than_allowed_and_each_target_once():
    ray = atk("ray", kind="ranged", range=10, targets=2, bonus=5, damage="5")
    creatures = [cr("a", "x", (0, 0), attacks=[ray]), cr("b", "y", (3, 0)), cr("c", "y", (3, 2)),
                 cr("d", "y", (4, 1))]
    e = refused(OPEN, creatures, [{"actor": "a", "do": "attack", "with": "ray", "targets": ["b", "c", "d"]}])
    assert e.rule == "M08-072"
    e = refused(OPEN, creatures, [{"actor": "a", "do": "attack", "with": "ray", "targets": ["b", "b"]}])
    assert e.rule == "M08-072"


def test_m08_073_m08_074_a_natural_20_hits_any_defence_and_doubles_the_bonus_too():
    """The Young Silver Dragon's bite, 15+10 cold: 50 on a critical hit, against AC 40."""
    bite = atk("bite", bonus=12, damage="15+10 cold")
    out = play(OPEN, [cr("dragon", "x", (0, 0), attacks=[bite]), cr("b", "y", (1, 0), ac=40, hp=100)],
               [hit("dragon", "b", "bite")], dice=[20])
    assert rolls(out) == [("b", 20, 32, True, True)]
    assert damage_amounts(out) == [("b", 50)]
    assert hp(out, "b") == 50


def test_m08_074_a_critical_hit_doubles_dice_and_bonus():
    """2d6+5 with the dice 3 and 4: 12, doubled 24."""
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[atk("axe", damage="2d6+5")]), cr("b", "y", (1, 0), hp=40)],
               [hit("a", "b", "axe")], dice=[20, 3, 4])
    assert damage_amounts(out) == [("b", 24)]
    assert hp(out, "b") == 16


def test_m08_074_the_same_bite_without_a_critical_hit_deals_25():
    bite = atk("bite", bonus=12, damage="15+10 cold")
    out = play(OPEN, [cr("dragon", "x", (0, 0), attacks=[bite]), cr("b", "y", (1, 0), ac=20, hp=100)],
               [hit("dragon", "b", "bite")], dice=[19])
    assert rolls(out) == [("b", 19, 31, True, False)]
    assert hp(out, "b") == 75


def test_m08_073_a_critical_hit_does_not_double_the_effects():
    """Push 1 stays push 1 on a natural 20."""
    shove = atk("shove", damage="5", effects=["push 1"])
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[shove]), cr("b", "y", (1, 1), hp=30)],
               [hit("a", "b", "shove")], dice=[20])
    assert hp(out, "b") == 20
    assert out["creatures"]["b"]["at"][0] == 2


def test_m08_073_a_creature_immune_to_critical_hits_is_still_hit_for_normal_damage():
    bite = atk("bite", bonus=12, damage="15+10 cold")
    out = play(OPEN, [cr("dragon", "x", (0, 0), attacks=[bite]),
                      cr("b", "y", (1, 0), ac=40, hp=100, abilities={"immune": ["critical_hits"]})],
               [hit("dragon", "b", "bite")], dice=[20])
    assert [e["hit"] for e in attacks(out)] == [True]
    assert hp(out, "b") == 75


def test_m08_075_a_natural_1_misses_any_defence():
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[atk("sword", bonus=30, damage="10")]), cr("b", "y", (1, 0))],
               [hit("a", "b")], dice=[1])
    assert rolls(out) == [("b", 1, 31, False, False)]
    assert hp(out, "b") == 10


# M08-076..M08-079: bonuses and stacking.

BATTLEMASTER = {"champion": 2, "champion_powers": [
    {"name": "battle_command", "trigger": "ally_hits", "amount": 10, "range": 6}]}


def test_m08_077_sneak_attack_and_a_champions_bonus_stack_to_20():
    """Sneak Attack 10 (combat advantage: the target is dazed) plus the Battlemaster's +10: 10 + 20 = 30."""
    rogue = cr("rogue", "x", (0, 0), attacks=[SWORD],
               special_powers=[{"name": "sneak_attack", "kind": "sneak_attack", "amount": 10}])
    out = play(OPEN, [rogue, cr("master", "x", (0, 2), **BATTLEMASTER), cr("b", "y", (1, 0), hp=50,
                                                                          conditions=["dazed"])],
               [{**hit("rogue", "b"), "power": {"champion": "master", "name": "battle_command"}}], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]
    assert damage_amounts(out) == [("b", 30)]
    assert hp(out, "b") == 20
    assert [e["actor"] for e in events(out, "champion_power")] == ["master"]


def test_m08_076_sneak_attack_needs_combat_advantage():
    rogue = cr("rogue", "x", (0, 0), attacks=[SWORD],
               special_powers=[{"name": "sneak_attack", "kind": "sneak_attack", "amount": 10}])
    out = play(OPEN, [rogue, cr("b", "y", (1, 0), hp=50)], [hit("rogue", "b")], dice=[10])
    assert damage_amounts(out) == [("b", 10)]


def test_m08_078_the_same_condition_twice_does_not_stack():
    """b is slowed by a, then by c in x's next turn: it is slowed once, and one end of its turn ends it."""
    slow = atk("frost", damage="5", effects=["slowed"])
    creatures = [cr("a", "x", (0, 0), attacks=[slow]), cr("c", "x", (2, 0), attacks=[slow]),
                 cr("b", "y", (1, 0), hp=30), cr("b2", "y", (5, 3)), cr("b3", "y", (5, 2))]
    steps = [hit("a", "b", "frost"), end("a"), {"actor": "b2", "do": "activate"}, end("b2"),
             {"actor": "b3", "do": "activate"}, end("b3"), hit("c", "b", "frost")]
    out = play(OPEN, creatures, steps, dice=[15, 15])
    assert conds(out, "b") == ["slowed"]
    assert [e["condition"] for e in events(out, "condition")] == ["slowed"]
    out = play(OPEN, creatures, [*steps, end("c"), {"actor": "b", "do": "activate"}, end("b")], dice=[15, 15])
    assert conds(out, "b") == []


# M08-080..M08-089: attack types, ranges and areas.


@pytest.mark.parametrize("at", [(1, 0), (1, 1), (0, 1)])
def test_m08_080_melee_reaches_adjacent_squares_diagonals_included(at):
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", at, hp=20)], [hit("a", "b")], dice=[15])
    assert hp(out, "b") == 10


def test_m08_080_melee_cannot_reach_two_squares():
    e = refused(OPEN, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (2, 0), hp=20)], [hit("a", "b")],
                dice=[15])
    assert e.rule == "M08-080"


def test_m08_080_a_melee_attack_provokes_no_opportunity_attack():
    out = play(OPEN, [cr("a", "x", (1, 1), attacks=[SWORD]), cr("b", "y", (2, 1), hp=20),
                      cr("c", "y", (0, 1), attacks=[SWORD])],
               [hit("a", "b")], dice=[15])
    assert events(out, "opportunity") == []
    assert rolls(out) == [("b", 15, 20, True, False)]


def test_m08_081_a_ranged_attack_may_target_an_adjacent_enemy_and_provokes_first():
    """The adjacent enemy's opportunity attack (d20 12) comes before the shot (d20 15)."""
    out = play(OPEN, [cr("a", "x", (1, 1), hp=20, attacks=[BOW]), cr("b", "y", (2, 1), hp=20, attacks=[SWORD])],
               [hit("a", "b", "bow")], dice=[12, 15])
    assert [(e["actor"], e["target"], e["roll"], e["opportunity"]) for e in attacks(out)] == [
        ("b", "a", 12, True), ("a", "b", 15, False)]
    assert (hp(out, "a"), hp(out, "b")) == (10, 10)


def test_m08_081_a_ranged_attacker_killed_by_the_opportunity_attack_does_not_shoot():
    out = play(OPEN, [cr("a", "x", (1, 1), attacks=[BOW]), cr("b", "y", (2, 1), hp=20, attacks=[SWORD]),
                      cr("a2", "x", (5, 3))],
               [hit("a", "b", "bow")], dice=[12, 15])
    assert [e["actor"] for e in attacks(out)] == ["b"]
    assert status(out, "a") == "dead"
    assert hp(out, "b") == 20


def test_m08_082_range_x_reaches_x_squares_and_no_farther():
    bow = atk("bow", kind="ranged", range=4, bonus=5, damage="10")
    row = "..........\n"
    out = play(row, [cr("a", "x", (0, 0), attacks=[bow]), cr("b", "y", (4, 0), hp=20), cr("c", "y", (5, 0))],
               [hit("a", "b", "bow")], dice=[15])
    assert hp(out, "b") == 10
    e = refused(row, [cr("a", "x", (0, 0), attacks=[bow]), cr("b", "y", (5, 0), hp=20)], [hit("a", "b", "bow")],
                dice=[15])
    assert e.rule == "M08-082"


def test_m08_082_nearest_targets_only_the_nearest_creature_in_sight():
    sling = atk("sling", kind="ranged", range="nearest", bonus=5, damage="10")
    creatures = [cr("a", "x", (0, 0), attacks=[sling]), cr("near", "y", (2, 1), hp=20), cr("far", "y", (5, 0), hp=20)]
    e = refused(OPEN, creatures, [hit("a", "far", "sling")], dice=[15])
    assert e.rule == "M08-082"
    out = play(OPEN, creatures, [hit("a", "near", "sling")], dice=[15])
    assert hp(out, "near") == 10


def test_m08_082_nearest_skips_a_nearer_creature_out_of_sight():
    """The wall hides the nearer goblin: the farther one, in sight, is the nearest target."""
    rows = "..#...\n..#...\n......\n"
    sling = atk("sling", kind="ranged", range="nearest", bonus=5, damage="10")
    out = play(rows, [cr("a", "x", (0, 0), attacks=[sling]), cr("hidden", "y", (3, 0), hp=20),
                      cr("seen", "y", (0, 2), hp=20)],
               [hit("a", "seen", "sling")], dice=[15])
    assert hp(out, "seen") == 10


def test_m08_082_sight_reaches_any_distance_in_sight_but_not_behind_a_wall():
    gaze = atk("gaze", kind="ranged", range="sight", bonus=5, damage="10")
    rows = "..................\n..................\n#################.\n..................\n"
    out = play(rows, [cr("a", "x", (0, 0), attacks=[gaze]), cr("b", "y", (17, 1), hp=20), cr("c", "y", (0, 3))],
               [hit("a", "b", "gaze")], dice=[15])
    assert hp(out, "b") == 10
    e = refused(rows, [cr("a", "x", (0, 0), attacks=[gaze]), cr("b", "y", (17, 1), hp=20), cr("c", "y", (0, 3))],
                [hit("a", "c", "gaze")], dice=[15])
    assert e.rule == "M08-082"


def test_m08_083_a_close_burst_rolls_each_creature_and_provokes_nothing():
    """Burst 1 around a: the two adjacent enemies each get a roll (18 hits, 4 misses against AC 12); the
    enemy two squares away is outside; no opportunity attack although both neighbours could make one."""
    burst = atk("whirl", kind="close", area="burst 1", bonus=5, damage="10")
    out = play(OPEN, [cr("a", "x", (1, 1), attacks=[burst]),
                      cr("b", "y", (0, 1), ac=12, attacks=[SWORD]), cr("c", "y", (2, 2), ac=12, attacks=[SWORD]),
                      cr("d", "y", (3, 1))],
               [{"actor": "a", "do": "attack", "with": "whirl"}], dice=[18, 4])
    assert rolls(out) == [("b", 18, 23, True, False), ("c", 4, 9, False, False)]
    assert events(out, "opportunity") == []
    assert (hp(out, "b"), hp(out, "c"), hp(out, "d")) == (0, 10, 10)


def test_m08_084_a_burst_needs_line_of_effect():
    """Burst 6: c, 3 squares away in the open, is hit; b, 6 squares away around the wall, has no line of
    effect and is not."""
    rows = ".#....\n.#....\n.#....\n......\n"
    burst = atk("whirl", kind="close", area="burst 6", bonus=5, damage="10")
    out = play(rows, [cr("a", "x", (0, 0), attacks=[burst]), cr("b", "y", (2, 0)), cr("c", "y", (0, 3))],
               [{"ask": "distance", "from": "a", "to": "b"}, {"ask": "area", "actor": "a", "with": "whirl"},
                {"actor": "a", "do": "attack", "with": "whirl"}],
               dice=[15])
    assert [a["value"] for a in out["answers"]] == [6, ["c"]]
    assert rolls(out) == [("c", 15, 20, True, False)]
    assert hp(out, "b") == 10


def test_m08_085_a_cone_attacks_each_creature_in_it_and_not_behind_the_attacker():
    cone = atk("breath", kind="close", area="cone small", bonus=5, damage="10")
    rows = "........\n........\n........\n"
    creatures = [cr("a", "x", (3, 1), attacks=[cone]), cr("front", "y", (4, 1)), cr("front2", "y", (5, 1)),
                 cr("behind", "y", (2, 1))]
    out = play(rows, creatures, [{"ask": "area", "actor": "a", "with": "breath", "at": [4, 1]},
                                 {"actor": "a", "do": "attack", "with": "breath", "at": [4, 1]}], dice=[15, 3])
    assert sorted(out["answers"][0]["value"]) == ["front", "front2"]
    assert sorted((e["target"], e["total"], e["hit"]) for e in attacks(out)) in (
        [("front", 20, True), ("front2", 8, False)], [("front", 8, False), ("front2", 20, True)])
    assert sorted((hp(out, "front"), hp(out, "front2"))) == [0, 10]
    assert hp(out, "behind") == 10


def test_m08_086_a_line_hits_the_squares_it_passes_through_not_those_it_touches():
    """Line 4 from a's corner (1, 1) to the far corner (4, 4) of [3, 3]: it passes through [2, 2] and
    only touches the corner of [2, 1]."""
    line = atk("bolt", kind="close", area="line 4", bonus=5, damage="10")
    rows = "......\n......\n......\n......\n......\n"
    out = play(rows, [cr("a", "x", (0, 0), attacks=[line]), cr("through", "y", (2, 2)), cr("touched", "y", (2, 1)),
                      cr("end", "y", (3, 3))],
               [{"ask": "area", "actor": "a", "with": "bolt", "at": [3, 3]},
                {"actor": "a", "do": "attack", "with": "bolt", "at": [3, 3]}], dice=[15, 15])
    assert sorted(out["answers"][0]["value"]) == ["end", "through"]
    assert sorted(e["target"] for e in attacks(out)) == ["end", "through"]
    assert hp(out, "touched") == 10


def test_m08_087_an_area_attack_provokes_an_opportunity_attack():
    fireball = atk("fireball", kind="area", range=10, area="radius 1", bonus=5, damage="5")
    out = play(OPEN, [cr("a", "x", (0, 1), hp=20, attacks=[fireball]), cr("b", "y", (1, 1), attacks=[SWORD]),
                      cr("c", "y", (4, 1))],
               [{"actor": "a", "do": "attack", "with": "fireball", "at": [4, 1]}], dice=[12, 15])
    assert [(e["actor"], e["target"], e["roll"]) for e in attacks(out)] == [("b", "a", 12), ("a", "c", 15)]
    assert (hp(out, "a"), hp(out, "c")) == (10, 5)


def test_m08_088_radius_hits_creatures_within_x_of_the_origin_with_line_of_effect_from_it():
    """Radius 2 at [3, 1]: c at 2 squares is hit; b at 2 squares behind the wall is not; far at 3 is out."""
    rows = ".......\n.......\n....#..\n....#..\n"
    fireball = atk("fireball", kind="area", range=10, area="radius 2", bonus=5, damage="5")
    out = play(rows, [cr("a", "x", (0, 0), attacks=[fireball]), cr("c", "y", (1, 1)), cr("b", "y", (5, 3)),
                      cr("far", "y", (6, 1))],
               [{"ask": "area", "actor": "a", "with": "fireball", "at": [3, 1]},
                {"actor": "a", "do": "attack", "with": "fireball", "at": [3, 1]}], dice=[15])
    assert out["answers"][0]["value"] == ["c"]
    assert rolls(out) == [("c", 15, 20, True, False)]


def test_m08_088_the_origin_square_must_be_in_line_of_effect():
    rows = "..#...\n..#...\n..#...\n"
    fireball = atk("fireball", kind="area", range=10, area="radius 1", bonus=5, damage="5")
    e = refused(rows, [cr("a", "x", (0, 1), attacks=[fireball]), cr("b", "y", (4, 1))],
                [{"actor": "a", "do": "attack", "with": "fireball", "at": [4, 1]}], dice=[15])
    assert e.rule == "M08-088"


def test_m08_089_range_x_limits_the_origin_square():
    fireball = atk("fireball", kind="area", range=3, area="radius 1", bonus=5, damage="5")
    row = "..........\n..........\n"
    creatures = [cr("a", "x", (0, 0), attacks=[fireball]), cr("b", "y", (4, 0), hp=20)]
    e = refused(row, creatures, [{"actor": "a", "do": "attack", "with": "fireball", "at": [4, 0]}], dice=[15])
    assert e.rule == "M08-089"
    out = play(row, creatures, [{"actor": "a", "do": "attack", "with": "fireball", "at": [3, 0]}], dice=[15])
    assert hp(out, "b") == 15


def test_m08_089_a_nearest_area_must_hold_the_nearest_enemy():
    burst = atk("spores", kind="area", range="nearest", area="radius 1", bonus=5, damage="5")
    row = "..........\n..........\n"
    creatures = [cr("a", "x", (0, 0), attacks=[burst]), cr("near", "y", (3, 0)), cr("far", "y", (8, 0))]
    e = refused(row, creatures, [{"actor": "a", "do": "attack", "with": "spores", "at": [8, 0]}], dice=[15])
    assert e.rule == "M08-089"
    out = play(row, creatures, [{"actor": "a", "do": "attack", "with": "spores", "at": [3, 1]}], dice=[15])
    assert hp(out, "near") == 5


# M08-090, M08-091: counting range.


def test_m08_090_diagonals_count_1_and_distance_goes_around_walls():
    """In the open, 3 diagonal steps are 3. Past the wall: a to c goes down, diagonally past the wall's
    corner, then right: 3; d to e goes around the wall's right end: 4."""
    out = play(OPEN, [cr("a", "x", (0, 0)), cr("b", "y", (3, 3))], [{"ask": "distance", "from": "a", "to": "b"}])
    assert out["answers"][0]["value"] == 3
    rows = "......\n.####.\n......\n"
    out = play(rows, [cr("a", "x", (0, 0)), cr("c", "y", (2, 2)), cr("d", "x", (3, 0)), cr("e", "y", (3, 2))],
               [{"ask": "distance", "from": "a", "to": "c"}, {"ask": "distance", "from": "d", "to": "e"}])
    assert [a["value"] for a in out["answers"]] == [3, 4]


def test_m08_091_melee_around_a_wall_corner_is_allowed_with_cover():
    """The wall at [1, 0] sits in the corner between a [0, 0] and b [1, 1]: a may attack, at -2 for cover
    (Decisions): 12 + 5 - 2 = 15."""
    rows = ".#....\n......\n"
    out = play(rows, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 1), hp=20, ac=15)],
               [hit("a", "b")], dice=[12])
    assert rolls(out) == [("b", 12, 15, True, False)]
    assert hp(out, "b") == 10


# M08-093..M08-102: cover.

PILLAR = "........\n...#....\n........\n........\n"


def test_m08_093_m08_098_a_wall_across_the_shot_gives_cover_minus_2():
    """From every corner of the archer's square some line to the orc crosses the wall: 12 + 5 - 2 = 15
    (the -2 of the lost attack modifier table, GAP-M08-2, read from the seed's own text)."""
    out = play(PILLAR, [cr("archer", "x", (1, 1), attacks=[BOW]), cr("orc", "y", (5, 1), ac=15, hp=20)],
               [{"ask": "cover", "from": "archer", "to": "orc", "with": "bow"}, hit("archer", "orc", "bow")], dice=[12])
    assert out["answers"][0]["value"] == "cover"
    assert rolls(out) == [("orc", 12, 15, True, False)]


def test_m08_098_no_cover_when_one_corner_sees_the_whole_target():
    out = play(PILLAR, [cr("archer", "x", (1, 1), attacks=[BOW]), cr("orc", "y", (5, 2), ac=15, hp=20)],
               [hit("archer", "orc", "bow")], dice=[12])
    assert rolls(out) == [("orc", 12, 17, True, False)]


def test_m08_094_cover_is_binary():
    """A wall and an enemy both between archer and target: still -2 once."""
    out = play(PILLAR, [cr("archer", "x", (0, 1), attacks=[BOW]), cr("goblin", "y", (2, 1)),
                        cr("orc", "y", (5, 1), ac=15, hp=20)],
               [hit("archer", "orc", "bow")], dice=[12])
    assert rolls(out) == [("orc", 12, 15, True, False)]


def test_m08_095_an_enemy_in_the_way_gives_ranged_cover_and_an_ally_does_not():
    creatures = [cr("archer", "x", (0, 1), attacks=[BOW]), cr("orc", "y", (5, 1), ac=15, hp=20)]
    out = play(OPEN, [*creatures, cr("goblin", "y", (3, 1))], [hit("archer", "orc", "bow")], dice=[12])
    assert rolls(out) == [("orc", 12, 15, True, False)]
    out = play(OPEN, [*creatures, cr("squire", "x", (3, 1))], [hit("archer", "orc", "bow")], dice=[12])
    assert rolls(out) == [("orc", 12, 17, True, False)]


def test_m08_096_creatures_give_no_cover_against_melee_reach():
    """M08-096, GAP-M08-7: creatures give cover against ranged attacks only (the project's reading)."""
    glaive = atk("glaive", range=2, bonus=5, damage="10")
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[glaive]), cr("goblin", "y", (1, 1)),
                      cr("orc", "y", (2, 1), ac=15, hp=20)],
               [hit("a", "orc", "glaive")], dice=[12])
    assert rolls(out) == [("orc", 12, 17, True, False)]


def test_m08_096_creatures_give_no_cover_against_close_attacks():
    burst = atk("whirl", kind="close", area="burst 2", bonus=5, damage="10")
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[burst]), cr("goblin", "y", (1, 1), hp=20),
                      cr("orc", "y", (2, 1), ac=15, hp=20)],
               [{"actor": "a", "do": "attack", "with": "whirl"}], dice=[12, 12])
    assert sorted(rolls(out)) == [("goblin", 12, 17, True, False), ("orc", 12, 17, True, False)]


def test_m08_096_creatures_give_no_cover_against_area_attacks():
    """Radius 2 at [5, 1]: the goblin at [4, 1] stands between the origin and the orc at [3, 1]."""
    fireball = atk("fireball", kind="area", range=10, area="radius 2", bonus=5, damage="10")
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[fireball]), cr("goblin", "y", (4, 1), hp=20),
                      cr("orc", "y", (3, 1), ac=15, hp=20)],
               [{"actor": "a", "do": "attack", "with": "fireball", "at": [5, 1]}], dice=[12, 12])
    assert sorted(rolls(out)) == [("goblin", 12, 17, True, False), ("orc", 12, 17, True, False)]


def test_m08_101_a_burst_traces_cover_from_the_attackers_square():
    """The wall at [1, 0] is across every corner's lines to b at [2, 0], not to c at [2, 2]."""
    rows = ".#....\n......\n......\n"
    burst = atk("whirl", kind="close", area="burst 2", bonus=5, damage="10")
    out = play(rows, [cr("a", "x", (0, 1), attacks=[burst]), cr("b", "y", (2, 0), ac=15, hp=20),
                      cr("c", "y", (2, 2), ac=15, hp=20)],
               [{"actor": "a", "do": "attack", "with": "whirl"}], dice=[12, 12])
    assert sorted(rolls(out)) == [("b", 12, 15, True, False), ("c", 12, 17, True, False)]


def test_m08_097_difficult_terrain_gives_no_cover():
    rows = "......\n..~~..\n......\n"
    out = play(rows, [cr("archer", "x", (0, 1), attacks=[BOW]), cr("orc", "y", (5, 1), ac=15, hp=20)],
               [hit("archer", "orc", "bow")], dice=[12])
    assert rolls(out) == [("orc", 12, 17, True, False)]


# M08-103..M08-107: charge.

FIELD = "........\n........\n........\n"


def charge(actor: str, target: str, to: tuple[int, int] | None = None, with_: str = "sword") -> dict[str, Any]:
    step = {"actor": actor, "do": "charge", "target": target, "with": with_}
    if to is not None:
        step["to"] = list(to)
    return step


def test_m08_103_a_charge_moves_then_attacks_at_plus_1():
    out = play(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (4, 1), ac=16, hp=20)],
               [charge("a", "b", (3, 1))], dice=[10])
    assert out["creatures"]["a"]["at"] == [3, 1]
    assert rolls(out) == [("b", 10, 16, True, False)]
    assert hp(out, "b") == 10


def test_m08_103_a_charge_is_limited_to_speed():
    e = refused(FIELD, [cr("a", "x", (0, 1), speed=5, attacks=[SWORD]), cr("b", "y", (7, 1))],
                [charge("a", "b", (6, 1))], dice=[10])
    assert e.rule == "M08-105"


def test_m08_104_the_charger_needs_line_of_sight_to_the_target():
    rows = "...#....\n...#....\n...#....\n........\n"
    e = refused(rows, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (5, 0))], [charge("a", "b")], dice=[10])
    assert e.rule == "M08-104"


def test_m08_104_any_enemy_in_sight_may_be_charged_not_only_the_nearest():
    out = play(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("near", "y", (0, 0)), cr("b", "y", (5, 1), hp=20)],
               [charge("a", "b", (4, 1))], dice=[10])
    assert rolls(out) == [("b", 10, 16, True, False)]


def test_m08_105_a_target_two_squares_away_cannot_be_charged():
    e = refused(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (2, 1))], [charge("a", "b")], dice=[10])
    assert e.rule == "M08-105"


def test_m08_105_a_target_three_squares_away_can_be_charged():
    out = play(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (3, 1), hp=20)],
               [charge("a", "b", (2, 1))], dice=[10])
    assert out["creatures"]["a"]["at"] == [2, 1]
    assert hp(out, "b") == 10


def test_m08_105_the_charge_ends_on_a_nearest_square():
    """[5, 1], behind b, is adjacent to it but 5 squares away: not the nearest."""
    e = refused(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (4, 1))], [charge("a", "b", (5, 1))],
                dice=[10])
    assert e.rule == "M08-105"


@pytest.mark.parametrize("to", [(3, 0), (3, 2)])
def test_m08_105_equally_near_squares_may_be_chosen(to):
    out = play(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (4, 1), hp=20)],
               [charge("a", "b", to)], dice=[10])
    assert out["creatures"]["a"]["at"] == list(to)
    assert hp(out, "b") == 10


def test_m08_106_a_charge_passes_through_an_ally():
    rows = ".#####..\n........\n.#####..\n"
    out = play(rows, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("c", "x", (2, 1)), cr("b", "y", (6, 1), hp=20)],
               [charge("a", "b", (5, 1))], dice=[10])
    assert out["creatures"]["a"]["at"] == [5, 1]
    assert hp(out, "b") == 10


def test_m08_106_a_charge_crosses_difficult_terrain_at_its_cost():
    """[1,0] 1 + [2,0] 2 + [3,0] 2 + [4,0] 1 = 6, the charger's speed."""
    rows = "..~~....\n"
    out = play(rows, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (5, 0), hp=20)],
               [charge("a", "b", (4, 0))], dice=[10])
    assert out["creatures"]["a"]["at"] == [4, 0]
    assert hp(out, "b") == 10
    e = refused(rows, [cr("a", "x", (0, 0), speed=5, attacks=[SWORD]), cr("b", "y", (5, 0), hp=20)],
                [charge("a", "b", (4, 0))], dice=[10])
    assert e.rule == "M08-105"


def test_m08_106_no_move_after_a_charge():
    e = refused(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (4, 1), hp=20)],
                [charge("a", "b", (3, 1)), {"actor": "a", "do": "move", "to": [3, 0]}], dice=[10])
    assert e.index == 1
    assert e.rule in ("M08-106", "M08-039")


def test_m08_107_powerful_charge_adds_damage_to_a_charge_only():
    power = [{"name": "powerful_charge", "kind": "charge_damage", "amount": 10}]
    out = play(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD], special_powers=power), cr("b", "y", (4, 1), hp=30)],
               [charge("a", "b", (3, 1))], dice=[10])
    assert damage_amounts(out) == [("b", 20)]
    out = play(FIELD, [cr("a", "x", (3, 1), attacks=[SWORD], special_powers=power), cr("b", "y", (4, 1), hp=30)],
               [hit("a", "b")], dice=[10])
    assert damage_amounts(out) == [("b", 10)]


def test_m08_107_a_critical_charge_doubles_the_attack_not_the_powerful_charge():
    """20 doubled, plus Powerful Charge 10 (an extra effect, not increased, M08-074): 30."""
    power = [{"name": "powerful_charge", "kind": "charge_damage", "amount": 10}]
    out = play(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD], special_powers=power), cr("b", "y", (4, 1), hp=50)],
               [charge("a", "b", (3, 1))], dice=[20])
    assert damage_amounts(out) == [("b", 30)]


# M08-108..M08-112: combat advantage.


def test_m08_109_flanking_gives_plus_2():
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("c", "x", (2, 1)), cr("b", "y", (1, 1), hp=20)],
               [{"ask": "flanking", "attacker": "a", "target": "b"}, hit("a", "b")], dice=[10])
    assert out["answers"][0]["value"] is True
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_110_opposite_corners_flank():
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("c", "x", (2, 2)), cr("b", "y", (1, 1), hp=20)],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_110_an_ally_not_opposite_does_not_flank():
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("c", "x", (1, 0)), cr("b", "y", (1, 1), hp=20)],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 15, True, False)]


@pytest.mark.parametrize("condition", ["dazed", "stunned", "helpless", "staggered"])
def test_m08_109_an_ally_that_is_dazed_or_worse_cannot_flank(condition):
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("c", "x", (2, 1), conditions=[condition]),
                      cr("b", "y", (1, 1), hp=20)],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 15, True, False)]


def test_m08_111_a_large_creature_flanks_from_any_of_its_squares():
    """Large c covers [2..3, 1..2]; its square [2, 2] is opposite a [0, 0] across b [1, 1]."""
    rows = "......\n......\n......\n......\n"
    out = play(rows, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("c", "x", (2, 1), size="large"),
                      cr("b", "y", (1, 1), hp=20)],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_139_a_dazed_attacker_cannot_flank():
    out = play(OPEN, [cr("a", "x", (0, 1), conditions=["dazed"], attacks=[SWORD]), cr("c", "x", (2, 1)),
                      cr("b", "y", (1, 1), hp=20)],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 15, True, False)]


def test_m08_079_charge_combat_advantage_sneak_attack_and_powerful_charge_all_stack():
    """10 + 5 + 1 (charge) + 2 (dazed target) = 18; damage 10 + 10 (Powerful Charge) + 10 (Sneak Attack)."""
    powers = [{"name": "powerful_charge", "kind": "charge_damage", "amount": 10},
              {"name": "sneak_attack", "kind": "sneak_attack", "amount": 10}]
    out = play(FIELD, [cr("a", "x", (0, 1), attacks=[SWORD], special_powers=powers),
                       cr("b", "y", (4, 1), hp=50, conditions=["dazed"])],
               [charge("a", "b", (3, 1))], dice=[10])
    assert rolls(out) == [("b", 10, 18, True, False)]
    assert damage_amounts(out) == [("b", 30)]


@pytest.mark.parametrize("condition", ["dazed", "staggered", "stunned"])
def test_m08_108_a_dazed_staggered_or_stunned_target_grants_plus_2(condition):
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (1, 1), hp=20, conditions=[condition])],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_108_several_sources_of_combat_advantage_give_plus_2_once():
    """Dazed and flanked: still +2 (GAP-M08-2: combat advantage +2, from the seed's text)."""
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("c", "x", (2, 1)),
                      cr("b", "y", (1, 1), hp=20, conditions=["dazed"])],
               [hit("a", "b")], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_112_combat_advantage_applies_to_ranged_attacks():
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[BOW]), cr("b", "y", (5, 3), hp=20, conditions=["dazed"])],
               [hit("a", "b", "bow")], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_108_an_attacker_the_target_cannot_see_has_combat_advantage():
    out = play(OPEN, [cr("a", "x", (0, 0), conditions=["invisible"], attacks=[BOW]), cr("b", "y", (5, 3), hp=20)],
               [hit("a", "b", "bow")], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_142_melee_against_a_helpless_target_is_a_critical_hit():
    """A 2 against AC 30 is an automatic critical hit: 10 doubled."""
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[SWORD]), cr("b", "y", (1, 1), hp=30, ac=30,
                                                               conditions=["helpless"])],
               [hit("a", "b")], dice=[2])
    (e,) = attacks(out)
    assert (e["roll"], e["hit"], e["critical"]) == (2, True, True)
    assert hp(out, "b") == 10


def test_m08_142_other_attacks_against_a_helpless_target_get_plus_4_and_combat_advantage():
    """10 + 5 + 2 (combat advantage, as stunned) + 4 = 21; not a critical hit."""
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[BOW]), cr("b", "y", (5, 3), hp=30, ac=21,
                                                              conditions=["helpless"])],
               [hit("a", "b", "bow")], dice=[10])
    assert rolls(out) == [("b", 10, 21, True, False)]
    assert hp(out, "b") == 20


# M08-121..M08-130: terrain.


def reachable(out: dict[str, Any], index: int = 0) -> dict[tuple[int, int], int]:
    return {(sq[0], sq[1]): cost for sq, cost in out["answers"][index]["value"]}


def test_m08_121_difficult_terrain_costs_2_a_square():
    out = play("..~~....\n", [cr("a", "x", (0, 0))], [{"ask": "reachable", "actor": "a"}])
    costs = reachable(out)
    assert [costs.get((x, 0)) for x in range(1, 7)] == [1, 3, 5, 6, None, None]


def test_m08_123_blood_rock_melee_crits_on_19_even_against_crit_immunity():
    rows = "B.....\n......\n"
    out = play(rows, [cr("a", "x", (0, 0), attacks=[SWORD]),
                      cr("b", "y", (1, 0), ac=40, hp=30, abilities={"immune": ["critical_hits"]})],
               [hit("a", "b")], dice=[19])
    (e,) = attacks(out)
    assert (e["roll"], e["total"], e["hit"], e["critical"]) == (19, 24, True, True)
    assert hp(out, "b") == 10


def test_m08_123_blood_rock_does_not_make_18_a_critical_hit():
    out = play("B.....\n", [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 0), ac=40, hp=30)],
               [hit("a", "b")], dice=[18])
    assert rolls(out) == [("b", 18, 23, False, False)]


def test_m08_123_blood_rock_does_not_help_ranged_attacks():
    out = play("B.....\n", [cr("a", "x", (0, 0), attacks=[BOW]), cr("b", "y", (4, 0), ac=40, hp=30)],
               [hit("a", "b", "bow")], dice=[19])
    assert rolls(out) == [("b", 19, 24, False, False)]


def test_m08_123_blood_rock_under_the_target_does_nothing():
    out = play(".B....\n", [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 0), ac=40, hp=30)],
               [hit("a", "b")], dice=[19])
    assert rolls(out) == [("b", 19, 24, False, False)]


def test_m08_124_forest_is_difficult_terrain():
    out = play("..T.....\n", [cr("a", "x", (0, 0))], [{"ask": "reachable", "actor": "a"}])
    costs = reachable(out)
    assert [costs.get((x, 0)) for x in range(1, 6)] == [1, 3, 4, 5, 6]


def test_m08_124_forest_gives_cover_against_ranged_attacks_not_melee():
    rows = "......\n..T...\n......\n"
    out = play(rows, [cr("archer", "x", (0, 1), attacks=[BOW]), cr("orc", "y", (4, 1), ac=15, hp=20)],
               [{"ask": "line_of_sight", "from": "archer", "to": "orc"}, hit("archer", "orc", "bow")], dice=[12])
    assert out["answers"][0]["value"] is True
    assert rolls(out) == [("orc", 12, 15, True, False)]
    out = play(rows, [cr("a", "x", (1, 1), attacks=[SWORD]), cr("orc", "y", (2, 2), ac=15, hp=20)],
               [hit("a", "orc")], dice=[12])
    assert rolls(out) == [("orc", 12, 17, True, False)]


FOREST_GAP = "....\n#T#.\n....\n"
"""Between a [0, 0] and b [2, 2] every line crosses a wall or runs through the forest square [1, 1] from
one side (or corner) to the opposite one, e.g. its diagonal from [1, 1] to [2, 2]."""


def test_m08_124_forest_blocks_sight_across_a_whole_square_but_not_effect():
    creatures = [cr("a", "x", (0, 0), attacks=[atk("bolt", kind="ranged", range=5, bonus=5, damage="5")]),
                 cr("b", "y", (2, 2))]
    out = play(FOREST_GAP, creatures, [{"ask": "line_of_sight", "from": "a", "to": "b"},
                                       {"ask": "line_of_effect", "from": "a", "to": "b"}])
    assert [a["value"] for a in out["answers"]] == [False, True]
    e = refused(FOREST_GAP, creatures, [hit("a", "b", "bolt")], dice=[15])
    assert e.rule == "M08-082"
    out = play(FOREST_GAP.replace("T", "."), creatures, [{"ask": "line_of_sight", "from": "a", "to": "b"}])
    assert out["answers"][0]["value"] is True


def test_m08_124_forest_clipped_at_a_corner_does_not_block_sight():
    """From a [1, 0] to b [3, 2] a line from [2, 0] to [4, 2] only touches the forest's corner [3, 1]."""
    rows = "......\n..T...\n......\n"
    out = play(rows, [cr("a", "x", (1, 0), attacks=[BOW]), cr("b", "y", (3, 2), hp=20)],
               [{"ask": "line_of_sight", "from": "a", "to": "b"}, hit("a", "b", "bow")], dice=[15])
    assert out["answers"][0]["value"] is True
    assert hp(out, "b") == 10


PIT = "......\n..O...\n......\n"


def test_m08_125_only_flyers_may_enter_a_pit():
    e = refused(PIT, [cr("a", "x", (0, 1)), cr("b", "y", (5, 2))], [{"actor": "a", "do": "move", "to": [2, 1]}])
    assert e.rule in ("M08-125", "M08-042")
    out = play(PIT, [cr("a", "x", (0, 1), speed="F6", abilities={"flight": True}), cr("b", "y", (5, 2))],
               [{"actor": "a", "do": "move", "to": [2, 1]}])
    assert out["creatures"]["a"]["at"] == [2, 1]
    assert status(out, "a") == "active"


def test_m08_125_a_creature_ending_its_turn_in_a_pit_is_destroyed():
    out = play(PIT, [cr("a", "x", (0, 1), cost=18, speed="F6", abilities={"flight": True}), cr("a2", "x", (0, 0)),
                     cr("b", "y", (5, 2))],
               [{"actor": "a", "do": "move", "to": [2, 1]}, end("a")])
    assert status(out, "a") == "dead"
    assert out["score"] == {"x": 0, "y": 18}


def test_m08_125_a_flyer_passing_over_a_pit_is_safe():
    out = play(PIT, [cr("a", "x", (0, 1), speed="F6", abilities={"flight": True}), cr("b", "y", (5, 2))],
               [{"actor": "a", "do": "move", "to": [4, 1]}, end("a")])
    assert status(out, "a") == "active"
    assert out["creatures"]["a"]["at"] == [4, 1]


SHOVE = atk("shove", bonus=5, damage="5", effects=["push 1"])


def test_m08_126_pushed_into_a_pit_the_second_attack_hits_and_destroys():
    """Hit (15), pushed into the pit, second attack 5 + 5 = 10 against AC 10: destroyed, cost scored."""
    out = play(PIT, [cr("a", "x", (0, 1), attacks=[SHOVE]), cr("b", "y", (1, 1), cost=22, hp=20),
                     cr("b2", "y", (5, 2))],
               [hit("a", "b", "shove")], dice=[15, 5])
    assert [(e["roll"], e["total"], e["against"], e["hit"]) for e in attacks(out)] == [
        (15, 20, 10, True), (5, 10, 10, True)]
    assert status(out, "b") == "dead"
    assert out["score"]["x"] == 22
    assert events(out, "opportunity") == []


def test_m08_126_pushed_into_a_pit_a_missed_second_attack_leaves_it_beside_the_pit():
    out = play(PIT, [cr("a", "x", (0, 1), attacks=[SHOVE]), cr("b", "y", (1, 1), hp=20), cr("b2", "y", (5, 2))],
               [hit("a", "b", "shove")], dice=[15, 4])
    assert [(e["roll"], e["total"], e["hit"]) for e in attacks(out)] == [(15, 20, True), (4, 9, False)]
    assert status(out, "b") == "active"
    assert hp(out, "b") == 15
    x, y = out["creatures"]["b"]["at"]
    assert PIT.splitlines()[y][x] == "."
    assert max(abs(x - 2), abs(y - 1)) == 1


LARGE_PIT = "......\n...O..\n...O..\n......\n"


@pytest.mark.parametrize(("roll", "destroyed"), [(7, True), (6, False)])
def test_m08_127_a_large_target_gets_plus_1_per_square_outside_the_pit(roll, destroyed):
    """Large b pushed from [1..2, 1..2] to [2..3, 1..2]: two squares in the pit, two outside: AC 10 + 2."""
    out = play(LARGE_PIT, [cr("a", "x", (0, 1), attacks=[SHOVE]), cr("b", "y", (1, 1), size="large", hp=30),
                           cr("b2", "y", (5, 3))],
               [hit("a", "b", "shove")], dice=[15, roll])
    second = attacks(out)[1]
    assert (second["roll"], second["total"], second["against"]) == (roll, roll + 5, 12)
    assert status(out, "b") == ("dead" if destroyed else "active")


def test_m08_128_a_creature_in_a_sacred_circle_gets_plus_2_and_its_target_does_not():
    rows = "C.....\n"
    out = play(rows, [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 0), hp=20)], [hit("a", "b")],
               dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]
    out = play(".C....\n", [cr("a", "x", (0, 0), attacks=[SWORD]), cr("b", "y", (1, 0), hp=20)], [hit("a", "b")],
               dice=[10])
    assert rolls(out) == [("b", 10, 15, True, False)]


def test_m08_128_a_sacred_circle_does_not_slow_movement():
    out = play("CCCCCCCC\n", [cr("a", "x", (0, 0))], [{"ask": "reachable", "actor": "a"}])
    assert reachable(out)[(6, 0)] == 6


SMOKE = "......\n..S...\n......\n"


def test_m08_129_a_creature_in_smoke_cannot_be_targeted_from_beyond_adjacent():
    e = refused(SMOKE, [cr("a", "x", (0, 1), attacks=[BOW]), cr("b", "y", (2, 1))], [hit("a", "b", "bow")], dice=[15])
    assert e.rule == "M08-082"


def test_m08_129_a_creature_in_smoke_is_seen_normally_when_adjacent():
    out = play(SMOKE, [cr("a", "x", (1, 1), attacks=[SWORD]), cr("b", "y", (2, 1), hp=20)], [hit("a", "b")],
               dice=[10])
    assert rolls(out) == [("b", 10, 15, True, False)]


def test_m08_129_a_creature_in_smoke_cannot_target_beyond_adjacent():
    e = refused(SMOKE, [cr("a", "x", (2, 1), attacks=[BOW]), cr("b", "y", (5, 1))], [hit("a", "b", "bow")], dice=[15])
    assert e.rule == "M08-082"


def test_m08_129_smoke_does_not_block_effect_and_its_occupant_grants_combat_advantage():
    """A fireball on the creature in smoke: it cannot see the caster, so the caster has +2."""
    fireball = atk("fireball", kind="area", range=10, area="radius 1", bonus=5, damage="5")
    out = play(SMOKE, [cr("a", "x", (0, 1), attacks=[fireball]), cr("b", "y", (2, 1))],
               [{"actor": "a", "do": "attack", "with": "fireball", "at": [2, 1]}], dice=[10])
    assert rolls(out) == [("b", 10, 17, True, False)]


def test_m08_129_smoke_does_not_slow_movement():
    out = play("SSSSSSSS\n", [cr("a", "x", (0, 0))], [{"ask": "reachable", "actor": "a"}])
    assert reachable(out)[(6, 0)] == 6


STATUES = "..I...\n..I...\n..I...\n"


def test_m08_130_a_statue_costs_2_and_cannot_be_ended_on():
    out = play("..I.....\n", [cr("a", "x", (0, 0))], [{"ask": "reachable", "actor": "a"}])
    costs = reachable(out)
    assert (2, 0) not in costs
    assert [costs.get((x, 0)) for x in (1, 3, 4)] == [1, 4, 5]
    e = refused("..I.....\n", [cr("a", "x", (0, 0)), cr("b", "y", (7, 0))],
                [{"actor": "a", "do": "move", "to": [2, 0]}])
    assert e.rule in ("M08-130", "M08-042")


def test_m08_130_statues_give_cover_but_do_not_block_sight():
    out = play(STATUES, [cr("a", "x", (0, 1), attacks=[BOW]), cr("b", "y", (4, 1), ac=15, hp=20)],
               [{"ask": "line_of_sight", "from": "a", "to": "b"}, hit("a", "b", "bow")], dice=[12])
    assert out["answers"][0]["value"] is True
    assert rolls(out) == [("b", 12, 15, True, False)]


# M08-134..M08-147: durations, conditions and saving throws.


def activate(actor: str) -> dict[str, Any]:
    return {"actor": actor, "do": "activate"}


def test_m08_134_icy_ray_slows_each_target_until_the_end_of_its_own_next_turn():
    """The Drow Wand Mage's Icy Ray: 3 targets, 25 cold and slowed; b1's slow ends with b1's turn, b2's
    with b2's."""
    ray = atk("icy_ray", kind="ranged", range=10, targets=3, bonus=11, vs="fort", damage="25 cold",
              effects=["slowed"])
    creatures = [cr("mage", "x", (0, 0), attacks=[ray]), cr("b1", "y", (5, 0), hp=40), cr("b2", "y", (5, 2), hp=40)]
    steps = [{"actor": "mage", "do": "attack", "with": "icy_ray", "targets": ["b1", "b2"]}, end("mage"),
             activate("b1"), end("b1"), activate("b2"), end("b2")]
    out = play(OPEN, creatures, steps[:4], dice=[15, 15])
    assert (hp(out, "b1"), hp(out, "b2")) == (15, 15)
    assert (conds(out, "b1"), conds(out, "b2")) == ([], ["slowed"])
    out = play(OPEN, creatures, steps, dice=[15, 15])
    assert (conds(out, "b1"), conds(out, "b2")) == ([], [])


def test_m08_135_until_the_end_of_the_controlling_players_next_turn():
    """Applied in x's first turn: it outlasts the end of b's own turn and lasts until x's next turn (a2 and
    a3) ends."""
    daze = atk("club", damage="5", effects=[{"condition": "dazed", "duration": "end_of_controller_turn"}])
    creatures = [cr("a", "x", (0, 0), attacks=[daze]), cr("a2", "x", (0, 3)), cr("a3", "x", (1, 3)),
                 cr("b", "y", (1, 0), hp=20), cr("b2", "y", (5, 0)), cr("b3", "y", (5, 3))]
    steps = [hit("a", "b", "club"), end("a"), activate("b"), end("b"), activate("b2"), end("b2"),
             activate("a2"), end("a2"), activate("a3"), end("a3")]
    assert conds(play(OPEN, creatures, steps[:6], dice=[15]), "b") == ["dazed"]
    assert conds(play(OPEN, creatures, steps[:8], dice=[15]), "b") == ["dazed"]
    assert conds(play(OPEN, creatures, steps, dice=[15]), "b") == []


def test_m08_136_until_the_end_of_the_round():
    daze = atk("club", damage="5", effects=[{"condition": "dazed", "duration": "end_of_round"}])
    creatures = [cr("a", "x", (0, 0), attacks=[daze]), cr("b", "y", (1, 0), hp=20), cr("b2", "y", (5, 3))]
    steps = [hit("a", "b", "club"), end("a"), activate("b"), end("b"), activate("b2"), end("b2")]
    assert conds(play(OPEN, creatures, steps[:4], dice=[15]), "b") == ["dazed"]
    out = play(OPEN, creatures, steps, dice=[15, 10, 5])
    assert conds(out, "b") == []
    assert out["round"] == 2
    ends = [i for i, e in enumerate(out["events"]) if e["type"] == "condition_end"]
    rounds = [i for i, e in enumerate(out["events"]) if e["type"] == "round_end"]
    initiative = [i for i, e in enumerate(out["events"]) if e["type"] == "initiative"]
    assert ends and ends[0] < initiative[-1]
    assert rounds and rounds[0] < initiative[-1]


def test_m08_137_until_the_end_of_the_battle():
    curse = atk("curse", damage="5", effects=[{"condition": "slowed", "duration": "end_of_battle"}])
    creatures = [cr("a", "x", (0, 0), attacks=[curse]), cr("b", "y", (1, 0), hp=20)]
    steps = [hit("a", "b", "curse"), end("a"), activate("b"), end("b"), activate("a"), end("a"), activate("b"),
             end("b")]
    out = play(OPEN, creatures, steps, dice=[15, 15, 5])
    assert out["round"] == 3
    assert conds(out, "b") == ["slowed"]


def test_m08_147_one_save_per_save_ends_effect_10_or_more_succeeds():
    """Two save-ends effects: two d20 at the end of b's turn, in the order gained: 9 keeps the slow, 10
    ends the daze."""
    hex_ = atk("hex", damage="5", effects=["slowed save ends", "dazed save ends"])
    creatures = [cr("a", "x", (0, 0), attacks=[hex_]), cr("b", "y", (1, 0), hp=20)]
    out = play(OPEN, creatures, [hit("a", "b", "hex"), end("a"), activate("b")], dice=[15])
    assert conds(out, "b") == ["slowed", "dazed"]
    assert events(out, "save") == []
    out = play(OPEN, creatures, [hit("a", "b", "hex"), end("a"), activate("b"), end("b")], dice=[15, 9, 10])
    assert [(e["roll"], e["success"]) for e in events(out, "save")] == [(9, False), (10, True)]
    assert conds(out, "b") == ["slowed"]


def test_m08_147_no_saving_throw_at_the_end_of_another_creatures_turn():
    hex_ = atk("hex", damage="5", effects=["slowed save ends"])
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[hex_]), cr("b", "y", (1, 0), hp=20), cr("b2", "y", (5, 3))],
               [hit("a", "b", "hex"), end("a"), activate("b2"), end("b2")], dice=[15, 15])
    assert events(out, "save") == []
    assert conds(out, "b") == ["slowed"]


def test_m08_137_ongoing_damage_at_the_start_of_the_turn_until_saved():
    burn = atk("burn", damage="5 fire", effects=[{"ongoing": 5, "ongoing_type": "fire"}])
    creatures = [cr("a", "x", (0, 0), attacks=[burn]), cr("b", "y", (1, 0), hp=30)]
    out = play(OPEN, creatures, [hit("a", "b", "burn"), end("a"), activate("b"), end("b")], dice=[15, 12])
    assert hp(out, "b") == 20
    assert [(e["roll"], e["success"]) for e in events(out, "save")] == [(12, True)]
    assert conds(out, "b") == []


def test_m08_138_a_condition_outlasts_the_creature_that_caused_it():
    """a slows b (save ends) and is destroyed by b; b fails its save (5) and stays slowed."""
    creatures = [cr("a", "x", (0, 0), hp=5, attacks=[atk("frost", damage="5", effects=["slowed save ends"])]),
                 cr("a2", "x", (0, 3)), cr("b", "y", (1, 0), hp=20, attacks=[SWORD])]
    out = play(OPEN, creatures, [hit("a", "b", "frost"), end("a"), hit("b", "a"), end("b")], dice=[15, 15, 5])
    assert status(out, "a") == "dead"
    assert conds(out, "b") == ["slowed"]


def test_m08_139_a_dazed_creature_makes_no_opportunity_attack():
    out = play(OPEN, [cr("b", "x", (1, 1), hp=20), cr("a", "y", (0, 1), conditions=["dazed"], attacks=[SWORD])],
               [{"actor": "b", "do": "move", "to": [4, 1]}], dice=[15])
    assert events(out, "opportunity") == []
    assert out["creatures"]["b"]["at"] == [4, 1]
    assert hp(out, "b") == 20


def test_m08_139_a_dazed_champion_uses_no_champion_power_outside_its_own_turn():
    rogue = cr("rogue", "x", (0, 0), attacks=[SWORD])
    e = refused(OPEN, [rogue, cr("master", "x", (0, 2), conditions=["dazed"], **BATTLEMASTER), cr("b", "y", (1, 0))],
                [{**hit("rogue", "b"), "power": {"champion": "master", "name": "battle_command"}}], dice=[10])
    assert e.rule == "M08-151"


@pytest.mark.parametrize("condition", ["staggered", "confused"])
def test_m08_140_m08_144_a_staggered_or_confused_champion_uses_no_champion_power(condition):
    rogue = cr("rogue", "x", (0, 0), attacks=[SWORD])
    e = refused(OPEN, [rogue, cr("master", "x", (0, 2), conditions=[condition], **BATTLEMASTER),
                       cr("b", "y", (1, 0))],
                [{**hit("rogue", "b"), "power": {"champion": "master", "name": "battle_command"}}], dice=[10])
    assert e.rule == "M08-151"


def test_m08_141_a_stunned_creature_is_inactive_and_makes_no_opportunity_attack():
    out = play(OPEN, [cr("b", "x", (1, 1), hp=20), cr("a", "y", (0, 1), conditions=["stunned"], attacks=[SWORD])],
               [{"actor": "b", "do": "move", "to": [4, 1]}], dice=[15])
    assert events(out, "opportunity") == []
    assert hp(out, "b") == 20


def test_m08_141_a_stunned_creature_cannot_move():
    e = refused(OPEN, [cr("a", "x", (0, 1), conditions=["stunned"], attacks=[SWORD]), cr("b", "y", (5, 1))],
                [{"actor": "a", "do": "move", "to": [2, 1]}])
    assert e.index == 0


@pytest.mark.parametrize(("condition", "rules"), [("stunned", ("M08-141",)), ("immobilized", ("M08-143",))])
def test_m08_141_m08_143_a_refused_move_names_the_condition_rule(condition, rules):
    e = refused(OPEN, [cr("a", "x", (0, 1), conditions=[condition]), cr("b", "y", (5, 1))],
                [{"actor": "a", "do": "move", "to": [2, 1]}])
    assert e.rule in rules


@pytest.mark.parametrize("condition", ["stunned", "helpless"])
def test_m08_141_a_stunned_or_helpless_creature_cannot_attack(condition):
    e = refused(OPEN, [cr("a", "x", (0, 1), conditions=[condition], attacks=[SWORD]), cr("b", "y", (1, 1), hp=20)],
                [hit("a", "b")], dice=[15])
    assert e.rule in ("M08-141", "M08-142")


def test_m08_141_a_stunned_creature_can_still_be_activated_and_end_its_turn():
    out = play(OPEN, [cr("a", "x", (0, 1), conditions=["stunned"], attacks=[SWORD]), cr("b", "y", (1, 1), hp=20)],
               [activate("a"), end("a")])
    assert [e["creature"] for e in events(out, "inactive")] == ["a"]
    assert events(out, "attack") == []


def test_m08_143_an_immobilized_creature_cannot_move_but_attacks_and_can_be_pushed():
    creatures = [cr("a", "x", (0, 1), conditions=["immobilized"], attacks=[SWORD]), cr("b", "y", (1, 1), hp=20)]
    assert refused(OPEN, creatures, [{"actor": "a", "do": "move", "to": [0, 2]}]).index == 0
    assert refused(OPEN, creatures, [{"actor": "a", "do": "shift", "to": [0, 2]}]).index == 0
    out = play(OPEN, creatures, [hit("a", "b")], dice=[15])
    assert hp(out, "b") == 10
    out = play(OPEN, [cr("a", "x", (0, 1), attacks=[SHOVE]), cr("b", "y", (1, 1), hp=20, conditions=["immobilized"])],
               [hit("a", "b", "shove")], dice=[15])
    assert out["creatures"]["b"]["at"][0] == 2


def test_m08_143_an_immobilized_creature_cannot_charge():
    e = refused(FIELD, [cr("a", "x", (0, 1), conditions=["immobilized"], attacks=[SWORD]), cr("b", "y", (4, 1))],
                [charge("a", "b", (3, 1))], dice=[10])
    assert e.rule == "M08-103"


CONFUSED = [cr("a", "x", (1, 1), conditions=["confused"], cost=16, attacks=[SWORD]), cr("c", "x", (2, 1), hp=30,
            attacks=[SWORD]), cr("b", "y", (0, 1), hp=30)]


@pytest.mark.parametrize("roll", [1, 5])
def test_m08_144_confused_1_to_5_its_own_player_controls_it(roll):
    out = play(OPEN, CONFUSED, [hit("a", "b")], dice=[roll, 15])
    assert [e["roll"] for e in events(out, "confused")] == [roll]
    assert hp(out, "b") == 20


@pytest.mark.parametrize("roll", [6, 15])
def test_m08_144_confused_6_to_15_it_takes_no_action(roll):
    e = refused(OPEN, CONFUSED, [{"actor": "a", "do": "move", "to": [1, 3]}], dice=[roll])
    assert e.index == 0
    out = play(OPEN, CONFUSED, [activate("a"), end("a")], dice=[roll])
    assert [e["roll"] for e in events(out, "confused")] == [roll]


def test_m08_144_confused_6_to_15_it_cannot_attack():
    e = refused(OPEN, CONFUSED, [hit("a", "b")], dice=[10, 15])
    assert e.index == 0


@pytest.mark.parametrize("roll", [16, 20])
def test_m08_144_confused_16_to_20_the_opponent_controls_it_for_that_turn(roll):
    """Controlled by y, a attacks its own ally c (now its enemy) and cannot attack b."""
    out = play(OPEN, CONFUSED, [hit("a", "c")], dice=[roll, 15])
    assert hp(out, "c") == 20
    e = refused(OPEN, CONFUSED, [hit("a", "b")], dice=[roll, 15])
    assert e.rule == "M08-064"


def test_m08_144_the_confused_creature_returns_to_its_player_after_that_turn():
    """After its turn under y's control, a is x's again: b may attack it and y scores its cost."""
    creatures = [*CONFUSED[:2], {**CONFUSED[2], "stats": {"attacks": [SWORD]}}]
    out = play(OPEN, creatures, [hit("a", "c"), end("a"), hit("b", "a")], dice=[16, 15, 15])
    assert hp(out, "c") == 20
    assert status(out, "a") == "dead"
    assert out["score"] == {"x": 0, "y": 16}


def test_m08_144_destroyed_while_the_opponent_controls_it_it_scores_for_the_opponent():
    """Controlled by y, a leaves c's side; c's opportunity attack destroys it; it reverts to x before the
    VP: y scores its 16."""
    out = play(OPEN, CONFUSED, [{"actor": "a", "do": "move", "to": [1, 3]}], dice=[17, 15])
    assert [(e["actor"], e["target"]) for e in events(out, "opportunity")] == [("c", "a")]
    assert status(out, "a") == "dead"
    assert out["score"] == {"x": 0, "y": 16}


def test_m08_144_a_confused_creature_makes_no_opportunity_attack():
    out = play(OPEN, [cr("b", "x", (1, 1), hp=20), cr("a", "y", (0, 1), conditions=["confused"], attacks=[SWORD])],
               [{"actor": "b", "do": "move", "to": [4, 1]}], dice=[15])
    assert events(out, "opportunity") == []


def test_m08_145_an_enervated_creature_deals_half_damage():
    out = play(OPEN, [cr("a", "x", (0, 0), conditions=["enervated"], attacks=[atk("axe", damage="20")]),
                      cr("b", "y", (1, 0), hp=30)],
               [hit("a", "b", "axe")], dice=[15])
    assert damage_amounts(out) == [("b", 10)]
    out = play(OPEN, [cr("a", "x", (0, 0), conditions=["enervated"], attacks=[atk("axe", damage="20")]),
                      cr("b", "y", (1, 0), hp=50)],
               [hit("a", "b", "axe")], dice=[20])
    assert damage_amounts(out) == [("b", 20)]


def test_m08_146_a_slowed_creature_has_speed_2():
    creatures = [cr("a", "x", (0, 0), conditions=["slowed"]), cr("b", "y", (5, 3))]
    out = play(OPEN, creatures, [{"ask": "reachable", "actor": "a"}])
    assert max(reachable(out).values()) == 2
    assert (2, 2) in reachable(out)
    e = refused(OPEN, creatures, [{"actor": "a", "do": "move", "to": [3, 0]}])
    assert e.index == 0


# M08-148..M08-151: abilities, special powers and champion powers.


def test_m08_148_a_passive_ability_works_while_the_creature_is_unactivated_and_stunned():
    out = play(OPEN, [cr("a", "x", (0, 0), attacks=[atk("flame", damage="10 fire")]),
                      cr("b", "y", (1, 0), hp=20, conditions=["stunned"], abilities={"resist": {"fire": 5}})],
               [hit("a", "b", "flame")], dice=[15])
    assert hp(out, "b") == 15


HEALER = {"special_powers": [{"name": "cure", "kind": "heal", "amount": 10, "range": 2}]}


def test_m08_149_a_special_power_that_costs_an_attack_action():
    creatures = [cr("cleric", "x", (0, 0), attacks=[SWORD], **HEALER), cr("c", "x", (2, 0), hp=30, hp_now=5),
                 cr("b", "y", (1, 1))]
    out = play(OPEN, creatures, [{"actor": "cleric", "do": "use", "power": "cure", "target": "c"}])
    assert hp(out, "c") == 15
    e = refused(OPEN, creatures, [{"actor": "cleric", "do": "use", "power": "cure", "target": "c"},
                                  hit("cleric", "b")], dice=[15])
    assert e.index == 1


def test_m08_149_a_special_power_has_its_range():
    e = refused(OPEN, [cr("cleric", "x", (0, 0), **HEALER), cr("c", "x", (3, 0), hp=30, hp_now=5),
                       cr("b", "y", (5, 3))],
                [{"actor": "cleric", "do": "use", "power": "cure", "target": "c"}])
    assert e.rule == "M08-149"


def test_m08_149_special_powers_only_on_the_creatures_own_turn():
    e = refused(OPEN, [cr("a", "x", (5, 3)), cr("cleric", "y", (0, 0), **HEALER), cr("c", "y", (1, 0), hp=30,
                                                                                     hp_now=5)],
                [{"actor": "cleric", "do": "use", "power": "cure", "target": "c"}])
    assert e.index == 0
    assert e.rule in ("M08-149", "M08-031")


def test_m08_141_a_stunned_creature_uses_no_special_power():
    e = refused(OPEN, [cr("cleric", "x", (0, 0), conditions=["stunned"], **HEALER),
                       cr("c", "x", (1, 0), hp=30, hp_now=5), cr("b", "y", (5, 3))],
                [{"actor": "cleric", "do": "use", "power": "cure", "target": "c"}])
    assert e.index == 0


def test_m08_144_a_confused_creature_uses_no_special_power():
    e = refused(OPEN, [cr("cleric", "x", (0, 0), conditions=["confused"], **HEALER),
                       cr("c", "x", (1, 0), hp=30, hp_now=5), cr("b", "y", (5, 3))],
                [{"actor": "cleric", "do": "use", "power": "cure", "target": "c"}], dice=[3])
    assert e.rule in ("M08-149", "M08-144")


def test_m08_150_a_champion_spends_its_rating_in_uses_at_its_powers_cost():
    """Champion 3, a power costing 2: used once (1 use left), then refused."""
    master = cr("master", "x", (0, 3), champion=3, champion_powers=[
        {"name": "battle_command", "trigger": "ally_hits", "amount": 10, "range": 6, "cost": 2}])
    creatures = [cr("a1", "x", (0, 0), attacks=[SWORD]), cr("a2", "x", (2, 1), attacks=[SWORD]), master,
                 cr("b", "y", (1, 0), hp=60), cr("b2", "y", (5, 3)), cr("b3", "y", (5, 2))]
    power = {"power": {"champion": "master", "name": "battle_command"}}
    steps = [{**hit("a1", "b"), **power}, end("a1"), activate("b2"), end("b2"), activate("b3"), end("b3"),
             {**hit("a2", "b"), **power}]
    e = refused(OPEN, creatures, steps, dice=[15, 15])
    assert e.index == 6
    assert e.rule in ("M08-150", "M08-151")
    out = play(OPEN, creatures, [*steps[:-1], hit("a2", "b")], dice=[15, 15])
    assert damage_amounts(out) == [("b", 20), ("b", 10)]
    assert hp(out, "b") == 30


def test_m08_150_a_champion_power_adds_to_its_own_attack_roll():
    champ = cr("hero", "x", (0, 0), champion=1, attacks=[SWORD], champion_powers=[
        {"name": "heroic_strike", "trigger": "own_attack", "amount": 4}])
    out = play(OPEN, [champ, cr("b", "y", (1, 0), ac=19, hp=20)],
               [{**hit("hero", "b"), "power": {"champion": "hero", "name": "heroic_strike"}}], dice=[10])
    assert rolls(out) == [("b", 10, 19, True, False)]


def test_m08_151_a_champion_power_has_its_range():
    far = cr("master", "x", (5, 3), champion=2, champion_powers=[
        {"name": "battle_command", "trigger": "ally_hits", "amount": 10, "range": 3}])
    e = refused(OPEN, [cr("rogue", "x", (0, 0), attacks=[SWORD]), far, cr("b", "y", (1, 0))],
                [{**hit("rogue", "b"), "power": {"champion": "master", "name": "battle_command"}}], dice=[10])
    assert e.rule == "M08-151"


PRIEST_MAP = {"rows": OPEN, "zones": {"victory_a": {"rect": [[0, 0], [2, 1]]}}}
PRIEST = cr("priest", "x", (0, 3), champion=2, champion_powers=[
    {"name": "healing_word", "trigger": "ally_ends_turn", "amount": 10, "range": 6, "in_victory_area": True}])


def test_m08_151_the_priest_heals_two_allies_at_the_ends_of_their_own_turns():
    creatures = [cr("a1", "x", (0, 0), hp=30, hp_now=5), cr("a2", "x", (1, 1), hp=30, hp_now=5), PRIEST,
                 cr("b1", "y", (5, 3)), cr("b2", "y", (5, 2))]
    heal = {"power": {"champion": "priest", "name": "healing_word"}}
    steps = [{**end("a1"), **heal}, activate("b1"), end("b1"), activate("b2"), end("b2"), {**end("a2"), **heal}]
    out = play(PRIEST_MAP, creatures, steps)
    assert (hp(out, "a1"), hp(out, "a2")) == (15, 15)
    assert [e["actor"] for e in events(out, "champion_power")] == ["priest", "priest"]


def test_m08_151_the_priest_heals_only_an_ally_ending_its_turn_in_the_victory_area():
    creatures = [cr("a1", "x", (4, 3), hp=30, hp_now=5), PRIEST, cr("b1", "y", (5, 0))]
    e = refused(PRIEST_MAP, creatures, [{**end("a1"), "power": {"champion": "priest", "name": "healing_word"}}])
    assert e.rule == "M08-151"


def test_m08_151_the_priest_cannot_heal_itself():
    creatures = [cr("a1", "x", (4, 3)), {**PRIEST, "at": [0, 0], "hp": 5}, cr("b1", "y", (5, 0))]
    e = refused(PRIEST_MAP, creatures, [{**end("priest"), "power": {"champion": "priest", "name": "healing_word"}}])
    assert e.rule == "M08-151"


def test_m08_108_state_answers_combat_advantage_as_the_rules_do():
    """M08-108: the state's own question (the browser's target marks) agrees with the rules' reason."""
    from skirmish.rulesets.ddm2008 import sight as rules
    from skirmish.rulesets.ddm2008.setup import new_game

    state = new_game([("a", ["hillfort-spearman", "hillfort-spearman"]), ("b", ["gloomfang-goblin"])],
                     ["broken-bridge-shrine"], 1)
    a1, a2, g = (state.creatures[i] for i in ("hillfort-spearman-1", "hillfort-spearman-2", "gloomfang-goblin"))
    for c in (a1, a2, g):
        c.status = "active"
    g.at, a1.at, a2.at = (10, 10), (9, 10), (12, 10)
    assert not state.combat_advantage(a1, g)
    a2.at = (11, 10)  # opposite sides: flanking
    assert state.combat_advantage(a1, g) == (rules.combat_advantage(state, a1, g) is not None) is True
