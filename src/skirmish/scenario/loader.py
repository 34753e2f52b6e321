"""Loading a scenario file into a position, with errors that name the file, the place and the fix.

Every problem in a scenario is a ``ContentError`` whose message reads
``FILE: line N, key.path: what is wrong; what would be right``. Nothing here prints or
writes; the command line decides what to do with the error.
"""

from __future__ import annotations

import difflib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from skirmish.core.coords import Coord, footprint
from skirmish.core.creatures import Condition, Creature, CreatureTemplate
from skirmish.core.dice import Dice
from skirmish.core.game import Ruleset
from skirmish.core.grid import Grid
from skirmish.core.position import Position
from skirmish.core.terrain import TerrainKind
from skirmish.core.yamlsrc import KeyPath, LineMap, format_path, load_yaml_with_lines, where
from skirmish.errors import ContentError
from skirmish.rulesets import find_ruleset
from skirmish.scenario.models import ASK_KEYS, CreatureModel, ScenarioModel

MAX_FILE_BYTES = 5_000_000


@dataclass(slots=True)
class Scenario:
    """A loaded scenario: the validated model, the rule set, the starting position and the steps.

    Attributes:
        file: the file name used in messages.
        model: the validated file.
        ruleset: the rule set with the file's options.
        position: the starting position (map, creatures, seeded dice with the forced queue).
        lines: key path -> line, for messages about steps.
    """

    file: str
    model: ScenarioModel
    ruleset: Ruleset
    position: Position
    lines: LineMap = field(default_factory=dict)

    def where(self, path: KeyPath) -> str:
        """``line N, key.path`` for a place in this file."""
        return where(self.lines, path)


def load_scenario_file(path: str | Path) -> Scenario:
    """Read and load a scenario file.

    Raises:
        ContentError: the file cannot be read or is not a valid scenario.
    """
    p = Path(path)
    label = str(path)
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise ContentError(f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB; is it a scenario?",
                               file=label)
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError("no such file", file=label) from None
    except IsADirectoryError:
        raise ContentError("this is a folder, not a scenario file", file=label) from None
    except UnicodeDecodeError:
        raise ContentError("the file is not UTF-8 text; save it as UTF-8 YAML or JSON", file=label) from None
    except OSError as e:
        raise ContentError(f"cannot read the file: {e.strerror}", file=label) from None
    return load_scenario_text(text, label)


def load_scenario_text(text: str, file: str = "<scenario>") -> Scenario:
    """Load a scenario from its text.

    Raises:
        ContentError: the text is not a valid scenario.
    """
    data, lines = load_yaml_with_lines(text, file)
    assert isinstance(data, dict)

    def fail(path: KeyPath, message: str) -> ContentError:
        return ContentError(message, file=file, where=where(lines, path))

    check_keys(ScenarioModel, data, (), fail)
    try:
        model = ScenarioModel.model_validate(data)
    except ValidationError as e:
        raise _first_error(e, (), fail) from None

    try:
        ruleset_cls = find_ruleset(model.ruleset)
    except ContentError as e:
        raise fail(("ruleset",), e.detail) from None
    check_keys(ruleset_cls.options_model, model.options, ("options",), fail)
    try:
        ruleset = ruleset_cls(model.options)
    except ValidationError as e:
        raise _first_error(e, ("options",), fail) from None

    grid = _grid(model, ruleset, file, lines, fail)
    creatures = [_creature(i, entry, ruleset, grid, data, file, lines, fail)
                 for i, entry in enumerate(model.creatures)]
    _check_placement(creatures, grid, fail)
    _check_start(model, creatures, ruleset, fail)
    _check_steps(model, creatures, ruleset, fail)
    if model.decisions != "auto":
        _check_decisions(model, creatures, fail)

    dice = Dice(model.seed, model.dice)
    turn = _first_turn(model, creatures)
    position = Position(grid, ruleset, creatures, dice, round=model.start.round, turn=turn,
                        start=model.start.model_dump())
    return Scenario(file, model, ruleset, position, lines)


# Keys.

