"""The ddm2008 content: the creature catalog, the battle maps and the sample warbands.

The catalog is read through the engine (``catalog``) and every card is validated with the
rule set's stat model; the maps are built with ``Grid.parse`` and the rule set's legend; the
warbands are checked against the warband-building rules directly here (a warband validator
comes later), with the limits this project reads into the lost table (Decisions, Gaps).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from skirmish.core.creatures import AreaSpec
from skirmish.core.dice import DiceExpr
from skirmish.core.grid import Grid
from skirmish.core.terrain import TerrainKind
from skirmish.rulesets.ddm2008.ruleset import Ddm2008
from skirmish.rulesets.ddm2008.stats import SIZE_RANK, Ddm2008Stats
from skirmish.scenario.catalog import catalog
from skirmish.scenario.models import ZoneModel

CONTENT = Path(__file__).resolve().parents[3] / "src" / "skirmish" / "rulesets" / "ddm2008" / "content"
MAPS = sorted((CONTENT / "maps").glob("*.yaml"))
WARBANDS = sorted((CONTENT / "warbands").glob("*.yaml"))

FACTIONS = {"borderlands", "civilization", "underdark", "wild"}
ALIGNMENTS = {"good", "evil", "unaligned"}
CONDITIONS = {"dazed", "staggered", "stunned", "helpless", "immobilized", "confused", "enervated", "slowed"}
DURATIONS = {"end_of_next_turn", "save_ends", "end_of_round", "end_of_controller_turn", "end_of_battle"}
DAMAGE_TYPES = {"fire", "cold", "necrotic", "radiant", "lightning", "poison", "acid", "thunder", "psychic", "force"}
KEYWORDS = {"dwarf", "goblin", "undead", "dragon", "elf", "human", "orc", "demon", "beast"}
# The lost warband table as this project reads it (Decisions, GAP-M08-1): points -> (most creatures,
# highest cost of one creature).
LIMITS = {200: (10, 150), 100: (5, 60)}
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
ZONE_NAME = re.compile(r"^(start|victory)_([ab])[0-9]*$")


# Loading.


@cache
def cards() -> dict[str, Ddm2008Stats]:
    return {name: Ddm2008Stats.model_validate(entry.stats) for name, entry in catalog("ddm2008").items()}


def all_attacks() -> list[tuple[str, Any]]:
    return [(name, a) for name, s in cards().items() for a in s.attacks]


def all_effects() -> list[Any]:
    return [e for _, a in all_attacks() for e in a.effects]


@cache
def load_map(path: Path) -> tuple[dict[str, Any], Grid]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    zones = {name: ZoneModel.model_validate(z).square_set() for name, z in (data.get("zones") or {}).items()}
    grid = Grid.parse(data["rows"], Ddm2008.legend, None, zones, file=str(path))
    return data, grid


def zones_of(grid: Grid, kind: str, letter: str | None = None) -> dict[str, frozenset[tuple[int, int]]]:
    out = {}
    for name, squares in grid.zones.items():
        m = ZONE_NAME.match(name)
        if m and m.group(1) == kind and (letter is None or m.group(2) == letter):
            out[name] = squares
    return out


def placeable(kind: TerrainKind) -> bool:
    """A square a creature may be set up on (M08-027): not a wall, pit or statue, nor a diagonal wall."""
    return kind.occupiable and kind.entry == "all" and kind.shape == "full" and kind.name != "wall"


@cache
def load_warband(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def warbands_of(points: int) -> list[Path]:
    return [p for p in WARBANDS if load_warband(p)["points"] == points]


# The catalog.


def test_catalog_validates_and_builds_engine_templates():
    """M08-152, GAP-M08-8: the lost glossary is replaced by the stat card's own vocabulary of abilities,
    special powers and champion powers, which every catalog card must validate against."""
    ruleset = Ddm2008()
    found = catalog("ddm2008")
    assert len(found) >= 40
    for name, entry in found.items():
        assert KEBAB.match(name), f"{name}: ids are kebab-case"
        stats = Ddm2008Stats.model_validate(entry.stats)
        template = ruleset.make_template(name, stats)
        assert template.max_hp == stats.hp and template.attacks, f"{name}: needs attacks"


def test_catalog_keeps_the_sample_creatures():
    for name in ("hill-dwarf-axeman", "ember-adept", "warden-of-the-gate", "gloomfang-goblin",
                 "cinder-drake", "hollow-shade"):
        assert name in cards()
    axeman = cards()["hill-dwarf-axeman"]
    assert axeman.speed == 5 and axeman.attacks[0].name == "waraxe"


def test_catalog_spreads_over_factions_alignments_and_sizes():
    factions = Counter(f for s in cards().values() for f in s.factions)
    alignments = Counter(s.alignment for s in cards().values())
    sizes = Counter(s.size for s in cards().values())
    assert set(factions) == FACTIONS and min(factions.values()) >= 8, factions
    assert set(alignments) == ALIGNMENTS and min(alignments.values()) >= 5, alignments
    assert {"small", "medium", "large", "huge"} <= set(sizes)
    assert 1 <= sizes["huge"] <= 3 and sizes["gargantuan"] == 0
    assert sum(len(s.factions) >= 2 for s in cards().values()) >= 5
    assert all(1 <= len(s.factions) <= 2 for s in cards().values())
    assert sum(s.unique for s in cards().values()) >= 3
    keywords = {k for s in cards().values() for k in s.keywords}
    assert keywords >= KEYWORDS, KEYWORDS - keywords


def test_catalog_costs_levels_and_damage_follow_the_cards():
    costs = [s.cost for s in cards().values()]
    levels = [s.level for s in cards().values()]
    assert min(costs) <= 6 and max(costs) == 150 and all(5 <= c <= 150 for c in costs)
    assert min(levels) == 1 and max(levels) == 20 and all(1 <= lv <= 20 for lv in levels)
    for name, s in cards().items():
        assert 2 * s.level <= s.cost <= 8 * s.level, f"{name}: cost {s.cost} out of line with level {s.level}"
        assert s.hp % 5 == 0, f"{name}: hit points come in fives"
    for name, a in all_attacks():
        if a.damage is None:
            continue
        for term in DiceExpr.parse(str(a.damage)).terms:
            assert term.is_flat and term.value % 5 == 0, f"{name}.{a.name}: damage {a.damage} is not in fives"


def test_catalog_first_attack_is_a_melee_or_ranged_basic_attack():
    for name, s in cards().items():
        assert s.attacks and s.attacks[0].kind in ("melee", "ranged"), name
        assert s.attacks[0].uses is None, f"{name}: a basic attack is always available"


def test_catalog_has_every_attack_kind_range_and_area_shape():
    attacks = [a for _, a in all_attacks()]
    assert {a.kind for a in attacks} == {"melee", "ranged", "close", "area"}
    ranged = {a.range if isinstance(a.range, str) else "number" for a in attacks if a.kind == "ranged"}
    assert ranged == {"number", "nearest", "sight"}
    area = {a.range if isinstance(a.range, str) else "number" for a in attacks if a.kind == "area"}
    assert "number" in area and len(area) >= 2
    shapes = set()
    for a in attacks:
        if a.kind in ("close", "area"):
            assert a.area, f"{a.name}: close and area attacks need an area"
            spec = AreaSpec.parse(a.area)
            shapes.add(f"cone {spec.size}" if spec.shape == "cone" else spec.shape)
            assert spec.shape in (("burst", "cone", "line") if a.kind == "close" else ("radius",)), a.name
    assert shapes == {"burst", "cone small", "cone large", "line", "radius"}
    assert {a.vs for a in attacks} >= {"ac", "fort", "ref", "will"}
    assert {a.targets for a in attacks} >= {1, 2, 3}
    assert any(a.uses and a.recharge == "bloodied" for a in attacks)
    assert any(a.uses and a.recharge is None for a in attacks)


def test_catalog_has_every_damage_type():
    types = {t.type for _, a in all_attacks() if a.damage is not None for t in DiceExpr.parse(str(a.damage)).terms}
    assert types >= DAMAGE_TYPES, DAMAGE_TYPES - types


def test_catalog_effects_cover_every_condition_duration_and_movement():
    effects = all_effects()
    assert {e.condition for e in effects if e.condition} == CONDITIONS
    assert {e.duration for e in effects if e.condition} == DURATIONS
    assert any(e.push for e in effects) and any(e.pull for e in effects) and any(e.slide for e in effects)
    ongoing = [e for e in effects if e.ongoing]
    assert ongoing and all(e.ongoing_type in DAMAGE_TYPES and e.ongoing % 5 == 0 for e in ongoing)


def test_catalog_abilities_and_special_powers():
    abilities = [s.abilities for s in cards().values()]
    assert any(a.phasing for a in abilities)
    assert any(a.resist for a in abilities) and any(a.vulnerable for a in abilities)
    assert any(a.immune for a in abilities)
    for name, s in cards().items():
        flies = isinstance(s.speed, str) and s.speed.upper().startswith("F")
        assert s.abilities.flight == flies, f"{name}: a flyer has both Flight and an F speed (M08-006)"
    assert sum(s.abilities.flight for s in cards().values()) >= 5
    kinds = {p.kind for s in cards().values() for p in s.special_powers}
    assert kinds == {"charge_damage", "sneak_attack", "regeneration", "heal"}


def test_catalog_champions_and_their_powers():
    champions = {name: s for name, s in cards().items() if s.champion}
    assert len(champions) >= 6
    assert {s.champion for s in champions.values()} == {1, 2, 3}
    for name, s in champions.items():
        assert 1 <= len(s.champion_powers) <= 2, f"{name}: a champion has one or two champion powers"
        assert all(p.cost <= s.champion for p in s.champion_powers), name
    triggers = {p.trigger for s in champions.values() for p in s.champion_powers}
    assert triggers == {"own_attack", "ally_hits", "ally_ends_turn"}


# The maps.


def test_maps_load_with_the_ddm2008_legend():
    assert MAPS
    full = half = 0
    for path in MAPS:
        data, grid = load_map(path)
        assert set(data) <= {"name", "size", "rows", "zones", "description"}, path.name
        assert isinstance(data["name"], str) and data["name"]
        assert KEBAB.match(path.stem), path.name
        long_side, short_side = max(grid.width, grid.height), min(grid.width, grid.height)
        if data["size"] == "full":
            full += 1
            assert 26 <= long_side <= 34 and 18 <= short_side <= 26, path.name
        else:
            assert data["size"] == "half", path.name
            half += 1
            assert 14 <= long_side <= 24 and 12 <= short_side <= 18, path.name
        for name in grid.zones:
            assert ZONE_NAME.match(name), f"{path.name}: zone {name!r} is not start_a/start_b/victory_a/victory_b"
    assert full >= 2 and half >= 1


def test_maps_use_every_terrain_of_the_legend():
    used = {ch for path in MAPS for row in load_map(path)[1].rows for ch in row}
    assert used == set(Ddm2008.legend), set(Ddm2008.legend) - used


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_m08_023_start_areas_are_labelled_a_and_b_and_hold_a_warband(path):
    _, grid = load_map(path)
    for letter in "ab":
        starts = zones_of(grid, "start", letter)
        assert f"start_{letter}" in starts, f"{path.name}: no start_{letter}"
        for name, squares in starts.items():
            assert len(squares) >= 20, f"{path.name}: {name} has {len(squares)} squares"
    for a in zones_of(grid, "start", "a").values():
        for b in zones_of(grid, "start", "b").values():
            gap = min(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for p in a for q in b)
            assert gap >= 4, f"{path.name}: enemy start areas are {gap} squares apart"


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_m08_027_start_areas_hold_no_wall_pit_or_statue_and_fit_a_large_creature(path):
    _, grid = load_map(path)
    for name, squares in zones_of(grid, "start").items():
        bad = sorted(sq for sq in squares if not placeable(grid.kind(sq)))
        assert not bad, f"{path.name}: {name} holds squares a creature can't be placed on: {bad}"
        fits = [sq for sq in squares
                if all((sq[0] + dx, sq[1] + dy) in squares for dx in (0, 1) for dy in (0, 1))]
        assert fits, f"{path.name}: {name} has no room for a Large creature wholly inside it"


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_m08_024_victory_areas_are_small_open_and_on_the_enemy_side(path):
    _, grid = load_map(path)

    def centre(squares):
        return (sum(x for x, _ in squares) / len(squares), sum(y for _, y in squares) / len(squares))

    def dist(p, q):
        return max(abs(p[0] - q[0]), abs(p[1] - q[1]))

    starts = {letter: [centre(s) for s in zones_of(grid, "start", letter).values()] for letter in "ab"}
    for letter, enemy in (("a", "b"), ("b", "a")):
        victories = zones_of(grid, "victory", letter)
        assert f"victory_{letter}" in victories, f"{path.name}: no victory_{letter}"
        for name, squares in victories.items():
            assert 2 <= len(squares) <= 6, f"{path.name}: {name} has {len(squares)} squares"
            bad = sorted(sq for sq in squares if not placeable(grid.kind(sq)))
            assert not bad, f"{path.name}: {name} holds walls, pits or statues: {bad}"
            c = centre(squares)
            own = min(dist(c, s) for s in starts[letter])
            other = min(dist(c, s) for s in starts[enemy])
            assert other < own, f"{path.name}: {name} lies on its own side of the map"


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.stem)
def test_maps_leave_open_lanes_between_the_areas(path):
    """Walking squares (no wall, pit or diagonal wall) join every start and victory area."""
    _, grid = load_map(path)
    first = next(iter(zones_of(grid, "start", "a").values()))
    todo = [min(sq for sq in first)]
    seen = set(todo)
    while todo:
        x, y = todo.pop()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            sq = (nx, ny)
            if sq not in seen and grid.inside(sq) and placeable(grid.kind(sq)):
                seen.add(sq)
                todo.append(sq)
    for name, squares in grid.zones.items():
        assert squares <= seen, f"{path.name}: {name} can't be walked to from start_a"


# The warbands.


def test_warbands_two_per_faction_and_two_small_ones():
    per_faction = Counter(load_warband(p)["faction"] for p in warbands_of(200))
    assert set(per_faction) == FACTIONS and min(per_faction.values()) >= 2, per_faction
    assert len(warbands_of(100)) >= 2
    assert len(warbands_of(200)) + len(warbands_of(100)) == len(WARBANDS)
    for path in WARBANDS:
        band = load_warband(path)
        assert set(band) == {"name", "faction", "points", "creatures"}, path.name
        assert KEBAB.match(path.stem) and isinstance(band["name"], str) and band["name"]
        unknown = [c for c in band["creatures"] if c not in cards()]
        assert not unknown, f"{path.name}: not in the catalog: {unknown}"


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_m08_014_one_faction_shared_by_every_member(path):
    band = load_warband(path)
    assert band["faction"] in FACTIONS
    strays = [c for c in band["creatures"] if band["faction"] not in cards()[c].factions]
    assert not strays, f"{path.name}: not {band['faction']}: {strays}"


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_m08_015_no_good_with_evil(path):
    alignments = {cards()[c].alignment for c in load_warband(path)["creatures"]}
    assert not {"good", "evil"} <= alignments, path.name


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_m08_016_total_cost_within_the_point_limit(path):
    band = load_warband(path)
    total = sum(cards()[c].cost for c in band["creatures"])
    assert band["points"] in LIMITS
    assert total <= band["points"], f"{path.name}: {total} points"
    assert total >= band["points"] - 25, f"{path.name}: only {total} of {band['points']} points spent"


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_m08_017_creature_count_and_highest_cost_limits(path):
    band = load_warband(path)
    most, dearest = LIMITS[band["points"]]
    assert 1 <= len(band["creatures"]) <= most, f"{path.name}: {len(band['creatures'])} creatures"
    costs = {c: cards()[c].cost for c in band["creatures"]}
    assert max(costs.values()) <= dearest, f"{path.name}: {max(costs, key=costs.__getitem__)} costs too much"


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_m08_020_a_unique_creature_at_most_once(path):
    counts = Counter(load_warband(path)["creatures"])
    twice = [c for c, n in counts.items() if n > 1 and cards()[c].unique]
    assert not twice, f"{path.name}: unique creatures repeated: {twice}"


@pytest.mark.parametrize("path", WARBANDS, ids=lambda p: p.stem)
def test_m08_021_no_huge_or_larger_creature(path):
    big = [c for c in load_warband(path)["creatures"] if SIZE_RANK[cards()[c].size] >= SIZE_RANK["huge"]]
    assert not big, f"{path.name}: Huge or larger: {big}"
