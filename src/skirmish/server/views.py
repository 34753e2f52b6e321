"""JSON views of a game for the browser: the state, its map, the legal actions, a creature's card.

Everything here goes through the game interface, the position's geometry and ``Ruleset``'s hooks
(the pending decision's ``prompt``, an action's ``display``), so any rule set that plays is shown the
same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from skirmish.core.coords import Coord
from skirmish.core.creatures import Attack, Creature
from skirmish.core.display import ActionDisplay
from skirmish.core.grid import Grid
from skirmish.errors import SkirmishError
from skirmish.games import describe
from skirmish.render.style import labels, side_colours, zone_colours
from skirmish.scenario.runner import output


def state_view(state: Any, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``skirmish run --json`` object of a state, with what the page needs to draw it: the map,
    sides and colours, and each creature's name, side, size, hit points, label and whether it is on
    the map, and what the side to decide is asked (``prompt``, its ``phase`` also on top). ``extra``
    keys (id, players, ...) are added on top."""
    data = output(state, [])
    names = labels(state)
    for c in state.creatures.values():
        data["creatures"][c.id].update({
            "name": c.template.name, "side": c.side, "size": c.size, "max_hp": c.template.max_hp,
            "label": names[c.id], "on_map": c.on_map,
        })
    over = bool(state.is_over())
    prompt = state.ruleset.prompt(state)
    data.update({
        "title": state.ruleset.info.title,
        "phase": prompt.phase,
        "prompt": prompt.to_json(),
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
    involves (``Ruleset.display``)."""
    reaches: dict[str, Any] = {}
    return [_action(state, i, a, reaches) for i, a in enumerate(actions)]


def _xy(square: Coord | None) -> list[int] | None:
    return None if square is None else [square[0], square[1]]


def _action(state: Any, index: int, action: Any, reaches: dict[str, Any]) -> dict[str, Any]:
    step = action.to_step()
    shown: ActionDisplay = state.ruleset.display(state, action)
    actor = state.creatures.get(step.get("actor"))
    to = _xy(shown.to)
    path = [[x, y] for x, y in shown.path] or None
    return {
        "index": index,
        "step": step,
        "do": step["do"],
        "text": f"{step['actor']}: {describe(action)}",
        "squares": [[x, y] for x, y in shown.squares],
        "to": to,
        "cost": _cost(state, actor, to, path, reaches),
        "path": path,
        "targets": [{"id": t.id, "cover": t.cover, "combat_advantage": t.advantage} for t in shown.targets],
        "area": None if shown.area is None else [[x, y] for x, y in shown.area],
        "square": _xy(shown.square),
        "mark": shown.mark,
        "select": shown.select,
        "highlight": None if shown.highlight is None else [[x, y] for x, y in shown.highlight],
        "fold": shown.fold,
        "ends_turn": shown.ends_turn,
    }


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


def card_view(state: Any, creature: Creature) -> dict[str, Any]:
    """A creature's card: its hit points and conditions, and its stat block as short label/text
    lines (numbers and words first, then attacks, then the rest)."""
    lines: list[dict[str, str]] = [{"label": "size", "text": creature.template.size_label},
                                   {"label": "speed", "text": _speeds(creature.template.speed)}]
    card = creature.template.stats
    stats = _plain(card)  # a typed card, or one made by hand
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


def _plain(value: Any) -> Any:
    """A typed card or effect as plain data (what it sets, unset fields left out)."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_none=True)
    return dict(value) if isinstance(value, dict) else value


def _empty(value: Any) -> bool:
    if isinstance(value, dict):
        return all(_empty(v) for v in value.values())
    return value is None or value is False or value in ("", [], (), {})


def _text(value: Any) -> str:
    """A stat value in a few words: mappings as ``key value``, lists joined by commas."""
    value = _plain(value)
    if value is True:
        return "yes"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')}" + ("" if v is True else f" {_text(v)}")
                         for k, v in value.items() if not _empty(v))
    if isinstance(value, list | tuple):
        return "; ".join(_text(v) for v in value)
    return str(value)
