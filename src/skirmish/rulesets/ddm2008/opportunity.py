"""Opportunity attacks (M08-113..M08-120): who a move or a ranged or area attack provokes, the
scenario's choice to decline one, and the free basic attack itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core import geometry
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.rulesets.ddm2008.resolve import resolve
from skirmish.rulesets.ddm2008.sight import can_see

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


def provoked_by_leaving(state: Ddm2008State, c: Creature, mode: str, first: bool) -> list[Creature]:
    """Enemies whose opportunity attack leaving the current squares provokes (M08-114, M08-117,
    M08-120; flight provokes non-flyers only on its first square, M08-053)."""
    out = []
    here = c.squares
    for e in state.enemies_of(c):
        if not geometry.adjacent(here, e.squares):
            continue
        if e.id in state.act.oa_taken and c.id == state.active:
            continue
        if mode == "fly" and not first and "fly" not in e.template.speed:
            continue
        if not state.can_react(e) or not can_see(state, e, c):
            continue
        out.append(e)
    return out


def takes_opportunity(state: Ddm2008State, e: Creature, mover: Creature) -> bool:
    """Whether a creature makes an opportunity attack it may make: the scenario's explicit
    ``decisions`` list when its next entry is this creature's, otherwise yes (``auto``)."""
    if state.decisions and state.decisions[0].get("actor") == e.id:
        choice = state.decisions.pop(0).get("do")
        if choice == "decline":
            state.act.oa_taken.add(e.id)
            state.log(Event("decline", f"{e.id} lets {mover.id} go without an opportunity attack", "M08-113",
                            {"actor": e.id, "target": mover.id}))
            return False
    return True


def opportunity_attack(state: Ddm2008State, e: Creature, mover: Creature) -> None:
    """A free basic attack against an adjacent enemy that provoked it (M08-113); once per other
    creature's turn (M08-117), before the provoking move or attack goes on (M08-118, M08-119); melee
    cover does not prevent it (M08-120)."""
    basic = e.template.attacks[0]
    state.act.oa_taken.add(e.id)
    state.log(Event("opportunity", f"{mover.id} provokes an opportunity attack from {e.id}", "M08-113",
                    {"actor": e.id, "target": mover.id}))
    resolve(state, e, basic, mover, opportunity=True)


def provoke_by_attack(state: Ddm2008State, c: Creature) -> None:
    """A ranged or area attack provokes adjacent active enemies (M08-081, M08-087, M08-116)."""
    for e in state.enemies_of(c):
        if not c.on_map:
            return
        if e.id in state.act.oa_taken or not geometry.adjacent(c.squares, e.squares):
            continue
        if state.can_react(e) and can_see(state, e, c) and takes_opportunity(state, e, c):
            opportunity_attack(state, e, c)
