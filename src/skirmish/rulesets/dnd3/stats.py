"""The dnd3 stat block as inline ``stats``; AC, touch AC and flat-footed AC are computed (E35-045)."""

from __future__ import annotations

import builtins
from typing import Any, Literal

from pydantic import Field, field_validator

from skirmish.core.content import AttackModel, Strict, speed_modes

SIZES = {"fine": 1, "diminutive": 1, "tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3,
         "gargantuan": 4, "colossal": 6}
SIZE_RANK = {"fine": 0, "diminutive": 1, "tiny": 2, "small": 3, "medium": 4, "large": 5, "huge": 6,
             "gargantuan": 7, "colossal": 8}
SIZE_MODIFIER = {"fine": 8, "diminutive": 4, "tiny": 2, "small": 1, "medium": 0, "large": -1, "huge": -2,
                 "gargantuan": -4, "colossal": -8}
"""Size modifier to attack and AC (E35-025)."""

Size = Literal["fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"]


class Abilities(Strict):
    """Ability scores; 10 each by default."""

    str: builtins.int = Field(default=10, ge=0, le=60)
    dex: builtins.int = Field(default=10, ge=0, le=60)
    con: builtins.int = Field(default=10, ge=0, le=60)
    int: builtins.int = Field(default=10, ge=0, le=60)
    wis: builtins.int = Field(default=10, ge=0, le=60)
    cha: builtins.int = Field(default=10, ge=0, le=60)


class Saves(Strict):
    """Base save bonuses (E35-061)."""

    fort: int = 0
    ref: int = 0
    will: int = 0


class Dnd3Attack(AttackModel):
    """A 3rd edition attack: the common keys plus critical range and multiplier (E35-043, G35-09)."""

    crit_range: int = Field(default=20, ge=2, le=20)
    crit_multiplier: int = Field(default=2, ge=2, le=6)
    increment: int | None = Field(default=None, ge=1)


class Dnd3Stats(Strict):
    """A 3rd edition stat block. Defaults: 10 hit points, speed 6 squares (30 ft), Medium, every ability
    10, base attack +0, no armor, no saves bonus, no attacks."""

    hp: int = Field(default=10, ge=1)
    speed: int | dict[str, int] = 6
    size: Size = "medium"
    abilities: Abilities = Field(default_factory=Abilities)
    bab: int = 0
    armor: int = Field(default=0, ge=0)
    shield: int = Field(default=0, ge=0)
    natural: int = Field(default=0, ge=0)
    dodge: int = Field(default=0, ge=0)
    deflection: int = Field(default=0, ge=0)
    max_dex: int | None = Field(default=None, ge=0)
    attacks: list[Dnd3Attack] = Field(default_factory=list)
    saves: Saves = Field(default_factory=Saves)
    initiative_bonus: int = 0
    feats: list[str] = Field(default_factory=list)
    traits: list[str | dict[str, Any]] = Field(default_factory=list)

    @field_validator("speed")
    @classmethod
    def _speed(cls, v: int | dict[str, int]) -> int | dict[str, int]:
        speed_modes(v)
        return v

    def dex_to_ac(self) -> int:
        """Dexterity modifier as armour caps it (E35-046)."""
        dex = (self.abilities.dex - 10) // 2
        return min(dex, self.max_dex) if self.max_dex is not None else dex

    def ac(self) -> int:
        """10 + armor + shield + Dex + size + natural + dodge + deflection (E35-045, E35-049, E35-050)."""
        return (10 + self.armor + self.shield + self.dex_to_ac() + SIZE_MODIFIER[self.size] + self.natural
                + self.dodge + self.deflection)

    def touch_ac(self) -> int:
        """AC without armor, shield and natural armor (E35-051)."""
        return 10 + self.dex_to_ac() + SIZE_MODIFIER[self.size] + self.dodge + self.deflection

    def flat_footed_ac(self) -> int:
        """AC without the Dexterity bonus and dodge bonuses (E35-013, E35-050)."""
        return self.ac() - max(0, self.dex_to_ac()) - self.dodge
