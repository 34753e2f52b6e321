"""dnd3: D&D 3rd edition combat (seed 002_61e6d0060d3e3fd5.txt, the 3.0 text; 3.5 as an option).

What this module holds so far: the default legend, the geometry policy (G35-04 1-2-1
counting, the 3.5 SRD cover and flanking values of G35-11), AC computation (E35-045,
E35-051) and the movement rules ``reachable`` needs (G35-05, G35-13).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from skirmish.core.content import speed_modes
from skirmish.core.creatures import Creature, CreatureTemplate
from skirmish.core.game import Movement, Ruleset, RulesetInfo
from skirmish.core.pathing import ALLY, BLOCKED, Passage
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.core.terrain import BASE_LEGEND, DIAGONAL_WALLS, TerrainKind
from skirmish.rulesets.dnd3.stats import SIZE_RANK, SIZES, Dnd3Stats

ALL_KINDS = frozenset(("melee", "ranged", "close", "area"))

LEGEND: dict[str, TerrainKind] = {
    **BASE_LEGEND,
    **DIAGONAL_WALLS,
    "T": TerrainKind("large_tree", "T", entry="none", occupiable=False, blocks_corners=True, sight="block",
                     blocks_effect=True, cover_against=ALL_KINDS, colour="#4f7a43"),
    # A low wall gives cover and costs 2 squares to cross (3.5 SRD).
    "=": TerrainKind("low_wall", "=", move_cost=2, difficult=True, cover_against=ALL_KINDS, colour="#a89a84"),
}


class Dnd3Options(BaseModel):
    """Options of dnd3.

    Attributes:
        edition: "3.0" (the seed, default) or "3.5" (the 3.5 revision where the Gaps give it).
        range_penalty: how a range increment boundary counts (G35-18): "floor" (-2 per full
            increment, the seed) or "fraction" (Pathfinder's reading).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    edition: Literal["3.0", "3.5"] = Field(default="3.0")
    range_penalty: Literal["floor", "fraction"] = "floor"


POLICY = GeometryPolicy(
    diagonal="alternating",
    distance="direct",
    cover_model="any_line",
    creature_cover="all",
    creature_cover_against=frozenset(("ranged",)),
    flanking="threatens",
    min_one_square=False,
    difficult_diagonal_cost=3,
    cone_lengths=(),
)


class Dnd3(Ruleset):
    """D&D 3rd edition combat."""

    info = RulesetInfo(
        name="dnd3", title="D&D 3rd edition combat", seed="002_61e6d0060d3e3fd5.txt",
        checklist_prefix="E35", aliases=("dnd30", "dnd35", "3e"),
    )
    base_policy = POLICY
    legend = LEGEND
    stats_model = Dnd3Stats
    options_model = Dnd3Options
    conditions = frozenset((
        "flat_footed", "stunned", "helpless", "prone", "disabled", "dying", "stable", "unconscious",
        "charging", "fighting_defensively", "invisible", "grappled", "paralyzed", "blinded", "surprised",
    ))
    no_flank_conditions = frozenset(("flat_footed", "stunned", "helpless", "paralyzed", "unconscious",
                                     "dying", "stable", "disabled"))
    cover_words = ("none", "cover", "cover", "total")
    speed_zero_conditions = frozenset(("helpless", "paralyzed", "unconscious", "dying", "stunned", "grappled",
                                       "stable"))
    rule_ids: ClassVar[dict[str, str]] = {}

    def make_template(self, name: str, stats: BaseModel) -> CreatureTemplate:
        assert isinstance(stats, Dnd3Stats)
        return CreatureTemplate(
            name=name, size=SIZES[stats.size], size_rank=SIZE_RANK[stats.size], size_label=stats.size,
            speed=speed_modes(stats.speed), max_hp=stats.hp,
            attacks=tuple(a.to_attack() for a in stats.attacks), stats=stats,
        )

    def initial_status(self, creature: Creature) -> str:
        """0 hit points: disabled; -1 to -9: dying; -10 or lower: dead (E35-053, E35-054, E35-056)."""
        if creature.hp > 0:
            return "active"
        return "dead" if creature.hp <= -10 else "down"

    def speeds(self, pos: Position, creature: Creature) -> dict[str, int]:
        """At 0 hit points a creature is disabled and still moves (E35-053); below 0 it is dying or
        stable and does not (E35-054)."""
        if creature.status == "down" and creature.hp == 0 and not any(
                creature.has(c) for c in self.speed_zero_conditions):
            return dict(creature.template.speed)
        return super().speeds(pos, creature)

    def passage(self, pos: Position, mover: Creature, occupant: Creature, move: Movement) -> Passage:
        """Allies are passed; enemies only when three sizes apart, or helpless in 3.5 (G35-13)."""
        if self.allies(mover, occupant):
            return ALLY
        if abs(mover.template.size_rank - occupant.template.size_rank) >= 3:
            return ALLY
        if getattr(self.options, "edition", "3.0") == "3.5" and occupant.has("helpless"):
            return ALLY
        return BLOCKED
