"""Setting up a ddm2008 game from two warbands and two maps (M08-022..M08-027).

The setup roll happens when the game is made; then the winner chooses the map, the opponent
chooses a start area, the winner places its warband in the other area first, then the
opponent places; then round 1 begins with initiative. Each choice is an action of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from skirmish.core import geometry
from skirmish.core.coords import Coord, footprint
from skirmish.core.creatures import Creature
from skirmish.core.dice import Dice
from skirmish.core.events import Event
from skirmish.core.grid import Grid
from skirmish.core.position import Position
from skirmish.errors import ContentError, IllegalActionError
from skirmish.rulesets.ddm2008.actions import ChooseMap, ChooseStart, Place
from skirmish.rulesets.ddm2008.stats import card

if TYPE_CHECKING:
    from skirmish.core.game import Ruleset
    from skirmish.rulesets.ddm2008.state import Ddm2008State

MAPS_PACKAGE = __name__.rpartition(".")[0]
"""The package whose ``content/maps`` folder holds the shipped maps: this rule set's own."""


@dataclass(frozen=True, slots=True)
class MapInfo:
    """A shipped battle map."""

    key: str
    name: str
    size: str
    grid: Grid


@cache
def shipped_maps() -> dict[str, MapInfo]:
    """The maps under ``content/maps``, by file name without ``.yaml``."""
    from skirmish.core.yamlsrc import load_yaml_with_lines
    from skirmish.rulesets.ddm2008.ruleset import LEGEND

    out: dict[str, MapInfo] = {}
    folder = resources.files(MAPS_PACKAGE).joinpath("content", "maps")
    if not folder.is_dir():
        return out
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if not item.name.endswith(".yaml"):
            continue
        key = item.name[:-5]
        label = f"{MAPS_PACKAGE.replace('.', '/')}/content/maps/{item.name}"
        data, _ = load_yaml_with_lines(item.read_text(encoding="utf-8"), label)
        assert isinstance(data, dict)
        zones = {name: _zone_squares(z) for name, z in (data.get("zones") or {}).items()}
        grid = Grid.parse(str(data["rows"]), LEGEND, None, zones, file=label)
        out[key] = MapInfo(key, str(data.get("name", key)), str(data.get("size", "full")), grid)
    return out


def _zone_squares(zone: dict[str, Any]) -> set[Coord]:
    out = {tuple(sq) for sq in zone.get("squares", [])}
    if "rect" in zone:
        (x0, y0), (x1, y1) = zone["rect"]
        out |= {(x, y) for y in range(min(y0, y1), max(y0, y1) + 1) for x in range(min(x0, x1), max(x0, x1) + 1)}
    return out


def find_map(key: str) -> MapInfo:
    """A shipped map by key.

    Raises:
        ContentError: no such map.
    """
    maps = shipped_maps()
    if key not in maps:
        raise ContentError(f"no ddm2008 map {key!r}; the maps are {', '.join(sorted(maps))}")
    return maps[key]


def new_game(warbands: Sequence[tuple[str, Sequence[str]]], maps: Sequence[str], seed: int = 0,
             options: Mapping[str, Any] | None = None, *, ruleset: Ruleset | None = None) -> Ddm2008State:
    """A game from two warbands (side name, catalog names) and two maps, ready for setup; ``ruleset``
    is the rule set to play under (else one made with ``options``).

    Raises:
        ContentError: an unknown creature or map, an empty warband, or not exactly two warbands.
    """
    from skirmish.rulesets.ddm2008.ruleset import Ddm2008
    from skirmish.rulesets.ddm2008.state import Ddm2008State
    from skirmish.rulesets.ddm2008.warband import shipped_catalog

    if len(warbands) != 2:
        raise ContentError("a game needs two warbands")
    for side, names in warbands:
        if not names:
            raise ContentError(f"warband {side!r} has no creatures")
    if ruleset is None:
        ruleset = Ddm2008(options or {})
    cards = shipped_catalog()
    chosen = [find_map(m) for m in maps] or [next(iter(shipped_maps().values()))]
    creatures: list[Creature] = []
    both = set(warbands[0][1]) & set(warbands[1][1])
    if warbands[0][0] == warbands[1][0]:
        raise ContentError(f"both warbands are called {warbands[0][0]!r}: give the two sides different names")
    prefixes = {side: side.split("-")[0] for side, _ in warbands}
    if len(set(prefixes.values())) < len(prefixes):
        prefixes = {side: side for side in prefixes}  # "howlpack-1" and "howlpack-2" both start "howlpack"
    for side, names in warbands:
        counts: dict[str, int] = {}
        for name in names:
            if name not in cards:
                raise ContentError(f"the catalog has no creature {name!r}")
            counts[name] = counts.get(name, 0) + 1
            stats = ruleset.stats_model.model_validate(cards[name].stats)
            template = ruleset.make_template(name, stats)
            # Ids are the creature's name, numbered when a warband has several, prefixed by the side
            # only when both warbands field the same creature.
            cid = (f"{prefixes[side]}-" if name in both else "") + name + (
                f"-{counts[name]}" if names.count(name) > 1 else "")
            creatures.append(Creature(cid, side, template, (0, 0), status="removed"))
    pos = Position(chosen[0].grid, ruleset, creatures, Dice(seed), start={"setup": [m.key for m in chosen]})
    return Ddm2008State.from_position(pos)


