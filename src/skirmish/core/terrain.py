"""Terrain as data: each kind says what it does, so a rule set adds kinds without touching the core.

The core reads only the declared properties below. Rule-set mechanics that hang on a
terrain kind (blood rock's critical range, a teleporter, a pit's end-of-turn doom)
are named by ``tags`` and implemented by the rule set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

AttackKind = Literal["melee", "ranged", "close", "area"]
ATTACK_KINDS: tuple[AttackKind, ...] = ("melee", "ranged", "close", "area")

Shape = Literal["full", "nw", "ne", "sw", "se"]
"""Which part of the square the solid matter fills: the whole square, or the
triangle of a diagonal wall that holds the named corner's right angle."""

SightRule = Literal["clear", "block", "opposite_sides"]
Entry = Literal["all", "flyers", "none"]


@dataclass(frozen=True, slots=True)
class TerrainKind:
    """One kind of square.

    Attributes:
        name: snake_case name, as scenario legends and reference pages use it.
        glyph: the default map character (documentation and rendering only).
        entry: who may enter the square: everyone, flyers only (a pit), or nobody (a wall).
        occupiable: whether a creature may end a move in it (a statue may be crossed, not held).
        move_cost: squares of movement it costs to enter (2 for difficult terrain).
        difficult: counts as difficult terrain for rules that name it (shift, charge, jump).
        difficult_for_flyers: flying movement pays ``move_cost`` too.
        blocks_corners: a diagonal step may not pass this square's corner (walls, big trees).
        sight: lines of sight through it are clear, blocked, or blocked only when they
            cross two opposite sides of the same square (ddm2008 forest, M08-124).
        blocks_effect: lines of effect through it are blocked.
        cover_against: attack kinds against which a line through it gives cover.
        cover_degree: dnd5e degree of cover it gives: "half", "three_quarters" or "total".
        shape: the solid part of the square, for walls drawn on the diagonal.
        end_turn: what befalls a creature that ends its turn here, for the rule set to apply:
            ``"destroyed"`` (a ddm2008 pit, M08-125), ``"damage"`` (damaging terrain, DS-088).
        tags: rule-set mechanics keyed by name (``pit``, ``blood_rock``, ``teleporter``...).
        colour: fill colour of pictures.
    """

    name: str
    glyph: str = "?"
    entry: Entry = "all"
    occupiable: bool = True
    move_cost: int = 1
    difficult: bool = False
    difficult_for_flyers: bool = False
    blocks_corners: bool = False
    sight: SightRule = "clear"
    blocks_effect: bool = False
    cover_against: frozenset[str] = field(default_factory=frozenset)
    cover_degree: str | None = None
    shape: Shape = "full"
    end_turn: str | None = None
    tags: frozenset[str] = field(default_factory=frozenset)
    colour: str = "#e8e4d8"

    @property
    def solid(self) -> bool:
        """True when the square holds matter that lines can hit (walls, diagonal walls)."""
        return self.blocks_effect or self.sight != "clear" or bool(self.cover_against)


FLOOR = TerrainKind("floor", ".", colour="#f4f1e8")
WALL = TerrainKind(
    "wall", "#", entry="none", occupiable=False, blocks_corners=True, sight="block",
    blocks_effect=True, cover_against=frozenset(("melee", "ranged", "close", "area")),
    cover_degree="total", colour="#3b3b3b",
)
DIFFICULT = TerrainKind("difficult", "~", move_cost=2, difficult=True, colour="#d9c9a3")


def diagonal_wall(corner: Literal["nw", "ne", "sw", "se"], glyph: str) -> TerrainKind:
    """A wall drawn on the diagonal: the triangle holding ``corner`` is solid.

    The open half can be stood in; a creature may step diagonally past its corners
    (M08-049); lines that only graze its diagonal edge are clear.
    """
    return TerrainKind(
        f"diagonal_wall_{corner}", glyph, entry="all", occupiable=True, blocks_corners=False,
        sight="block", blocks_effect=True,
        cover_against=frozenset(("melee", "ranged", "close", "area")), cover_degree="total",
        shape=corner, colour="#3b3b3b",
    )


DIAGONAL_WALLS: dict[str, TerrainKind] = {
    "/": diagonal_wall("nw", "/"),
    "\\": diagonal_wall("ne", "\\"),
    "L": diagonal_wall("sw", "L"),
    "J": diagonal_wall("se", "J"),
}
"""Default characters of diagonal walls: ``/`` solid top-left, ``\\`` solid top-right,
``L`` solid bottom-left, ``J`` solid bottom-right (the letter's corner is the solid one)."""

BASE_LEGEND: dict[str, TerrainKind] = {".": FLOOR, "#": WALL, "~": DIFFICULT}
"""What every rule set's default legend has at least (scenario format, map)."""
