"""The ddm2003 stat card (M03-001..M03-013) as inline ``stats``; every field has a default."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from skirmish.core.content import AttackModel, Strict, speed_modes

SIZES = {"tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4, "colossal": 6}
SIZE_RANK = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "huge": 4, "gargantuan": 5, "colossal": 6}


class Ddm2003Attack(AttackModel):
    """A melee or ranged entry of the card; ``kind`` is set by the list it is in."""

    uses: int | None = Field(default=None, ge=1)


class Ddm2003Stats(Strict):
    """A 2003-2007 skirmish card. Defaults: 0 points, level 1, speed 6, AC 12, 10 HP, no faction,
    Medium, no commander rating, no attacks."""

    cost: int = Field(default=0, ge=0)
    level: int = Field(default=1, ge=0)
    speed: int | dict[str, int] = 6
    ac: int = 12
    hp: int = Field(default=10, ge=1)
    factions: list[Literal["lg", "cg", "le", "ce"]] = Field(default_factory=list)
    type: list[str] = Field(default_factory=list)
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan", "colossal"] = "medium"
    commander_rating: int = Field(default=0, ge=0)
    commander_effect: str | None = None
    melee: list[Ddm2003Attack] = Field(default_factory=list)
    ranged: list[Ddm2003Attack] = Field(default_factory=list)
    abilities: list[str | dict[str, Any]] = Field(default_factory=list)
    spells: list[str | dict[str, Any]] = Field(default_factory=list)

    @field_validator("speed")
    @classmethod
    def _speed(cls, v: int | dict[str, int]) -> int | dict[str, int]:
        speed_modes(v)
        return v
