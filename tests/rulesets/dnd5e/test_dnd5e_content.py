"""The dnd5e content: the SRD 5.1 monsters and the level 1-5 characters of ``content/creatures.yaml``,
the spells of ``content/spells.yaml``, the maps of ``content/maps`` and the encounters of
``scenarios/dnd5e``.

Every stat block is validated with the rule set's model and built into an engine template; the
characters are checked against the 5e build rules (standard array, G5-11 modifiers and proficiency,
hit points by level, E5-080/E5-084 attack bonuses); the maps are parsed with the rule set's legend and
the encounters are loaded as any scenario file is.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from skirmish.core.dice import DiceExpr
from skirmish.core.grid import Grid
from skirmish.rulesets.dnd5e.ruleset import Dnd5e
from skirmish.rulesets.dnd5e.spells import Spell, spell_book
from skirmish.rulesets.dnd5e.stats import DAMAGE_TYPES, SIZES, Dnd5eAttack, Dnd5eStats
from skirmish.scenario.catalog import catalog
from skirmish.scenario.loader import load_scenario_file
from skirmish.scenario.models import ZoneModel

ROOT = Path(__file__).resolve().parents[3]
CONTENT = ROOT / "src" / "skirmish" / "rulesets" / "dnd5e" / "content"
MAPS = sorted((CONTENT / "maps").glob("*.yaml"))
ENCOUNTERS = sorted((ROOT / "scenarios" / "dnd5e").glob("*.yaml"))
BENCHMARK = ROOT / "scenarios" / "dnd5e" / "benchmark-fighters-vs-orcs.yaml"

CHALLENGES = ["1/8", "1/4", "1/2", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
CLASSES = ("fighter", "rogue", "cleric", "wizard")
STANDARD_ARRAY = [8, 10, 12, 13, 14, 15]
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
# Racial increases (human, lightfoot halfling, hill dwarf, high elf) and the ability score
# improvement each build takes at level 4, as the header of creatures.yaml gives them.
RACE = {
    "fighter": dict.fromkeys(ABILITIES, 1),
    "rogue": {"dex": 2, "cha": 1},
    "cleric": {"con": 2, "wis": 1},
    "wizard": {"dex": 2, "int": 1},
}
ASI = {"fighter": {"str": 2}, "rogue": {"dex": 1, "wis": 1}, "cleric": {"wis": 2}, "wizard": {"int": 2}}
HIT_DIE = {"fighter": 10, "rogue": 8, "cleric": 8, "wizard": 6}
SPELLCASTING = {"cleric": "wis", "wizard": "int"}
# The full-caster spell slot table (SRD 5.1), levels 1-5.
SLOTS = {1: {1: 2}, 2: {1: 3}, 3: {1: 4, 2: 2}, 4: {1: 4, 2: 3}, 5: {1: 4, 2: 3, 3: 2}}
SNEAK_ATTACK = {1: "1d6", 2: "1d6", 3: "2d6", 4: "2d6", 5: "3d6"}
REQUIRED_SPELLS = ("magic_missile", "fire_bolt", "sacred_flame", "cure_wounds", "healing_word", "burning_hands",
                   "shield", "fireball", "bless")
# G5-10: weapon ranges in squares (feet / 5) and the damage die of a Medium wielder.
WEAPON_RANGES = {
    "dagger_thrown": (4, 12), "javelin": (6, 24), "javelin_thrown": (6, 24), "spear_thrown": (4, 12),
    "sling": (6, 24), "shortbow": (16, 64), "longbow": (30, 120), "light_crossbow": (16, 64),
    "hand_crossbow": (6, 24), "heavy_crossbow": (20, 80),
}
WEAPON_DICE = {"dagger": "1d4", "dagger_thrown": "1d4", "shortsword": "1d6", "longsword": "1d8", "mace": "1d6",
               "javelin": "1d6", "shortbow": "1d6", "scimitar": "1d6", "greataxe": "1d12", "greatsword": "2d6"}
WEAPON_PROPERTIES = {
    "dagger": {"finesse", "light", "thrown"}, "shortsword": {"finesse", "light"}, "scimitar": {"finesse", "light"},
    "longsword": {"versatile"}, "greataxe": {"heavy", "two_handed"}, "greatsword": {"heavy", "two_handed"},
    "javelin": {"thrown"}, "spear": {"thrown", "versatile"}, "shortbow": {"ammunition", "two_handed"},
    "longbow": {"ammunition", "heavy", "two_handed"}, "light_crossbow": {"ammunition", "loading", "two_handed"},
    "heavy_crossbow": {"ammunition", "heavy", "loading", "two_handed"},
    "hand_crossbow": {"ammunition", "light", "loading"},
}
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


# Loading.


@cache
def blocks() -> dict[str, Dnd5eStats]:
    return {name: Dnd5eStats.model_validate(entry.stats) for name, entry in catalog("dnd5e").items()}


def monsters() -> dict[str, Dnd5eStats]:
    return {n: s for n, s in blocks().items() if s.challenge is not None}


def characters() -> dict[str, Dnd5eStats]:
    return {n: s for n, s in blocks().items() if s.challenge is None}


def cls_of(name: str) -> str:
    return name.rsplit("-", 1)[0]


def mod(score: int) -> int:
    """G5-11: floor((score - 10) / 2)."""
    return (score - 10) // 2


def proficiency(level_or_cr: Fraction) -> int:
    """G5-11: +2 at 1-4 (and every CR below 1), +3 at 5-8, +4 at 9-12, +5 at 13-16, +6 at 17-20."""
    return 2 + max(0, (int(level_or_cr) - 1) // 4)


def cr_value(text: str) -> Fraction:
    return Fraction(text)


def damage_terms(text: str | None) -> list[Any]:
    return list(DiceExpr.parse(text).terms) if text else []


def flat_bonus(text: str) -> int:
    """The flat part of the first damage type's terms: 3 for ``1d8+3 slashing + 1d6 fire``."""
    terms = damage_terms(text)
    first = terms[0].type
    return sum(t.sign * t.value for t in terms if t.is_flat and t.type == first)


