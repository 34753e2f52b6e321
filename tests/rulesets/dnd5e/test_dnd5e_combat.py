"""dnd5e combat rules: attack rolls, ranges, reach, two-weapon fighting, cover, damage, critical hits,
resistance, healing, dropping to 0 hit points, death saves, stabilizing, knocking out, temporary hit
points, the SRD conditions (G5-01), advantage and disadvantage (G5-02), concentration and the spells
(G5-12).

Every test plays a small scenario through the scenario runner with forced dice, in the engine's roll
order: the attack d20 (a second d20 with advantage or disadvantage), bless d4, the damage dice (a
critical hit rolls each die twice, then the extra dice such as Sneak Attack twice), saving throws, the
concentration save; death saves at the start of a turn. Each test names its checklist id
(``shared/rules/dnd5e.md``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
import yaml

from skirmish.errors import ContentError
from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import StepRefused, run

OPEN = ["............", "............", "............", "............", "............"]
"""The default map: open floor, 12 x 5."""

SWORD = {"name": "sword", "bonus": 5, "damage": "1d8+3 slashing"}
BOW = {"name": "bow", "kind": "ranged", "range": [4, 12], "bonus": 5, "damage": "1d6+3 piercing"}
GLAIVE = {"name": "glaive", "bonus": 5, "damage": "1d10+3 slashing", "range": 2, "properties": ["reach"]}
SHORTSWORD = {"name": "shortsword", "bonus": 5, "damage": "1d6+3 piercing", "properties": ["finesse", "light"],
              "ability": "dex"}
DAGGER = {"name": "dagger", "bonus": 5, "damage": "1d4+3 piercing", "properties": ["finesse", "light", "thrown"],
          "ability": "dex"}
DAGGER_THROWN = {"name": "dagger_thrown", "kind": "ranged", "range": [4, 12], "bonus": 5, "damage": "1d4+3 piercing",
                 "properties": ["finesse", "light", "thrown"], "ability": "dex"}


# Building and playing scenarios.


def cr(cid: str, side: str, at: Iterable[int], *, hero: bool = False, cur: int | None = None,
       temp_hp: int | None = None, conditions: list[str] | None = None, **stats: Any) -> dict[str, Any]:
    """A creature entry with inline ``stats`` from the keyword arguments (``hp`` is the maximum);
    ``cur`` is its current hit points."""
    out: dict[str, Any] = {"id": cid, "side": side, "at": list(at), "stats": stats}
    if hero:
        out["hero"] = True
    if cur is not None:
        out["hp"] = cur
    if temp_hp is not None:
        out["temp_hp"] = temp_hp
    if conditions:
        out["conditions"] = conditions
    return out


def fighter(cid: str = "a", at: Iterable[int] = (0, 0), side: str = "heroes", **kw: Any) -> dict[str, Any]:
    kw.setdefault("attacks", [SWORD])
    return cr(cid, side, at, **kw)


def target(cid: str = "t", at: Iterable[int] = (1, 0), side: str = "foes", **kw: Any) -> dict[str, Any]:
    kw.setdefault("ac", 12)
    kw.setdefault("hp", 30)
    return cr(cid, side, at, **kw)


def caster(cid: str = "w", at: Iterable[int] = (0, 0), side: str = "heroes", *, spells: list[str],
           ability: str = "int", score: int = 16, slots: dict[int, int] | None = None, **kw: Any) -> dict[str, Any]:
    """A spellcaster: spellcasting ability ``ability`` at ``score``, proficiency +2 unless given."""
    abilities = {ability: score, **kw.pop("abilities", {})}
    return cr(cid, side, at, spellcasting=ability, spells=spells, spell_slots=slots or {1: 4, 2: 3, 3: 2},
              abilities=abilities, **kw)


def scenario(creatures: list[dict[str, Any]], steps: Iterable[dict[str, Any]] = (), *,
             rows: list[str] | None = None, dice: list[int] | None = None,
             order: list[str] | None = None) -> str:
    """The YAML text of a dnd5e scenario; initiative in the creatures' order unless ``order``."""
    doc: dict[str, Any] = {
        "ruleset": "dnd5e",
        "map": {"rows": "\n".join(rows or OPEN) + "\n"},
        "creatures": creatures,
        "dice": list(dice or []),
        "start": {"initiative": order or [c["id"] for c in creatures]},
        "steps": list(steps),
    }
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None)


def play(creatures: list[dict[str, Any]], steps: Iterable[dict[str, Any]] = (), **kw: Any) -> dict[str, Any]:
    """Play a scenario; every die the engine rolls must be one of the forced ``dice``."""
    out = run(load_scenario_text(scenario(creatures, steps, **kw)))
    loose = [e["text"] for e in out["events"] if e["type"] == "roll" and not e.get("forced")]
    assert not loose, f"dice rolled beyond the forced ones: {loose}"
    return out


def refused(creatures: list[dict[str, Any]], steps: Iterable[dict[str, Any]] = (), **kw: Any) -> StepRefused:
    with pytest.raises(StepRefused) as info:
        play(creatures, steps, **kw)
    return info.value


def attack(actor: str, tgt: str, weapon: str = "sword", **kw: Any) -> dict[str, Any]:
    return {"actor": actor, "do": "attack", "with": weapon, "target": tgt, **kw}


def cast(actor: str, spell: str, tgt: str | list[str] | None = None, **kw: Any) -> dict[str, Any]:
    step: dict[str, Any] = {"actor": actor, "do": "cast", "spell": spell, **kw}
    if isinstance(tgt, list):
        step["targets"] = tgt
    elif tgt is not None:
        step["target"] = tgt
    return step


def do(actor: str, verb: str, **kw: Any) -> dict[str, Any]:
    return {"actor": actor, "do": verb, **kw}


def end(actor: str) -> dict[str, Any]:
    return {"actor": actor, "do": "end_turn"}


# Reading the result.


def events(out: dict[str, Any], kind: str | None = None, **fields: Any) -> list[dict[str, Any]]:
    return [e for e in out["events"] if (kind is None or e["type"] == kind)
            and all(e.get(k) == v for k, v in fields.items())]


def attacks(out: dict[str, Any], **fields: Any) -> list[dict[str, Any]]:
    return events(out, "attack", **fields)


def only_attack(out: dict[str, Any], **fields: Any) -> dict[str, Any]:
    found = attacks(out, **fields)
    assert len(found) == 1, found
    return found[0]


def d20s(out: dict[str, Any]) -> list[int]:
    """Every d20 rolled, in order."""
    return [e["result"] for e in events(out, "roll", die=20)]


def dice_of(out: dict[str, Any], sides: int) -> list[int]:
    return [e["result"] for e in events(out, "roll", die=sides)]


def damage(out: dict[str, Any], cid: str) -> list[int]:
    """The amounts of damage a creature took, in order."""
    return [e["amount"] for e in events(out, "damage", target=cid)]


def hp(out: dict[str, Any], cid: str) -> int:
    return out["creatures"][cid]["hp"]


def temp(out: dict[str, Any], cid: str) -> int:
    return out["creatures"][cid]["temp_hp"]


def status(out: dict[str, Any], cid: str) -> str:
    return out["creatures"][cid]["status"]


def conds(out: dict[str, Any], cid: str) -> list[str]:
    return out["creatures"][cid]["conditions"]


def failures(out: dict[str, Any], cid: str) -> list[int]:
    """The failed-death-save tallies recorded when the creature took damage at 0 hit points."""
    return [e["failures"] for e in events(out, "death_save", creature=cid) if "failures" in e]


# Attack rolls (E5-078..E5-084).


def test_e5_080_a_total_equal_to_the_ac_hits():
    """E5-080: d20 + bonus >= AC hits: 10 + 5 = 15 against AC 15 hits; 1d8+3 deals 4 + 3."""
    out = play([fighter(), target(ac=15)], [attack("a", "t")], dice=[10, 4])
    a = only_attack(out)
    assert (a["roll"], a["total"], a["against"], a["hit"], a["critical"]) == (10, 15, 15, True, False)
    assert damage(out, "t") == [7]
    assert hp(out, "t") == 23


def test_e5_080_a_total_one_below_the_ac_misses():
    """E5-080: 9 + 5 = 14 against AC 15 misses; no damage is rolled."""
    out = play([fighter(), target(ac=15)], [attack("a", "t")], dice=[9])
    a = only_attack(out)
    assert (a["total"], a["hit"]) == (14, False)
    assert damage(out, "t") == []
    assert d20s(out) == [9] and dice_of(out, 8) == []
    assert hp(out, "t") == 30


def test_e5_081_e5_082_e5_084_the_stat_block_bonus_already_holds_ability_and_proficiency():
    """E5-081/E5-082/E5-084: a stat block's attack bonus (+5 = Str +3, proficiency +2) and damage (+3) are
    used as written: the engine adds neither the Strength modifier nor the proficiency bonus again."""
    out = play([fighter(abilities={"str": 16}, proficiency_bonus=2), target(ac=10)],
               [attack("a", "t")], dice=[7, 5])
    a = only_attack(out)
    assert a["total"] == 12
    assert damage(out, "t") == [8]


def test_e5_083_e5_084_a_spell_attack_adds_the_spellcasting_modifier_and_proficiency():
    """E5-083/E5-084: fire bolt from a wizard with Intelligence 16 (+3) and proficiency +2: d20 + 5;
    Strength 20 plays no part."""
    out = play([caster(spells=["fire_bolt"], abilities={"str": 20}), target(at=(3, 0), ac=13)],
               [cast("w", "fire_bolt", "t")], dice=[8, 7])
    a = only_attack(out)
    assert (a["roll"], a["total"], a["against"], a["hit"]) == (8, 13, 13, True)
    assert damage(out, "t") == [7]


def test_e5_083_a_wisdom_caster_uses_wisdom_for_its_spell_attacks():
    """E5-083: a cleric's spellcasting ability is Wisdom: Wisdom 18 (+4) and proficiency +3: d20 + 7."""
    out = play([caster("c", spells=["guiding_bolt"], ability="wis", score=18, proficiency_bonus=3,
                       abilities={"int": 8}),
                target(at=(3, 0), ac=17)],
               [cast("c", "guiding_bolt", "t")], dice=[10, 1, 1, 1, 1])
    a = only_attack(out)
    assert (a["total"], a["hit"]) == (17, True)
    assert damage(out, "t") == [4]


def test_e5_078_e5_091_a_melee_target_must_be_within_reach():
    """E5-078/E5-091/E5-095: the target must be within the attack's range: a 5-foot reach does not reach
    a creature two squares away."""
    err = refused([fighter(), target(at=(2, 0))], [attack("a", "t")])
    assert err.index == 0 and err.actor == "a" and err.rule in ("E5-078", "E5-091", "E5-095")


