"""Options of ddm2008: the format's size, the scenario's victory rules, and readings of the seed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Ddm2008Options(BaseModel):
    """Options of ddm2008.

    Attributes:
        points: the warband size: 200 standard (M08-016), 100 with half-size maps (M08-018),
            250 in the combined variant (M08-159). VP targets and victory-area VP scale with it.
        scenario: "assault" (M08-153..M08-155), "bounty" (5 VP a kill, M08-157), "uncontested"
            (5 VP per uncontested victory area, M08-158) or "combined" (both, M08-159).
        save_success: the lowest unmodified d20 that saves (GAP-M08-4: 10, the 4e convention).
        sides: which side is player A and which player B, for the ``start_a``/``victory_a`` zones;
            default: the order in which sides first appear in the scenario.
        max_rounds: a safety bound added by this project: after this round the tie-breaker
            decides (M08-156); standard play ends long before.
        enervated_rounding: "five": enervated damage is halved and rounded down to a multiple of 5
            (the game's numbers are multiples of 5, M08-062); "one": halved and rounded down.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    points: int = Field(default=200, ge=50, le=1000)
    scenario: Literal["assault", "bounty", "uncontested", "combined"] = "assault"
    save_success: int = Field(default=10, ge=2, le=20)
    sides: dict[Literal["a", "b"], str] | None = None
    max_rounds: int = Field(default=60, ge=1)
    enervated_rounding: Literal["five", "one"] = "five"
