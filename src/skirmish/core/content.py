"""Validation models shared by the rule sets' stat blocks: the scenario format's attack mapping.

Content is validated once with these pydantic models and converted into the engine's
frozen dataclasses; the game loop never touches pydantic (STYLE.md, Dagster's loader).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from skirmish.core.creatures import AreaSpec, Attack
from skirmish.core.dice import DiceExpr

SNAKE = r"^[a-z0-9_]+$"


class Strict(BaseModel):
    """A model where an unknown key is an error, not silence."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class AttackModel(Strict):
    """An attack as the scenario format writes it (``attacks`` entries); defaults per the format."""

    name: str = Field(pattern=SNAKE)
    kind: Literal["melee", "ranged", "close", "area"] = "melee"
    range: int | tuple[int, int] | Literal["nearest", "sight"] = 1
    bonus: int = 0
    vs: Literal["ac", "defense", "fort", "ref", "will"] = "ac"
    damage: str | int | None = None
    targets: int = Field(default=1, ge=1)
    area: str | None = None
    effects: list[str] = Field(default_factory=list)

    @field_validator("damage")
    @classmethod
    def _damage(cls, v: str | int | None) -> str | int | None:
        if v is not None:
            DiceExpr.parse(str(v))
        return v

    @field_validator("area")
    @classmethod
    def _area(cls, v: str | None) -> str | None:
        if v is not None:
            AreaSpec.parse(v)
        return v

    @field_validator("range")
    @classmethod
    def _range(cls, v: Any) -> Any:
        if isinstance(v, int) and v < 0:
            raise ValueError("a range is 0 or more squares")
        if isinstance(v, tuple) and not (0 < v[0] <= v[1]):
            raise ValueError("[normal, long] ranges need 0 < normal <= long")
        return v

    def extra_fields(self) -> dict[str, Any]:
        """The rule set's own keys (fields a subclass adds), for ``Attack.extra``, as plain data."""
        base = set(AttackModel.model_fields)
        return {k: _plain(getattr(self, k)) for k in type(self).model_fields if k not in base}

    def to_attack(self) -> Attack:
        """The engine's frozen attack."""
        return Attack(
            name=self.name,
            kind=self.kind,
            range=self.range,
            bonus=self.bonus,
            vs=self.vs,
            damage=DiceExpr.parse(str(self.damage)) if self.damage is not None else None,
            targets=self.targets,
            area=AreaSpec.parse(self.area) if self.area else None,
            effects=tuple(self.effects),
            extra=self.extra_fields(),
        )


def _plain(value: Any) -> Any:
    """Models inside an attack's own fields become plain mappings: the game loop reads no pydantic."""
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_none=True)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def speed_modes(value: int | str | dict[str, int], *, fly_prefix: bool = False) -> dict[str, int]:
    """Normalize a speed: a number of squares, a mapping of modes, or (ddm2008) ``"F8"`` for flight.

    Raises:
        ValueError: a negative speed, an unknown form.
    """
    if isinstance(value, bool):
        raise ValueError("speed is a number of squares, such as 6, or a mapping such as {walk: 6, fly: 8}")
    if isinstance(value, int):
        modes = {"walk": value}
    elif isinstance(value, str):
        text = value.strip().upper()
        if fly_prefix and text.startswith("F") and text[1:].isdigit():
            modes = {"fly": int(text[1:])}
        elif text.isdigit():
            modes = {"walk": int(text)}
        else:
            hint = " or 'F8' for a flying speed" if fly_prefix else ""
            raise ValueError(f"speed {value!r} is not a number of squares{hint}")
    else:
        modes = dict(value)
    for mode, squares in modes.items():
        if not isinstance(squares, int) or squares < 0:
            raise ValueError(f"speed {mode} must be 0 or more squares, not {squares!r}")
    return modes