def test_e5_079_a_spell_attack_is_an_attack_and_a_natural_1_misses_it():
    """E5-079/E5-086: a spell that makes an attack roll is an attack: a natural 1 misses even a +5 spell
    attack against AC 5."""
    out = play([caster(spells=["fire_bolt"]), target(at=(3, 0), ac=5)], [cast("w", "fire_bolt", "t")],
               dice=[1])
    a = only_attack(out)
    assert (a["roll"], a["hit"]) == (1, False)
    assert hp(out, "t") == 30


# Natural 20 and natural 1 (E5-085, E5-086).


def test_e5_085_a_natural_20_hits_any_ac_and_is_a_critical_hit():
    """E5-085: a natural 20 with a +0 bonus hits AC 30 and is a critical hit (1d8+2 rolls 2d8: 3 + 5 + 2)."""
    out = play([fighter(attacks=[{"name": "sword", "bonus": 0, "damage": "1d8+2 slashing"}]), target(ac=30)],
               [attack("a", "t")], dice=[20, 3, 5])
    a = only_attack(out)
    assert (a["total"], a["against"], a["hit"], a["critical"]) == (20, 30, True, True)
    assert damage(out, "t") == [10]


def test_e5_086_a_natural_1_misses_whatever_the_bonus():
    """E5-086: a natural 1 with +30 against AC 5 misses."""
    out = play([fighter(attacks=[{"name": "sword", "bonus": 30, "damage": "1d8 slashing"}]), target(ac=5)],
               [attack("a", "t")], dice=[1])
    a = only_attack(out)
    assert (a["total"], a["hit"], a["critical"]) == (31, False, False)
    assert hp(out, "t") == 30


def test_e5_085_g5_02_a_20_on_the_discarded_die_of_disadvantage_is_no_critical_hit():
    """E5-085/G5-02: with disadvantage the lower die counts: 20 and 11 is an 11, no critical hit."""
    out = play([fighter(conditions=["poisoned"]), target(ac=12)], [attack("a", "t")], dice=[20, 11, 4])
    a = only_attack(out)
    assert (a["roll"], a["total"], a["hit"], a["critical"]) == (11, 16, True, False)
    assert damage(out, "t") == [7]


# Unseen attackers and targets (E5-087..E5-090).


def test_e5_087_attacking_a_target_you_cannot_see_has_disadvantage():
    """E5-087/G5-01 invisible: two d20s, the lower counts: 15 and 5 is a 5 (5 + 5 = 10 misses AC 12)."""
    out = play([fighter(), target(conditions=["invisible"])], [attack("a", "t")], dice=[15, 5])
    a = only_attack(out)
    assert d20s(out) == [15, 5]
    assert (a["roll"], a["hit"]) == (5, False)


def test_e5_087_a_blinded_attacker_has_disadvantage_once():
    """E5-087/G5-01 blinded: the blinded attacker cannot see its target; two sources of disadvantage
    still roll only two dice."""
    out = play([fighter(conditions=["blinded"]), target()], [attack("a", "t")], dice=[15, 5])
    assert d20s(out) == [15, 5]
    assert only_attack(out)["roll"] == 5


def test_e5_089_attacking_a_creature_that_cannot_see_you_has_advantage():
    """E5-089/G5-01 invisible: an invisible attacker rolls two d20s, the higher counts: 5 and 15 is a 15."""
    out = play([fighter(conditions=["invisible"]), target()], [attack("a", "t")], dice=[5, 15, 4])
    a = only_attack(out)
    assert d20s(out) == [5, 15]
    assert (a["roll"], a["total"], a["hit"]) == (15, 20, True)


def test_e5_089_a_blinded_target_cannot_see_its_attacker():
    """E5-089/G5-01 blinded: attacks against a blinded creature have advantage."""
    out = play([fighter(), target(conditions=["blinded"])], [attack("a", "t")], dice=[5, 15, 4])
    assert only_attack(out)["roll"] == 15


def test_e5_087_e5_089_g5_02_unseen_attacker_against_unseen_target_rolls_one_die():
    """E5-087/E5-089/G5-02: both invisible: advantage and disadvantage cancel: one d20."""
    out = play([fighter(conditions=["invisible"]), target(conditions=["invisible"])], [attack("a", "t")],
               dice=[5, 4])
    assert d20s(out) == [5]
    assert only_attack(out)["hit"] is False


HIDE_MAP = ["..#...", "..#...", "......"]


def test_e5_089_e5_090_attacking_from_hiding_has_advantage_and_reveals_the_attacker():
    """E5-089/E5-090: a rogue hidden behind a wall (Cunning Action; Stealth 15 beats passive Perception 10) comes round
    and attacks with advantage; the attack gives it away, so its second attack is a plain roll."""
    out = play([fighter("r", (0, 0), features={"extra_attack": 2, "cunning_action": True}), target(at=(3, 0))],
               [do("r", "hide", bonus=True), do("r", "move", to=[3, 1]), attack("r", "t"), attack("r", "t")],
               rows=HIDE_MAP, dice=[15, 3, 16, 4, 10, 4])
    first, second = attacks(out)
    assert first["roll"] == 16 and first["hit"] is True
    assert second["roll"] == 10
    assert d20s(out) == [15, 3, 16, 10]


# Ranges (E5-091..E5-094).


LONG = ["................"]


def test_e5_093_within_normal_range_no_disadvantage():
    """E5-093: a 20/60-foot weapon at 20 feet (4 squares): one d20."""
    out = play([fighter(attacks=[BOW]), target(at=(4, 0))], [attack("a", "t", "bow")], rows=LONG, dice=[12, 3])
    assert d20s(out) == [12]
    assert damage(out, "t") == [6]


def test_e5_093_beyond_normal_range_disadvantage():
    """E5-093: at 25 feet (5 squares), beyond the normal 20: disadvantage (12 and 6: a 6, 6 + 5 misses AC 12)."""
    out = play([fighter(attacks=[BOW]), target(at=(5, 0))], [attack("a", "t", "bow")], rows=LONG, dice=[12, 6])
    a = only_attack(out)
    assert d20s(out) == [12, 6]
    assert (a["roll"], a["hit"]) == (6, False)


def test_e5_093_at_the_long_range_the_attack_is_still_allowed():
    """E5-093: 60 feet (12 squares) is the long range: allowed, with disadvantage."""
    out = play([fighter(attacks=[BOW]), target(at=(12, 0))], [attack("a", "t", "bow")], rows=LONG, dice=[12, 8, 3])
    assert d20s(out) == [12, 8]
    assert only_attack(out)["hit"] is True


def test_e5_091_e5_093_beyond_the_long_range_no_attack():
    """E5-091/E5-093: 65 feet (13 squares) is beyond the long range: the attack is refused."""
    err = refused([fighter(attacks=[BOW]), target(at=(13, 0))], [attack("a", "t", "bow")], rows=LONG)
    assert err.index == 0 and err.actor == "a" and err.rule in ("E5-091", "E5-093")


def test_e5_092_a_single_range_spell_cannot_reach_beyond_it():
    """E5-092: sacred flame has one range, 60 feet (12 squares): a target at 12 squares is fine, one at 13
    cannot be targeted."""
    c = caster("c", spells=["sacred_flame"], ability="wis")
    out = play([c, target(at=(12, 0))], [cast("c", "sacred_flame", "t")], rows=LONG, dice=[20, 1])
    assert events(out, "save", creature="t")
    err = refused([c, target(at=(13, 0))], [cast("c", "sacred_flame", "t")], rows=LONG)
    assert err.index == 0 and err.rule in ("E5-091", "E5-092")


def test_e5_094_a_ranged_attack_next_to_a_hostile_creature_has_disadvantage():
    """E5-094: a hostile creature within 5 feet that can see the archer: disadvantage."""
    out = play([fighter(attacks=[BOW]), target(at=(3, 0)), target("o", (0, 1))], [attack("a", "t", "bow")],
               dice=[14, 2])
    assert d20s(out) == [14, 2]
    assert only_attack(out)["hit"] is False


def test_e5_094_an_incapacitated_neighbour_gives_no_disadvantage():
    """E5-094: the hostile neighbour is stunned (incapacitated): one d20 (the target, at 15 feet, gets
    nothing from the stunned one either)."""
    out = play([fighter(attacks=[BOW]), target(at=(3, 0)), target("o", (0, 1), conditions=["stunned"])],
               [attack("a", "t", "bow")], dice=[14, 2])
    assert d20s(out) == [14]
    assert only_attack(out)["hit"] is True


def test_e5_094_a_neighbour_that_cannot_see_the_archer_gives_no_disadvantage():
    """E5-094: the hostile neighbour is blinded: it cannot see the archer, so one d20."""
    out = play([fighter(attacks=[BOW]), target(at=(3, 0)), target("o", (0, 1), conditions=["blinded"])],
               [attack("a", "t", "bow")], dice=[14, 2])
    assert d20s(out) == [14]


def test_e5_094_an_ally_alongside_gives_no_disadvantage():
    """E5-094: only a hostile creature counts; an ally within 5 feet changes nothing."""
    out = play([fighter(attacks=[BOW]), target(at=(3, 0)), fighter("b", (0, 1))], [attack("a", "t", "bow")],
               dice=[14, 2])
    assert d20s(out) == [14]


def test_e5_094_a_ranged_spell_attack_next_to_a_hostile_creature_has_disadvantage():
    """E5-094: "weapon, spell or other": fire bolt with a hostile creature alongside: disadvantage."""
    out = play([caster(spells=["fire_bolt"]), target(at=(3, 0)), target("o", (0, 1))],
               [cast("w", "fire_bolt", "t")], dice=[14, 2])
    assert d20s(out) == [14, 2]


def test_e5_094_a_melee_attack_next_to_a_hostile_creature_has_no_disadvantage():
    """E5-094 is about ranged attacks: a melee attack with another hostile creature alongside: one d20."""
    out = play([fighter(), target(), target("o", (0, 1))], [attack("a", "t")], dice=[14, 2])
    assert d20s(out) == [14]


# Reach (E5-095).


def test_e5_095_a_reach_weapon_hits_two_squares_away():
    """E5-095/G5-10: a reach weapon (10 feet) attacks a creature two squares away."""
    out = play([fighter(attacks=[GLAIVE]), target(at=(2, 0))], [attack("a", "t", "glaive")], dice=[10, 5])
    assert only_attack(out)["hit"] is True
    assert damage(out, "t") == [8]


def test_e5_095_a_reach_weapon_does_not_hit_three_squares_away():
    """E5-095: 15 feet is beyond a 10-foot reach."""
    refused([fighter(attacks=[GLAIVE]), target(at=(3, 0))], [attack("a", "t", "glaive")])