def dice_of(text: str) -> str:
    return damage_terms(text)[0].body()


def trait_values(stats: Dnd5eStats) -> list[Any]:
    return [v for t in stats.traits if isinstance(t, dict) for v in t.values()]


def every_damage_text() -> list[tuple[str, str]]:
    """Every damage expression of the content, with where it is written."""
    out: list[tuple[str, str]] = []
    for name, s in blocks().items():
        for a in s.attacks:
            out += [(f"{name}.{a.name}", d) for d in (a.damage, a.versatile_damage) if d]
            out += [(f"{name}.{a.name}.on_hit", e.damage) for e in a.on_hit if e.damage]
        for value in trait_values(s):
            if isinstance(value, dict) and isinstance(value.get("damage"), str):
                out.append((f"{name}.traits", value["damage"]))
    for name, sp in spell_book().items():
        out += [(f"spell {name}", d) for d in (sp.damage, sp.upcast) if d and sp.damage]
        out += [(f"spell {name}.scaling", d) for d in sp.scaling.values()]
    return out


@cache
def load_map(path: Path) -> tuple[dict[str, Any], Grid]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    zones = {name: ZoneModel.model_validate(z).square_set() for name, z in (data.get("zones") or {}).items()}
    return data, Grid.parse(data["rows"], Dnd5e.legend, None, zones, file=str(path))


def placeable(grid: Grid, sq: tuple[int, int]) -> bool:
    kind = grid.kind(sq) if grid.inside(sq) else None
    return kind is not None and kind.occupiable and kind.entry == "all" and kind.name != "wall"


# The catalog.


def test_catalog_validates_and_builds_engine_templates():
    ruleset = Dnd5e()
    found = catalog("dnd5e")
    for name in ("orc", "goblin", "ogre", "fighter-1"):
        assert name in found, f"{name}: the original entries stay"
    for name, entry in found.items():
        assert KEBAB.match(name), f"{name}: catalog names are kebab-case"
        stats = Dnd5eStats.model_validate(entry.stats)
        template = ruleset.make_template(name, stats)
        assert template.max_hp == stats.hp
        assert template.attacks, f"{name}: needs attacks"
        names = [a.name for a in stats.attacks]
        assert len(names) == len(set(names)), f"{name}: attack names are unique"
        for m in stats.multiattack:
            assert m in names, f"{name}: multiattack names {m!r}, not one of its attacks"


