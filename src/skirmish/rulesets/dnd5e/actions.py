"""The actions of a dnd5e fight: small immutable values, each pasteable as a scenario step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmish.core.actions import Action
from skirmish.core.coords import Coord
from skirmish.errors import InvalidActionError


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Movement, split as the creature likes around its action and between attacks (E5-030..E5-035)."""

    to: Coord = (0, 0)
    path: tuple[Coord, ...] = ()
    mode: str | None = None
    verb = "move"

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.verb, "to": list(self.to)}
        if self.path:
            step["path"] = [list(sq) for sq in self.path]
        if self.mode:
            step["mode"] = self.mode
        return step


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """One attack of the Attack action (E5-063), or of a bonus action (two-weapon fighting, E5-100)."""

    attack: str = ""
    target: str = ""
    offhand: bool = False
    versatile: bool = False
    knock_out: bool = False
    verb = "attack"

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.verb, "with": self.attack, "target": self.target}
        if self.offhand:
            step["offhand"] = True
        if self.versatile:
            step["versatile"] = True
        if self.knock_out:
            step["knock_out"] = True
        return step


@dataclass(frozen=True, slots=True)
class Cast(Action):
    """Cast a spell (E5-064): at targets, or at a point for an area; ``slot`` for a higher level."""

    spell: str = ""
    targets: tuple[str, ...] = ()
    at: Coord | None = None
    slot: int | None = None
    verb = "cast"

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.verb, "spell": self.spell}
        if len(self.targets) == 1:
            step["target"] = self.targets[0]
        elif self.targets:
            step["targets"] = list(self.targets)
        if self.at is not None:
            step["at"] = list(self.at)
        if self.slot is not None:
            step["slot"] = self.slot
        return step


@dataclass(frozen=True, slots=True)
class Simple(Action):
    """An action without arguments: dash, disengage, dodge, hide, search, stand_up, drop_prone,
    second_wind, escape, ready, end_turn; ``bonus`` when taken as a bonus action."""

    what: str = ""
    bonus: bool = False

    @property
    def verb(self) -> str:  # type: ignore[override]
        return self.what

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.what}
        if self.bonus:
            step["bonus"] = True
        return step


@dataclass(frozen=True, slots=True)
class Targeted(Action):
    """An action with one target: help (an ally, against ``against``), grapple, shove (``push`` or
    ``prone``), stabilize."""

    what: str = ""
    target: str = ""
    against: str = ""
    option: str = ""

    @property
    def verb(self) -> str:  # type: ignore[override]
        return self.what

    def to_step(self) -> dict[str, Any]:
        step: dict[str, Any] = {"actor": self.actor, "do": self.what, "target": self.target}
        if self.against:
            step["against"] = self.against
        if self.option:
            step["option"] = self.option
        return step


SIMPLE = ("dash", "disengage", "dodge", "hide", "search", "stand_up", "drop_prone", "second_wind", "escape",
          "end_turn", "ready")
TARGETED = ("help", "grapple", "shove", "stabilize")


def _square(value: Any, what: str) -> Coord:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise InvalidActionError(f"{what} is a square [x, y], not {value!r}")
    return (value[0], value[1])


def from_step(step: dict[str, Any]) -> Action:
    """Read an action from its scenario step form.

    Raises:
        InvalidActionError: an unknown verb or a malformed argument.
    """
    verb = step.get("do")
    actor = str(step.get("actor", ""))
    allowed = {"actor", "do"}
    if verb == "move":
        allowed |= {"to", "path", "mode"}
        mode = str(step["mode"]) if "mode" in step else None
        if "path" in step:
            if not isinstance(step["path"], list) or not step["path"]:
                raise InvalidActionError("path is a list of squares [[x, y], ...], at least one")
            path = tuple(_square(s, "each square of path") for s in step["path"])
            if "to" in step and _square(step["to"], "to") != path[-1]:
                raise InvalidActionError(f"to {step['to']} is not where path ends ({list(path[-1])})")
            action: Action = Move(actor, to=path[-1], path=path, mode=mode)
        else:
            action = Move(actor, to=_square(step.get("to"), "to"), mode=mode)
    elif verb == "attack":
        allowed |= {"with", "target", "offhand", "versatile", "knock_out"}
        action = Attack(actor, attack=str(step.get("with", "")), target=str(step.get("target", "")),
                        offhand=bool(step.get("offhand", False)), versatile=bool(step.get("versatile", False)),
                        knock_out=bool(step.get("knock_out", False)))
    elif verb == "cast":
        allowed |= {"spell", "target", "targets", "at", "slot"}
        targets: tuple[str, ...] = ()
        if "target" in step:
            targets = (str(step["target"]),)
        elif "targets" in step:
            if not isinstance(step["targets"], list):
                raise InvalidActionError("targets is a list of creature ids")
            targets = tuple(str(t) for t in step["targets"])
        slot = step.get("slot")
        if slot is not None and (not isinstance(slot, int) or isinstance(slot, bool)):
            raise InvalidActionError("slot is a spell level, 1 to 9")
        action = Cast(actor, spell=str(step.get("spell", "")), targets=targets,
                      at=_square(step["at"], "at") if "at" in step else None, slot=slot)
    elif verb in SIMPLE:
        allowed |= {"bonus"}
        action = Simple(actor, what=str(verb), bonus=bool(step.get("bonus", False)))
    elif verb in TARGETED:
        allowed |= {"target", "against", "option"}
        action = Targeted(actor, what=str(verb), target=str(step.get("target", "")),
                          against=str(step.get("against", "")), option=str(step.get("option", "")))
    else:
        verbs = ", ".join(["move", "attack", "cast", *SIMPLE, *TARGETED])
        raise InvalidActionError(f"dnd5e has no action {verb!r}; its actions are {verbs}")
    extra = set(step) - allowed
    if extra:
        raise InvalidActionError(f"{verb} takes no {sorted(extra)[0]!r} (it takes {', '.join(sorted(allowed))})")
    return action