# Two-weapon fighting (E5-100..E5-102).


def rogue(**kw: Any) -> dict[str, Any]:
    kw.setdefault("attacks", [SHORTSWORD, DAGGER, DAGGER_THROWN])
    kw.setdefault("abilities", {"dex": 16})
    return fighter("r", **kw)


def test_e5_100_e5_101_the_off_hand_attack_adds_no_positive_modifier():
    """E5-100/E5-101: shortsword (Attack action) then a bonus-action dagger: 1d6+3 = 4 + 3, then 1d4 = 3
    without the +3 Dexterity modifier."""
    out = play([rogue(), target()],
               [attack("r", "t", "shortsword"), attack("r", "t", "dagger", offhand=True)],
               dice=[12, 4, 12, 3])
    assert [a["hit"] for a in attacks(out)] == [True, True]
    assert damage(out, "t") == [7, 3]
    assert hp(out, "t") == 20


def test_e5_101_a_negative_modifier_still_applies_to_the_off_hand_damage():
    """E5-101: Strength 8 (-1): the off-hand club deals 1d4 - 1 (3 - 1 = 2)."""
    club = {"name": "club", "bonus": 1, "damage": "1d4-1 bludgeoning", "properties": ["light"], "ability": "str"}
    axe = {"name": "handaxe", "bonus": 1, "damage": "1d6-1 slashing", "properties": ["light", "thrown"],
           "ability": "str"}
    out = play([fighter(attacks=[club, axe], abilities={"str": 8}), target(ac=5)],
               [attack("a", "t", "handaxe"), attack("a", "t", "club", offhand=True)], dice=[12, 4, 12, 3])
    assert damage(out, "t") == [3, 2]


def test_e5_100_the_off_hand_attack_needs_the_attack_action_first():
    """E5-100: no bonus attack before an Attack action with a light weapon."""
    err = refused([rogue(), target()], [attack("r", "t", "dagger", offhand=True)])
    assert err.rule == "E5-100"


def test_e5_100_the_first_weapon_must_be_light():
    """E5-100: after attacking with a longsword (not light) there is no off-hand attack."""
    longsword = {"name": "longsword", "bonus": 5, "damage": "1d8+3 slashing", "properties": ["versatile"]}
    err = refused([fighter(attacks=[longsword, DAGGER, SHORTSWORD]), target()],
                  [attack("a", "t", "longsword"), attack("a", "t", "dagger", offhand=True)], dice=[12, 4])
    assert err.index == 1 and err.rule == "E5-100"


def test_e5_100_the_off_hand_weapon_must_be_light():
    """E5-100: the off-hand weapon must be light too."""
    longsword = {"name": "longsword", "bonus": 5, "damage": "1d8+3 slashing", "properties": ["versatile"]}
    err = refused([fighter(attacks=[SHORTSWORD, longsword, DAGGER]), target()],
                  [attack("a", "t", "shortsword"), attack("a", "t", "longsword", offhand=True)], dice=[12, 4])
    assert err.index == 1 and err.rule == "E5-100"


def test_e5_100_the_off_hand_weapon_must_be_a_different_weapon():
    """E5-100: "a different light melee weapon": attacking twice with the same shortsword is no
    two-weapon fighting."""
    err = refused([rogue(), target()],
                  [attack("r", "t", "shortsword"), attack("r", "t", "shortsword", offhand=True)], dice=[12, 4])
    assert err.index == 1


def test_e5_100_one_bonus_action_one_off_hand_attack():
    """E5-100/E5-020: the off-hand attack spends the bonus action: a second one is refused."""
    err = refused([rogue(), target(ac=30)],
                  [attack("r", "t", "shortsword"), attack("r", "t", "dagger", offhand=True),
                   attack("r", "t", "dagger", offhand=True)], dice=[2, 2])
    assert err.index == 2


def test_e5_100_no_off_hand_attack_after_the_bonus_action_is_spent():
    """E5-100/E5-020: Cunning Action's bonus Dash leaves no bonus action for the off-hand attack."""
    err = refused([rogue(features={"cunning_action": True}), target(ac=30)],
                  [do("r", "dash", bonus=True), attack("r", "t", "shortsword"),
                   attack("r", "t", "dagger", offhand=True)], dice=[2])
    assert err.index == 2


def test_e5_102_the_off_hand_light_thrown_weapon_may_be_thrown():
    """E5-102: the off-hand dagger has the thrown property: it may be thrown instead (at 15 feet), still
    without the positive modifier: 1d4 = 2. With t adjacent the throw has disadvantage (E5-094): 12, 12."""
    out = play([rogue(), target(), target("u", (3, 2))],
               [attack("r", "t", "shortsword"), attack("r", "u", "dagger_thrown", offhand=True)],
               dice=[12, 4, 12, 12, 2])
    assert damage(out, "u") == [2]


# Cover (E5-110..E5-114).


HALF = ["..=...", "..=...", "..=..."]
THREE_QUARTERS = ["..|...", "..|...", "..|..."]
TOTAL = ["..#...", "..#...", "..#..."]


def test_e5_112_half_cover_adds_2_to_ac():
    """E5-112: a low wall between archer and target: +2 AC: 9 + 5 = 14 hits AC 12 + 2; 8 + 5 misses."""
    out = play([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1))], [attack("a", "t", "bow")],
               rows=HALF, dice=[9, 3])
    a = only_attack(out)
    assert (a["total"], a["against"], a["hit"]) == (14, 14, True)
    out = play([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1))], [attack("a", "t", "bow")],
               rows=HALF, dice=[8])
    assert only_attack(out)["hit"] is False


def test_e5_113_three_quarters_cover_adds_5_to_ac():
    """E5-113: a portcullis between archer and target: +5 AC (12 + 5 = 17)."""
    out = play([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1))],
               [{"ask": "cover", "from": "a", "to": "t", "with": "bow"}, attack("a", "t", "bow")],
               rows=THREE_QUARTERS, dice=[11])
    assert out["answers"][0]["value"] == "three_quarters"
    a = only_attack(out)
    assert (a["total"], a["against"], a["hit"]) == (16, 17, False)


def test_e5_114_total_cover_cannot_be_targeted():
    """E5-114: a wall from floor to ceiling: the target cannot be attacked directly."""
    out = play([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1))],
               [{"ask": "cover", "from": "a", "to": "t", "with": "bow"}], rows=TOTAL)
    assert out["answers"][0]["value"] == "total"
    err = refused([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1))], [attack("a", "t", "bow")], rows=TOTAL)
    assert err.index == 0 and err.rule == "E5-114"


def test_e5_114_total_cover_cannot_be_targeted_by_a_spell():
    """E5-114: nor by a targeted spell (fire bolt)."""
    refused([caster(at=(0, 1), spells=["fire_bolt"]), target(at=(4, 1))], [cast("w", "fire_bolt", "t")],
            rows=TOTAL)


def test_e5_114_an_area_still_includes_a_creature_behind_total_cover():
    """E5-114: the wall hides the target from the caster (total cover), but a fireball bursting at a point
    the caster can see, around the wall's end, still catches it: 8d6 of 1s = 8, a failed save."""
    rows = ["...#......", "...#......", "...#......", "..........", ".........."]
    out = play([caster(at=(0, 4), spells=["fireball"]), target(at=(5, 0), hp=40)],
               [{"ask": "cover", "from": "w", "to": "t", "kind": "ranged"}, cast("w", "fireball", at=[5, 3])],
               rows=rows, dice=[2] + [1] * 8)
    assert out["answers"][0]["value"] == "total"
    assert damage(out, "t") == [8]


def test_e5_110_cover_only_from_the_far_side():
    """E5-110: a low wall behind the target, not between it and the archer, gives no cover."""
    rows = [".....=..", ".....=..", ".....=.."]
    out = play([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1))],
               [{"ask": "cover", "from": "a", "to": "t", "with": "bow"}, attack("a", "t", "bow")],
               rows=rows, dice=[7, 1])
    assert out["answers"][0]["value"] == "none"
    assert only_attack(out)["against"] == 12


def test_e5_112_a_creature_in_the_way_gives_half_cover():
    """E5-112/Decisions: a creature between archer and target, friend or foe, gives half cover."""
    for other in (fighter("b", (2, 1)), target("o", (2, 1))):
        out = play([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1)), other], [attack("a", "t", "bow")],
                   dice=[20, 1, 1])
        assert only_attack(out)["against"] == 14


def test_e5_111_only_the_best_cover_counts():
    """E5-111: a creature (half) and a portcullis (three-quarters) in the way: +5, not +7."""
    rows = ["...|....", "...|....", "...|...."]
    out = play([fighter(at=(0, 1), attacks=[BOW]), target(at=(4, 1)), fighter("b", (2, 1))],
               [attack("a", "t", "bow")], rows=rows, dice=[11])
    assert only_attack(out)["against"] == 17


def test_e5_112_half_cover_adds_2_to_dexterity_saves():
    """E5-112: acid splash (DC 8 + 2 + 3 = 13) at a target behind a low wall: 11 + 0 + 2 = 13 saves."""
    out = play([caster(at=(0, 1), spells=["acid_splash"]), target(at=(4, 1))], [cast("w", "acid_splash", "t")],
               rows=HALF, dice=[11])
    save = events(out, "save", creature="t")[0]
    assert (save["total"], save["dc"], save["success"]) == (13, 13, True)
    assert hp(out, "t") == 30


def test_e5_112_sacred_flame_ignores_cover():
    """E5-112/SRD sacred flame: no benefit from cover: 11 against DC 13 fails behind the low wall; 1d8 = 6."""
    out = play([caster("c", at=(0, 1), spells=["sacred_flame"], ability="wis"), target(at=(4, 1))],
               [cast("c", "sacred_flame", "t")], rows=HALF, dice=[11, 6])
    save = events(out, "save", creature="t")[0]
    assert (save["total"], save["success"]) == (11, False)
    assert damage(out, "t") == [6]


def test_e5_110_a_fireball_bursting_on_the_near_side_of_a_wall_gets_no_cover_from_it():
    """E5-110: the fireball bursts beside the target, on its side of the low wall: the wall is not between
    the effect's origin and the target, so no +2 on the save (12 against DC 13 fails: 8 damage)."""
    out = play([caster(at=(0, 1), spells=["fireball"]), target(at=(5, 1))],
               [cast("w", "fireball", at=[6, 1])], rows=["...=....", "...=....", "...=...."],
               dice=[12] + [1] * 8)
    save = events(out, "save", creature="t")[0]
    assert (save["total"], save["success"]) == (12, False)
    assert damage(out, "t") == [8]


# Hit points and damage (E5-115..E5-118).