def test_e5_048_sizes_give_the_footprint():
    """E5-048: Tiny, Small and Medium fill one square, Large 2 x 2, Huge 3 x 3."""
    ruleset = Dnd5e()
    sizes = Counter(s.size for s in blocks().values())
    assert {"tiny", "small", "medium", "large", "huge"} <= set(sizes), sizes
    for name, s in blocks().items():
        assert ruleset.make_template(name, s).size == SIZES[s.size] == {"tiny": 1, "small": 1, "medium": 1,
                                                                       "large": 2, "huge": 3}[s.size]


def test_monsters_number_at_least_40_across_challenge_1_8_to_10():
    found = monsters()
    assert len(found) >= 40, len(found)
    by_cr = Counter(s.challenge for s in found.values())
    assert set(by_cr) == set(CHALLENGES), f"every challenge from 1/8 to 10: {sorted(by_cr)}"
    for name, s in found.items():
        assert s.level == 0 and not name.split("-")[-1].isdigit(), name


def test_g5_11_monster_proficiency_follows_challenge():
    for name, s in monsters().items():
        assert s.proficiency_bonus == proficiency(max(cr_value(s.challenge), Fraction(1))), name


def test_monster_hit_points_armour_and_speeds_are_sane():
    for name, s in monsters().items():
        assert 1 <= s.hp <= 250 and 8 <= s.ac <= 20, name
        speeds = s.speed if isinstance(s.speed, dict) else {"walk": s.speed}
        assert set(speeds) <= {"walk", "fly", "climb", "swim", "burrow"}, name
        assert all(0 < v <= 20 for v in speeds.values()), f"{name}: speeds are squares, not feet"


def test_e5_080_e5_084_monster_attack_bonus_is_modifier_plus_proficiency():
    """E5-080, E5-081, E5-084: where an attack names its ability, its bonus is that modifier plus
    proficiency and its damage adds the same modifier (E5-117)."""
    checked = 0
    for name, s in monsters().items():
        for a in s.attacks:
            if a.ability is None:
                continue
            m = mod(getattr(s.abilities, a.ability))
            assert a.bonus == m + s.proficiency_bonus, f"{name}.{a.name}"
            if a.damage:
                assert flat_bonus(a.damage) == m, f"{name}.{a.name}: damage {a.damage} adds {m}"
            checked += 1
    assert checked >= 100


def test_e5_095_reach_beyond_one_square_only_for_large_creatures():
    for name, s in blocks().items():
        for a in s.attacks:
            if a.kind == "melee":
                assert isinstance(a.range, int) and a.range >= 1, f"{name}.{a.name}"
                if a.range > 1:
                    assert SIZES[s.size] >= 2, f"{name}.{a.name}: reach {a.range} on a {s.size} creature"
            else:
                assert isinstance(a.range, tuple), f"{name}.{a.name}: a ranged attack has [normal, long]"


def test_g5_10_weapon_ranges_properties_and_dice():
    """G5-10: the weapon table's ranges (in squares) and properties for every creature; the damage die
    for the characters (monsters may be bigger or brutes)."""
    for name, s in blocks().items():
        for a in s.attacks:
            if a.name in WEAPON_RANGES:
                assert a.kind == "ranged" and a.range == WEAPON_RANGES[a.name], f"{name}.{a.name}: {a.range}"
            base = a.name.removesuffix("_thrown")
            if base in WEAPON_PROPERTIES:
                assert set(a.properties) == WEAPON_PROPERTIES[base], f"{name}.{a.name}: {a.properties}"
            if a.kind == "ranged" and "thrown" in a.properties:
                assert a.ability in (None, "str") or "finesse" in a.properties, f"{name}.{a.name}"
    for name, s in characters().items():
        for a in s.attacks:
            assert dice_of(a.damage) == WEAPON_DICE[a.name], f"{name}.{a.name}: {a.damage}"


