"""dnd5e spells as data: what each does in combat, read from ``content/spells.yaml``.

Spell statistics come from the SRD 5.1 (CC-BY-4.0); no spell text is reproduced. Ranges and
areas are in squares (5 feet each).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from pydantic import Field, field_validator, model_validator

from skirmish.core.content import Strict
from skirmish.core.creatures import AreaSpec
from skirmish.core.dice import DiceExpr

AbilityName = Literal["str", "dex", "con", "int", "wis", "cha"]


class Spell(Strict):
    """One spell's combat mechanics (E5-064, E5-074, G5-12).

    Attributes:
        level: 0 for a cantrip.
        casting_time: action, bonus (a bonus action) or reaction.
        range: squares; 0 for self, 1 for touch.
        attack: a spell attack roll (melee or ranged), if it makes one.
        save: the ability of the target's saving throw against the caster's DC, if any.
        half: a successful save halves the damage.
        damage: damage dice and type; ``scaling`` gives cantrip damage from a character level on.
        darts: magic missile's darts, each hitting automatically.
        heal: healing dice; the caster's spellcasting modifier is added.
        area: ``cone N``, ``sphere N`` (radius from a point), ``cube N``, ``line N``.
        targets: creatures it may target.
        no_cover: the target gains no benefit from cover (sacred flame).
        ac_bonus: a bonus to AC until the start of the caster's next turn (shield).
        concentration: it needs concentration (G5-12).
        bless: a die added to the targets' attack rolls and saves while it lasts.
        upcast: damage or healing dice added per slot level above the spell's level.
    """

    level: int = Field(ge=0, le=9)
    casting_time: Literal["action", "bonus", "reaction"] = "action"
    range: int = Field(default=1, ge=0)
    attack: Literal["melee", "ranged"] | None = None
    save: AbilityName | None = None
    half: bool = False
    damage: str | None = None
    scaling: dict[int, str] = Field(default_factory=dict)
    darts: int | None = Field(default=None, ge=1)
    heal: str | None = None
    area: str | None = None
    targets: int = Field(default=1, ge=1)
    no_cover: bool = False
    ac_bonus: int | None = None
    concentration: bool = False
    bless: str | None = None
    upcast: str | None = None

    @field_validator("damage", "heal", "bless", "upcast")
    @classmethod
    def _dice(cls, v: str | None) -> str | None:
        if v is not None:
            DiceExpr.parse(v)
        return v

    @field_validator("area")
    @classmethod
    def _area(cls, v: str | None) -> str | None:
        if v is not None:
            spec = v.split()
            if len(spec) != 2 or spec[0] not in ("cone", "sphere", "cube", "line") or not spec[1].isdigit():
                raise ValueError(f"area {v!r}: write cone N, sphere N, cube N or line N (squares)")
        return v

    @model_validator(mode="after")
    def _does_something(self) -> Spell:
        if not (self.damage or self.heal or self.darts or self.ac_bonus or self.bless):
            raise ValueError("a spell needs damage, heal, darts, ac_bonus or bless")
        return self

    def area_spec(self) -> AreaSpec | None:
        if self.area is None:
            return None
        shape, size = self.area.split()
        return AreaSpec({"sphere": "radius"}.get(shape, shape), int(size))


@cache
def spell_book() -> dict[str, Spell]:
    """Every spell of ``content/spells.yaml``, validated."""
    from skirmish.core.yamlsrc import load_yaml_with_lines

    path = resources.files("skirmish.rulesets").joinpath("dnd5e", "content", "spells.yaml")
    if not path.is_file():
        return {}
    data, _ = load_yaml_with_lines(path.read_text(encoding="utf-8"), "skirmish/rulesets/dnd5e/content/spells.yaml")
    assert isinstance(data, dict)
    return {name: Spell.model_validate(body) for name, body in (data.get("spells") or {}).items()}
