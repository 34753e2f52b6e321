"""The ddm2008 stat card (M08-001..M08-013) as inline ``stats``; every field has a default."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from skirmish.core.content import AttackModel, Strict, speed_modes

SIZES = {"tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4}
SIZE_RANK = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "huge": 4, "gargantuan": 5}
Faction = Literal["borderlands", "civilization", "underdark", "wild"]


class Ddm2008Attack(AttackModel):
    """A card attack: the common attack keys plus uses per battle and recharge (M08-069, M08-070)."""

    uses: int | None = Field(default=None, ge=1)
    recharge: str | None = None


class Ddm2008Stats(Strict):
    """A 2008 stat card. Defaults: a 0-point, level 1, AC 10, DEF 10, speed 6, 10 HP, unaligned,
    faction-less Medium creature with no attacks."""

    cost: int = Field(default=0, ge=0)
    level: int = Field(default=1, ge=0)
    ac: int = 10
    defense: int = 10
    speed: int | str | dict[str, int] = 6
    hp: int = Field(default=10, ge=1)
    alignment: Literal["good", "evil", "unaligned"] = "unaligned"
    factions: list[Faction] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    champion: int = Field(default=0, ge=0)
    unique: bool = False
    attacks: list[Ddm2008Attack] = Field(default_factory=list)
    abilities: list[str | dict[str, Any]] = Field(default_factory=list)
    special_powers: list[str | dict[str, Any]] = Field(default_factory=list)
    champion_powers: list[str | dict[str, Any]] = Field(default_factory=list)

    @field_validator("speed")
    @classmethod
    def _speed(cls, v: int | str | dict[str, int]) -> int | str | dict[str, int]:
        speed_modes(v, fly_prefix=True)
        return v
