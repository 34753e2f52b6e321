"""The scenario file format (``shared/scenario-format.md``) as pydantic models.

These models check shapes and types; ``loader`` checks what needs the rule set (stat
blocks, legend names, conditions) and what needs the whole file (ids, squares on the map).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Square = tuple[int, int]
ID_PATTERN = r"^[a-z0-9_-]+$"


class Strict(BaseModel):
    """A model where an unknown key is an error, not silence."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ZoneModel(Strict):
    """A named set of squares: ``rect`` (inclusive corners), ``squares``, or both."""

    rect: tuple[Square, Square] | None = None
    squares: list[Square] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> ZoneModel:
        if self.rect is None and not self.squares:
            raise ValueError("a zone needs rect: [[x0, y0], [x1, y1]] or squares: [[x, y], ...]")
        return self

    def square_set(self) -> set[Square]:
        out = set(self.squares)
        if self.rect is not None:
            (x0, y0), (x1, y1) = self.rect
            for y in range(min(y0, y1), max(y0, y1) + 1):
                for x in range(min(x0, x1), max(x0, x1) + 1):
                    out.add((x, y))
        return out


class TerrainModel(Strict):
    """A terrain kind defined in the scenario's legend (terrain is data)."""

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    entry: Literal["all", "flyers", "none"] = "all"
    occupiable: bool = True
    move_cost: int = Field(default=1, ge=1, le=10)
    difficult: bool = False
    difficult_for_flyers: bool = False
    blocks_corners: bool = False
    sight: Literal["clear", "block", "opposite_sides"] = "clear"
    blocks_effect: bool = False
    cover_against: list[Literal["melee", "ranged", "close", "area"]] = Field(default_factory=list)
    cover_degree: Literal["half", "three_quarters", "total"] | None = None
    end_turn: Literal["destroyed", "damage"] | None = None
    tags: list[str] = Field(default_factory=list)
    colour: str = "#d0d0d0"


class MapModel(Strict):
    """The map: rows of characters, an optional legend, elevation and zones."""

    rows: str
    legend: dict[str, str | TerrainModel] = Field(default_factory=dict)
    elevation: str | None = None
    zones: dict[str, ZoneModel] = Field(default_factory=dict)


class CreatureModel(Strict):
    """One creature on the map (scenario format, ``creatures``)."""

    id: str = Field(pattern=ID_PATTERN)
    side: str = Field(min_length=1)
    at: Square
    creature: str | None = None
    stats: dict[str, Any] | None = None
    hp: int | None = None
    temp_hp: int = Field(default=0, ge=0)
    hero: bool = False
    conditions: list[str] = Field(default_factory=list)
    elevation: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _stat_source(self) -> CreatureModel:
        if self.creature is None and self.stats is None:
            raise ValueError("give creature: <a catalog name>, or stats: {...}, or both")
        return self


class StartModel(Strict):
    """Who acts first, initiative order, surprise, round number (scenario format, ``start``).

    ``hidden`` (this project's addition): creatures hiding at the start; in dnd5e each rolls
    Stealth against the other side's passive Perception to decide who is surprised (E5-009).
    """

    initiative: list[str] | None = None
    first_side: str | None = None
    surprised: list[str] = Field(default_factory=list)
    hidden: list[str] = Field(default_factory=list)
    round: int = Field(default=1, ge=1)


class ScenarioModel(Strict):
    """A whole scenario file."""

    ruleset: str
    seed: int = 0
    name: str | None = None
    description: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    map: MapModel
    creatures: list[CreatureModel] = Field(default_factory=list)
    dice: list[int] = Field(default_factory=list)
    start: StartModel = Field(default_factory=StartModel)
    steps: list[dict[str, Any]] = Field(default_factory=list)
    decisions: Literal["auto"] | list[dict[str, Any]] = "auto"


ASK_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # question: (required keys, optional keys) besides "ask"
    "distance": (frozenset(("from", "to")), frozenset()),
    "line_of_sight": (frozenset(("from", "to")), frozenset()),
    "line_of_effect": (frozenset(("from", "to")), frozenset()),
    "cover": (frozenset(("from", "to")), frozenset(("with", "kind"))),
    "flanking": (frozenset(("attacker", "target")), frozenset()),
    "reachable": (frozenset(("actor",)), frozenset()),
    "area": (frozenset(("actor", "with")), frozenset(("at", "origin"))),
    "legal_actions": (frozenset(("actor",)), frozenset()),
}
"""The questions of ``steps`` and their arguments; ``line_of_effect`` is this project's addition."""
