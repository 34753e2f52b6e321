"""The attack action (M08-063..M08-091): which attacks a creature may use, their targets and area
origins, and playing one, champion powers on it included.

Each target is then rolled against by ``resolve``.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from skirmish.core import areas, geometry
from skirmish.core.coords import Coord, centre
from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.errors import IllegalActionError, InvalidActionError
from skirmish.rulesets.ddm2008.actions import Action, Attack
from skirmish.rulesets.ddm2008.conditions import BASIC_ONLY
from skirmish.rulesets.ddm2008.opportunity import provoke_by_attack
from skirmish.rulesets.ddm2008.powers import ally_hit_powers, own_attack_powers, power_amount, spend_champion
from skirmish.rulesets.ddm2008.resolve import CoverOrigin, resolve
from skirmish.rulesets.ddm2008.sight import can_see

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State


# Which attacks, against whom.

def attack_allowed(state: Ddm2008State, c: Creature, spec: AttackSpec) -> str | None:
    """Why this creature may not use this attack now, or None (M08-069, M08-140, M08-144)."""
    if c.template.attacks and spec is not c.template.attacks[0] and any(c.has(x) for x in BASIC_ONLY):
        return "a staggered or confused creature may use only its basic attack"
    if state.uses.get((c.id, spec.name), 1) <= 0:
        return f"{spec.name} has no uses left"
    return None


def refuse_attack(c: Creature, why: str) -> IllegalActionError:
    """The error for an attack ``attack_allowed`` forbids: basic attacks only while staggered (M08-140)
    or confused (M08-144), or no uses left (M08-069)."""
    if "basic" in why:
        return IllegalActionError(why, rule="M08-144" if c.has("confused") else "M08-140")
    return IllegalActionError(why, rule="M08-069")


def valid_targets(state: Ddm2008State, c: Creature, spec: AttackSpec) -> list[Creature]:
    """Creatures the attack may target directly (M08-080..M08-082): enemies only (M08-064)."""
    enemies = [e for e in state.enemies_of(c) if e.status == "active"]
    if spec.range == "nearest":
        return state.nearest(c, [e for e in enemies if can_see(state, c, e)])
    return [e for e in enemies if in_reach(state, c, spec, e)]


def in_reach(state: Ddm2008State, c: Creature, spec: AttackSpec, e: Creature) -> bool:
    """Whether a direct attack without the "nearest" rule may target ``e``: seen and within range
    (M08-080..M08-082)."""
    if spec.range != "sight":
        if geometry.direct_distance(state.ruleset.policy, c.squares, e.squares) > spec.reach:
            return False  # counting round walls is never shorter than the direct count
        d = state.distance(c, e)  # before sight: counting squares is much cheaper than tracing lines
        if d is None or d > spec.reach:
            return False
    return can_see(state, c, e)


def attack_actions(state: Ddm2008State, c: Creature) -> list[Action]:
    """Attack actions now: every target set for direct attacks, every area origin that affects a
    creature for close and area attacks (M08-063, M08-072, M08-083..M08-091)."""
    if state.act.attack_used or state.act.no_actions:
        return []
    out: list[Action] = []
    powers = own_attack_powers(state, c)
    for spec in c.template.attacks:
        if attack_allowed(state, c, spec):
            continue
        choices = [None, *powers] if spec.area is None else [None]
        for targets, at in _target_choices(state, c, spec):
            for power in choices:
                out.append(Attack(c.id, attack=spec.name, targets=targets, at=at, power=power))
                if power is None:
                    for support in ally_hit_powers(state, c):
                        out.append(Attack(c.id, attack=spec.name, targets=targets, at=at, power=support))
    return out


def _target_choices(state: Ddm2008State, c: Creature, spec: AttackSpec) -> list[tuple[tuple[str, ...], Coord | None]]:
    """(targets, origin) choices: every set of up to ``targets`` valid targets of a direct attack
    (M08-072); a burst from the attacker, or each origin square of a cone, line or radius, that
    catches a creature other than the attacker (M08-083..M08-089)."""
    out: list[tuple[tuple[str, ...], Coord | None]] = []
    if spec.area is None:
        targets = sorted(t.id for t in valid_targets(state, c, spec))
        for n in range(1, min(spec.targets, len(targets)) + 1):
            out.extend((combo, None) for combo in itertools.combinations(targets, n))
        return out
    shape = spec.area.shape
    if shape == "burst":
        return [((), None)] if _safe_area(state, c, spec, None) else []
    candidates: set[Coord] = set()
    if shape == "cone":
        x0, y0 = c.at
        n = c.size
        candidates = {(x0 + dx, y0 + dy) for dx in (-1, n) for dy in (-1, n)}
        candidates |= {(x0 + n // 2, y0 - 1), (x0 + n // 2, y0 + n), (x0 - 1, y0 + n // 2), (x0 + n, y0 + n // 2)}
    else:
        for e in state.on_map():
            if e is c:
                continue
            for s in e.squares:
                candidates.add(s)
                if shape == "radius":
                    candidates.update(_ring(s))
    for at in sorted(candidates):
        if state.grid.inside(at) and _safe_area(state, c, spec, at):
            out.append(((), at))
    return out


def _ring(s: Coord) -> list[Coord]:
    """The eight squares around ``s``."""
    return [(s[0] + dx, s[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def _safe_area(state: Ddm2008State, c: Creature, spec: AttackSpec, at: Coord | None) -> list[str]:
    """The creatures other than the attacker an area from ``at`` catches; none where the origin is
    not allowed (M08-083..M08-089)."""
    try:
        hit = state.area(c, spec, at)
    except (IllegalActionError, InvalidActionError):
        return []
    return [h for h in hit if h != c.id]


# Playing an attack action.

def attack(state: Ddm2008State, action: Attack) -> None:
    """An attack action (M08-063): check it, provoke (M08-116, M08-119), then roll each target.

    Raises:
        IllegalActionError: the attack action is spent, the attack not allowed now, a target or
            origin not valid, or a champion power not usable on it.
        InvalidActionError: the creature has no such attack.
    """
    c = state.creature(action.actor)
    spec = c.template.attack(action.attack)
    if spec is None:
        raise InvalidActionError(f"{c.id} has no attack {action.attack!r}")
    if state.act.attack_used:
        raise IllegalActionError(f"{c.id} has used its attack action this turn", rule="M08-036")
    why = attack_allowed(state, c, spec)
    if why:
        raise refuse_attack(c, why)
    own_power, support = _check_attack_power(state, c, action.power)
    targets = _resolve_targets(state, c, spec, action)
    # The action is legal: spend it.
    state.act.attack_used = True
    if state.act.moved:
        state.act.no_more_moves = True  # moved, then attacked: no more moving (M08-039)
    if (c.id, spec.name) in state.uses:
        state.uses[(c.id, spec.name)] -= 1
    if own_power:
        spend_champion(state, c, own_power)
    if spec.kind in ("ranged", "area"):
        provoke_by_attack(state, c)
        if not c.on_map:
            return
    state.log(Event("attack_action", f"{c.id} uses {spec.name}" + (
        f" on {', '.join(t.id for t in targets)}" if targets else " and hits nobody"), "M08-063",
        {"actor": c.id, "with": spec.name, "targets": [t.id for t in targets]}))
    origins = _area_origins(c, spec, action)
    bonus_roll = power_amount(c, own_power) if own_power else 0
    for t in targets:
        if not t.on_map or not c.on_map:
            continue
        resolve(state, c, spec, t, roll_bonus=bonus_roll, support=support, origins=origins)


def _check_attack_power(state: Ddm2008State, c: Creature, power: tuple[str, str] | None
                        ) -> tuple[str | None, tuple[str, str] | None]:
    """The attacker's own champion power on this attack, or an ally's that adds damage (M08-150, M08-151).

    Raises:
        IllegalActionError: the power cannot be used on this attack now.
    """
    if power is None:
        return None, None
    champ_id, name = power
    if champ_id == c.id and (champ_id, name) in own_attack_powers(state, c):
        return name, None
    if (champ_id, name) in ally_hit_powers(state, c):
        return None, (champ_id, name)
    raise IllegalActionError(f"{champ_id} cannot use {name} on this attack now (uses, trigger, range, or "
                             "once per creature's turn)", rule="M08-151")


def _resolve_targets(state: Ddm2008State, c: Creature, spec: AttackSpec, action: Attack) -> list[Creature]:
    """The creatures the attack action names or its area covers (M08-064, M08-072, M08-080..M08-089).

    Raises:
        IllegalActionError: no target, too many, one twice, an ally, or one out of range or sight.
    """
    if spec.area is not None:
        ids = state.area(c, spec, action.at, action.origin)
        return [state.creatures[i] for i in ids if i != c.id]
    if not action.targets:
        raise IllegalActionError(f"{spec.name} needs a target", rule="M08-063")
    if len(action.targets) > spec.targets:
        raise IllegalActionError(f"{spec.name} has at most {spec.targets} targets", rule="M08-072")
    if len(set(action.targets)) != len(action.targets):
        raise IllegalActionError("each target is attacked once", rule="M08-072")
    valid = {t.id for t in valid_targets(state, c, spec)}
    out = []
    for tid in action.targets:
        t = state.creature(tid)
        if state.ruleset.allies(c, t):
            raise IllegalActionError(f"{c.id} cannot attack its ally {tid}", rule="M08-064")
        if tid not in valid:
            rule = {"melee": "M08-080", "ranged": "M08-082"}.get(spec.kind, "M08-082")
            raise IllegalActionError(f"{tid} is not a valid target of {spec.name} (range {spec.range}, sight)",
                                     rule=rule)
        out.append(t)
    return out


def _area_origins(c: Creature, spec: AttackSpec, action: Attack) -> CoverOrigin | None:
    """Where cover against a close or area attack is traced from (M08-101)."""
    if spec.area is None:
        return None
    shape = spec.area.shape
    if shape == "burst":
        return CoverOrigin(squares=c.squares)
    if shape == "radius" and action.at is not None:
        return CoverOrigin(squares=(action.at,))
    if shape in ("cone", "line") and action.at is not None:
        if shape == "line" and action.origin is not None:
            return CoverOrigin(points=((action.origin, None),))
        point, owner = areas.nearest_corner(c.squares, centre(action.at))
        return CoverOrigin(points=((point, owner),))
    return None