def test_e5_121_every_damage_type_is_one_of_the_13_and_all_13_occur():
    seen = set()
    for where, text in every_damage_text():
        for t in damage_terms(text):
            assert t.type in DAMAGE_TYPES, f"{where}: {text!r} needs one of the 13 damage types"
            seen.add(t.type)
    for s in blocks().values():
        for field in (s.resistances, s.vulnerabilities, s.immunities):
            assert set(field) <= DAMAGE_TYPES
    assert seen == DAMAGE_TYPES, DAMAGE_TYPES - seen


def test_monster_effects_saves_and_features():
    effects = [e for s in monsters().values() for a in s.attacks for e in a.on_hit]
    assert {e.condition for e in effects} >= {"prone", "grappled", "restrained", "paralyzed", "poisoned"}
    assert any(e.damage and e.save and e.save.half for e in effects)
    assert all(e.escape_dc for e in effects if e.condition == "grappled")
    m = monsters()
    assert m["wolf"].features.pack_tactics and m["kobold"].features.pack_tactics
    assert m["goblin"].features.nimble_escape and m["orc"].features.aggressive
    assert m["wolf"].attacks[0].on_hit[0].model_dump(exclude_none=True) == {
        "condition": "prone", "save": {"ability": "str", "dc": 11, "half": False}}
    spider = m["giant-spider"].attacks[0].on_hit[0]
    assert spider.damage == "2d8 poison" and spider.save.ability == "con" and spider.save.dc == 11 and spider.save.half
    assert sum(bool(s.multiattack) for s in m.values()) >= 20
    assert sum(bool(s.saves) for s in m.values()) >= 8
    assert sum("perception" in s.skills for s in m.values()) >= 20
    assert any(s.vulnerabilities for s in m.values()) and any(s.condition_immunities for s in m.values())


# The characters.


@pytest.mark.parametrize("cls", CLASSES)
def test_characters_of_every_class_at_levels_1_to_5(cls):
    for level in range(1, 6):
        s = characters().get(f"{cls}-{level}")
        assert s is not None, f"{cls}-{level} is missing"
        assert s.level == level and s.challenge is None


def test_g5_11_character_scores_are_the_standard_array_plus_race():
    for name, s in characters().items():
        cls = cls_of(name)
        scores = s.abilities.model_dump()
        base = {a: scores[a] - RACE[cls].get(a, 0) - (ASI[cls].get(a, 0) if s.level >= 4 else 0) for a in ABILITIES}
        assert sorted(base.values()) == STANDARD_ARRAY, f"{name}: {base}"


