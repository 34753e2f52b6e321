"""The dnd5e stat block as inline ``stats``; every field has a default.

Speeds are in squares (5 feet each, E5-056), as the scenario format says.
"""

from __future__ import annotations

import builtins
from typing import Any, Literal

from pydantic import Field, field_validator

from skirmish.core.content import AttackModel, Strict, speed_modes
from skirmish.core.dice import DiceExpr

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


AbilityName = Literal["str", "dex", "con", "int", "wis", "cha"]
CONDITIONS = ("blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible",
              "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious")


class SaveSpec(Strict):
    """A saving throw an effect calls for: the ability and the DC; half damage on a success if ``half``."""

    ability: AbilityName
    dc: builtins.int = Field(ge=1, le=40)
    half: bool = False


class HitEffect(Strict):
    """What a hit does besides its damage: extra damage, or a condition, each maybe behind a save."""

    damage: str | None = None
    condition: Literal[CONDITIONS] | None = None  # type: ignore[valid-type]
    save: SaveSpec | None = None
    escape_dc: builtins.int | None = Field(default=None, ge=1)

    @field_validator("damage")
    @classmethod
    def _damage(cls, v: str | None) -> str | None:
        if v is not None:
            DiceExpr.parse(v)
        return v


class Dnd5eAttack(AttackModel):
    """A 5e weapon or natural attack (E5-078..E5-096, G5-10).

    ``bonus`` and ``damage`` are the stat block's numbers (ability modifier and proficiency
    included); ``ability`` says which modifier they hold, for two-weapon fighting (E5-101);
    ``range`` is the reach in squares, or ``[normal, long]`` for a ranged attack (E5-093).
    """

    kind: Literal["melee", "ranged"] = "melee"  # type: ignore[assignment]
    properties: list[Literal["finesse", "light", "thrown", "two_handed", "versatile", "reach", "heavy",
                             "loading", "ammunition"]] = Field(default_factory=list)
    ability: Literal["str", "dex"] | None = None
    versatile_damage: str | None = None
    on_hit: list[HitEffect] = Field(default_factory=list)


class Features(Strict):
    """Class features and monster traits the rules play (PHB/SRD 5.1, from outside the seed)."""

    extra_attack: builtins.int = Field(default=1, ge=1, le=4)
    second_wind: bool = False
    cunning_action: bool = False
    sneak_attack: str | None = None
    aggressive: bool = False
    nimble_escape: bool = False
    pack_tactics: bool = False
    two_weapon_fighting: bool = True


class Dnd5eStats(Strict):
    """A 5e stat block. Defaults: AC 10, 10 hit points, speed 6 squares, Medium, every ability 10,
    proficiency +2, no attacks, no resistances. ``damage_reduction`` is a flat reduction of all
    damage taken (an aura or a feature), applied before resistance (E5-124, E5-125)."""

    ac: int = 10
    hp: int = Field(default=10, ge=1)
    speed: int | dict[str, int] = 6
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    abilities: Abilities = Field(default_factory=Abilities)
    proficiency_bonus: int = Field(default=2, ge=0)
    attacks: list[Dnd5eAttack] = Field(default_factory=list)
    multiattack: list[str] = Field(default_factory=list)
    level: builtins.int = Field(default=0, ge=0, le=20)
    features: Features = Field(default_factory=Features)
    spellcasting: AbilityName | None = None
    spells: list[str] = Field(default_factory=list)
    spell_slots: dict[builtins.int, builtins.int] = Field(default_factory=dict)
    skills: dict[str, builtins.int] = Field(default_factory=dict)
    resistances: list[str] = Field(default_factory=list)
    vulnerabilities: list[str] = Field(default_factory=list)
    immunities: list[str] = Field(default_factory=list)
    condition_immunities: list[str] = Field(default_factory=list)
    damage_reduction: builtins.int = Field(default=0, ge=0)
    saves: dict[AbilityName, builtins.int] = Field(default_factory=dict)
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