def test_e5_115_hit_points_do_not_go_below_0():
    """E5-115: a 5-hit-point monster takes 12: 0 hit points, not -7."""
    out = play([fighter(), target(hp=5)], [attack("a", "t")], dice=[15, 8])
    assert damage(out, "t") == [11]
    assert hp(out, "t") == 0 and status(out, "t") == "dead"


def test_e5_115_a_creature_at_1_hit_point_fights_as_well_as_ever():
    """E5-115: losing hit points does not hamper a creature: at 1 of 30 it attacks with one d20, no notes."""
    out = play([fighter(hp=30, cur=1), target()], [attack("a", "t")], dice=[10, 4])
    a = only_attack(out)
    assert d20s(out) == [10] and a["total"] == 15 and "advantage" not in a["text"]


def test_e5_116_e5_117_weapon_damage_is_its_dice_plus_the_modifier():
    """E5-116/E5-117: 2d6+4: 3 + 6 + 4 = 13."""
    out = play([fighter(attacks=[{"name": "greatsword", "bonus": 6, "damage": "2d6+4 slashing"}]), target()],
               [attack("a", "t", "greatsword")], dice=[10, 3, 6])
    assert damage(out, "t") == [13]


def test_e5_118_one_damage_roll_for_every_creature_in_the_fireball():
    """E5-118: fireball: both targets fail their saves and take the same 8d6, rolled once: 8 d6s, 24 each."""
    d6 = [1, 2, 3, 4, 5, 6, 1, 2]
    out = play([caster(spells=["fireball"]), target(at=(6, 0), hp=40), target("u", (7, 1), hp=40)],
               [cast("w", "fireball", at=[6, 1])], dice=[2, 2, *d6])
    assert dice_of(out, 6) == d6
    assert damage(out, "t") == [24] and damage(out, "u") == [24]


def test_e5_118_g5_12_the_fireball_halves_the_one_roll_for_a_creature_that_saves():
    """E5-118/G5-12: fireball DC 13: one creature saves (20) and takes half of the same 25 (12), the other
    fails (2) and takes 25."""
    d6 = [6, 6, 6, 1, 1, 1, 2, 2]
    out = play([caster(spells=["fireball"]), target(at=(6, 0), hp=40), target("u", (7, 1), hp=40)],
               [cast("w", "fireball", at=[6, 1])], dice=[20, 2, *d6])
    assert sorted(damage(out, "t") + damage(out, "u")) == [12, 25]


# Critical hits (E5-119, E5-120).


def test_e5_119_a_critical_hit_rolls_the_damage_dice_twice_and_adds_the_modifier_once():
    """E5-119: 1d8+3 on a critical hit: 5 + 6 + 3 = 14."""
    out = play([fighter(), target()], [attack("a", "t")], dice=[20, 5, 6])
    assert only_attack(out)["critical"] is True
    assert dice_of(out, 8) == [5, 6]
    assert damage(out, "t") == [14]


def test_e5_120_a_dagger_critical_hit_is_2d4_plus_the_modifier():
    """E5-120: dagger critical hit: 2d4 + 3 = 2 + 3 + 3."""
    out = play([rogue(), target()], [attack("r", "t", "dagger")], dice=[20, 2, 3])
    assert damage(out, "t") == [8]


def test_e5_120_sneak_attack_dice_are_doubled_too():
    """E5-120: Sneak Attack (1d6, an ally beside the target): 2d4 + 3 + 2d6: 2 + 3 + 3 + 4 + 5 = 17."""
    out = play([rogue(features={"sneak_attack": "1d6"}), target(), fighter("b", (2, 0))],
               [attack("r", "t", "dagger")], dice=[20, 2, 3, 4, 5])
    assert damage(out, "t") == [17]


def test_e5_120_sneak_attack_on_an_ordinary_hit_rolls_its_dice_once():
    """E5-120 (the counterpart): an ordinary hit with Sneak Attack: 1d4 + 3 + 1d6 = 2 + 3 + 4."""
    out = play([rogue(features={"sneak_attack": "1d6"}), target(), fighter("b", (2, 0))],
               [attack("r", "t", "dagger")], dice=[15, 2, 4])
    assert damage(out, "t") == [9]


def test_e5_119_a_critical_spell_attack_doubles_the_spell_dice():
    """E5-119: fire bolt's 1d10 becomes 2d10 on a natural 20: 3 + 4."""
    out = play([caster(spells=["fire_bolt"]), target(at=(3, 0))], [cast("w", "fire_bolt", "t")],
               dice=[20, 3, 4])
    assert damage(out, "t") == [7]


# Damage types (E5-121, E5-122).


def test_e5_121_the_13_damage_types_are_accepted():
    """E5-121: every one of the 13 types may be resisted."""
    types = ["bludgeoning", "piercing", "slashing", "acid", "cold", "fire", "lightning", "thunder", "poison",
             "necrotic", "radiant", "psychic", "force"]
    out = play([fighter(), target(resistances=types)], [attack("a", "t")], dice=[15, 4])
    assert damage(out, "t") == [3]


def test_e5_121_falling_is_bludgeoning_not_a_damage_type_of_its_own():
    """E5-121: "falling" is not a damage type (falls deal bludgeoning)."""
    with pytest.raises(ContentError):
        load_scenario_text(scenario([fighter(), target(resistances=["falling"])]))


def test_e5_122_a_resistance_to_another_type_changes_nothing():
    """E5-122/E5-123: cold resistance against fire: full damage."""
    torch = {"name": "torch", "bonus": 5, "damage": "1d6+2 fire"}
    out = play([fighter(attacks=[torch]), target(resistances=["cold"])], [attack("a", "t", "torch")],
               dice=[15, 5])
    assert damage(out, "t") == [7]


def test_e5_121_magic_missile_deals_force_damage():
    """E5-121: magic missile is force: a force-resistant target takes half of each dart (1d4+1 = 4: 2)."""
    out = play([caster(spells=["magic_missile"]), target(at=(3, 0), resistances=["force"])],
               [cast("w", "magic_missile", "t")], dice=[3, 3, 3])
    assert damage(out, "t") == [2, 2, 2]


# Resistance and vulnerability (E5-123..E5-126).


def maul(amount: str) -> dict[str, Any]:
    return {"name": "maul", "bonus": 5, "damage": amount}


def test_e5_123_resistance_halves_rounding_down():
    """E5-123/G5-03: 25 bludgeoning against resistance: 12; 21: 10."""
    for dealt, taken in (("25 bludgeoning", 12), ("21 bludgeoning", 10)):
        out = play([fighter(attacks=[maul(dealt)]), target(resistances=["bludgeoning"])],
                   [attack("a", "t", "maul")], dice=[15])
        assert damage(out, "t") == [taken]


def test_e5_123_vulnerability_doubles():
    """E5-123: 7 fire against fire vulnerability: 14."""
    out = play([fighter(attacks=[maul("7 fire")]), target(vulnerabilities=["fire"])], [attack("a", "t", "maul")],
               dice=[15])
    assert damage(out, "t") == [14]


def test_e5_123_immunity_prevents_the_damage():
    """E5-123 (SRD immunity): poison immunity: 0."""
    out = play([fighter(attacks=[maul("9 poison")]), target(immunities=["poison"])], [attack("a", "t", "maul")],
               dice=[15])
    assert hp(out, "t") == 30


def test_e5_124_resistance_applies_to_the_total_with_its_modifier():
    """E5-124: the damage's own modifiers first: 1d8+3 rolling 4 is 7, halved to 3 (not 4 / 2 + 3 = 5)."""
    out = play([fighter(), target(resistances=["slashing"])], [attack("a", "t")], dice=[15, 4])
    assert damage(out, "t") == [3]


def test_e5_124_resistance_before_vulnerability():
    """E5-124: resistance then vulnerability: 25 -> 12 -> 24 (the other order would give 25)."""
    out = play([fighter(attacks=[maul("25 fire")]), target(resistances=["fire"], vulnerabilities=["fire"])],
               [attack("a", "t", "maul")], dice=[15])
    assert damage(out, "t") == [24]


def test_e5_125_the_seed_example_reduction_then_resistance():
    """E5-125: 25 bludgeoning, inside an aura that reduces all damage by 5, against bludgeoning resistance:
    (25 - 5) / 2 = 10."""
    out = play([fighter(attacks=[maul("25 bludgeoning")]),
                target(resistances=["bludgeoning"], damage_reduction=5)],
               [attack("a", "t", "maul")], dice=[15])
    assert hp(out, "t") == 20


def test_e5_126_two_resistances_to_the_same_damage_halve_it_once():
    """E5-126: petrified (resistance to all damage) and fire resistance against 25 fire: 12, not 6."""
    out = play([fighter(attacks=[maul("25 fire")]), target(resistances=["fire"], conditions=["petrified"])],
               [attack("a", "t", "maul")], dice=[15, 15])
    assert damage(out, "t") == [12]


def test_e5_126_a_resistance_listed_twice_counts_once():
    """E5-126: the same resistance twice in a stat block: halved once."""
    out = play([fighter(attacks=[maul("25 fire")]), target(resistances=["fire", "fire"])],
               [attack("a", "t", "maul")], dice=[15])
    assert damage(out, "t") == [12]


def test_e5_123_each_type_of_a_mixed_hit_is_resisted_on_its_own():
    """E5-123: 1d6 slashing + 1d6 fire (4 and 5) against fire resistance: 4 + 2."""
    flame = {"name": "flame_tongue", "bonus": 5, "damage": "1d6 slashing + 1d6 fire"}
    out = play([fighter(attacks=[flame]), target(resistances=["fire"])], [attack("a", "t", "flame_tongue")],
               dice=[15, 4, 5])
    assert damage(out, "t") == [6]


# Healing (E5-128..E5-130).


def test_e5_128_healing_stops_at_the_maximum():
    """E5-128: the ranger at 14 of 20 healed for 8 (cure wounds 1d8 + 0) regains 6."""
    out = play([caster("c", spells=["cure_wounds"], ability="wis", score=10),
                fighter("ranger", (1, 0), hp=20, cur=14), target(at=(5, 0))],
               [cast("c", "cure_wounds", "ranger")], dice=[8])
    assert hp(out, "ranger") == 20
    assert events(out, "heal", target="ranger")[0]["amount"] == 6


def test_e5_130_cure_wounds_adds_the_spellcasting_modifier_and_heals_at_once():
    """E5-130/G5-12: cure wounds 1d8 + Wisdom +3: 5 + 3 = 8, at once (12 -> 20 of 30)."""
    out = play([caster("c", spells=["cure_wounds"], ability="wis"),
                fighter("b", (1, 0), hp=30, cur=12), target(at=(5, 0))],
               [cast("c", "cure_wounds", "b")], dice=[5])
    assert hp(out, "b") == 20