def check_keys(model: type[BaseModel], data: Any, path: KeyPath, fail: Any) -> None:
    """Refuse unknown keys with the known ones and a near match, before pydantic sees the data.

    Walks nested models, lists and mappings of models, as the model's annotations give them.
    """
    if not isinstance(data, dict):
        return
    fields = model.model_fields
    allowed = {f.alias or name for name, f in fields.items()}
    if model.model_config.get("extra") == "forbid":
        for key in data:
            if str(key) not in allowed:
                near = difflib.get_close_matches(str(key), sorted(allowed), n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise fail((*path, key), f"unknown key {key!r}{hint} (known keys: {', '.join(sorted(allowed))})")
    for name, info in fields.items():
        key = info.alias or name
        if key not in data:
            continue
        _check_nested(info.annotation, data[key], (*path, key), fail)


def _check_nested(annotation: Any, value: Any, path: KeyPath, fail: Any) -> None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        check_keys(annotation, value, path, fail)
        return
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            if isinstance(arg, type) and issubclass(arg, BaseModel) and isinstance(value, dict):
                check_keys(arg, value, path, fail)
                return
            if typing.get_origin(arg) in (list, tuple, dict):
                _check_nested(arg, value, path, fail)
        return
    if origin in (list, tuple) and isinstance(value, list):
        inner = args[0] if args else None
        for i, item in enumerate(value):
            _check_nested(inner, item, (*path, i), fail)
    elif origin is dict and isinstance(value, dict) and len(args) == 2:
        for k, v in value.items():
            _check_nested(args[1], v, (*path, k), fail)


def _first_error(e: ValidationError, prefix: KeyPath, fail: Any) -> ContentError:
    err = e.errors()[0]
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and ("[" in p or p in _TYPE_WORDS)))
    path = (*prefix, *loc)
    msg = err["msg"]
    msg = msg[len("Value error, "):] if msg.startswith("Value error, ") else msg[0].lower() + msg[1:]
    if err["type"] == "missing":
        return fail(path, f"{format_path(path) or 'this'} is required")
    got = err.get("input")
    shown = "" if err["type"] == "value_error" or isinstance(got, dict) else f" (got {got!r})"
    return fail(path, f"{msg}{shown}")


_TYPE_WORDS = frozenset(("int", "str", "list", "dict", "tuple", "bool", "function-after", "literal",
                         "function-plain", "constrained-int", "union", "nullable"))


# Map.

