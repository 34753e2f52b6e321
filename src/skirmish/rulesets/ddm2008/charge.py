"""Charge (M08-103..M08-107): an attack action that moves up to speed to the nearest square from
which the charger can attack, then makes one melee attack at +1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core import geometry
from skirmish.core.coords import Coord, footprint
from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.core.pathing import Reach
from skirmish.errors import IllegalActionError
from skirmish.rulesets.ddm2008.actions import Action, Charge
from skirmish.rulesets.ddm2008.attack import attack_allowed, refuse_attack
from skirmish.rulesets.ddm2008.movement import can_move, speed, walk
from skirmish.rulesets.ddm2008.resolve import resolve
from skirmish.rulesets.ddm2008.sight import can_see

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


def charge_landings(state: Ddm2008State, c: Creature, t: Creature, spec: AttackSpec,
                    reach: Reach | None = None) -> tuple[list[Coord], Reach]:
    """The nearest squares from which the charger can attack the target, if at least 2 squares away
    (M08-105; Decisions: a target two squares away cannot be charged); ``reach`` is where the charger
    can move now, if already worked out."""
    if reach is None:
        reach = state.reach(c)
    best: int | None = None
    found: list[Coord] = []
    policy = state.ruleset.policy
    r, size = spec.reach, c.size
    xs = [x for x, _ in t.squares]
    ys = [y for _, y in t.squares]
    # Only squares whose footprint lies within ``r`` of the target on both axes can be in reach; they
    # are taken row by row, as ``reach`` orders squares of one cost.
    box = ((x, y) for y in range(min(ys) - r - size + 1, max(ys) + r + 1)
           for x in range(min(xs) - r - size + 1, max(xs) + r + 1))
    for sq in box:
        if sq not in reach:
            continue
        fp = footprint(sq, size)
        if geometry.direct_distance(policy, fp, t.squares) > r:
            continue  # counting round walls is never shorter than the direct count
        d = geometry.distance(state.grid, policy, fp, t.squares)
        if d is None or d > spec.reach or d == 0:
            continue
        cost = reach.cost(sq)
        if best is None or cost < best:
            best, found = cost, [sq]
        elif cost == best:
            found.append(sq)
    found = [sq for sq in found if len(reach.path(sq)) >= 2]
    return found, reach


def charge_actions(state: Ddm2008State, c: Creature) -> list[Action]:
    """Every charge now: each enemy in sight, with each melee attack the creature may use, to each of
    its landing squares (M08-103..M08-105)."""
    if state.act.attack_used or state.act.no_actions or not can_move(state, c) or speed(state, c) <= 0:
        return []
    out: list[Action] = []
    melee = [a for a in c.template.attacks if a.kind == "melee" and not attack_allowed(state, c, a)]
    reach = state.reach(c) if melee else None
    for t in state.enemies_of(c):
        if t.status != "active":
            continue
        found = [(spec, charge_landings(state, c, t, spec, reach)[0]) for spec in melee]
        if any(landings for _, landings in found) and can_see(state, c, t):  # sight last: it costs most
            out.extend(Charge(c.id, target=t.id, to=sq, attack=spec.name)
                       for spec, landings in found for sq in landings)
    return out


def charge(state: Ddm2008State, action: Charge) -> None:
    """Charge (M08-103..M08-106): an attack action; sight to the target; move up to speed, at least 2
    squares, to the nearest square from which it can attack; one melee attack at +1; no move after.

    Raises:
        IllegalActionError: the attack action is spent, the charger cannot move or see the target, the
            target is not an active enemy, no melee attack may be used, or ``to`` is not a landing square.
    """
    c = state.creature(action.actor)
    t = state.creature(action.target)
    if state.act.attack_used:
        raise IllegalActionError(f"{c.id} has used its attack action", rule="M08-103")
    if not can_move(state, c) or speed(state, c) <= 0:
        raise IllegalActionError(f"{c.id} cannot move, so cannot charge", rule="M08-103")
    if state.ruleset.allies(c, t) or t.status != "active":
        raise IllegalActionError(f"{t.id} is not an enemy that can be charged", rule="M08-064")
    if not can_see(state, c, t):
        raise IllegalActionError(f"{c.id} cannot see {t.id}, so cannot charge it", rule="M08-104")
    spec = c.template.attack(action.attack) if action.attack else next(
        (a for a in c.template.attacks if a.kind == "melee"), None)
    if spec is None or spec.kind != "melee":
        raise IllegalActionError(f"{c.id} charges with a melee attack; {action.attack or 'it has none'}",
                                 rule="M08-103")
    why = attack_allowed(state, c, spec)
    if why:
        raise refuse_attack(c, why)
    landings, reach = charge_landings(state, c, t, spec)
    to = action.to if action.to != (-1, -1) else (landings[0] if landings else None)
    if to is None or to not in landings:
        raise IllegalActionError(f"{c.id} must end its charge on the nearest square from which it can attack "
                                 f"{t.id}, at least 2 squares away ({[list(s) for s in landings] or 'none'})",
                                 rule="M08-105")
    state.act.attack_used = True
    state.act.no_more_moves = True
    state.act.no_more_moves_rule = "M08-106"
    state.act.moved = True
    if (c.id, spec.name) in state.uses:
        state.uses[(c.id, spec.name)] -= 1
    state.log(Event("charge", f"{c.id} charges {t.id}, moving to {list(to)}", "M08-103",
                    {"actor": c.id, "target": t.id, "to": list(to)}))
    walk(state, c, reach.path(to))
    if c.on_map and t.on_map and c.at == to:
        resolve(state, c, spec, t, charge=True)