def test_g5_11_character_proficiency_and_hit_points_by_level():
    """Hit points: the hit die at level 1, then its average (die / 2 + 1) each level, plus the Con
    modifier each level (and the hill dwarf's +1 per level)."""
    for name, s in characters().items():
        cls = cls_of(name)
        assert s.proficiency_bonus == proficiency(Fraction(s.level)), name
        die, con = HIT_DIE[cls], mod(s.abilities.con)
        toughness = s.level if "dwarven_toughness" in s.traits else 0
        assert s.hp == die + con + (s.level - 1) * (die // 2 + 1 + con) + toughness, f"{name}: {s.hp}"
        for ability, bonus in s.saves.items():
            assert bonus == mod(getattr(s.abilities, ability)) + s.proficiency_bonus, f"{name} {ability} save"


def test_character_armour_class():
    for name, s in characters().items():
        expected = {"fighter": 18, "cleric": 18, "rogue": 11 + mod(s.abilities.dex),
                    "wizard": 10 + mod(s.abilities.dex)}[cls_of(name)]
        assert s.ac == expected, f"{name}: AC {s.ac}"
    assert characters()["rogue-1"].ac == 14 and characters()["wizard-1"].ac == 12


def test_e5_080_e5_084_character_attack_bonus_is_modifier_plus_proficiency():
    """E5-080, E5-082, E5-084, G5-10: Str for melee, Dex for ranged, either for finesse; the bonus is the
    modifier plus proficiency, and the damage adds the same modifier (E5-117)."""
    for name, s in characters().items():
        for a in s.attacks:
            assert a.ability is not None, f"{name}.{a.name}: characters name the ability"
            m = mod(getattr(s.abilities, a.ability))
            assert a.bonus == m + s.proficiency_bonus, f"{name}.{a.name}: {a.bonus}"
            assert flat_bonus(a.damage) == m, f"{name}.{a.name}: {a.damage}"
            if "finesse" in a.properties:
                best = max(mod(s.abilities.str), mod(s.abilities.dex))
                assert m == best, f"{name}.{a.name}: a finesse weapon uses the better of Str and Dex"
            elif a.kind == "melee" or "thrown" in a.properties:
                assert a.ability == "str", f"{name}.{a.name}"
            else:
                assert a.ability == "dex", f"{name}.{a.name}"


def test_the_benchmark_fighter_1():
    f = characters()["fighter-1"]
    longsword = next(a for a in f.attacks if a.name == "longsword")
    assert (f.ac, f.hp, longsword.bonus, longsword.damage) == (18, 12, 5, "1d8+3 slashing")


def test_class_features_by_level():
    for level in range(1, 6):
        fighter, rogue = characters()[f"fighter-{level}"], characters()[f"rogue-{level}"]
        assert fighter.features.second_wind
        assert fighter.features.extra_attack == (2 if level >= 5 else 1)
        assert rogue.features.sneak_attack == SNEAK_ATTACK[level]
        assert rogue.features.cunning_action == (level >= 2)
        assert {p for a in rogue.attacks for p in a.properties} >= {"finesse", "light"}
        for cls in ("cleric", "wizard"):
            caster = characters()[f"{cls}-{level}"]
            assert caster.spellcasting == SPELLCASTING[cls]
            assert caster.spell_slots == SLOTS[level], f"{cls}-{level}"
        assert "fireball" in characters()[f"wizard-{level}"].spells or level < 5
    assert {"sacred_flame", "cure_wounds", "healing_word", "bless"} <= set(characters()["cleric-1"].spells)
    assert {"fire_bolt", "magic_missile", "burning_hands", "shield"} <= set(characters()["wizard-1"].spells)
    assert "fireball" in characters()["wizard-5"].spells and "fireball" not in characters()["wizard-4"].spells


# The spells.


def test_required_spells_are_in_the_spell_book():
    book = spell_book()
    for name in REQUIRED_SPELLS:
        assert name in book, name
    assert len(book) >= 15
    for name, sp in book.items():
        assert re.fullmatch(r"[a-z_]+", name)
        Spell.model_validate(sp.model_dump())
        sp.area_spec()


def test_spell_numbers():
    book = spell_book()
    assert book["magic_missile"].darts == 3 and book["magic_missile"].damage == "1d4+1 force"
    assert book["sacred_flame"].no_cover and book["sacred_flame"].save == "dex"
    assert book["shield"].casting_time == "reaction" and book["shield"].ac_bonus == 5
    assert book["healing_word"].casting_time == "bonus" and book["healing_word"].heal == "1d4"
    assert book["bless"].concentration and book["bless"].bless == "1d4" and book["bless"].targets == 3
    assert (book["fireball"].level, book["fireball"].range, book["fireball"].area) == (3, 30, "sphere 4")
    assert (book["burning_hands"].area, book["burning_hands"].damage) == ("cone 3", "3d6 fire")
    assert book["lightning_bolt"].area == "line 20" and book["thunderwave"].area == "cube 3"
    for name, sp in book.items():
        if sp.level == 0 and sp.damage:
            assert set(sp.scaling) == {5, 11, 17}, f"{name}: cantrips scale at 5, 11 and 17"
            count = damage_terms(sp.damage)[0].count
            assert [damage_terms(sp.scaling[lv])[0].count for lv in (5, 11, 17)] == [2 * count, 3 * count, 4 * count]
        if sp.level > 0 and (sp.damage or sp.heal) and name != "magic_missile":
            assert sp.upcast, f"{name}: a leveled damage or healing spell says what a higher slot adds"
        if sp.save is None and sp.damage and not sp.darts:
            assert sp.attack, f"{name}: damage needs an attack roll, a save or darts"


def test_every_spell_a_creature_knows_is_in_the_spell_book():
    book = spell_book()
    casters = {n: s for n, s in blocks().items() if s.spells}
    assert {"cleric-1", "wizard-5", "mage", "priest"} <= set(casters)
    for name, s in casters.items():
        assert s.spellcasting, f"{name}: a caster names its spellcasting ability"
        for sp in s.spells:
            assert sp in book, f"{name}: {sp} is not in spells.yaml"
        levels = {book[sp].level for sp in s.spells} - {0}
        assert all(s.spell_slots.get(lv, 0) > 0 for lv in levels), f"{name}: a slot for every spell level"


# The maps and the encounters.


def test_maps_load_with_party_and_monster_zones():
    assert {p.stem for p in MAPS} >= {"corridor", "pillared-room", "open-field"}
    for path in MAPS:
        data, grid = load_map(path)
        assert data["name"] and 12 <= grid.width <= 20 and 8 <= grid.height <= 20, path.name
        assert {"party", "monsters"} <= set(grid.zones), path.name
        for zone, squares in grid.zones.items():
            for sq in squares:
                assert placeable(grid, sq), f"{path.name}: zone {zone} square {sq} is not open ground"
    open_field = load_map(CONTENT / "maps" / "open-field.yaml")[0]["rows"]
    assert "T" in open_field and "=" in open_field


@pytest.mark.parametrize("path", ENCOUNTERS, ids=[p.stem for p in ENCOUNTERS])
def test_encounter_loads_as_a_fight(path):
    scenario = load_scenario_file(path)
    model = scenario.model
    assert model.ruleset == "dnd5e" and model.name and not model.steps
    heroes = [c for c in model.creatures if c.side == "party"]
    foes = [c for c in model.creatures if c.side == "monsters"]
    assert {c.side for c in model.creatures} == {"party", "monsters"}
    assert 3 <= len(heroes) <= 4 and all(c.hero for c in heroes)
    assert all(1 <= blocks()[c.creature].level <= 5 for c in heroes)
    assert foes and all(not c.hero and blocks()[c.creature].challenge for c in foes)
    if path != BENCHMARK:
        rows = {load_map(p)[0]["rows"].rstrip("\n") for p in MAPS}
        assert model.map.rows.rstrip("\n") in rows, f"{path.name}: the map is one of content/maps"
        assert len({cls_of(c.creature) for c in heroes}) == len(heroes), "a party of different classes"
    position = scenario.position
    assert all(c.on_map for c in position.creatures.values())


def test_at_least_five_encounters_and_the_benchmark():
    assert len(ENCOUNTERS) >= 6 and BENCHMARK in ENCOUNTERS
    for name in ("goblin-ambush", "orc-raid", "ogre-bridge", "bugbear-den", "young-dragon"):
        assert ROOT / "scenarios" / "dnd5e" / f"{name}.yaml" in ENCOUNTERS, name


def test_benchmark_four_fighters_against_four_orcs_on_an_open_12_by_12_map():
    model = load_scenario_file(BENCHMARK).model
    rows = model.map.rows.rstrip("\n").split("\n")
    assert len(rows) == 12 and all(r == "." * 12 for r in rows)
    assert Counter(c.creature for c in model.creatures if c.side == "party") == {"fighter-1": 4}
    assert Counter(c.creature for c in model.creatures if c.side == "monsters") == {"orc": 4}


def test_e5_048_a_large_creature_takes_four_squares_in_an_encounter():
    position = load_scenario_file(ROOT / "scenarios" / "dnd5e" / "young-dragon.yaml").position
    assert len(position.creatures["dragon"].squares) == 4


def test_attack_models_round_trip():
    """Every attack converts to the engine's frozen attack with its 5e keys kept in ``extra``."""
    for s in blocks().values():
        for a in s.attacks:
            attack = Dnd5eAttack.model_validate(a.model_dump()).to_attack()
            assert attack.extra["ability"] == a.ability and len(attack.extra["on_hit"]) == len(a.on_hit)
