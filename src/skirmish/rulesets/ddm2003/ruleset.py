"""ddm2003: the 2003-2007 D&D Miniatures skirmish rules (seed 004_a60173839f882c9e.txt, checklist M03).

What this module holds so far: the default legend (M03-051, M03-084, M03-124), the
geometry policy (M03-040, M03-049, M03-052, M03-065, M03-084..M03-087) and the
movement rules ``reachable`` needs (M03-050).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from skirmish.core.content import speed_modes
from skirmish.core.creatures import Creature, CreatureTemplate
from skirmish.core.game import Movement, Ruleset, RulesetInfo
from skirmish.core.pathing import ALLY, BLOCKED, Passage
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.core.terrain import BASE_LEGEND, DIAGONAL_WALLS, TerrainKind
from skirmish.rulesets.ddm2003.stats import SIZE_RANK, SIZES, Ddm2003Stats

LEGEND: dict[str, TerrainKind] = {
    **BASE_LEGEND,
    **DIAGONAL_WALLS,
    # Narrow spaces and statues halve movement (M03-051); statues give ranged cover (M03-084).
    "N": TerrainKind("narrow_space", "N", move_cost=2, difficult=True, colour="#cdbb94"),
    "I": TerrainKind("statue", "I", move_cost=2, cover_against=frozenset(("ranged",)),
                     tags=frozenset(("statue",)), colour="#9c9c9c"),
    "B": TerrainKind("blood_rock", "B", tags=frozenset(("blood_rock",)), colour="#c46a5a"),
    "C": TerrainKind("sacred_circle", "C", tags=frozenset(("sacred_circle",)), colour="#e9d77c"),
    # Spike stones count as difficult terrain (GAP-M03-3, from outside the seed).
    "K": TerrainKind("spike_stones", "K", move_cost=2, difficult=True, tags=frozenset(("spike_stones",)),
                     colour="#a88f6a"),
}

POLICY = GeometryPolicy(
    diagonal="alternating",
    distance="around_walls",
    count_past_corners=True,
    cover_model="any_line",
    creature_cover="all",
    creature_cover_against=frozenset(("ranged",)),
    flanking="adjacent",
    min_one_square=True,
    difficult_diagonal_cost=3,
    cone_lengths=(),
)


class Ddm2003(Ruleset):
    """The 2003-2007 D&D Miniatures skirmish rules."""

    info = RulesetInfo(
        name="ddm2003", title="D&D Miniatures skirmish rules (2003-2007)", seed="004_a60173839f882c9e.txt",
        checklist_prefix="M03", aliases=("ddm03",),
    )
    base_policy = POLICY
    legend = LEGEND
    stats_model = Ddm2003Stats
    conditions = frozenset(("stunned", "helpless", "paralyzed", "asleep", "routed", "invisible", "concealed"))
    no_flank_conditions = frozenset(("routed", "stunned", "helpless", "paralyzed", "asleep"))
    # A creature that cannot act cannot move; every creature may move one square (M03-052, policy).
    speed_zero_conditions = frozenset(("stunned", "helpless", "paralyzed", "asleep"))
    rule_ids: ClassVar[dict[str, str]] = {
        "area.close": "M03-113", "area.line": "M03-113", "area.effect": "M03-113",
        "area.origin": "M03-108", "area.nearest": "M03-108",
    }

    def make_template(self, name: str, stats: BaseModel) -> CreatureTemplate:
        assert isinstance(stats, Ddm2003Stats)
        attacks = [a.model_copy(update={"kind": "melee"}).to_attack() for a in stats.melee]
        attacks += [a.model_copy(update={"kind": "ranged", "range": a.range if a.range != 1 else "sight"})
                    .to_attack() for a in stats.ranged]
        return CreatureTemplate(
            name=name, size=SIZES[stats.size], size_rank=SIZE_RANK[stats.size], size_label=stats.size,
            speed=speed_modes(stats.speed), max_hp=stats.hp, attacks=tuple(attacks), stats=stats,
        )

    def passage(self, pos: Position, mover: Creature, occupant: Creature, move: Movement) -> Passage:
        """Through allies but not stopping; never through enemies (M03-050)."""
        return ALLY if self.allies(mover, occupant) else BLOCKED
