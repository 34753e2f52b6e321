"""dnd5e: D&D 5th edition combat on the grid variant (seed 001_a43dc4c57e0a5514.txt, checklist E5).

What this module holds so far: the default legend (E5-037, E5-059, E5-112..E5-114),
the geometry policy (E5-057, E5-059, E5-060, the DMG cover method of the Decisions)
and the movement rules ``reachable`` needs (E5-040, E5-042..E5-045, G5-01 speed 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from skirmish.core.content import speed_modes
from skirmish.core.creatures import Attack, Creature, CreatureTemplate
from skirmish.core.game import Movement, RulesetInfo
from skirmish.core.pathing import Passage
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.core.terrain import BASE_LEGEND, DIAGONAL_WALLS, TerrainKind
from skirmish.rulesets.dnd5e.actions import Action, from_step
from skirmish.rulesets.dnd5e.interface import Dnd5eInterface
from skirmish.rulesets.dnd5e.spells import spell_book
from skirmish.rulesets.dnd5e.state import Dnd5eState
from skirmish.rulesets.dnd5e.stats import SIZE_RANK, SIZES, Dnd5eStats
from skirmish.rulesets.dnd5e.tactician import Dnd5eTactician

ALL_KINDS = frozenset(("melee", "ranged", "close", "area"))

LEGEND: dict[str, TerrainKind] = {
    **BASE_LEGEND,
    **DIAGONAL_WALLS,
    # A large tree fills its square: no passing, no corner cutting (E5-059).
    "T": TerrainKind("large_tree", "T", entry="none", occupiable=False, blocks_corners=True, sight="block",
                     blocks_effect=True, cover_against=ALL_KINDS, cover_degree="total", colour="#4f7a43"),
    # A low wall: half cover (E5-112), and climbing over it is difficult terrain.
    "=": TerrainKind("low_wall", "=", move_cost=2, difficult=True, cover_against=ALL_KINDS,
                     cover_degree="half", colour="#a89a84"),
    # A portcullis or arrow slit: three-quarters cover (E5-113); nothing passes.
    "|": TerrainKind("portcullis", "|", entry="none", occupiable=False, cover_against=ALL_KINDS,
                     cover_degree="three_quarters", colour="#6f6f7a"),
}


class Dnd5eOptions(BaseModel):
    """Options of dnd5e.

    Attributes:
        diagonal: "one" (the seed's grid variant, E5-057) or "alternating" (the DMG's
            5/10 rule, G5-09).
        flanking: the DMG's optional flanking rule (off by default: the seed has none).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    diagonal: Literal["one", "alternating"] = "one"
    flanking: bool = False


POLICY = GeometryPolicy(
    diagonal="one",
    distance="direct",
    cover_model="degrees",
    creature_cover="all",
    creature_cover_against=ALL_KINDS,
    flanking="off",
    flank_from="spaces",
    min_one_square=False,
    cone_lengths=(),
)


class Dnd5e(Dnd5eInterface):
    """D&D 5th edition combat on the grid."""

    info = RulesetInfo(
        name="dnd5e", title="D&D 5th edition combat", seed="001_a43dc4c57e0a5514.txt",
        checklist_prefix="E5", aliases=("5e", "dnd5"),
    )
    base_policy = POLICY
    legend = LEGEND
    stats_model = Dnd5eStats
    options_model = Dnd5eOptions
    state_class = Dnd5eState
    tactician = Dnd5eTactician
    conditions = frozenset((
        "blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible",
        "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious",
        "exhaustion", "dodging", "hidden", "stable", "surprised",
    ))
    no_flank_conditions = frozenset(("incapacitated", "paralyzed", "petrified", "stunned", "unconscious"))
    cover_words = ("none", "half", "three_quarters", "total")
    # Speed 0 under these conditions (G5-01); a prone creature crawls, 1 extra square per square (E5-040).
    speed_zero_conditions = frozenset(("grappled", "restrained", "paralyzed", "petrified", "stunned",
                                       "unconscious"))
    crawl_condition = "prone"
    rule_ids: ClassVar[dict[str, str]] = {"area.effect": "E5-114", "area.origin": "E5-091"}

    def difficulty(self, position: Position) -> dict[str, Any] | None:
        """The XP-threshold difficulty (from outside the seed: the DMG's encounter tables)."""
        from skirmish.rulesets.dnd5e.encounter import difficulty

        heroes = [c for c in position.creatures.values() if c.hero]
        if not heroes:
            return None
        foes = [c for c in position.creatures.values() if c.side != heroes[0].side]
        d = difficulty([int(c.template.stats.get("level") or 1) for c in heroes],
                       [str(c.template.stats.get("challenge") or "") for c in foes])
        return {"xp": d.xp, "adjusted_xp": d.adjusted_xp, "thresholds": list(d.thresholds), "rating": d.rating}

    def named_attack(self, template: CreatureTemplate, name: str) -> Any:
        """An attack, or one of the creature's spells with an area as an area attack (``ask: area``)."""
        found = template.attack(name)
        if found is not None or name not in (template.stats.get("spells") or []):
            return found
        spell = spell_book().get(name)
        if spell is None or spell.area is None:
            return None
        area = spell.area_spec()
        assert area is not None
        kind = "area" if area.shape in ("radius", "cube") else "close"
        return Attack(name=name, kind=kind, range=spell.range, area=area)

    def parse_action(self, step: Mapping[str, Any]) -> Action:
        return from_step(dict(step))

    def make_policy(self) -> GeometryPolicy:
        from dataclasses import replace

        opts = self.options
        assert isinstance(opts, Dnd5eOptions)
        return replace(POLICY, diagonal=opts.diagonal, flanking="adjacent" if opts.flanking else "off")

    def make_template(self, name: str, stats: BaseModel) -> CreatureTemplate:
        assert isinstance(stats, Dnd5eStats)
        return CreatureTemplate(
            name=name, size=SIZES[stats.size], size_rank=SIZE_RANK[stats.size], size_label=stats.size,
            speed=speed_modes(stats.speed), max_hp=stats.hp,
            attacks=tuple(a.to_attack() for a in stats.attacks), stats=stats.model_dump(),
        )

    def initial_status(self, creature: Creature) -> str:
        """Monsters die at 0 hit points (E5-141); a hero at 0 is down: unconscious, dying or
        stable (E5-131, E5-134)."""
        if creature.hp > 0:
            return "active"
        return "down" if creature.hero else "dead"

    def passage(self, pos: Position, mover: Creature, occupant: Creature, move: Movement) -> Passage:
        """Another creature's space is difficult terrain (E5-044); a hostile one may be passed only
        when two sizes apart (E5-043); no creature's space may be ended in (E5-045)."""
        if self.allies(mover, occupant):
            return Passage(enter=True, difficult=True)
        apart = abs(mover.template.size_rank - occupant.template.size_rank) >= 2
        return Passage(enter=apart, difficult=True)
