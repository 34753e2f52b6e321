"""JSON views of a game for the browser: the state, its map, the legal actions, a creature's card.

Everything here goes through the game interface and the position's geometry only, so any rule
set that plays is shown the same way; where a rule set offers more (a state's own
``combat_advantage``), it is asked by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skirmish.core.creatures import Attack, Creature
from skirmish.core.grid import Grid
from skirmish.errors import SkirmishError
from skirmish.games import describe
from skirmish.render.style import labels, side_colours, zone_colours
from skirmish.scenario.runner import output


def state_view(state: Any, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``skirmish run --json`` object of a state, with what the page needs to draw it: the map,
    sides and colours, and each creature's name, side, size, hit points, label and whether it is on
    the map. ``extra`` keys (id, players, ...) are added on top."""
    data = output(state, [])
    names = labels(state)
    for c in state.creatures.values():
        data["creatures"][c.id].update({
            "name": c.template.name, "side": c.side, "size": c.size, "max_hp": c.template.max_hp,
            "label": names[c.id], "on_map": c.on_map,
        })
    over = bool(state.is_over())
    data.update({
        "title": state.ruleset.info.title,
        "phase": getattr(state, "phase", None),
        "current_side": None if over else state.current_side,
        "over": over,
        "sides": [{"name": side, "colour": colour} for side, colour in side_colours(state).items()],
        "map": map_view(state.grid),
    })
    data.update(extra or {})
    return data


def map_view(grid: Grid) -> dict[str, Any]:
    """The map as the page draws it, with the picture renderer's colours; built once per map."""
    return grid.cached(("server", "map_view"), lambda: _map_view(grid))  # type: ignore[return-value]


def _map_view(grid: Grid) -> dict[str, Any]:
    used = {ch for row in grid.rows for ch in row}
    terrain = {ch: {"name": kind.name, "colour": kind.colour, "blocks_sight": kind.sight != "clear",
                    "difficult": kind.difficult}
               for ch, kind in grid.legend.items() if ch in used}
    heights = list(grid.elevation)
    elevation = ([heights[y * grid.width:(y + 1) * grid.width] for y in range(grid.height)]
                 if any(heights) else None)
    colours = zone_colours(grid)
    zones = {name: {"squares": [[x, y] for x, y in sorted(squares, key=lambda s: (s[1], s[0]))],
                    "colour": colours[name]}
             for name, squares in grid.zones.items()}
    return {"width": grid.width, "height": grid.height, "rows": list(grid.rows), "terrain": terrain,
            "elevation": elevation, "zones": zones}


def events_view(state: Any, since: int = 0) -> list[dict[str, Any]]:
    """The state's events from index ``since`` on, each with ``n``, its index."""
    return [{**e.to_json(), "n": n} for n, e in enumerate(state.events[since:], start=since)]


def actions_view(state: Any, actions: Sequence[Any]) -> list[dict[str, Any]]:
    """The legal actions as the page shows them: the step, words, and the squares and targets each
    involves."""
    reaches: dict[str, Any] = {}
    return [_action(state, i, a, reaches) for i, a in enumerate(actions)]


def _square(value: Any) -> list[int] | None:
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return [value[0], value[1]]
    return None


def _action(state: Any, index: int, action: Any, reaches: dict[str, Any]) -> dict[str, Any]:
    step = action.to_step()
    actor = state.creatures.get(getattr(action, "actor", None))
    to = _square(getattr(action, "to", None))
    at = _square(getattr(action, "at", None))
    path = [list(sq) for sq in getattr(action, "path", None) or ()] or None
    squares: list[list[int]] = []
    for sq in [*(path or []), to, at]:
        if sq is not None and sq not in squares:
            squares.append(sq)
    attack = _attack(state, action, actor)
    return {
        "index": index,
        "step": step,
        "do": step["do"],
        "text": f"{step['actor']}: {describe(action)}",
        "squares": squares,
        "to": to,
        "cost": _cost(state, actor, to, path, reaches),
        "path": path,
        "targets": _targets(state, action, actor, attack),
        "area": _area(state, action, actor, attack),
    }


def _attack(state: Any, action: Any, actor: Creature | None) -> Attack | None:
    """The attack or spell an action uses, if it names one the rule set knows."""
    name = getattr(action, "attack", None) or getattr(action, "spell", None)
    if actor is None or not isinstance(name, str) or not name:
        return None
    try:
        found = state.ruleset.named_attack(actor.template, name)
    except SkirmishError:
        return None
    return found if isinstance(found, Attack) else None