def test_e5_129_the_dead_regain_no_hit_points():
    """E5-129: cure wounds on a dead ally: it stays dead at 0."""
    out = play([caster("c", spells=["cure_wounds"], ability="wis"),
                fighter("b", (1, 0), hp=10, cur=0), target(at=(5, 0))],
               [cast("c", "cure_wounds", "b")], dice=[5])
    assert status(out, "b") == "dead" and hp(out, "b") == 0


def test_g5_12_cure_wounds_is_a_touch_spell():
    """G5-12/SRD cure wounds: touch: a creature two squares away is out of reach."""
    refused([caster("c", spells=["cure_wounds"], ability="wis"), fighter("b", (2, 0), hp=30, cur=12),
             target(at=(5, 0))], [cast("c", "cure_wounds", "b")])


def test_g5_12_cure_wounds_at_2nd_level_heals_2d8():
    """SRD cure wounds upcast: a 2nd-level slot: 2d8 + 3 = 4 + 5 + 3."""
    out = play([caster("c", spells=["cure_wounds"], ability="wis"),
                fighter("b", (1, 0), hp=30, cur=2), target(at=(5, 0))],
               [cast("c", "cure_wounds", "b", slot=2)], dice=[4, 5])
    assert hp(out, "b") == 14


# Dropping to 0 hit points; instant death (E5-131..E5-134).


def down_hero(cid: str = "h", at: Iterable[int] = (0, 0), **kw: Any) -> dict[str, Any]:
    """A hero at 0 of 20 hit points: unconscious, and so prone (G5-01; listed, see the xfail below)."""
    return cr(cid, "heroes", at, hero=True, hp=20, cur=0, conditions=["prone"], **kw)


def hammer(amount: str = "1d8+10 bludgeoning", bonus: int = 5) -> dict[str, Any]:
    return {"name": "sword", "bonus": bonus, "damage": amount}


def test_e5_133_the_cleric_at_6_of_12_taking_18_dies():
    """E5-132/E5-133: 6 of 12 hit points, 18 damage: 12 left over after 0 equals the maximum: dead."""
    out = play([fighter("o", side="foes", attacks=[hammer()]), cr("cleric", "heroes", (1, 0), hero=True, hp=12, cur=6)],
               [attack("o", "cleric")], dice=[15, 8])
    assert status(out, "cleric") == "dead"
    assert events(out, "dead", creature="cleric")[0]["rule"] in ("E5-132", "E5-133")


def test_e5_132_one_short_of_the_maximum_left_over_the_cleric_falls_unconscious():
    """E5-132/E5-134: 6 of 12 taking 17: 11 left over: unconscious (down), at 0."""
    out = play([fighter("o", side="foes", attacks=[hammer()]), cr("cleric", "heroes", (1, 0), hero=True, hp=12, cur=6),
                fighter("b", (5, 4))],
               [attack("o", "cleric")], dice=[15, 7])
    assert status(out, "cleric") == "down" and hp(out, "cleric") == 0
    assert "unconscious" in conds(out, "cleric")


def test_e5_131_e5_141_a_monster_at_0_hit_points_dies():
    """E5-131/E5-141: monsters die at 0 hit points, with no death saves."""
    out = play([fighter(), target(hp=5)], [attack("a", "t")], dice=[15, 2])
    assert status(out, "t") == "dead"
    assert events(out, "death_save") == []


def test_e5_134_regaining_hit_points_ends_unconsciousness():
    """E5-134: a dying hero healed by healing word (1d4 + 3 = 5) wakes up (still prone)."""
    out = play([caster("c", spells=["healing_word"], ability="wis"),
                down_hero("h", (3, 0)), target(at=(8, 0))],
               [cast("c", "healing_word", "h")], dice=[2], order=["c", "h", "t"])
    assert status(out, "h") == "active" and hp(out, "h") == 5
    assert "unconscious" not in conds(out, "h")


# Death saving throws (E5-135..E5-138).


def dying(**kw: Any) -> list[dict[str, Any]]:
    """A dying hero (0 of 20), a monster and the hero's conscious ally; the hero acts first."""
    return [down_hero(**kw),
            target("o", (6, 0)), fighter("b", (0, 4))]


ROUND = [end("o"), end("b")]
"""The monster and the ally end their turns: the hero's next death save is rolled."""


def test_e5_135_e5_136_three_successes_stabilize():
    """E5-135/E5-136: 10 or more succeeds; three successes: stable, still unconscious at 0."""
    out = play(dying(), ROUND * 2, dice=[10, 15, 19])
    assert [e["roll"] for e in events(out, "death_save", creature="h")] == [10, 15, 19]
    assert status(out, "h") == "down" and hp(out, "h") == 0
    assert "stable" in conds(out, "h") and "unconscious" in conds(out, "h")


def test_e5_135_a_stable_creature_makes_no_more_death_saves():
    """E5-135/E5-140: once stable, the hero's turns pass with no death save."""
    out = play(dying(), ROUND * 4, dice=[10, 15, 19])
    assert len(events(out, "death_save", creature="h")) == 3
    assert status(out, "h") == "down"


def test_e5_136_three_failures_kill():
    """E5-136: 9 fails; three failures: dead."""
    out = play(dying(), ROUND * 2, dice=[9, 2, 5])
    assert status(out, "h") == "dead"


def test_e5_136_successes_and_failures_need_not_be_consecutive():
    """E5-136: fail, succeed, fail, succeed, succeed: stable (two failures are not three)."""
    out = play(dying(), ROUND * 4, dice=[9, 10, 9, 10, 10])
    assert status(out, "h") == "down" and "stable" in conds(out, "h")


def test_e5_137_a_natural_1_is_two_failures():
    """E5-137: a natural 1 and then a 9: three failures: dead."""
    out = play(dying(), ROUND, dice=[1, 9])
    assert status(out, "h") == "dead"


def test_e5_137_a_natural_1_is_only_two_failures():
    """E5-137: a natural 1, then two successes: alive (two failures, two successes)."""
    out = play(dying(), ROUND * 2, dice=[1, 10, 10])
    assert status(out, "h") == "down" and "stable" not in conds(out, "h")


def test_e5_137_a_natural_20_regains_1_hit_point_and_the_hero_acts():
    """E5-137/E5-134: a natural 20: 1 hit point, conscious, and the hero takes its turn."""
    out = play(dying(), [], dice=[20])
    assert hp(out, "h") == 1 and status(out, "h") == "active"
    assert "unconscious" not in conds(out, "h")
    assert out["turn"] == "h"


def test_e5_136_regaining_hit_points_resets_the_tallies():
    """E5-136: two failures, healed to 1 (healing word), dropped to 0 again, one failure: alive (the old
    two failures are gone)."""
    creatures = [down_hero(),
                 fighter("o", (1, 0), side="foes", attacks=[hammer("1d4 bludgeoning", bonus=20)]),
                 caster("c", (0, 4), spells=["healing_word"], ability="wis", score=10, hp=30)]
    steps = [end("o"), end("c"),                                      # round 2: the second failure
             end("o"), cast("c", "healing_word", "h"), end("c"),      # healed to 1 (1d4 = 1)
             end("h"), attack("o", "h"), end("o"), end("c")]          # to 0 again, then one failure
    # saves 9, 9; healing 1; the attack on the prone hero with advantage 15, 15 and 1 damage; save 9
    out = play(creatures, steps, dice=[9, 9, 1, 15, 15, 1, 9])
    assert hp(out, "h") == 0 and events(out, "wake", creature="h")
    assert [e["roll"] for e in events(out, "death_save", creature="h") if "roll" in e] == [9, 9, 9]
    assert status(out, "h") == "down"


def test_e5_138_damage_at_0_is_a_failed_death_save():
    """E5-138: a hit from 15 feet (not a critical hit) on a dying hero: one failure."""
    creatures = [down_hero(),
                 fighter("o", (3, 0), side="foes", attacks=[BOW]), fighter("b", (0, 4))]
    out = play(creatures, [attack("o", "h", "bow")], dice=[12, 2], order=["o", "h", "b"])
    assert only_attack(out)["critical"] is False
    assert failures(out, "h") == [1]
    assert status(out, "h") == "down"


def test_e5_138_three_failures_from_damage_and_saves_kill():
    """E5-138/E5-136: two hits at 0 (two failures) and a failed save: dead."""
    creatures = [down_hero(),
                 fighter("o", (3, 0), side="foes", attacks=[BOW], features={"extra_attack": 2}),
                 fighter("b", (0, 4))]
    out = play(creatures, [attack("o", "h", "bow"), attack("o", "h", "bow"), end("o")],
               dice=[12, 2, 12, 2, 9], order=["o", "h", "b"])
    assert failures(out, "h") == [1, 2]
    assert status(out, "h") == "dead"


def test_e5_138_a_critical_hit_at_0_is_two_failures():
    """E5-138/G5-01: a melee hit from 5 feet on an unconscious hero is a critical hit: two failures."""
    creatures = [down_hero(),
                 fighter("o", (1, 0), side="foes", attacks=[hammer("1d4 bludgeoning")]), fighter("b", (0, 4))]
    out = play(creatures, [attack("o", "h")], dice=[3, 12, 1, 1], order=["o", "h", "b"])
    assert only_attack(out)["critical"] is True
    assert failures(out, "h") == [2]
    assert status(out, "h") == "down"


def test_e5_138_damage_at_0_equal_to_the_maximum_kills():
    """E5-138: 20 damage at 0 against a maximum of 20: dead."""
    creatures = [down_hero(),
                 fighter("o", (3, 0), side="foes", attacks=[BOW | {"damage": "20 piercing"}]), fighter("b", (0, 4))]
    out = play(creatures, [attack("o", "h", "bow")], dice=[12], order=["o", "h", "b"])
    assert status(out, "h") == "dead"


def test_e5_138_damage_at_0_one_below_the_maximum_is_one_failure():
    """E5-138: 19 damage at 0 against a maximum of 20: one failure, alive."""
    creatures = [down_hero(),
                 fighter("o", (3, 0), side="foes", attacks=[BOW | {"damage": "19 piercing"}]), fighter("b", (0, 4))]
    out = play(creatures, [attack("o", "h", "bow")], dice=[12], order=["o", "h", "b"])
    assert status(out, "h") == "down" and failures(out, "h") == [1]


