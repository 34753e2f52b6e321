"""The dnd5e stat block as inline ``stats``; every field has a default.

Speeds are in squares (5 feet each, E5-056), as the scenario format says.
"""

from __future__ import annotations

import builtins
from typing import Any, Literal

from pydantic import Field, field_validator

from skirmish.core.content import AttackModel, Strict, speed_modes

SIZES = {"tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4}
SIZE_RANK = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "huge": 4, "gargantuan": 5}
DAMAGE_TYPES = frozenset((
    "bludgeoning", "piercing", "slashing", "acid", "cold", "fire", "lightning", "thunder", "poison",
    "necrotic", "radiant", "psychic", "force",
))


class Abilities(Strict):
    """Ability scores; 10 each by default."""

    str: builtins.int = Field(default=10, ge=1, le=30)
    dex: builtins.int = Field(default=10, ge=1, le=30)
    con: builtins.int = Field(default=10, ge=1, le=30)
    int: builtins.int = Field(default=10, ge=1, le=30)
    wis: builtins.int = Field(default=10, ge=1, le=30)
    cha: builtins.int = Field(default=10, ge=1, le=30)


class Dnd5eAttack(AttackModel):
    """A 5e attack: the common keys plus weapon properties (G5-10) and a save instead of a roll."""

    properties: list[Literal["finesse", "light", "thrown", "two_handed", "versatile", "reach", "heavy",
                             "loading", "ammunition"]] = Field(default_factory=list)
    save: dict[str, Any] | None = None


class Dnd5eStats(Strict):
    """A 5e stat block. Defaults: AC 10, 10 hit points, speed 6 squares, Medium, every ability 10,
    proficiency +2, no attacks, no resistances."""

    ac: int = 10
    hp: int = Field(default=10, ge=1)
    speed: int | dict[str, int] = 6
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    abilities: Abilities = Field(default_factory=Abilities)
    proficiency_bonus: int = Field(default=2, ge=0)
    attacks: list[Dnd5eAttack] = Field(default_factory=list)
    multiattack: list[str] = Field(default_factory=list)
    resistances: list[str] = Field(default_factory=list)
    vulnerabilities: list[str] = Field(default_factory=list)
    immunities: list[str] = Field(default_factory=list)
    condition_immunities: list[str] = Field(default_factory=list)
    saves: dict[str, int] = Field(default_factory=dict)
    challenge: str | None = None
    traits: list[str | dict[str, Any]] = Field(default_factory=list)

    @field_validator("speed")
    @classmethod
    def _speed(cls, v: int | dict[str, int]) -> int | dict[str, int]:
        speed_modes(v)
        return v

    @field_validator("resistances", "vulnerabilities", "immunities")
    @classmethod
    def _types(cls, v: list[str]) -> list[str]:
        for t in v:
            if t not in DAMAGE_TYPES:
                raise ValueError(f"{t!r} is not a damage type; the 13 are {', '.join(sorted(DAMAGE_TYPES))}")
        return v
