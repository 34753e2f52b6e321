"""ddm2008: the 2008 D&D Miniatures Game (seed 000_17e4765beaa00265.txt, checklist M08).

What this module holds so far: the default legend (M08-121..M08-132), the geometry
policy (M08-040, M08-045, M08-090, M08-093..M08-101, M08-110), the stat card and the
movement rules that ``reachable`` needs (M08-046, M08-051..M08-057, M08-143, M08-146).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import BaseModel

from skirmish.core.content import speed_modes
from skirmish.core.creatures import Creature, CreatureTemplate
from skirmish.core.game import Movement, RulesetInfo, State
from skirmish.core.pathing import ALLY, BLOCKED, Passage
from skirmish.core.policy import GeometryPolicy
from skirmish.core.position import Position
from skirmish.core.terrain import BASE_LEGEND, DIAGONAL_WALLS, TerrainKind
from skirmish.rulesets.ddm2008.actions import Action, ChooseFirst, from_step
from skirmish.rulesets.ddm2008.interface import Ddm2008Interface
from skirmish.rulesets.ddm2008.options import Ddm2008Options
from skirmish.rulesets.ddm2008.state import Ddm2008State
from skirmish.rulesets.ddm2008.stats import SIZE_RANK, SIZES, Ddm2008Stats, card
from skirmish.rulesets.ddm2008.tactician import Ddm2008Tactician

ALL_KINDS = frozenset(("melee", "ranged", "close", "area"))

LEGEND: dict[str, TerrainKind] = {
    **BASE_LEGEND,
    **DIAGONAL_WALLS,
    # Forest: difficult, cover against ranged attacks, blocks sight only across a whole square.
    "T": TerrainKind("forest", "T", move_cost=2, difficult=True, sight="opposite_sides",
                     cover_against=frozenset(("ranged",)), colour="#7fa66a"),
    # Pit: only flyers may enter; ending a turn in it destroys the creature (M08-125).
    "O": TerrainKind("pit", "O", entry="flyers", end_turn="destroyed", tags=frozenset(("pit",)),
                     colour="#6b4f3a"),
    "B": TerrainKind("blood_rock", "B", tags=frozenset(("blood_rock",)), colour="#c46a5a"),
    "C": TerrainKind("sacred_circle", "C", tags=frozenset(("sacred_circle",)), colour="#e9d77c"),
    # Smoke: blocks sight, not effect, not movement (M08-129).
    "S": TerrainKind("smoke", "S", sight="block", tags=frozenset(("smoke",)), colour="#b8b8c8"),
    # Statue: costs 2 to enter, can't be ended on, gives cover, doesn't block sight (M08-130).
    "I": TerrainKind("statue", "I", move_cost=2, occupiable=False, cover_against=ALL_KINDS,
                     tags=frozenset(("statue",)), colour="#9c9c9c"),
    "@": TerrainKind("teleporter", "@", tags=frozenset(("teleporter",)), colour="#8fc7e6"),
}

POLICY = GeometryPolicy(
    diagonal="one",
    distance="around_walls",
    count_past_corners=True,
    cover_model="any_line",
    creature_cover="enemies",
    creature_cover_against=frozenset(("ranged",)),
    flanking="adjacent",
    min_one_square=True,
    cone_lengths=(("small", 3), ("large", 5)),
)


class Ddm2008(Ddm2008Interface):
    """The 2008 D&D Miniatures Game (the interfaces' hooks in ``interface.py``)."""

    info = RulesetInfo(
        name="ddm2008", title="D&D Miniatures Game (2008)", seed="000_17e4765beaa00265.txt",
        checklist_prefix="M08", aliases=("ddm08", "ddm"), max_rounds=None,
    )
    base_policy = POLICY
    legend = LEGEND
    stats_model = Ddm2008Stats
    options_model = Ddm2008Options
    state_class = Ddm2008State
    tactician = Ddm2008Tactician
    # A side's turn holds several activations, so a future runs until the foe has answered (sides=2),
    # which makes each future long: fewer, the budget measured against the tactician (README).
    search_budget = MappingProxyType({"width": 2, "kinds": 1, "samples": 2, "sides": 2, "confirm": 2})
    conditions = frozenset((
        "dazed", "staggered", "stunned", "helpless", "immobilized", "confused", "enervated",
        "slowed", "invisible",
    ))
    no_flank_conditions = frozenset(("dazed", "staggered", "stunned", "helpless"))
    # Immobilized (M08-143) and inactive (stunned M08-141, helpless M08-142): no move; slowed: 2 (M08-146).
    speed_zero_conditions = frozenset(("immobilized", "stunned", "helpless"))
    slowed_speed = 2
    rule_ids: ClassVar[dict[str, str]] = {
        "area.close": "M08-083", "area.line": "M08-086", "area.effect": "M08-088",
        "area.origin": "M08-089", "area.nearest": "M08-089",
    }

    def parse_action(self, step: Mapping[str, Any]) -> Action:
        return from_step(dict(step))

    def decide_for_scenario(self, state: State, step: Mapping[str, Any]) -> Action | None:
        """``decisions: auto``: the initiative winner chooses to go first (M08-030)."""
        assert isinstance(state, Ddm2008State)
        if state.phase == "choose_first" and step.get("do") != "choose_first" and state.initiative_winner:
            return ChooseFirst(state.current_actor or "", side=state.initiative_winner)
        return None

    def make_template(self, name: str, stats: BaseModel) -> CreatureTemplate:
        """The template of a validated card: the card itself is its ``stats``, and each attack's
        effects are the card's typed ``Effect`` values."""
        assert isinstance(stats, Ddm2008Stats)
        return CreatureTemplate(
            name=name, size=SIZES[stats.size], size_rank=SIZE_RANK[stats.size], size_label=stats.size,
            speed=speed_modes(stats.speed, fly_prefix=True), max_hp=stats.hp,
            attacks=tuple(a.to_attack() for a in stats.attacks),
            stats=stats,
        )

    def worth(self, creature: Creature) -> float:
        """Its point cost: the victory points its foes score for defeating it (M08-154)."""
        return float(card(creature).cost or 1)

    def movements(self, pos: Position, creature: Creature) -> list[Movement]:
        """Walking, flight (M08-052), burrowing (M08-051) and phasing (M08-054), each with the
        minimum-one-square rule (M08-045) unless the speed is 0."""
        phasing = card(creature).abilities.phasing
        out = []
        for mode, budget in self.speeds(pos, creature).items():
            flying = mode == "fly"
            special = flying or mode == "burrow" or phasing
            out.append(Movement(
                mode, budget, ignore_terrain=special, through_walls=mode == "burrow" or phasing,
                flying=flying, min_one_square=budget > 0, over_creatures=special,
            ))
        return out

    def passage(self, pos: Position, mover: Creature, occupant: Creature, move: Movement) -> Passage:
        """Allies are passed, never stopped in (M08-046); enemies block, except under a flyer
        passing a non-flyer (M08-052) or a burrowing or phasing creature (M08-051, M08-054)."""
        if self.allies(mover, occupant):
            return ALLY
        if move.flying and "fly" not in occupant.template.speed:
            return ALLY
        if move.over_creatures and not move.flying:
            return ALLY
        return BLOCKED