# The setup phases, driven by the state.

def setup_roll(state: Any) -> str:
    """Both roll d20; the side with the higher-rated champion rolls twice and keeps the better;
    ties go to the higher rating, then the dice are rolled again (M08-025)."""
    sides = state.sides()
    a, b = sides[0], sides[1]

    def rating(side: str) -> int:
        return max((card(c).champion for c in state.creatures.values() if c.side == side),
                   default=0)

    winner, rolls = state.champion_roll(a, b, (rating(a), rating(b)), "setup roll", "M08-025")
    state.log(Event("setup", f"{winner} wins the setup roll ({rolls[winner]} to {rolls[b if winner == a else a]})",
                    "M08-025", {"rolls": rolls, "winner": winner}))
    return winner


def start_squares(grid: Grid, letter: str) -> set[Coord]:
    """Every square of the start areas with this letter (M08-023: several may share a letter)."""
    return {sq for name, sqs in grid.zones.items() if name.startswith(f"start_{letter}") for sq in sqs}


def placements(state: Any, c: Creature) -> list[Coord]:
    """Where a creature may be placed: wholly inside its start area, on no wall, pit or statue square,
    on no other creature; where no such square is left, as near the area as it can be (M08-027)."""
    letter = state.letters[c.side]
    area = start_squares(state.grid, letter)
    occupied = state.occupancy()

    def legal(at: Coord) -> bool:
        for s in footprint(at, c.size):
            if not state.grid.inside(s):
                return False
            k = state.grid.kind(s)
            if k.entry != "all" or not k.occupiable or "pit" in k.tags or "statue" in k.tags:
                return False
            if state.grid.index(s) in occupied:
                return False
        return True

    inside = [sq for sq in sorted(area) if all(s in area for s in footprint(sq, c.size)) and legal(sq)]
    if inside:
        return inside
    best: list[Coord] = []
    best_d: int | None = None
    for sq in state.grid.squares():
        if not legal(sq):
            continue
        d = min(geometry.direct_distance(state.ruleset.policy, footprint(sq, c.size), [z]) for z in area) if area else 0
        if best_d is None or d < best_d:
            best, best_d = [sq], d
        elif d == best_d:
            best.append(sq)
    return best


def choose_map(state: Any, action: ChooseMap) -> None:
    maps = state.start.get("setup", [])
    if action.map not in maps:
        raise IllegalActionError(f"choose one of the two maps: {', '.join(maps)}", rule="M08-026")
    state.grid = find_map(action.map).grid
    state.log(Event("setup", f"{state.setup_winner} chooses the map {find_map(action.map).name}", "M08-026",
                    {"map": action.map}))


def choose_start(state: Any, action: ChooseStart) -> None:
    if action.area not in ("a", "b"):
        raise IllegalActionError("the start areas are a and b", rule="M08-026")
    other = next(s for s in state.sides() if s != state.setup_winner)
    state.letters = {other: action.area, state.setup_winner: "b" if action.area == "a" else "a"}
    state.log(Event("setup", f"{other} takes start area {action.area.upper()}", "M08-026",
                    {"side": other, "area": action.area}))


def place(state: Any, action: Place) -> None:
    c = state.creature(action.actor)
    if action.at not in placements(state, c):
        raise IllegalActionError(f"{c.id} cannot be placed at {list(action.at)}: wholly inside its start area, "
                                 "not on a wall, pit or statue, not on another creature", rule="M08-027")
    c.at = action.at
    c.status = "active"
    state.log(Event("place", f"{c.id} is placed at {list(action.at)}", "M08-027", {"actor": c.id,
                                                                                  "at": list(action.at)}))


def sealed_warband(seed: int, points: int = 200, boosters: int = 2, per_booster: int = 8) -> list[str]:
    """A Sealed warband (M08-160): the player opens two boosters, drawn here at random from the
    catalog (boosters cannot be opened here), and builds the best warband within ``points`` from
    what it drew: no faction or alignment limits, duplicate uniques allowed, Epic cards played as
    standard ones; the count and cost limits of the format and Assault's no-Huge rule still hold.
    The choice is greedy: the most expensive cards that fit, then the cheaper ones."""
    import random

    from skirmish.rulesets.ddm2008.warband import limits, shipped_catalog

    rng = random.Random(seed)  # the draw is the booster's, not the game's: it has its own generator
    cards = shipped_catalog()
    names = sorted(n for n, e in cards.items() if e.stats.get("size") not in ("huge", "gargantuan"))
    pool = [rng.choice(names) for _ in range(boosters * per_booster)]
    most, cap = limits(points)
    chosen: list[str] = []
    left = points
    def cost_of(name: str) -> int:
        cost = cards[name].stats.get("cost", 0)
        return int(cost) if isinstance(cost, int | float | str) else 0

    for name in sorted(pool, key=lambda n: (-cost_of(n), n)):
        cost = cost_of(name)
        if len(chosen) < most and cost <= min(left, cap):
            chosen.append(name)
            left -= cost
    return chosen
