"""Who sees whom (M08-092, M08-129), and combat advantage, which mostly follows from it (M08-108).

Attacks, charges and opportunity attacks ask these before anything is rolled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core import geometry
from skirmish.core.creatures import Creature

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State

CA_CONDITIONS = ("helpless", "stunned", "staggered", "dazed")
"""A target under one of these grants combat advantage to every attacker (M08-108, M08-139..M08-142),
named in this order."""


def in_smoke(state: Ddm2008State, c: Creature) -> bool:
    """Whether any of the creature's squares is smoke (M08-129)."""
    return any("smoke" in state.grid.kind(s).tags for s in c.squares)


def can_see(state: Ddm2008State, a: Creature, b: Creature) -> bool:
    """Line of sight (M08-092); a creature in smoke, or invisible, is unseen by non-adjacent creatures,
    and one in smoke sees nobody beyond its neighbours (M08-129)."""
    if a is b:
        return True
    near = geometry.adjacent(a.squares, b.squares)
    if not near and (in_smoke(state, a) or in_smoke(state, b) or b.has("invisible")):
        return False
    return state.line_of_sight(a, b)


def combat_advantage(state: Ddm2008State, attacker: Creature, target: Creature) -> str | None:
    """Why the attacker has combat advantage, if it has (M08-108): the target cannot see it, it
    flanks (M08-109..M08-111), or the target is dazed, staggered, stunned or helpless."""
    for cond in CA_CONDITIONS:
        if target.has(cond):
            return f"{target.id} is {cond}"
    if not can_see(state, target, attacker) and state.line_of_effect(attacker, target):
        return f"{target.id} cannot see {attacker.id}"
    if state.flanking(attacker, target):
        return f"{attacker.id} flanks {target.id}"
    return None
