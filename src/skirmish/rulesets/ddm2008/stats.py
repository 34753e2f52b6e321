"""The ddm2008 stat card (M08-001..M08-013) as inline ``stats``; every field has a default.

Besides the common attack keys, a card carries effects on a hit, uses and recharge,
abilities (passive), special powers and champion powers, in the small vocabulary below;
the reference page lists it with examples.

The validated card is frozen, its lists tuples, and it is what a creature template carries
(``CreatureTemplate.stats``): the rules read it by attribute through ``card``, each default
declared once here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field, field_validator, model_validator

from skirmish.core.content import AttackModel, Strict, speed_modes

if TYPE_CHECKING:
    from skirmish.core.creatures import Creature

SIZES = {"tiny": 1, "small": 1, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4}
SIZE_RANK = {"tiny": 0, "small": 1, "medium": 2, "large": 3, "huge": 4, "gargantuan": 5}
Faction = Literal["borderlands", "civilization", "underdark", "wild"]
ConditionName = Literal["dazed", "staggered", "stunned", "helpless", "immobilized", "confused", "enervated",
                        "slowed", "invisible"]
DurationName = Literal["end_of_next_turn", "end_of_controller_turn", "end_of_round", "save_ends",
                       "end_of_battle"]
DAMAGE_TYPES = frozenset(("acid", "cold", "fire", "force", "lightning", "necrotic", "poison", "psychic",
                          "radiant", "thunder"))


class Effect(Strict):
    """What a hit does besides damage (M08-065, M08-067): a condition with its duration (default
    until the end of the target's next turn, M08-068), forced movement, or ongoing damage."""

    condition: ConditionName | None = None
    duration: DurationName = "end_of_next_turn"
    push: int | None = Field(default=None, ge=1)
    pull: int | None = Field(default=None, ge=1)
    slide: int | None = Field(default=None, ge=1)
    ongoing: int | None = Field(default=None, ge=1)
    ongoing_type: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, v: object) -> object:
        if isinstance(v, str):
            words = v.strip().lower().split()
            if len(words) == 2 and words[0] in ("push", "pull", "slide") and words[1].isdigit():
                return {words[0]: int(words[1])}
            if len(words) == 1:
                return {"condition": words[0]}
            if len(words) == 3 and words[0] in ("dazed", "staggered", "stunned", "helpless", "immobilized",
                                                "confused", "enervated", "slowed") and words[1:] == ["save", "ends"]:
                return {"condition": words[0], "duration": "save_ends"}
            raise ValueError(f"effect {v!r} is not understood; write a condition ('dazed', 'slowed save ends'), "
                             "'push 2', 'pull 1', 'slide 1', or a mapping such as {ongoing: 5, ongoing_type: fire}")
        return v

    @model_validator(mode="after")
    def _one_thing(self) -> Effect:
        given = [k for k in ("condition", "push", "pull", "slide", "ongoing") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("an effect is one thing: a condition, push, pull, slide or ongoing damage")
        return self


class Ddm2008Attack(AttackModel):
    """A card attack: the common attack keys, effects on a hit, uses per battle and recharge
    (M08-069, M08-070)."""

    effects: tuple[Effect, ...] = ()  # type: ignore[assignment]  # typed effects where the base has words
    uses: int | None = Field(default=None, ge=1)
    recharge: Literal["bloodied"] | None = None

    @model_validator(mode="after")
    def _recharge_needs_one_use(self) -> Ddm2008Attack:
        if self.recharge is not None and self.uses != 1:
            raise ValueError("only an attack with a single use (uses: 1) can recharge (M08-070)")
        return self


class SpecialPower(Strict):
    """A special power (M08-011, M08-149), one of a few kinds:

    - ``charge_damage``: extra damage when it hits with a charge (M08-107, Powerful Charge);
    - ``sneak_attack``: extra damage when it hits a target it has combat advantage against (M08-077);
    - ``regeneration``: regains hit points at the start of its turn while it has any left;
    - ``heal``: an attack action or move action that heals an ally within ``range`` (itself too).
    """

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    kind: Literal["charge_damage", "sneak_attack", "regeneration", "heal"]
    amount: int = Field(ge=1)
    action: Literal["attack", "move"] = "attack"
    range: int = Field(default=1, ge=0)
    uses: int | None = Field(default=None, ge=1)


class ChampionPower(Strict):
    """A champion power (M08-150, M08-151): costs ``cost`` of the champion's uses, at most one use
    per creature's turn, when its trigger happens:

    - ``own_attack``: before the champion rolls an attack, +``amount`` to that roll;
    - ``ally_hits``: when an ally within ``range`` hits with an attack, +``amount`` damage;
    - ``ally_ends_turn``: when an ally within ``range`` ends its turn (in a victory area, if
      ``in_victory_area``), it regains ``amount`` hit points.
    """

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    cost: int = Field(default=1, ge=1)
    trigger: Literal["own_attack", "ally_hits", "ally_ends_turn"]
    amount: int = Field(ge=1)
    range: int = Field(default=6, ge=0)
    in_victory_area: bool = False


class Abilities(Strict):
    """Passive abilities (M08-010, M08-148)."""

    flight: bool = False
    phasing: bool = False
    resist: dict[str, int] = Field(default_factory=dict)
    vulnerable: dict[str, int] = Field(default_factory=dict)
    immune: tuple[str, ...] = ()

    @field_validator("resist", "vulnerable")
    @classmethod
    def _types(cls, v: dict[str, int]) -> dict[str, int]:
        for t, n in v.items():
            if t not in DAMAGE_TYPES and t != "all":
                raise ValueError(f"{t!r} is not a damage type: use 'all' or one of {', '.join(sorted(DAMAGE_TYPES))}")
            if n < 1:
                raise ValueError(f"{t} {n}: the amount is 1 or more")
        return v


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
    factions: tuple[Faction, ...] = ()
    keywords: tuple[str, ...] = ()
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    champion: int = Field(default=0, ge=0)
    unique: bool = False
    epic: bool = False
    attacks: tuple[Ddm2008Attack, ...] = ()
    abilities: Abilities = Field(default_factory=Abilities)
    special_powers: tuple[SpecialPower, ...] = ()
    champion_powers: tuple[ChampionPower, ...] = ()

    @field_validator("speed")
    @classmethod
    def _speed(cls, v: int | str | dict[str, int]) -> int | str | dict[str, int]:
        speed_modes(v, fly_prefix=True)
        return v

    @model_validator(mode="after")
    def _champion_powers_need_rating(self) -> Ddm2008Stats:
        if self.champion_powers and self.champion == 0:
            raise ValueError("champion powers need a champion rating (champion: 1 or more, M08-012)")
        return self


BLANK = Ddm2008Stats()
"""The card of every default, for a template made by hand without one."""


def card(c: Creature) -> Ddm2008Stats:
    """A creature's stat card (M08-001..M08-013), as its template carries it; a template made by hand
    reads its plain ``stats`` mapping through the model, or the blank card."""
    stats = c.template.stats
    if isinstance(stats, Ddm2008Stats):
        return stats
    return Ddm2008Stats.model_validate(stats) if stats else BLANK


def defense(c: Creature, vs: str) -> int:
    """AC, or DEF for attacks against Fort, Ref or Will (M08-005, M08-065)."""
    s = card(c)
    return s.ac if vs == "ac" else s.defense


def immune(c: Creature, what: str) -> bool:
    """Whether the card's abilities make it immune to ``what``: a damage type, a condition or
    critical hits (M08-010)."""
    return what in card(c).abilities.immune


def special_power(c: Creature, name: str) -> SpecialPower | None:
    """The special power of that name on the creature's card (M08-011, M08-149)."""
    return next((p for p in card(c).special_powers if p.name == name), None)


def champion_power(c: Creature, name: str) -> ChampionPower | None:
    """The champion power of that name on the creature's card (M08-150)."""
    return next((p for p in card(c).champion_powers if p.name == name), None)