def test_e5_135_bless_improves_death_saves():
    """E5-135: only spells and features that improve saving throws help: bless's d4 (2) turns a death save
    of 8 into 10, a success."""
    creatures = [caster("c", (1, 0), spells=["bless"], ability="wis", hp=30),
                 down_hero(), target("o", (6, 0))]
    out = play(creatures, [cast("c", "bless", ["h"]), end("c")], dice=[8, 2], order=["c", "h", "o"])
    saves = [e for e in events(out, "death_save", creature="h") if "roll" in e]
    assert saves and "1 successes" in saves[0]["text"]


# Stabilizing (E5-139, E5-140).


def medic(**kw: Any) -> dict[str, Any]:
    return fighter("b", (1, 0), **kw)


def test_e5_139_a_medicine_check_of_10_stabilizes():
    """E5-139: first aid: Wisdom (Medicine) 10 + 0 against DC 10: stable; no death saves follow."""
    creatures = [down_hero(), medic(), target("o", (6, 0))]
    out = play(creatures, [do("b", "stabilize", target="h"), end("b"), end("o")], dice=[12, 10],
               order=["h", "b", "o"])
    assert events(out, "stabilize")[0]["success"] is True
    assert "stable" in conds(out, "h") and status(out, "h") == "down"
    assert len([e for e in events(out, "death_save", creature="h") if "roll" in e]) == 1


def test_e5_139_a_medicine_check_of_9_fails():
    """E5-139: 9 + 0 misses DC 10; the Medicine skill bonus counts (9 + 1 = 10 succeeds)."""
    creatures = [down_hero(), medic(), target("o", (6, 0))]
    out = play(creatures, [do("b", "stabilize", target="h")], dice=[12, 9], order=["h", "b", "o"])
    assert events(out, "stabilize")[0]["success"] is False
    assert "stable" not in conds(out, "h")
    creatures[1] = medic(skills={"medicine": 1})
    out = play(creatures, [do("b", "stabilize", target="h")], dice=[12, 9], order=["h", "b", "o"])
    assert events(out, "stabilize")[0]["success"] is True


def test_e5_139_stabilizing_takes_the_action():
    """E5-139: first aid is an action: no attack after it."""
    creatures = [down_hero(), medic(), target("o", (2, 0))]
    err = refused(creatures, [do("b", "stabilize", target="h"), attack("b", "o")], dice=[12, 10],
                  order=["h", "b", "o"])
    assert err.index == 1


def test_e5_140_a_stable_creature_that_takes_damage_starts_dying_again():
    """E5-140: the stable hero is hit from 15 feet: no longer stable, one failure, and it rolls death saves
    again."""
    creatures = [down_hero(), medic(),
                 fighter("o", (4, 0), side="foes", attacks=[BOW])]
    out = play(creatures, [do("b", "stabilize", target="h"), end("b"), attack("o", "h", "bow"), end("o")],
               dice=[12, 10, 12, 2, 13], order=["h", "b", "o"])
    assert "stable" not in conds(out, "h") and status(out, "h") == "down"
    assert failures(out, "h") == [1]
    assert [e["roll"] for e in events(out, "death_save", creature="h") if "roll" in e] == [12, 13]


# Knocking a creature out (E5-142).


def test_e5_142_a_melee_attack_may_knock_out_instead_of_kill():
    """E5-142: the monster dropped to 0 by a melee attack with knock_out: unconscious and stable, not dead."""
    out = play([fighter(), target(hp=5)], [attack("a", "t", knock_out=True)], dice=[15, 4])
    assert status(out, "t") == "down" and hp(out, "t") == 0
    assert {"unconscious", "stable"} <= set(conds(out, "t"))


def test_e5_142_a_ranged_attack_cannot_knock_out():
    """E5-142: only a melee attack can knock out: the archer's knock_out kills the monster."""
    out = play([fighter(attacks=[BOW]), target(at=(3, 0), hp=5)], [attack("a", "t", "bow", knock_out=True)],
               dice=[15, 4])
    assert status(out, "t") == "dead"


def test_e5_142_a_knocked_out_hero_makes_no_death_saves():
    """E5-142: a hero knocked out is stable: its turn passes with no death save."""
    creatures = [fighter("o", side="foes", attacks=[hammer("1d4 bludgeoning")]),
                 cr("h", "heroes", (1, 0), hero=True, hp=3), fighter("b", (5, 4))]
    out = play(creatures, [attack("o", "h", knock_out=True), end("o"), end("b")], dice=[15, 4],
               order=["o", "h", "b"])
    assert status(out, "h") == "down" and "stable" in conds(out, "h")
    assert [e for e in events(out, "death_save", creature="h") if "roll" in e] == []


# Temporary hit points (E5-143..E5-148).


def test_e5_143_e5_123_resistance_comes_before_the_temporary_hit_points():
    """E5-143/E5-123: 25 fire against fire resistance is 12; 10 temporary hit points take 10, the hit points 2."""
    out = play([fighter(attacks=[maul("25 fire")]), target(resistances=["fire"], temp_hp=10)],
               [attack("a", "t", "maul")], dice=[15])
    assert temp(out, "t") == 0 and hp(out, "t") == 28


def test_e5_132_e5_143_instant_death_counts_the_damage_past_the_temporary_hit_points():
    """E5-132/E5-143: the cleric at 6 of 12 with 5 temporary hit points takes 23: 5 absorbed, 18 left: 6 to
    reach 0 and 12 over: dead. With 22, 11 over: unconscious."""
    for dealt, fate in (("23 bludgeoning", "dead"), ("22 bludgeoning", "down")):
        out = play([fighter("o", side="foes", attacks=[hammer(dealt)]),
                    cr("cleric", "heroes", (1, 0), hero=True, hp=12, cur=6, temp_hp=5), fighter("b", (5, 4))],
                   [attack("o", "cleric")], dice=[15])
        assert status(out, "cleric") == fate


def test_e5_143_temporary_hit_points_absorb_damage_first():
    """E5-143: 5 temporary hit points and 7 damage: all 5 go and 2 come off the hit points."""
    out = play([fighter(attacks=[maul("7 slashing")]), target(temp_hp=5)], [attack("a", "t", "maul")], dice=[15])
    assert temp(out, "t") == 0 and hp(out, "t") == 28


def test_e5_143_damage_below_the_temporary_hit_points_leaves_the_hit_points_alone():
    """E5-143: 5 temporary hit points and 3 damage: 2 temporary hit points left, hit points untouched."""
    out = play([fighter(attacks=[maul("3 slashing")]), target(temp_hp=5)], [attack("a", "t", "maul")], dice=[15])
    assert temp(out, "t") == 2 and hp(out, "t") == 30


def test_e5_144_temporary_hit_points_at_full_hit_points():
    """E5-144: a creature at its maximum may hold temporary hit points on top."""
    out = play([fighter(), target(temp_hp=8)])
    assert temp(out, "t") == 8 and hp(out, "t") == 30


def test_e5_145_healing_does_not_restore_temporary_hit_points():
    """E5-145: 5 temporary hit points lost to 8 damage (3 off 20), then cure wounds for 8: hit points back
    to 20, temporary hit points still 0."""
    creatures = [fighter("o", (2, 0), side="foes", attacks=[maul("8 slashing")]),
                 cr("h", "heroes", (1, 0), temp_hp=5, hp=20, cur=20),
                 caster("c", (0, 0), spells=["cure_wounds"], ability="wis", score=10)]
    out = play(creatures, [attack("o", "h", "maul"), end("o"), end("h"), cast("c", "cure_wounds", "h")],
               dice=[15, 8])
    assert hp(out, "h") == 20 and temp(out, "h") == 0


def test_e5_147_temporary_hit_points_at_0_do_not_wake_the_creature():
    """E5-147: a dying hero holding 5 temporary hit points is still unconscious and rolls death saves."""
    out = play(dying(temp_hp=5), [], dice=[12])
    assert status(out, "h") == "down" and "unconscious" in conds(out, "h")
    assert temp(out, "h") == 5
    assert [e["roll"] for e in events(out, "death_save", creature="h") if "roll" in e] == [12]


def test_e5_147_decisions_damage_absorbed_at_0_still_counts_as_a_failed_death_save():
    """E5-147/E5-138/Decisions: at 0 with 5 temporary hit points, 3 damage all absorbed: one failure."""
    creatures = [down_hero(temp_hp=5),
                 fighter("o", (3, 0), side="foes", attacks=[BOW | {"damage": "3 piercing"}]), fighter("b", (0, 4))]
    out = play(creatures, [attack("o", "h", "bow")], dice=[12], order=["o", "h", "b"])
    assert temp(out, "h") == 2
    assert failures(out, "h") == [1]


def test_e5_148_temporary_hit_points_last_from_round_to_round():
    """E5-148: with no duration, temporary hit points stay through the rounds."""
    out = play([fighter(), target(temp_hp=6)], [end("a"), end("t"), end("a"), end("t")])
    assert out["round"] == 3 and temp(out, "t") == 6


# Conditions (G5-01) and advantage / disadvantage (G5-02).


def test_g5_01_prone_target_melee_within_5_feet_advantage():
    """G5-01 prone: a melee attacker within 5 feet has advantage: 3 and 15 is a 15."""
    out = play([fighter(), target(conditions=["prone"])], [attack("a", "t")], dice=[3, 15, 4])
    assert d20s(out) == [3, 15] and only_attack(out)["roll"] == 15


def test_g5_01_prone_target_ranged_from_afar_disadvantage():
    """G5-01 prone: an attacker farther than 5 feet has disadvantage: 15 and 3 is a 3."""
    out = play([fighter(attacks=[BOW]), target(at=(3, 0), conditions=["prone"])], [attack("a", "t", "bow")],
               dice=[15, 3])
    assert d20s(out) == [15, 3] and only_attack(out)["roll"] == 3


def test_g5_01_g5_02_prone_target_shot_from_5_feet_cancels_out():
    """G5-01/G5-02: a ranged attack from 5 feet at a prone target: advantage (prone, within 5 feet) and
    disadvantage (a hostile creature alongside, E5-094) cancel: one d20."""
    out = play([fighter(attacks=[BOW]), target(conditions=["prone"])], [attack("a", "t", "bow")], dice=[15, 3])
    assert d20s(out) == [15]


def test_g5_01_a_prone_attacker_has_disadvantage():
    """G5-01 prone: its own attack rolls have disadvantage."""
    out = play([fighter(conditions=["prone"]), target()], [attack("a", "t")], dice=[15, 3])
    assert d20s(out) == [15, 3] and only_attack(out)["hit"] is False


def test_g5_01_restrained_target_advantage_restrained_attacker_disadvantage():
    """G5-01 restrained: attacks against it have advantage; its own attacks have disadvantage."""
    out = play([fighter(), target(conditions=["restrained"])], [attack("a", "t")], dice=[3, 15, 4])
    assert only_attack(out)["roll"] == 15
    out = play([fighter(conditions=["restrained"]), target()], [attack("a", "t")], dice=[15, 3])
    assert only_attack(out)["roll"] == 3


