"""The Draw Steel stat block as inline ``stats``; every field has a default.

Sizes are ``1T``, ``1S``, ``1M``, ``1L`` (one square each) or a whole number N (an N x N x N
cube), ranked 1T < 1S < 1M < 1L < 2 < 3 ... for size differences (DS-002, DS-004).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator

from skirmish.core.content import AttackModel, Strict, speed_modes

SMALL_SIZES = {"1T": 0, "1S": 1, "1M": 2, "1L": 3}
DAMAGE_TYPES = frozenset(("acid", "cold", "corruption", "fire", "holy", "lightning", "poison", "psychic",
                          "sonic", "damage"))


def size_rank(size: str) -> int:
    """Ordinal rank of a size (DS-004): 1T=0, 1S=1, 1M=2, 1L=3, 2=4, N=N+2."""
    if size in SMALL_SIZES:
        return SMALL_SIZES[size]
    return int(size) + 2


def footprint_side(size: str) -> int:
    """Squares on a side of the creature's space (DS-002, DS-003)."""
    return 1 if size in SMALL_SIZES else int(size)


class Characteristics(Strict):
    """The five characteristics, -5..+5; 0 each by default."""

    might: int = Field(default=0, ge=-5, le=5)
    agility: int = Field(default=0, ge=-5, le=5)
    reason: int = Field(default=0, ge=-5, le=5)
    intuition: int = Field(default=0, ge=-5, le=5)
    presence: int = Field(default=0, ge=-5, le=5)


class PowerRoll(Strict):
    """A power roll: 2d10 + a characteristic, read on three tiers (G-01)."""

    characteristic: Literal["might", "agility", "reason", "intuition", "presence"] | list[
        Literal["might", "agility", "reason", "intuition", "presence"]] = "might"
    tiers: tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


class DrawSteelAbility(AttackModel):
    """An ability: the common attack keys plus its action type, keywords and power roll."""

    action: Literal["main", "maneuver", "move", "triggered", "free_triggered", "free_maneuver"] = "main"
    keywords: list[str] = Field(default_factory=list)
    power_roll: PowerRoll | None = None


class DrawSteelStats(Strict):
    """A Draw Steel stat block. Defaults: 10 Stamina, speed 5, size 1M, stability 0, every
    characteristic 0, free strike 2, no abilities, immunities or weaknesses, no Recoveries."""

    stamina: int = Field(default=10, ge=1)
    speed: int | dict[str, int] = 5
    size: str | int = "1M"
    stability: int = Field(default=0, ge=0)
    characteristics: Characteristics = Field(default_factory=Characteristics)
    free_strike: int = Field(default=2, ge=0)
    abilities: list[DrawSteelAbility] = Field(default_factory=list)
    immunities: dict[str, int | Literal["all"]] = Field(default_factory=dict)
    weaknesses: dict[str, int] = Field(default_factory=dict)
    recoveries: int = Field(default=0, ge=0)
    level: int = Field(default=1, ge=0)
    keywords: list[str] = Field(default_factory=list)

    @field_validator("size", mode="before")
    @classmethod
    def _size(cls, v: object) -> str:
        if isinstance(v, bool) or not isinstance(v, str | int):
            raise ValueError(f"size {v!r} is not a Draw Steel size; use 1T, 1S, 1M, 1L or a whole number 2 or more")
        text = str(v).strip().upper()
        if text in SMALL_SIZES or (re.fullmatch(r"[1-9][0-9]*", text) and int(text) >= 2):
            return text
        raise ValueError(f"size {v!r} is not a Draw Steel size; use 1T, 1S, 1M, 1L or a whole number 2 or more")

    @field_validator("speed")
    @classmethod
    def _speed(cls, v: int | dict[str, int]) -> int | dict[str, int]:
        speed_modes(v)
        return v

    @field_validator("immunities", "weaknesses")
    @classmethod
    def _types(cls, v: dict[str, Any]) -> dict[str, Any]:
        for t in v:
            if t not in DAMAGE_TYPES:
                raise ValueError(f"{t!r} is not a damage type; use 'damage' for all damage or one of "
                                 f"{', '.join(sorted(DAMAGE_TYPES - {'damage'}))}")
        return v
