"""drawsteel: the Draw Steel combat chapter (seed 003_13981f798c9463eb.txt, checklist DS).

What this module holds so far: the default legend (DS-087, DS-088, DS-149), the geometry
policy (DS-037, DS-043, DS-146..DS-149) and the movement rules ``reachable`` needs
(DS-038..DS-040, DS-068, G-09 slowed, grabbed, restrained).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from skirmish.core.content import speed_modes
from skirmish.core.creatures import Creature, CreatureTemplate
from skirmish.core.game import Movement, Ruleset, RulesetInfo
from skirmish.core.pathing import Passage
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.core.terrain import BASE_LEGEND, DIAGONAL_WALLS, TerrainKind
from skirmish.rulesets.drawsteel.stats import DrawSteelStats, footprint_side, size_rank

ALL_KINDS = frozenset(("melee", "ranged", "close", "area"))

LEGEND: dict[str, TerrainKind] = {
    **BASE_LEGEND,
    **DIAGONAL_WALLS,
    # Damaging terrain (DS-088): no extra cost, but no shifting into it (DS-045).
    "^": TerrainKind("damaging", "^", end_turn="damage", tags=frozenset(("damaging",)), colour="#e0825a"),
    # A solid object filling its square: a pillar, a tree trunk (DS-043, DS-149).
    "T": TerrainKind("object", "T", entry="none", occupiable=False, blocks_corners=True, sight="block",
                     blocks_effect=True, cover_against=ALL_KINDS, colour="#6d5c4b"),
    # Waist-high cover (an overturned table): cover (DS-149), difficult to cross.
    "=": TerrainKind("low_cover", "=", move_cost=2, difficult=True, cover_against=ALL_KINDS, colour="#a89a84"),
}

POLICY = GeometryPolicy(
    diagonal="one",
    distance="direct",
    cover_model="half_blocked",
    creature_cover="none",
    flanking="adjacent",
    flank_from="spaces",
    min_one_square=False,
    cone_lengths=(),
)


class DrawSteel(Ruleset):
    """Draw Steel combat."""

    info = RulesetInfo(
        name="drawsteel", title="Draw Steel combat", seed="003_13981f798c9463eb.txt",
        checklist_prefix="DS", aliases=("draw_steel", "ds"),
    )
    base_policy = POLICY
    legend = LEGEND
    stats_model = DrawSteelStats
    conditions = frozenset((
        "bleeding", "dazed", "frightened", "grabbed", "prone", "restrained", "slowed", "taunted",
        "weakened", "unconscious", "surprised", "dying", "flying", "hidden", "invisible",
    ))
    # Flanking needs the ability to take triggered actions (DS-148).
    no_flank_conditions = frozenset(("dazed", "unconscious", "surprised"))
    # Speed 0 when grabbed, restrained (G-09) or unconscious (DS-170); 2 when slowed (G-09);
    # a prone creature crawls, 1 extra square per square (DS-068).
    speed_zero_conditions = frozenset(("grabbed", "restrained", "unconscious"))
    slowed_speed = 2
    crawl_condition = "prone"
    down_can_move = True  # a dying hero still acts (DS-164)
    rule_ids: ClassVar[dict[str, str]] = {"area.effect": "DS-073"}

    def make_template(self, name: str, stats: BaseModel) -> CreatureTemplate:
        assert isinstance(stats, DrawSteelStats)
        return CreatureTemplate(
            name=name, size=footprint_side(str(stats.size)), size_rank=size_rank(str(stats.size)),
            size_label=str(stats.size), speed=speed_modes(stats.speed), max_hp=stats.stamina,
            attacks=tuple(a.to_attack() for a in stats.abilities), stats=stats,
        )

    def initial_status(self, creature: Creature) -> str:
        """Director creatures die at 0 Stamina (DS-166); a hero at 0 or below is dying (DS-164)
        until its Stamina reaches minus its winded value (DS-165; winded = half, rounded down)."""
        if creature.hp > 0:
            return "active"
        if not creature.hero:
            return "dead"
        winded = creature.template.max_hp // 2
        return "dead" if creature.hp <= -winded else "down"

    def passage(self, pos: Position, mover: Creature, occupant: Creature, move: Movement) -> Passage:
        """Allies are passed freely (DS-038); enemies' spaces are difficult terrain (DS-039); no creature's
        space may be ended in unless the sizes are two or more apart (DS-040)."""
        apart = abs(mover.template.size_rank - occupant.template.size_rank) >= 2
        if self.allies(mover, occupant):
            return Passage(enter=True, end=apart)
        return Passage(enter=True, end=apart, difficult=True)
