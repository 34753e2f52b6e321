"""Geometry policies: everything the five rule sets disagree on about the grid, as data.

A rule set passes one ``GeometryPolicy`` to the core (DESIGN.md, "Core geometry");
the core never asks which rule set it serves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DiagonalRule = Literal["one", "alternating"]
DistanceRule = Literal["around_walls", "direct"]
CoverModel = Literal["any_line", "degrees", "half_blocked"]
CreatureCover = Literal["none", "enemies", "all"]
FlankRule = Literal["adjacent", "threatens", "off"]


@dataclass(frozen=True, slots=True)
class GeometryPolicy:
    """How one rule set measures, sees, covers and flanks.

    Attributes:
        diagonal: "one": every diagonal step costs 1 (M08-040, E5-057, DS-037);
            "alternating": 1, 2, 1, 2... across a whole move or count (M03-049, G35-04).
        distance: "around_walls": ranges are counted square by square around walls
            (M08-090, M03-040); "direct": walls do not lengthen a range (E5-060).
        count_past_corners: when counting around walls, a diagonal count may pass a wall's
            corner (M08-090: "count from any adjacent square, even one around a wall corner").
        difficult_diagonal_cost: under "alternating", a diagonal step into difficult terrain
            costs this many squares (3.5 SRD: 3; G35-05).
        cover_model: "any_line": one blocked line from the attacker's best corner gives cover
            (M08-098, M03-086, 3.5 SRD); "degrees": count blocked lines, half / three-quarters
            / total (the DMG method, E5-110..114); "half_blocked": cover when at least half
            the lines are blocked (Draw Steel, DS-149: "at least half of its form").
        creature_cover: which creatures between attacker and target give cover: none, the
            attacker's enemies only (M08-095), or any creature (M03-084, E5-112).
        creature_cover_against: attack kinds against which creatures give cover (M08-096).
        flanking: "adjacent": flankers must be adjacent to the target (M08-110, DS-146);
            "threatens": within melee reach (3.5 SRD); "off": the rule set has no flanking.
        flank_from: "squares": the centre line may join any square of each creature, through any
            square of the target (M08-111, M03-065); "spaces": it joins the centres of the two whole
            spaces and must cross the target's whole space (DS-147, the DMG's flanking).
        min_one_square: a creature can always move one square on its turn (M08-045, M03-052).
        cone_lengths: reach of the ddm2008 cone templates in squares (GAP-M08-6: the
            templates are lost; the project's choice).
        cover_words: the words the ``cover`` answer uses, by degree index.
    """

    diagonal: DiagonalRule = "one"
    distance: DistanceRule = "direct"
    count_past_corners: bool = True
    difficult_diagonal_cost: int = 3
    cover_model: CoverModel = "any_line"
    creature_cover: CreatureCover = "none"
    creature_cover_against: frozenset[str] = field(default_factory=lambda: frozenset(("ranged",)))
    flanking: FlankRule = "adjacent"
    flank_from: Literal["squares", "spaces"] = "squares"
    min_one_square: bool = False
    cone_lengths: tuple[tuple[str, int], ...] = (("small", 3), ("large", 5))

    def cone_length(self, name: str) -> int | None:
        """The length of a named cone template, or None if the rule set has no such cone."""
        for key, value in self.cone_lengths:
            if key == name:
                return value
        return None