def test_g5_01_restrained_disadvantage_on_dexterity_saves():
    """G5-01 restrained: disadvantage on Dexterity saves: acid splash, 15 and 4: a 4 fails DC 13; 1d6 = 5."""
    out = play([caster(spells=["acid_splash"]), target(at=(3, 0), conditions=["restrained"])],
               [cast("w", "acid_splash", "t")], dice=[15, 4, 5])
    save = events(out, "save", creature="t")[0]
    assert (save["roll"], save["success"]) == (4, False)
    assert damage(out, "t") == [5]


def test_g5_01_paralyzed_target_hit_within_5_feet_is_a_critical_hit():
    """G5-01 paralyzed: advantage (5 and 10: a 10), and a hit from 5 feet is a critical hit: 3 + 4 + 3;
    G5-20: the automatic critical doubles the dice as E5-119 says."""
    out = play([fighter(), target(conditions=["paralyzed"])], [attack("a", "t")], dice=[5, 10, 3, 4])
    a = only_attack(out)
    assert (a["roll"], a["hit"], a["critical"]) == (10, True, True)
    assert damage(out, "t") == [10]


def test_g5_01_paralyzed_target_hit_from_farther_is_not_a_critical_hit():
    """G5-01 paralyzed: from 15 feet: advantage but an ordinary hit: 1d6+3 = 6."""
    out = play([fighter(attacks=[BOW]), target(at=(3, 0), conditions=["paralyzed"])], [attack("a", "t", "bow")],
               dice=[5, 10, 3])
    a = only_attack(out)
    assert (a["roll"], a["critical"]) == (10, False)
    assert damage(out, "t") == [6]


def test_g5_01_a_miss_on_a_paralyzed_target_is_still_a_miss():
    """G5-01 paralyzed: the automatic critical hit needs a hit: 2 and 3 (a 3, 8 against AC 12) misses."""
    out = play([fighter(), target(conditions=["paralyzed"])], [attack("a", "t")], dice=[2, 3])
    a = only_attack(out)
    assert (a["hit"], a["critical"]) == (False, False)


def test_g5_01_paralyzed_and_stunned_fail_dexterity_saves():
    """G5-01: paralyzed and stunned creatures fail Strength and Dexterity saves without rolling."""
    for cond in ("paralyzed", "stunned"):
        out = play([caster(spells=["acid_splash"]), target(at=(3, 0), conditions=[cond])],
                   [cast("w", "acid_splash", "t")], dice=[4])
        assert events(out, "save", creature="t")[0]["success"] is False
        assert damage(out, "t") == [4]
        assert d20s(out) == []


def test_g5_01_unconscious_target_hit_within_5_feet_is_a_critical_hit():
    """G5-01 unconscious: a hit from 5 feet is a critical hit (a monster knocked out cold: 4 + 4 + 3)."""
    out = play([fighter(), target(conditions=["unconscious"])], [attack("a", "t")], dice=[5, 10, 4, 4])
    assert only_attack(out)["critical"] is True
    assert damage(out, "t") == [11]


def test_g5_01_stunned_target_advantage():
    """G5-01 stunned: attacks against it have advantage."""
    out = play([fighter(), target(conditions=["stunned"])], [attack("a", "t")], dice=[3, 15, 4])
    assert only_attack(out)["roll"] == 15


def test_g5_01_a_stunned_creature_cannot_move():
    """G5-01 stunned: it can't move."""
    err = refused([fighter(conditions=["stunned"]), target(at=(5, 0))], [do("a", "move", to=[0, 2])])
    assert err.index == 0


INCAPACITATED_ATTACKS = ("the engine plays an attack step from an incapacitated creature: Dnd5eState._attack never "
                         "checks incapacitation (only legal_actions leaves it out)")


def test_g5_01_a_stunned_creature_cannot_attack():
    """G5-01 stunned (incapacitated): no actions, so no attack."""
    err = refused([fighter(conditions=["stunned"]), target()], [attack("a", "t")], dice=[10, 4])
    assert err.index == 0 and err.rule == "G5-01"


def test_g5_01_incapacitated_no_attack():
    """G5-01 incapacitated: no actions: no attack."""
    err = refused([fighter(conditions=["incapacitated"]), target()], [attack("a", "t")], dice=[10, 4])
    assert err.index == 0 and err.rule == "G5-01"


def test_g5_01_incapacitated_no_spell():
    """G5-01 incapacitated: no actions: no fire bolt."""
    err = refused([caster(spells=["fire_bolt"], conditions=["incapacitated"]), target(at=(3, 0))],
                  [cast("w", "fire_bolt", "t")], dice=[10, 4])
    assert err.index == 0 and err.rule == "G5-01"


def test_g5_01_an_incapacitated_creature_may_still_move():
    """G5-01 incapacitated: no actions or reactions; its speed is untouched (unlike stunned or paralyzed)."""
    out = play([fighter(conditions=["incapacitated"]), target(at=(5, 0))], [do("a", "move", to=[0, 2])])
    assert out["creatures"]["a"]["at"] == [0, 2]


def test_g5_01_a_hero_starting_at_0_hit_points_is_prone():
    """G5-01 unconscious: the creature falls prone: from 15 feet, advantage (unconscious) and disadvantage
    (prone, not within 5 feet) cancel: one d20."""
    creatures = [cr("h", "heroes", (0, 0), hero=True, hp=20, cur=0),
                 fighter("o", (3, 0), side="foes", attacks=[BOW]), fighter("b", (0, 4))]
    out = play(creatures, [attack("o", "h", "bow")], dice=[12, 2], order=["o", "h", "b"])
    assert "prone" in conds(out, "h")
    assert d20s(out) == [12]


def test_g5_01_poisoned_attacker_has_disadvantage():
    """G5-01 poisoned: disadvantage on attack rolls."""
    out = play([fighter(conditions=["poisoned"]), target()], [attack("a", "t")], dice=[15, 3])
    assert only_attack(out)["roll"] == 3


def test_g5_01_grappled_speed_0():
    """G5-01 grappled: speed 0: no move at all."""
    err = refused([fighter(conditions=["grappled"]), target(at=(5, 0))], [do("a", "move", to=[0, 1])])
    assert err.index == 0


def test_g5_01_incapacitated_no_reactions():
    """G5-01 incapacitated: no reactions: the incapacitated guard makes no opportunity attack."""
    out = play([fighter("m", (1, 0)), fighter("g", (0, 0), side="foes", conditions=["incapacitated"])],
               [do("m", "move", to=[4, 0])], dice=[15, 4])
    assert attacks(out) == [] and events(out, "opportunity") == []


def test_g5_02_one_disadvantage_cancels_two_advantages():
    """G5-02: prone and restrained target (two advantages), poisoned attacker (one disadvantage): one d20."""
    out = play([fighter(conditions=["poisoned"]), target(conditions=["prone", "restrained"])], [attack("a", "t")],
               dice=[3, 15])
    assert d20s(out) == [3]
    assert only_attack(out)["hit"] is False


def test_g5_02_two_disadvantages_are_still_two_dice():
    """G5-02: poisoned and prone attacker: disadvantage, two d20s, the lower."""
    out = play([fighter(conditions=["poisoned", "prone"]), target()], [attack("a", "t")], dice=[15, 3])
    assert d20s(out) == [15, 3]


# Concentration (G5-12).


def blessing(cleric_kw: dict[str, Any] | None = None, damage_: str = "8 slashing") -> list[dict[str, Any]]:
    """A cleric concentrating on bless for the fighter beside it, and a monster next to the cleric."""
    return [caster("c", (1, 1), spells=["bless"], ability="wis", hp=40, **(cleric_kw or {})),
            fighter("o", (2, 1), side="foes", attacks=[maul(damage_)], hp=40, ac=12),
            fighter("f", (3, 1), attacks=[SWORD | {"bonus": 3}])]


def test_g5_12_bless_adds_a_d4_to_attack_rolls():
    """G5-12 bless: the blessed fighter's attack: d20 + 3 + d4: 8 + 3 + 1 = 12 hits AC 12."""
    out = play(blessing(), [cast("c", "bless", ["f"]), end("c"), end("o"), attack("f", "o")],
               dice=[8, 1, 4])
    a = only_attack(out, actor="f")
    assert (a["total"], a["hit"]) == (12, True)


def test_g5_12_bless_ends_when_the_caster_fails_its_concentration_save():
    """G5-12: 8 damage: DC 10; the cleric rolls 9 (Con 10): concentration lost; the fighter's 8 + 3 = 11
    misses with no bless die."""
    out = play(blessing(), [cast("c", "bless", ["f"]), end("c"), attack("o", "c", "maul"), end("o"),
                            attack("f", "o")], dice=[15, 9, 8])
    save = events(out, "save", creature="c")[0]
    assert (save["dc"], save["success"]) == (10, False)
    assert events(out, "concentration")
    a = only_attack(out, actor="f")
    assert (a["total"], a["hit"]) == (11, False)


def test_g5_12_concentration_held_on_a_10():
    """G5-12: 8 damage, DC 10, a 10 keeps bless: the fighter adds the d4."""
    out = play(blessing(), [cast("c", "bless", ["f"]), end("c"), attack("o", "c", "maul"), end("o"),
                            attack("f", "o")], dice=[15, 10, 8, 1, 4])
    assert events(out, "concentration") == []
    assert only_attack(out, actor="f")["total"] == 12


def test_g5_12_a_blessed_caster_adds_the_bless_die_to_its_concentration_save():
    """G5-12: bless on the cleric itself: its Con save against DC 10 is 8 + 2 (d4) = 10: concentration holds."""
    out = play(blessing(), [cast("c", "bless", ["c", "f"]), end("c"), attack("o", "c", "maul")],
               dice=[15, 8, 2])
    save = events(out, "save", creature="c")[0]
    assert (save["total"], save["success"]) == (10, True)
    assert events(out, "concentration") == []


def test_g5_12_concentration_dc_is_half_the_damage_when_that_is_higher():
    """G5-12: 24 damage: DC 12: 11 fails, 12 holds."""
    steps = [cast("c", "bless", ["f"]), end("c"), attack("o", "c", "maul")]
    out = play(blessing(damage_="24 slashing"), steps, dice=[15, 11])
    save = events(out, "save", creature="c")[0]
    assert (save["dc"], save["success"]) == (12, False)
    out = play(blessing(damage_="24 slashing"), steps, dice=[15, 12])
    assert events(out, "save", creature="c")[0]["success"] is True


