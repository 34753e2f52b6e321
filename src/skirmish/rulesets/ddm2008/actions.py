"""The actions of a ddm2008 game: small immutable values, each pasteable as a scenario step.

``to_step()`` gives the scenario-format form (``{actor, do, ...}``); ``from_step()`` reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmish.core.actions import Action
from skirmish.core.coords import Coord, Point
from skirmish.errors import InvalidActionError


@dataclass(frozen=True, slots=True)
class ChooseFirst(Action):
    """The initiative winner chooses which side goes first this round (M08-030)."""

    side: str = ""
    verb = "choose_first"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "side": self.side}


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """Start activating a creature (M08-031, M08-035)."""

    verb = "activate"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """A move action: up to its speed (M08-037), along ``path`` (the squares entered, in order)."""

    to: Coord = (0, 0)
    path: tuple[Coord, ...] = ()
    mode: str | None = None
    verb = "move"

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.verb, "to": list(self.to)}
        if self.path:
            step["path"] = [list(sq) for sq in self.path]
        if self.mode is not None:
            step["mode"] = self.mode
        return step


@dataclass(frozen=True, slots=True)
class Shift(Action):
    """A move action: one square, not into difficult terrain, provoking nothing (M08-055)."""

    to: Coord = (0, 0)
    verb = "shift"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "to": list(self.to)}


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """An attack action with one attack (M08-063, M08-072): targets in the chosen order, or an
    area's origin; optionally a champion power spent on it."""

    attack: str = ""
    targets: tuple[str, ...] = ()
    at: Coord | None = None
    origin: Point | None = None
    power: tuple[str, str] | None = None  # (champion id, champion power name)
    verb = "attack"

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.verb, "with": self.attack}
        if len(self.targets) == 1:
            step["target"] = self.targets[0]
        elif self.targets:
            step["targets"] = list(self.targets)
        if self.at is not None:
            step["at"] = list(self.at)
        if self.origin is not None:
            step["origin"] = list(self.origin)
        if self.power is not None:
            step["power"] = {"champion": self.power[0], "name": self.power[1]}
        return step


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """An attack action: move up to speed to the nearest square from which it can attack, then one
    melee attack at +1 (M08-103..M08-106)."""

    target: str = ""
    to: Coord = (0, 0)
    attack: str = ""
    path: tuple[Coord, ...] = ()
    verb = "charge"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "target": self.target, "to": list(self.to),
                "with": self.attack}


@dataclass(frozen=True, slots=True)
class UsePower(Action):
    """Use a special power that costs an action (M08-149): a heal on an ally or itself."""

    power: str = ""
    target: str = ""
    verb = "use"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "power": self.power, "target": self.target}


@dataclass(frozen=True, slots=True)
class Teleport(Action):
    """From a teleporter to another unoccupied one, once per round, no action (M08-131)."""

    to: Coord = (0, 0)
    verb = "teleport"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "to": list(self.to)}


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the creature's activation; optionally a champion's end-of-turn heal on it (M08-151)."""

    power: tuple[str, str] | None = None
    verb = "end_turn"

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.verb}
        if self.power is not None:
            step["power"] = {"champion": self.power[0], "name": self.power[1]}
        return step


@dataclass(frozen=True, slots=True)
class ChooseMap(Action):
    """The setup roll's winner picks one of the two maps (M08-026)."""

    map: str = ""
    verb = "choose_map"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "map": self.map}


@dataclass(frozen=True, slots=True)
class ChooseStart(Action):
    """The opponent picks its start area, A or B (M08-026)."""

    area: str = ""
    verb = "choose_start"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "area": self.area}


@dataclass(frozen=True, slots=True)
class Place(Action):
    """Put one creature on the map in its start area (M08-027)."""

    at: Coord = (0, 0)
    verb = "place"

    def to_step(self) -> dict[str, Any]:
        return {"actor": self.actor, "do": self.verb, "at": list(self.at)}


VERBS: dict[str, type[Action]] = {cls.verb: cls for cls in (
    ChooseMap, ChooseStart, Place, ChooseFirst, Activate, Move, Shift, Attack, Charge, UsePower, Teleport, EndTurn)}