def _cost(state: Any, actor: Creature | None, to: list[int] | None, path: list[list[int]] | None,
          reaches: dict[str, Any]) -> int | None:
    """Squares of movement a move spends: the cost of the cheapest way there, else its path's length."""
    if path is None or actor is None or to is None:
        return None
    if actor.id not in reaches:
        try:
            reaches[actor.id] = state.reach_now(actor)
        except SkirmishError:
            reaches[actor.id] = None
    reach = reaches[actor.id]
    if reach is not None and tuple(to) in reach:
        return int(reach.cost(tuple(to)))
    return len(path)


def _targets(state: Any, action: Any, actor: Creature | None, attack: Attack | None) -> list[dict[str, Any]]:
    ids: list[str] = []
    single = getattr(action, "target", None)
    if isinstance(single, str) and single:
        ids.append(single)
    many = getattr(action, "targets", None)
    if isinstance(many, tuple | list):
        ids.extend(str(t) for t in many if str(t) not in ids)
    if ids and actor is not None and isinstance(getattr(action, "to", None), tuple) and action.to != actor.at:
        # An attack after a move (a charge) is made from where the move ends.
        state = state.clone()
        actor = state.creatures[actor.id]
        actor.at = action.to
    out = []
    for tid in ids:
        target = state.creatures.get(tid)
        if target is None or actor is None or not actor.on_map or not target.on_map:
            out.append({"id": tid, "cover": None, "combat_advantage": False})
            continue
        kind = attack.kind if attack is not None else None
        out.append({"id": tid, "cover": state.cover(actor, target, kind),
                    "combat_advantage": combat_advantage(state, actor, target)})
    return out


def combat_advantage(state: Any, attacker: Creature, target: Creature) -> bool:
    """Whether the attacker has combat advantage (or advantage) against the target: the state's own
    ``combat_advantage`` where it has one, else whether it flanks under the rule set's geometry."""
    ask = getattr(state, "combat_advantage", None)
    if callable(ask):
        return bool(ask(attacker, target))
    return bool(state.flanking(attacker, target))


def _area(state: Any, action: Any, actor: Creature | None, attack: Attack | None) -> list[list[int]] | None:
    if attack is None or attack.area is None or actor is None or not actor.on_map:
        return None
    at = getattr(action, "at", None)
    origin = getattr(action, "origin", None)
    try:
        squares, _ = state.area_squares(actor, attack, attack.area, at, origin)
    except SkirmishError:
        return None
    return [[x, y] for x, y in sorted(squares, key=lambda s: (s[1], s[0]))]


def card_view(state: Any, creature: Creature) -> dict[str, Any]:
    """A creature's card: its hit points and conditions, and its stat block as short label/text
    lines (numbers and words first, then attacks, then the rest)."""
    lines: list[dict[str, str]] = [{"label": "size", "text": creature.template.size_label},
                                   {"label": "speed", "text": _speeds(creature.template.speed)}]
    stats = dict(creature.template.stats)
    for attack in creature.template.attacks:
        lines.append({"label": attack.name, "text": _attack_text(attack)})
    for key, value in stats.items():
        if key in ("attacks", "size", "speed", "hp") or _empty(value):
            continue
        lines.append({"label": key.replace("_", " "), "text": _text(value)})
    return {"id": creature.id, "name": creature.template.name, "side": creature.side, "hp": creature.hp,
            "max_hp": creature.template.max_hp, "conditions": creature.condition_names(), "lines": lines}


def _speeds(speed: Any) -> str:
    items = list(dict(speed).items())
    if len(items) == 1 and items[0][0] == "walk":
        return str(items[0][1])
    return ", ".join(f"{mode} {v}" for mode, v in items)


def _attack_text(a: Attack) -> str:
    reach = f"{a.range[0]}/{a.range[1]}" if isinstance(a.range, tuple) else str(a.range)
    parts = [f"{a.kind} {reach}", f"{a.bonus:+d} vs {a.vs}"]
    if a.damage is not None:
        parts.append(a.damage.text)
    if a.area is not None:
        parts.append(str(a.area))
    if a.targets > 1:
        parts.append(f"{a.targets} targets")
    for effect in a.effects:
        parts.append(_text(effect))
    return ", ".join(p for p in parts if p)


def _empty(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_empty(v) for v in value.values())
    return value is None or value is False or value in ("", [], (), {})


def _text(value: Any) -> str:
    """A stat value in a few words: mappings as ``key value``, lists joined by commas."""
    if value is True:
        return "yes"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')}" + ("" if v is True else f" {_text(v)}")
                         for k, v in value.items() if not _empty(v))
    if isinstance(value, list | tuple):
        return "; ".join(_text(v) for v in value)
    return str(value)