def test_g5_12_decisions_damage_absorbed_by_temporary_hit_points_still_calls_for_a_concentration_save():
    """G5-12/Decisions: 8 damage, all absorbed by 10 temporary hit points, still calls for the DC 10 save."""
    cleric = blessing()
    cleric[0]["temp_hp"] = 10
    out = play(cleric, [cast("c", "bless", ["f"]), end("c"), attack("o", "c", "maul")], dice=[15, 9])
    assert temp(out, "c") == 2 and hp(out, "c") == 40
    assert events(out, "save", creature="c")[0]["dc"] == 10
    assert events(out, "concentration")


def test_g5_12_concentration_ends_when_the_caster_drops():
    """G5-12: the cleric (a hero) drops to 0: bless ends even though the concentration save (20 against
    DC 20) succeeded; the fighter's 8 + 3 has no bless die."""
    creatures = blessing(cleric_kw={"hero": True}, damage_="40 slashing")
    out = play(creatures, [cast("c", "bless", ["f"]), end("c"), attack("o", "c", "maul"), end("o"),
                           attack("f", "o")], dice=[15, 20, 8])
    assert status(out, "c") == "down"
    assert only_attack(out, actor="f")["total"] == 11


# Spells (G5-12).


def test_g5_12_fire_bolt_scales_with_character_level():
    """SRD fire bolt: 2d10 from 5th level: 3 + 4."""
    out = play([caster(spells=["fire_bolt"], level=5), target(at=(3, 0))], [cast("w", "fire_bolt", "t")],
               dice=[10, 3, 4])
    assert damage(out, "t") == [7]


def test_g5_12_magic_missile_three_darts_always_hit():
    """SRD magic missile: three darts of 1d4+1 force, no attack roll, even against AC 30: 2 + 3 + 4."""
    out = play([caster(spells=["magic_missile"]), target(at=(3, 0), ac=30)], [cast("w", "magic_missile", "t")],
               dice=[1, 2, 3])
    assert attacks(out) == []
    assert damage(out, "t") == [2, 3, 4] and hp(out, "t") == 21


def test_g5_12_magic_missile_one_more_dart_per_slot_level_above_1st():
    """SRD magic missile: a 2nd-level slot: four darts (4 x 5 = 20 with 4s)."""
    out = play([caster(spells=["magic_missile"]), target(at=(3, 0))],
               [cast("w", "magic_missile", "t", slot=2)], dice=[4, 4, 4, 4])
    assert damage(out, "t") == [5, 5, 5, 5]


def test_g5_12_magic_missile_darts_split_between_targets():
    """SRD magic missile: two darts at one creature, one at another."""
    out = play([caster(spells=["magic_missile"]), target(at=(3, 0)), target("u", (3, 2))],
               [cast("w", "magic_missile", ["t", "t", "u"])], dice=[4, 4, 4])
    assert damage(out, "t") == [5, 5] and damage(out, "u") == [5]


def test_g5_12_a_leveled_spell_needs_a_slot():
    """G5-12: one 1st-level slot: magic missile once; the next round there is none left."""
    out_steps = [cast("w", "magic_missile", "t"), end("w"), end("t"), cast("w", "magic_missile", "t")]
    err = refused([caster(spells=["magic_missile"], slots={1: 1}), target(at=(3, 0), hp=60)], out_steps,
                  dice=[1, 1, 1])
    assert err.index == 3 and err.rule == "G5-12"


def test_g5_12_burning_hands_save_for_half_one_roll():
    """SRD burning hands: 3d6 fire in a 15-foot cone, Dex save DC 13 for half: 18 to the one that fails
    (5 - 5), 9 to the one that saves (5 + 10)."""
    out = play([caster(at=(0, 2), spells=["burning_hands"]),
                target(at=(1, 2), saves={"dex": -5}), target("u", (2, 1), saves={"dex": 10})],
               [{"ask": "area", "actor": "w", "with": "burning_hands", "at": [3, 2]},
                cast("w", "burning_hands", at=[3, 2])], dice=[5, 5, 6, 6, 6])
    assert sorted(out["answers"][0]["value"]) == ["t", "u"]
    assert dice_of(out, 6) == [6, 6, 6]
    assert damage(out, "t") == [18] and damage(out, "u") == [9]


def test_g5_12_burning_hands_upcast_adds_a_d6():
    """SRD burning hands at 2nd level: 4d6."""
    out = play([caster(at=(0, 2), spells=["burning_hands"]), target(at=(1, 2), saves={"dex": -5})],
               [cast("w", "burning_hands", at=[3, 2], slot=2)], dice=[5, 1, 2, 3, 4])
    assert damage(out, "t") == [10]


def test_g5_12_healing_word_is_a_bonus_action():
    """G5-12/SRD healing word: a bonus action: the cleric still attacks with its action."""
    out = play([caster("c", spells=["healing_word"], ability="wis", attacks=[SWORD]),
                fighter("b", (4, 4), hp=20, cur=5), target()],
               [cast("c", "healing_word", "b"), attack("c", "t")], dice=[2, 15, 4])
    assert hp(out, "b") == 10
    assert only_attack(out, actor="c")["hit"] is True


def test_g5_12_healing_word_reaches_60_feet():
    """SRD healing word: 60 feet (12 squares): 13 squares is too far."""
    refused([caster("c", spells=["healing_word"], ability="wis"), fighter("b", (13, 0), hp=20, cur=5),
             target(at=(0, 2))], [cast("c", "healing_word", "b")], rows=LONG + LONG + LONG)


def test_g5_12_after_a_bonus_action_spell_a_cantrip_is_allowed():
    """G5-12: healing word (bonus action), then fire bolt (a cantrip of one action): allowed."""
    out = play([caster("c", spells=["healing_word", "fire_bolt"], ability="wis"),
                fighter("b", (4, 4), hp=20, cur=5), target(at=(3, 0))],
               [cast("c", "healing_word", "b"), cast("c", "fire_bolt", "t")], dice=[2, 15, 4])
    assert damage(out, "t") == [4]


def test_g5_12_after_a_bonus_action_spell_no_leveled_spell():
    """G5-12: healing word (bonus action), then magic missile (1st level): refused."""
    err = refused([caster("c", spells=["healing_word", "magic_missile"], ability="wis"),
                   fighter("b", (4, 4), hp=20, cur=5), target(at=(3, 0))],
                  [cast("c", "healing_word", "b"), cast("c", "magic_missile", "t")], dice=[2])
    assert err.index == 1 and err.rule == "G5-12"


def test_g5_12_after_a_leveled_spell_no_bonus_action_spell():
    """G5-12: magic missile (action, 1st level), then healing word (bonus action): refused, since the
    other spell of the turn would not be a cantrip."""
    err = refused([caster("c", spells=["healing_word", "magic_missile"], ability="wis"),
                   fighter("b", (4, 4), hp=20, cur=5), target(at=(3, 0))],
                  [cast("c", "magic_missile", "t"), cast("c", "healing_word", "b")], dice=[1, 1, 1])
    assert err.index == 1 and err.rule == "G5-12"


def test_g5_12_a_cantrip_then_a_bonus_action_spell_is_allowed():
    """G5-12: fire bolt, then healing word: allowed."""
    out = play([caster("c", spells=["healing_word", "fire_bolt"], ability="wis"),
                fighter("b", (4, 4), hp=20, cur=5), target(at=(3, 0))],
               [cast("c", "fire_bolt", "t"), cast("c", "healing_word", "b")], dice=[15, 4, 2])
    assert hp(out, "b") == 10


def wizard_target(**kw: Any) -> dict[str, Any]:
    return caster("w", (1, 0), side="foes", spells=["shield"], slots={1: 1}, ac=12, hp=30, **kw)


def test_g5_12_shield_turns_a_hit_into_a_miss():
    """SRD shield: hit by 10 + 5 = 15 against AC 12, the wizard casts shield (its reaction, a 1st-level
    slot): AC 17, a miss."""
    out = play([fighter(), wizard_target()], [attack("a", "w")], dice=[10])
    a = only_attack(out)
    assert (a["total"], a["against"], a["hit"]) == (15, 17, False)
    assert events(out, "reaction", actor="w")
    assert hp(out, "w") == 30


def test_g5_12_shield_lasts_until_the_start_of_the_wizards_turn():
    """SRD shield: the +5 holds against the next attacker of the round (16 against 17) without a second
    slot; from the wizard's turn on, AC 12 again."""
    creatures = [fighter(), fighter("b", (2, 1)), wizard_target()]
    out = play(creatures, [attack("a", "w"), end("a"), attack("b", "w"), end("b"), end("w"), attack("a", "w")],
               dice=[10, 11, 7, 1])
    first, second, third = attacks(out)
    assert (first["against"], second["against"], second["hit"]) == (17, 17, False)
    assert (third["total"], third["against"], third["hit"]) == (12, 12, True)
    assert len(events(out, "reaction", actor="w")) == 1


def test_g5_12_no_shield_without_a_slot():
    """SRD shield: no 1st-level slot left: the hit stands."""
    out = play([fighter(), caster("w", (1, 0), side="foes", spells=["shield"], slots={1: 0}, ac=12, hp=30)],
               [attack("a", "w")], dice=[10, 4])
    assert only_attack(out)["hit"] is True and hp(out, "w") == 23


def test_g5_12_shield_does_not_stop_a_critical_hit():
    """SRD shield / E5-085: a natural 20 hits whatever the AC."""
    out = play([fighter(), wizard_target()], [attack("a", "w")], dice=[20, 1, 1])
    assert only_attack(out)["hit"] is True and hp(out, "w") == 25


def test_g5_12_shield_against_a_spell_attack():
    """SRD shield / E5-079: a spell attack is an attack: fire bolt 10 + 5 against AC 12 is turned aside."""
    out = play([caster("x", spells=["fire_bolt"], at=(0, 0)), wizard_target() | {"at": [3, 0]}],
               [cast("x", "fire_bolt", "w")], dice=[10])
    a = only_attack(out)
    assert (a["against"], a["hit"]) == (17, False)


def test_g5_12_fireball_reaches_150_feet_and_catches_allies_too():
    """SRD fireball: range 150 feet (30 squares), a 20-foot radius: everyone in it, the caster's ally
    included, takes the one roll (a failed save: 8)."""
    rows = ["." * 36] * 3
    out = play([caster(spells=["fireball"]), target(at=(30, 1), hp=40), fighter("b", (28, 0), hp=40)],
               [cast("w", "fireball", at=[30, 0])], rows=rows, dice=[2, 2] + [1] * 8)
    assert damage(out, "t") == [8] and damage(out, "b") == [8]
    err = refused([caster(spells=["fireball"]), target(at=(30, 1), hp=40)], [cast("w", "fireball", at=[31, 0])],
                  rows=rows)
    assert err.rule == "E5-092"