def _grid(model: ScenarioModel, ruleset: Ruleset, file: str, lines: LineMap, fail: Any) -> Grid:
    legend: dict[str, TerrainKind] = dict(ruleset.legend)
    known = {k.name: k for k in ruleset.legend.values()}
    for ch, value in model.map.legend.items():
        if len(ch) != 1:
            raise fail(("map", "legend", ch), f"legend keys are single characters, not {ch!r}")
        if isinstance(value, str):
            if value not in known:
                near = difflib.get_close_matches(value, sorted(known), n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise fail(("map", "legend", ch),
                           f"{ruleset.name} has no terrain called {value!r}{hint} (it has: "
                           f"{', '.join(sorted(known))}; or define one with a mapping such as "
                           "{name: lava, move_cost: 2, tags: [damaging]})")
            legend[ch] = known[value]
        else:
            legend[ch] = TerrainKind(
                name=value.name, glyph=ch, entry=value.entry, occupiable=value.occupiable,
                move_cost=value.move_cost, difficult=value.difficult or value.move_cost > 1,
                difficult_for_flyers=value.difficult_for_flyers, blocks_corners=value.blocks_corners,
                sight=value.sight, blocks_effect=value.blocks_effect,
                cover_against=frozenset(value.cover_against), cover_degree=value.cover_degree,
                end_turn=value.end_turn, tags=frozenset(value.tags), colour=value.colour)
    zones = {name: zone.square_set() for name, zone in model.map.zones.items()}
    try:
        return Grid.parse(model.map.rows, legend, model.map.elevation, zones)
    except ContentError as e:
        path: KeyPath = ("map", "rows")
        if e.where and e.where.startswith("map.zones."):
            path = ("map", "zones", e.where[len("map.zones."):])
        elif e.where == "map.elevation":
            path = ("map", "elevation")
        raise ContentError(e.detail, file=file, where=where(lines, path)) from None


# Creatures.

def _creature(i: int, entry: CreatureModel, ruleset: Ruleset, grid: Grid, data: dict[str, Any],
              file: str, lines: LineMap, fail: Any) -> Creature:
    path: KeyPath = ("creatures", i)
    stats: dict[str, Any] = {}
    name = entry.id
    if entry.creature is not None:
        found = ruleset.creatures().get(entry.creature)
        if found is None:
            names = sorted(ruleset.creatures())
            near = difflib.get_close_matches(entry.creature, names, n=3)
            hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
            shown = ", ".join(names) if len(names) <= 30 else f"{len(names)} creatures"
            raise fail((*path, "creature"),
                       f"{ruleset.name}'s catalog has no creature {entry.creature!r}{hint} "
                       f"(catalog: {shown or 'empty'}; or give inline stats: {{...}})")
        stats.update(found.stats)
        name = entry.creature
    raw_stats = data["creatures"][i].get("stats") or {}
    stats.update(raw_stats)
    template = _template(ruleset, name, stats, (*path, "stats"), fail, entry, raw_stats)

    x, y = entry.at
    for sq in footprint((x, y), template.size):
        if not grid.inside(sq):
            raise fail((*path, "at"),
                       f"{entry.id} ({template.size}x{template.size}) at [{x}, {y}] would stand on "
                       f"[{sq[0]}, {sq[1]}], off the {grid.width}x{grid.height} map")
        kind = grid.kind(sq)
        if kind.entry == "none":
            raise fail((*path, "at"), f"{entry.id} at [{x}, {y}] would stand on [{sq[0]}, {sq[1]}], "
                                      f"which is {kind.name}; creatures cannot stand there")
    unknown = [c for c in entry.conditions if c not in ruleset.conditions]
    if unknown:
        raise fail((*path, "conditions"),
                   f"{ruleset.name} has no condition {unknown[0]!r} (it has: "
                   f"{', '.join(sorted(ruleset.conditions))})")
    hp = template.max_hp if entry.hp is None else entry.hp
    if hp > template.max_hp:
        raise fail((*path, "hp"), f"hp {hp} is above {entry.id}'s maximum of {template.max_hp}")
    c = Creature(entry.id, entry.side, template, (x, y), hp=hp, temp_hp=entry.temp_hp, hero=entry.hero,
                 conditions=[Condition(n) for n in entry.conditions], elevation=entry.elevation)
    c.status = ruleset.initial_status(c)  # type: ignore[assignment]
    return c


def _template(ruleset: Ruleset, name: str, stats: dict[str, Any], path: KeyPath, fail: Any,
              entry: CreatureModel, raw_stats: dict[str, Any]) -> CreatureTemplate:
    model_cls = ruleset.stats_model
    if entry.creature is not None and not raw_stats:
        # An error in a catalog entry is the catalog's: name its file and line.
        found = ruleset.creatures()[entry.creature]

        def cat_fail(p: KeyPath, message: str) -> ContentError:
            return ContentError(message, file=found.file, where=where(found.lines, ("creatures", name, *p)))

        check_keys(model_cls, stats, (), cat_fail)
        try:
            validated = model_cls.model_validate(stats)
        except ValidationError as e:
            raise _first_error(e, (), cat_fail) from None
    else:
        check_keys(model_cls, raw_stats, path, fail)
        try:
            validated = model_cls.model_validate(stats)
        except ValidationError as e:
            raise _first_error(e, path, fail) from None
    try:
        return ruleset.make_template(name, validated)
    except ContentError as e:
        raise fail(path, e.detail) from None


def _check_placement(creatures: list[Creature], grid: Grid, fail: Any) -> None:
    ids: dict[str, int] = {}
    taken: dict[Coord, str] = {}
    for i, c in enumerate(creatures):
        if c.id in ids:
            raise fail(("creatures", i, "id"), f"id {c.id!r} is already used by creatures[{ids[c.id]}]; "
                                               "every creature needs its own id")
        ids[c.id] = i
        if not c.on_map:
            continue
        for sq in c.squares:
            if sq in taken:
                raise fail(("creatures", i, "at"),
                           f"{c.id} would share square [{sq[0]}, {sq[1]}] with {taken[sq]}")
            taken[sq] = c.id


def _check_start(model: ScenarioModel, creatures: list[Creature], ruleset: Ruleset, fail: Any) -> None:
    ids = {c.id for c in creatures}
    sides = {c.side for c in creatures}
    groups = {c.template.name for c in creatures}
    start = model.start
    if start.first_side is not None and start.first_side not in sides:
        raise fail(("start", "first_side"),
                   f"no side is called {start.first_side!r} (sides: {', '.join(sorted(sides)) or 'none'})")
    for i, name in enumerate(start.initiative or []):
        if name not in ids and name not in sides and name not in groups:
            raise fail(("start", "initiative", i),
                       f"{name!r} is neither a creature id, a side nor a group of identical creatures")
    for i, name in enumerate(start.hidden):
        if name not in ids:
            raise fail(("start", "hidden", i), f"no creature is called {name!r}")
        if "surprised" not in ruleset.conditions:
            raise fail(("start", "hidden"), f"{ruleset.name} has no surprise")
    for i, name in enumerate(start.surprised):
        if name not in ids:
            raise fail(("start", "surprised", i), f"no creature is called {name!r}")
        if "surprised" not in ruleset.conditions:
            raise fail(("start", "surprised"), f"{ruleset.name} has no surprise")


def _check_steps(model: ScenarioModel, creatures: list[Creature], ruleset: Ruleset, fail: Any) -> None:
    by_id = {c.id: c for c in creatures}
    for i, step in enumerate(model.steps):
        path: KeyPath = ("steps", i)
        if "ask" in step and "do" in step:
            raise fail(path, "a step is either a question (ask) or an action (do), not both")
        if "ask" in step:
            question = step["ask"]
            if not isinstance(question, str) or question not in ASK_KEYS:
                raise fail((*path, "ask"), f"unknown question {question!r} (questions: {', '.join(ASK_KEYS)})")
            required, optional = ASK_KEYS[question]
            for key in sorted(required):
                if key not in step:
                    raise fail(path, f"ask: {question} needs {key}: (it takes {', '.join(sorted(required))}"
                                     f"{', and optionally ' + ', '.join(sorted(optional)) if optional else ''})")
            for key in step:
                if key != "ask" and key not in required and key not in optional:
                    raise fail((*path, key), f"ask: {question} takes no {key!r} (it takes "
                                             f"{', '.join(sorted(required | optional))})")
            for key in ("from", "to", "attacker", "target", "actor", "with", "kind"):
                if key in step and not isinstance(step[key], str):
                    raise fail((*path, key), f"{key} takes a name, not {step[key]!r}")
            for key in ("from", "to", "attacker", "target", "actor"):
                if key in step and step[key] not in by_id:
                    raise fail((*path, key), f"no creature is called {step[key]!r} (creatures: "
                                             f"{', '.join(by_id) or 'none'})")
            for key in ("at", "origin"):
                if key in step and not _is_pair(step[key]):
                    raise fail((*path, key), f"{key} is a square [x, y], not {step[key]!r}")
            if "with" in step:
                actor = by_id[str(step.get("actor") or step.get("from"))]
                if ruleset.named_attack(actor.template, str(step["with"])) is None:
                    names = ", ".join(a.name for a in actor.template.attacks) or "none"
                    raise fail((*path, "with"), f"{actor.id} has no attack {step['with']!r} (its attacks: {names})")
            if "kind" in step and step["kind"] not in ("melee", "ranged", "close", "area"):
                raise fail((*path, "kind"), "kind is one of melee, ranged, close, area")
        elif "do" in step:
            if not isinstance(step["do"], str) or not step["do"].replace("_", "").isalnum():
                raise fail((*path, "do"), f"do: takes an action verb in snake_case, not {step['do']!r}")
            if "actor" not in step:
                raise fail(path, "an action step needs actor: <creature id>")
            if not isinstance(step["actor"], str) or step["actor"] not in by_id:
                raise fail((*path, "actor"), f"no creature is called {step['actor']!r}")
        else:
            raise fail(path, "a step needs ask: <question> or do: <action>")


def _check_decisions(model: ScenarioModel, creatures: list[Creature], fail: Any) -> None:
    ids = {c.id for c in creatures}
    assert isinstance(model.decisions, list)
    for i, step in enumerate(model.decisions):
        if not isinstance(step.get("actor"), str) or step.get("actor") not in ids:
            raise fail(("decisions", i, "actor"), f"no creature is called {step.get('actor')!r}")


def _is_pair(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value))


def _first_turn(model: ScenarioModel, creatures: list[Creature]) -> str | None:
    order = model.start.initiative
    if not order:
        return None
    first = order[0]
    for c in creatures:
        if first in (c.id, c.side, c.template.name):
            return c.id
    return None
