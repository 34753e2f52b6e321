"""Creatures: immutable templates (stat blocks) and the small mutable record of each one in play.

Templates are shared by every game; a ``Creature`` holds only what changes during a
battle, so ``clone()`` of a state copies a handful of fields per creature.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from skirmish.core.coords import Coord, footprint
from skirmish.core.dice import DiceExpr
from skirmish.errors import ContentError

AREA_SHAPES = ("burst", "blast", "cube", "cone", "line", "radius")
Status = Literal["active", "down", "dead", "routed", "removed"]

DurationKind = Literal[
    "end_of_next_turn",          # until the end of the affected creature's next turn (M08-068)
    "end_of_controller_turn",    # until the end of the controlling player's next turn (M08-135)
    "start_of_next_turn",        # until the start of the source's next turn (E5-068)
    "end_of_round",              # until the end of the round (M08-136)
    "save_ends",                 # until a successful saving throw (M08-137)
    "end_of_battle",             # the whole battle (M08-137, M03-115)
    "rounds",                    # a number of rounds (G35-24)
]


@dataclass(frozen=True, slots=True)
class AreaSpec:
    """An attack's area: ``burst 2``, ``blast 3``, ``cube 2``, ``cone small``, ``line 5``, ``radius 2``.

    Attributes:
        shape: one of ``AREA_SHAPES``.
        size: squares (burst, blast, cube, line, radius), or the template name of a cone.
        width: a line's width in squares (Draw Steel's ``5 x 1 line``); 1 otherwise.
    """

    shape: str
    size: int | str
    width: int = 1

    @classmethod
    def parse(cls, text: str) -> AreaSpec:
        """Read an area from its scenario text.

        Raises:
            ContentError: the text names no known shape or has no size.
        """
        t = text.strip().lower()
        m = re.fullmatch(r"(\d+)\s*x\s*(\d+)\s+line", t)
        if m:
            return cls("line", int(m.group(1)), int(m.group(2)))
        m = re.fullmatch(r"([a-z]+)\s+([a-z0-9]+)", t) or re.fullmatch(r"(\d+)\s+([a-z]+)", t)
        if m:
            a, b = m.group(1), m.group(2)
            shape, size = (a, b) if a in AREA_SHAPES else (b, a)
            if shape in AREA_SHAPES:
                if shape == "cone" and not size.isdigit():
                    return cls(shape, size)
                if size.isdigit() and int(size) > 0:
                    return cls(shape, int(size))
        raise ContentError(
            f"area {text!r} is not understood; write a shape and a size, such as 'burst 2', "
            "'blast 3', 'cube 2', 'cone small', 'cone large', 'line 5', '5 x 1 line' or 'radius 2'")

    def __str__(self) -> str:
        if self.shape == "line" and self.width != 1:
            return f"{self.size} x {self.width} line"
        return f"{self.shape} {self.size}"


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack, power or ability, in the scenario format's common shape.

    Attributes:
        name: snake_case name, as steps use it in ``with:``.
        kind: melee, ranged, close or area.
        range: reach or range in squares; (normal, long) increments; "nearest" or "sight".
        bonus: attack bonus added to the d20.
        vs: the defence it is rolled against.
        damage: damage dice with their types, if it deals damage.
        targets: most targets it may have.
        area: its area, if any.
        effects: conditions and other effects on a hit: names, or the rule set's own mappings.
        extra: the rule set's own further fields (uses, recharge, power-roll tiers...).
    """

    name: str
    kind: str = "melee"
    range: int | tuple[int, int] | str = 1
    bonus: int = 0
    vs: str = "ac"
    damage: DiceExpr | None = None
    targets: int = 1
    area: AreaSpec | None = None
    effects: tuple[Any, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def reach(self) -> int:
        """Squares this attack reaches when a plain number is given (else 1)."""
        if isinstance(self.range, int):
            return self.range
        if isinstance(self.range, tuple):
            return self.range[1]
        return 1


@dataclass(frozen=True, slots=True)
class CreatureTemplate:
    """A stat block, shared by every creature made from it.

    Attributes:
        name: the catalog name, or the creature id for inline stats.
        size: footprint side in squares (1 for Medium and smaller, 2 for Large...).
        size_rank: order of sizes for "two sizes larger" rules (E5-043, DS-040).
        size_label: the size as the rule set writes it.
        speed: squares per move by movement mode (``walk``, ``fly``, ``burrow``...).
        max_hp: full hit points (Stamina in Draw Steel).
        attacks: attacks in card order: the first is the basic attack in ddm2008 (M08-008).
        stats: the rule set's whole card as a frozen typed object (its validated stats model), read by
            its rules as attributes; a plain mapping only for a template made by hand.
    """

    name: str
    size: int = 1
    size_rank: int = 2
    size_label: str = "medium"
    speed: Mapping[str, int] = field(default_factory=lambda: {"walk": 6})
    max_hp: int = 1
    attacks: tuple[Attack, ...] = ()
    stats: Any = field(default_factory=dict)

    def attack(self, name: str) -> Attack | None:
        """The attack called ``name``, if the creature has it."""
        for a in self.attacks:
            if a.name == name:
                return a
        return None

    @property
    def melee_reach(self) -> int:
        """The longest reach among its melee attacks (1 without any)."""
        return max((a.reach for a in self.attacks if a.kind == "melee"), default=1)


@dataclass(frozen=True, slots=True)
class Duration:
    """How long a condition lasts.

    Attributes:
        kind: one of ``DurationKind``.
        owner: the creature (or side) whose turn ends it, when that matters.
        rounds: rounds left, for ``rounds``.
    """

    kind: DurationKind = "end_of_battle"
    owner: str | None = None
    rounds: int = 0


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition on a creature, with its duration and the creature that caused it."""

    name: str
    duration: Duration = Duration()
    source: str | None = None


class Creature:
    """One creature in play: position, hit points, conditions, status.

    The template is shared and never copied; ``copy()`` is the cheap per-creature part of
    a state's ``clone()``. ``rules`` holds the rule set's own per-creature state: a slotted record
    with ``copy()`` and equality (dnd5e's reaction, slots and death saves; ddm2008's true side).
    """

    __slots__ = (
        "at",
        "conditions",
        "elevation",
        "hero",
        "hp",
        "id",
        "marks",
        "rules",
        "side",
        "status",
        "team",
        "temp_hp",
        "template",
    )

    def __init__(self, id: str, side: str, template: CreatureTemplate, at: Coord, *,
                 hp: int | None = None, temp_hp: int = 0, hero: bool = False,
                 conditions: list[Condition] | None = None, elevation: int = 0,
                 status: Status = "active") -> None:
        self.id = id
        self.side = side
        self.team = side
        self.template = template
        self.at = at
        self.hp = template.max_hp if hp is None else hp
        self.temp_hp = temp_hp
        self.hero = hero
        self.conditions: list[Condition] = list(conditions or [])
        self.elevation = elevation
        self.status: Status = status
        self.marks: dict[str, Any] = {}
        self.rules: Any = None

    def copy(self) -> Creature:
        """An independent copy sharing the template."""
        c = Creature.__new__(Creature)
        c.id, c.side, c.team, c.template, c.at = self.id, self.side, self.team, self.template, self.at
        c.hp, c.temp_hp, c.hero, c.elevation, c.status = self.hp, self.temp_hp, self.hero, self.elevation, self.status
        c.conditions = list(self.conditions)
        c.marks = {k: (v.copy() if isinstance(v, dict | list | set) else v) for k, v in self.marks.items()}
        c.rules = None if self.rules is None else self.rules.copy()
        return c

    def restore(self, other: Creature) -> None:
        """Become ``other`` (a copy of this creature taken earlier), keeping this object's identity."""
        for name in Creature.__slots__:
            setattr(self, name, getattr(other, name))

    @property
    def size(self) -> int:
        return self.template.size

    @property
    def squares(self) -> tuple[Coord, ...]:
        """The squares it occupies."""
        return footprint(self.at, self.template.size)

    @property
    def on_map(self) -> bool:
        """Whether it still stands on the map (not dead, removed or fled)."""
        return self.status in ("active", "down")

    def has(self, condition: str) -> bool:
        """Whether a condition of that name is on it."""
        return any(c.name == condition for c in self.conditions)

    def condition_names(self) -> list[str]:
        """Condition names, each once, in the order they were gained."""
        seen: list[str] = []
        for c in self.conditions:
            if c.name not in seen:
                seen.append(c.name)
        return seen

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Creature):
            return NotImplemented
        return (self.id, self.side, self.template, self.at, self.hp, self.temp_hp, self.hero,
                self.conditions, self.elevation, self.status, self.marks, self.rules) == (
            other.id, other.side, other.template, other.at, other.hp, other.temp_hp, other.hero,
            other.conditions, other.elevation, other.status, other.marks, other.rules)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Creature({self.id!r}, side={self.side!r}, at={self.at}, hp={self.hp})"