def _square(value: Any, what: str) -> Coord:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise InvalidActionError(f"{what} is a square [x, y], not {value!r}")
    return (value[0], value[1])


def _power(value: Any) -> tuple[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"champion", "name"}:
        raise InvalidActionError("power is {champion: <creature id>, name: <champion power>}")
    return (str(value["champion"]), str(value["name"]))


def from_step(step: dict[str, Any]) -> Action:
    """Read an action from its scenario step form.

    Raises:
        InvalidActionError: an unknown verb or a malformed argument.
    """
    verb = step.get("do")
    if verb not in VERBS:
        raise InvalidActionError(f"ddm2008 has no action {verb!r}; its actions are {', '.join(VERBS)}")
    actor = str(step.get("actor", ""))
    allowed = {"actor", "do"}
    try:
        if verb == "choose_map":
            allowed |= {"map"}
            action: Action = ChooseMap(actor, map=str(step.get("map", "")))
        elif verb == "choose_start":
            allowed |= {"area"}
            action = ChooseStart(actor, area=str(step.get("area", "")).lower())
        elif verb == "place":
            allowed |= {"at"}
            action = Place(actor, at=_square(step.get("at"), "at"))
        elif verb == "choose_first":
            allowed |= {"side"}
            action = ChooseFirst(actor, side=str(step.get("side", "")))
        elif verb == "activate":
            action = Activate(actor)
        elif verb == "move":
            allowed |= {"to", "path", "mode"}
            mode = str(step["mode"]) if "mode" in step else None
            if "path" in step:
                if not isinstance(step["path"], list) or not step["path"]:
                    raise InvalidActionError("path is a list of squares [[x, y], ...], at least one")
                path = tuple(_square(s, "each square of path") for s in step["path"])
                if "to" in step and _square(step["to"], "to") != path[-1]:
                    raise InvalidActionError(f"to {step['to']} is not where path ends ({list(path[-1])})")
                action = Move(actor, to=path[-1], path=path, mode=mode)
            else:
                action = Move(actor, to=_square(step.get("to"), "to"), mode=mode)
        elif verb == "shift":
            allowed |= {"to"}
            action = Shift(actor, to=_square(step.get("to"), "to"))
        elif verb == "attack":
            allowed |= {"with", "target", "targets", "at", "origin", "power"}
            targets: tuple[str, ...] = ()
            if "target" in step:
                targets = (str(step["target"]),)
            elif "targets" in step:
                if not isinstance(step["targets"], list):
                    raise InvalidActionError("targets is a list of creature ids")
                targets = tuple(str(t) for t in step["targets"])
            at = _square(step["at"], "at") if "at" in step else None
            origin = None
            if "origin" in step:
                o = step["origin"]
                if not isinstance(o, list) or len(o) != 2:
                    raise InvalidActionError("origin is a point [x, y]")
                origin = (float(o[0]), float(o[1]))
            action = Attack(actor, attack=str(step.get("with", "")), targets=targets, at=at, origin=origin,
                            power=_power(step.get("power")))
        elif verb == "charge":
            allowed |= {"target", "to", "with"}
            action = Charge(actor, target=str(step.get("target", "")),
                            to=_square(step["to"], "to") if "to" in step else (-1, -1),
                            attack=str(step.get("with", "")))
        elif verb == "use":
            allowed |= {"power", "target"}
            action = UsePower(actor, power=str(step.get("power", "")), target=str(step.get("target", actor)))
        elif verb == "teleport":
            allowed |= {"to"}
            action = Teleport(actor, to=_square(step.get("to"), "to"))
        else:
            allowed |= {"power"}
            action = EndTurn(actor, power=_power(step.get("power")))
    except (TypeError, ValueError) as e:
        raise InvalidActionError(f"{verb}: {e}") from None
    extra = set(step) - allowed
    if extra:
        raise InvalidActionError(f"{verb} takes no {sorted(extra)[0]!r} (it takes {', '.join(sorted(allowed))})")
    return action
