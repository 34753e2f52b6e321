"""ddm2008 attacks, damage, conditions and powers (M08-060..M08-151), and victory-point scoring.

Functions here take the game state and act on it; each rule's id is in the docstring of the
function that applies it, and in the ``rule`` of the events it logs.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

from skirmish.core import geometry
from skirmish.core.coords import Coord, centre, footprint
from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Condition, Creature, Duration
from skirmish.core.events import Event
from skirmish.errors import IllegalActionError, InvalidActionError
from skirmish.rulesets.ddm2008.actions import Action, Attack, Charge, UsePower

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State

CA_CONDITIONS = frozenset(("dazed", "staggered", "stunned", "helpless"))
"""A target under one of these grants combat advantage to every attacker (M08-108, M08-139..M08-142)."""
BASIC_ONLY = frozenset(("staggered", "confused"))
"""Conditions that allow only the basic attack (M08-140, M08-144)."""
NO_CHAMPION_POWERS = frozenset(("staggered", "confused", "stunned", "helpless"))


# Hit points.

def round5(n: int) -> int:
    """Round down to a multiple of 5 (M08-062)."""
    return (n // 5) * 5


def is_bloodied(c: Creature) -> bool:
    """At or below half its hit points, rounded down to a multiple of 5 (M08-061, M08-062)."""
    return c.hp <= round5(c.template.max_hp // 2)


def stats(c: Creature) -> dict[str, Any]:
    return c.template.stats  # type: ignore[return-value]


def defense(c: Creature, vs: str) -> int:
    """AC, or DEF for attacks against Fort, Ref or Will (M08-005, M08-065)."""
    s = stats(c)
    return int(s.get("ac", 10)) if vs == "ac" else int(s.get("defense", 10))


def immune(c: Creature, what: str) -> bool:
    return what in (stats(c).get("abilities") or {}).get("immune", [])


# Seeing and advantage.

def in_smoke(state: Ddm2008State, c: Creature) -> bool:
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
    for cond in ("helpless", "stunned", "staggered", "dazed"):
        if target.has(cond):
            return f"{target.id} is {cond}"
    if not can_see(state, target, attacker) and state.line_of_effect(attacker, target):
        return f"{target.id} cannot see {attacker.id}"
    if state.flanking(attacker, target):
        return f"{attacker.id} flanks {target.id}"
    return None


# Choosing attacks.

def attack_allowed(state: Ddm2008State, c: Creature, spec: AttackSpec) -> str | None:
    """Why this creature may not use this attack now, or None (M08-069, M08-140, M08-144)."""
    if c.template.attacks and spec is not c.template.attacks[0] and any(c.has(x) for x in BASIC_ONLY):
        return "a staggered or confused creature may use only its basic attack"
    if state.uses.get((c.id, spec.name), 1) <= 0:
        return f"{spec.name} has no uses left"
    return None


def _basic_only_rule(c: Creature) -> str:
    return "M08-144" if c.has("confused") else "M08-140"


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
    creature for close and area attacks."""
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
    if spec.area is None:
        targets = sorted(t.id for t in valid_targets(state, c, spec))
        out = []
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
    out = []
    for at in sorted(candidates):
        if state.grid.inside(at) and _safe_area(state, c, spec, at):
            out.append(((), at))
    return out


def _ring(s: Coord) -> list[Coord]:
    return [(s[0] + dx, s[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def _safe_area(state: Ddm2008State, c: Creature, spec: AttackSpec, at: Coord | None) -> list[str]:
    try:
        hit = state.area(c, spec, at)
    except (IllegalActionError, InvalidActionError):
        return []
    return [h for h in hit if h != c.id]


# Attack actions.

def attack(state: Ddm2008State, action: Attack) -> None:
    """An attack action (M08-063): check it, provoke (M08-116, M08-119), then roll each target."""
    c = state.creature(action.actor)
    spec = c.template.attack(action.attack)
    if spec is None:
        raise InvalidActionError(f"{c.id} has no attack {action.attack!r}")
    if state.act.attack_used:
        raise IllegalActionError(f"{c.id} has used its attack action this turn", rule="M08-036")
    why = attack_allowed(state, c, spec)
    if why:
        raise IllegalActionError(why, rule=_basic_only_rule(c) if "basic" in why else "M08-069")
    own_power, support = _check_attack_power(state, c, action.power)
    targets = _resolve_targets(state, c, spec, action)
    # The action is legal: spend it.
    state.act.attack_used = True
    if state.act.moved:
        state.act.no_more_moves = True  # moved, then attacked: no more moving (M08-039)
    if (c.id, spec.name) in state.uses:
        state.uses[(c.id, spec.name)] -= 1
    if own_power:
        _spend_champion(state, c, own_power)
    if spec.kind in ("ranged", "area"):
        provoke_by_attack(state, c)
        if not c.on_map:
            return
    state.log(Event("attack_action", f"{c.id} uses {spec.name}" + (
        f" on {', '.join(t.id for t in targets)}" if targets else " and hits nobody"), "M08-063",
        {"actor": c.id, "with": spec.name, "targets": [t.id for t in targets]}))
    origins = _area_origins(state, c, spec, action)
    bonus_roll = power_amount(c, own_power) if own_power else 0
    for t in targets:
        if not t.on_map or not c.on_map:
            continue
        resolve(state, c, spec, t, roll_bonus=bonus_roll, support=support, origins=origins)


def _check_attack_power(state: Ddm2008State, c: Creature, power: tuple[str, str] | None
                        ) -> tuple[str | None, tuple[str, str] | None]:
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
    if spec.area is not None:
        try:
            ids = state.area(c, spec, action.at, action.origin)
        except IllegalActionError:
            raise
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


def _area_origins(state: Ddm2008State, c: Creature, spec: AttackSpec, action: Attack) -> Any:
    """Where cover against a close or area attack is traced from (M08-101)."""
    if spec.area is None:
        return None
    shape = spec.area.shape
    if shape == "burst":
        return ("square", c.squares)
    if shape == "radius" and action.at is not None:
        return ("square", [action.at])
    if shape in ("cone", "line") and action.at is not None:
        from skirmish.core import areas

        if shape == "line" and action.origin is not None:
            return ("point", [(action.origin, None)])
        point, owner = areas.nearest_corner(c.squares, centre(action.at))
        return ("point", [(point, owner)])
    return None


def resolve(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, *, roll_bonus: int = 0,
            charge: bool = False, support: tuple[str, str] | None = None, origins: Any = None,
            opportunity: bool = False) -> bool:
    """One attack roll against one target and its damage and effects (M08-071..M08-075,
    M08-093, M08-108, M08-123, M08-128, M08-142). Returns whether it hit."""
    state.noisy = True
    mods: list[tuple[str, int]] = []
    if roll_bonus:
        mods.append(("champion power", roll_bonus))
    if charge:
        mods.append(("charge", 1))
    ca = combat_advantage(state, c, t)
    if ca:
        mods.append((f"combat advantage: {ca}", 2))
    if any("sacred_circle" in state.grid.kind(s).tags for s in c.squares):
        mods.append(("sacred circle", 2))
    helpless = t.has("helpless")
    if helpless and spec.kind != "melee":
        mods.append((f"{t.id} is helpless", 4))
    degree = _cover(state, c, t, spec, origins)
    if degree:
        mods.append(("cover", -2))
    roll = state.roll(20, f"{spec.name} of {c.id} against {t.id}", "M08-071")
    total = roll + spec.bonus + sum(v for _, v in mods)
    against = defense(t, spec.vs)
    blood_rock = spec.kind == "melee" and any("blood_rock" in state.grid.kind(s).tags for s in c.squares)
    crit = roll == 20 or (blood_rock and roll >= 19) or (helpless and spec.kind == "melee")
    if crit:
        hit = True
    elif roll == 1:
        hit = False
    else:
        hit = total >= against
    rule = "M08-073" if roll == 20 else ("M08-123" if crit and blood_rock else (
        "M08-142" if crit else ("M08-075" if roll == 1 else "M08-071")))
    parts = "".join(f" {'+' if v >= 0 else '-'} {abs(v)} ({why})" for why, v in mods)
    state.log(Event("attack", f"{c.id} {'charges ' if charge else ''}attacks {t.id} with {spec.name}: "
                              f"{roll} + {spec.bonus}{parts} = {total} vs {spec.vs.upper()} {against}, "
                              f"{'critical hit' if crit and hit else ('hit' if hit else 'miss')}", rule,
                    {"actor": c.id, "target": t.id, "with": spec.name, "roll": roll, "total": total,
                     "against": against, "hit": hit, "critical": crit and hit, "opportunity": opportunity}))
    if not hit:
        return False
    extra: list[tuple[str, int]] = []
    for p in stats(c).get("special_powers", []):
        if p["kind"] == "sneak_attack" and ca:
            extra.append((p["name"], int(p["amount"])))
        if p["kind"] == "charge_damage" and charge:
            extra.append((p["name"], int(p["amount"])))
    if support is not None:
        champ = state.creatures[support[0]]
        _spend_champion(state, champ, support[1])
        extra.append((f"{support[0]}'s {support[1]}", power_amount(champ, support[1])))
    crit_counts = crit and (blood_rock or not immune(t, "critical_hits"))
    if spec.damage is not None:
        deal_attack_damage(state, c, spec, t, crit_counts, extra)
    if t.on_map:
        apply_effects(state, c, spec, t)
    return True


def _cover(state: Ddm2008State, c: Creature, t: Creature, spec: AttackSpec, origins: Any) -> int:
    """Cover of the target against this attack (M08-093..M08-101)."""
    kind = spec.kind
    if origins is None:
        return state.cover_degree(c, t, kind)
    how, where = origins
    if how == "square":
        blockers = state.cover_blockers(c, t, kind)
        return geometry.cover(state.grid, state.ruleset.policy, where, t.squares, kind, blockers)
    return state.cover_degree(c, t, kind, origins=where)


def deal_attack_damage(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, crit: bool,
                       extra: list[tuple[str, int]]) -> None:
    """Damage on a hit (M08-066): double on a critical hit, the "+" bonus too (M08-074); half when
    the attacker is enervated (M08-145); extra damage from powers stacks (M08-077); then the
    target's resistances, vulnerabilities and immunities by type (M08-010)."""
    assert spec.damage is not None
    result = state.dice.roll_expr(spec.damage, f"damage of {c.id}'s {spec.name}")
    for r in state.dice.log[-len(spec.damage.dice()):] if spec.damage.dice() else []:
        state.log(Event("roll", f"d{r.sides} for {r.label}: {r.result}", "M08-066",
                        {"die": r.sides, "result": r.result, "label": r.label, "forced": r.forced}))
    by_type = {k: v for k, v in result.by_type.items()}
    if crit:
        by_type = {k: v * 2 for k, v in by_type.items()}
    if c.has("enervated"):
        if state.opts.enervated_rounding == "five":
            by_type = {k: round5(v // 2) for k, v in by_type.items()}
        else:
            by_type = {k: v // 2 for k, v in by_type.items()}
    first = next(iter(by_type), None)
    for _name, amount in extra:
        by_type[first] = by_type.get(first, 0) + amount
    total = take_damage(state, t, by_type, source=c)
    why = "critical hit, doubled" if crit else "hit"
    if extra:
        why += "; " + ", ".join(f"+{n} {name}" for name, n in extra)
    state.log(Event("damage", f"{t.id} takes {total} damage ({why}); {max(t.hp, 0)} HP left", "M08-074" if crit
                    else "M08-066", {"target": t.id, "amount": total, "hp": t.hp}))
    after_damage(state, t, c)


def take_damage(state: Ddm2008State, t: Creature, by_type: dict[str | None, int], source: Creature | None) -> int:
    """Apply typed damage through resistances, vulnerabilities and immunities; return what was taken."""
    ab = stats(t).get("abilities") or {}
    resist = ab.get("resist") or {}
    vulnerable = ab.get("vulnerable") or {}
    immunities = ab.get("immune") or []
    total = 0
    for dtype, amount in by_type.items():
        if dtype is not None and dtype in immunities:
            continue
        amount -= max(resist.get(dtype, 0) if dtype else 0, resist.get("all", 0))
        amount += vulnerable.get(dtype, 0) if dtype else 0
        total += max(0, amount)
    if total > 0:
        t.hp -= total
        if source is not None and not state.ruleset.allies(source, t):
            state.noisy = True
    return total


def after_damage(state: Ddm2008State, t: Creature, source: Creature | None) -> None:
    """Bloodied (M08-061), recharge when first bloodied (M08-070), destruction at 0 (M08-060)."""
    if t.hp <= 0 and t.on_map:
        destroy(state, t, "reduced to 0 hit points", "M08-060")
        return
    if is_bloodied(t) and t.id not in state.bloodied:
        state.bloodied.add(t.id)
        state.log(Event("bloodied", f"{t.id} is bloodied ({t.hp} HP, half is {round5(t.template.max_hp // 2)})",
                        "M08-061", {"creature": t.id}))
        for a in t.template.attacks:
            if a.extra.get("recharge") == "bloodied" and state.uses.get((t.id, a.name), 1) == 0:
                state.uses[(t.id, a.name)] = 1
                state.log(Event("recharge", f"{t.id}'s {a.name} recharges", "M08-070", {"creature": t.id}))


def destroy(state: Ddm2008State, t: Creature, why: str, rule: str) -> None:
    """Remove a destroyed creature and score it for the other side (M08-004, M08-154, M08-157)."""
    true_side = t.marks.get("true_side")
    if true_side:
        t.side = true_side  # a creature controlled by the opponent reverts before VP (GAP-M08-3)
    t.hp = 0  # destroyed and removed: what was left below 0 does not matter (M08-060)
    t.status = "dead"
    state.log(Event("destroyed", f"{t.id} is destroyed ({why})", rule, {"creature": t.id}))
    scenario = state.opts.scenario
    for side in state.vp:
        if side == t.side:
            continue
        if scenario in ("bounty", "combined"):
            state.award(side, max(1, 5 * state.opts.points // 200), f"{t.id} destroyed", "M08-157")
        else:
            state.award(side, int(stats(t).get("cost", 0)), f"{t.id} destroyed, cost", "M08-154")


# Effects and conditions.

def apply_effects(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature) -> None:
    """The hit's effects, after its damage (M08-067): conditions with durations (M08-068,
    M08-134..M08-137), forced movement (M08-126), ongoing damage."""
    for e in spec.effects:
        assert isinstance(e, dict)
        if e.get("condition"):
            add_condition(state, t, e["condition"], e.get("duration", "end_of_next_turn"), c)
        elif e.get("ongoing"):
            name = f"ongoing_{e['ongoing']}" + (f"_{e['ongoing_type']}" if e.get("ongoing_type") else "")
            add_condition(state, t, name, "save_ends", c)
        else:
            for kind in ("push", "pull", "slide"):
                if e.get(kind):
                    forced_move(state, c, t, kind, int(e[kind]), spec)
        if not t.on_map:
            return


def add_condition(state: Ddm2008State, t: Creature, name: str, duration: str, source: Creature) -> None:
    """Put a condition on a creature; a duplicate does not stack (M08-078)."""
    if immune(t, name):
        state.log(Event("immune", f"{t.id} is immune to {name}", "M08-010", {"creature": t.id}))
        return
    owner: str | None = t.id
    skip = 0
    if duration == "end_of_next_turn" and state.active == t.id:
        skip = 1  # during its own turn: lasts until the end of its next one (M08-068)
    if duration == "end_of_controller_turn":
        owner = source.side
        skip = 1 if state.turn_side == source.side else 0
    if any(x.name == name and x.duration.kind == duration for x in t.conditions):
        return
    t.conditions.append(Condition(name, Duration(duration, owner, skip), source.id))  # type: ignore[arg-type]
    rule = {"save_ends": "M08-137", "end_of_round": "M08-136", "end_of_controller_turn": "M08-135",
            "end_of_battle": "M08-137"}.get(duration, "M08-068")
    state.log(Event("condition", f"{t.id} is {name.replace('_', ' ')} ({duration.replace('_', ' ')})", rule,
                    {"creature": t.id, "condition": name, "duration": duration}))


def forced_move(state: Ddm2008State, c: Creature, t: Creature, kind: str, n: int, spec: AttackSpec) -> None:
    """Push, pull or slide (M08-115: no opportunity attacks). The attacker's choice is made for it:
    into a pit when one can be reached (then the second attack of M08-126), otherwise as far as it
    goes in the push or pull direction; a slide that reaches no pit stays put."""
    path = _forced_path(state, c, t, kind, n)
    if not path:
        return
    state.log(Event("forced_move", f"{c.id} {kind}es {t.id} to {list(path[-1])}", "M08-115",
                    {"actor": c.id, "target": t.id, "kind": kind, "to": list(path[-1])}))
    t.at = path[-1]
    if any("pit" in state.grid.kind(s).tags for s in t.squares) and "fly" not in t.template.speed:
        pit_attack(state, c, t, spec)


def _forced_path(state: Ddm2008State, c: Creature, t: Creature, kind: str, n: int) -> list[Coord]:
    occupancy = state.occupancy()

    def free(at: Coord) -> bool:
        for s in footprint(at, t.size):
            if not state.grid.inside(s):
                return False
            k = state.grid.kind(s)
            if k.entry == "none" or not (k.occupiable or "pit" in k.tags):
                return False
            o = occupancy.get(state.grid.index(s))
            if o is not None and o is not t:
                return False
        return True

    def dist(at: Coord) -> int:
        return geometry.direct_distance(state.ruleset.policy, c.squares, footprint(at, t.size))

    best: list[Coord] = []
    frontier: list[list[Coord]] = [[]]
    for _ in range(n):
        nxt = []
        for path in frontier:
            here = path[-1] if path else t.at
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
                sq = (here[0] + dx, here[1] + dy)
                if sq in path or sq == t.at or not free(sq):
                    continue
                if kind == "push" and dist(sq) <= dist(here):
                    continue
                if kind == "pull" and dist(sq) >= dist(here):
                    continue
                nxt.append([*path, sq])
        for path in nxt:
            if any("pit" in state.grid.kind(s).tags for s in footprint(path[-1], t.size)):
                return path
        if not nxt:
            break
        frontier = nxt[:64]
        if kind != "slide":
            best = frontier[0]
    if best and any("pit" in state.grid.kind(s).tags for s in footprint(best[-1], t.size)):
        return best
    return [] if kind == "slide" else best


def pit_attack(state: Ddm2008State, c: Creature, t: Creature, spec: AttackSpec) -> None:
    """Forced into a pit: a second attack; a hit destroys the target, a miss puts it on the nearest
    legal square; a Large target gets +1 for each of its squares outside the pit (M08-126, M08-127)."""
    outside = sum(1 for s in t.squares if "pit" not in state.grid.kind(s).tags)
    roll = state.roll(20, f"pit attack of {c.id} against {t.id}", "M08-126")
    against = defense(t, spec.vs) + outside
    total = roll + spec.bonus
    hit = roll == 20 or (roll != 1 and total >= against)
    state.log(Event("attack", f"{c.id}'s second attack to drop {t.id} into the pit: {roll} + {spec.bonus} = "
                              f"{total} vs {against}{' (+' + str(outside) + ' for squares outside)' if outside else ''}"
                              f", {'hit' if hit else 'miss'}", "M08-126",
                    {"actor": c.id, "target": t.id, "roll": roll, "total": total, "against": against, "hit": hit}))
    if hit:
        destroy(state, t, "thrown into a pit", "M08-126")
        return
    place_nearest_legal(state, t)


def place_nearest_legal(state: Ddm2008State, t: Creature) -> None:
    """Its owner puts it on the nearest legal square (M08-044); the engine picks the nearest, then the
    top-left-most."""
    occupancy = state.occupancy()
    best = None
    for sq in state.grid.squares():
        ok = True
        for s in footprint(sq, t.size):
            if not state.grid.inside(s):
                ok = False
                break
            k = state.grid.kind(s)
            o = occupancy.get(state.grid.index(s))
            if not k.occupiable or k.entry != "all" or (o is not None and o is not t):
                ok = False
                break
        if not ok:
            continue
        d = geometry.direct_distance(state.ruleset.policy, t.squares, footprint(sq, t.size))
        if best is None or (d, sq[1], sq[0]) < best[0]:
            best = ((d, sq[1], sq[0]), sq)
    if best is not None:
        t.at = best[1]
        state.log(Event("move", f"{t.id} is put on the nearest legal square, {list(t.at)}", "M08-044",
                        {"actor": t.id, "to": list(t.at)}))


# Opportunity attacks.

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
        if state.can_react(e) and can_see(state, e, c) and state.takes_opportunity(e, c):
            opportunity_attack(state, e, c)


# Charge.

def charge_landings(state: Ddm2008State, c: Creature, t: Creature, spec: AttackSpec,
                    reach: Any = None) -> tuple[list[Coord], Any]:
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
    if state.act.attack_used or state.act.no_actions or not state.can_move(c) or state.speed(c) <= 0:
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
    squares, to the nearest square from which it can attack; one melee attack at +1; no move after."""
    c = state.creature(action.actor)
    t = state.creature(action.target)
    if state.act.attack_used:
        raise IllegalActionError(f"{c.id} has used its attack action", rule="M08-103")
    if not state.can_move(c) or state.speed(c) <= 0:
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
        raise IllegalActionError(why, rule=_basic_only_rule(c) if "basic" in why else "M08-069")
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
    state.walk(c, reach.path(to))
    if c.on_map and t.on_map and c.at == to:
        resolve(state, c, spec, t, charge=True)


# Powers.

def power_of(c: Creature, kind: str, name: str) -> dict[str, Any] | None:
    for p in stats(c).get(kind, []):
        if p["name"] == name:
            return p  # type: ignore[no-any-return]
    return None


def power_amount(c: Creature, name: str) -> int:
    p = power_of(c, "champion_powers", name)
    return int(p["amount"]) if p else 0


def champion_ready(state: Ddm2008State, champ: Creature, name: str) -> bool:
    """A champion may use this power now: enough uses (M08-150), not used this creature's turn
    (M08-151), able to act (M08-140, M08-144; a dazed champion only on its own turn, M08-139)."""
    p = power_of(champ, "champion_powers", name)
    if p is None or not champ.on_map or champ.status != "active":
        return False
    if any(champ.has(x) for x in NO_CHAMPION_POWERS):
        return False
    if champ.has("dazed") and state.active != champ.id:
        return False
    if (champ.id + ":" + name) in state.act.champion_used:
        return False
    return state.uses.get((champ.id, "champion"), 0) >= int(p.get("cost", 1))


def _spend_champion(state: Ddm2008State, champ: Creature, name: str) -> None:
    p = power_of(champ, "champion_powers", name)
    assert p is not None
    state.uses[(champ.id, "champion")] -= int(p.get("cost", 1))
    state.act.champion_used.add(champ.id + ":" + name)
    state.log(Event("champion_power", f"{champ.id} uses {name} ({state.uses[(champ.id, 'champion')]} uses left)",
                    "M08-150", {"actor": champ.id, "power": name}))


def own_attack_powers(state: Ddm2008State, c: Creature) -> list[tuple[str, str]]:
    return [(c.id, p["name"]) for p in stats(c).get("champion_powers", [])
            if p["trigger"] == "own_attack" and champion_ready(state, c, p["name"])]


def ally_hit_powers(state: Ddm2008State, c: Creature) -> list[tuple[str, str]]:
    out = []
    for champ in state.on_map():
        if champ is c or not state.ruleset.allies(champ, c):
            continue
        for p in stats(champ).get("champion_powers", []):
            if p["trigger"] != "ally_hits" or not champion_ready(state, champ, p["name"]):
                continue
            d = state.distance(champ, c)
            if d is not None and d <= int(p.get("range", 6)):
                out.append((champ.id, p["name"]))
    return out


def in_victory_area(state: Ddm2008State, c: Creature) -> bool:
    letter = state.letters.get(c.side)
    if letter is None:
        return False
    zones: frozenset[Coord] = state.grid.cached(("victory", letter), lambda: frozenset(  # type: ignore[assignment]
        sq for name, sqs in state.grid.zones.items() if name.startswith(f"victory_{letter}") for sq in sqs))
    return any(s in zones for s in c.squares)


def end_turn_heals(state: Ddm2008State, c: Creature) -> list[tuple[str, str]]:
    out = []
    if c.hp >= c.template.max_hp:
        return out
    for champ in state.on_map():
        if not state.ruleset.allies(champ, c) or champ is c:
            continue
        for p in stats(champ).get("champion_powers", []):
            if p["trigger"] != "ally_ends_turn" or not champion_ready(state, champ, p["name"]):
                continue
            if p.get("in_victory_area") and not in_victory_area(state, c):
                continue
            d = state.distance(champ, c)
            if d is not None and d <= int(p.get("range", 6)):
                out.append((champ.id, p["name"]))
    return out


def check_end_turn_heal(state: Ddm2008State, c: Creature, power: tuple[str, str]) -> None:
    if power not in end_turn_heals(state, c):
        raise IllegalActionError(f"{power[0]} cannot use {power[1]} on {c.id} now", rule="M08-151")


def power_actions(state: Ddm2008State, c: Creature) -> list[Action]:
    out: list[Action] = []
    for p in stats(c).get("special_powers", []):
        if p["kind"] != "heal" or not _power_action_free(state, p) or state.uses.get((c.id, p["name"]), 1) <= 0:
            continue
        if any(c.has(x) for x in BASIC_ONLY):
            continue
        for ally in state.on_map():
            if not state.ruleset.allies(c, ally) or ally.hp >= ally.template.max_hp:
                continue
            d = state.distance(c, ally)
            if d is not None and d <= int(p.get("range", 1)):
                out.append(UsePower(c.id, power=p["name"], target=ally.id))
    return out


def _power_action_free(state: Ddm2008State, p: dict[str, Any]) -> bool:
    a = state.act
    if p.get("action") == "move":
        return not (a.move_used and a.attack_used) and not a.no_more_moves
    return not a.attack_used


def use_power(state: Ddm2008State, action: UsePower) -> None:
    """A special power that costs an action, on the creature's own turn (M08-149): a heal."""
    c = state.creature(action.actor)
    if UsePower(c.id, power=action.power, target=action.target) not in power_actions(state, c):
        raise IllegalActionError(f"{c.id} cannot use {action.power!r} on {action.target} now (action, range, "
                                 "uses, or its condition)", rule="M08-149")
    p = power_of(c, "special_powers", action.power)
    assert p is not None
    if p.get("action") == "move":
        state._spend_move()
        state.act.moved = False
    else:
        state.act.attack_used = True
    if (c.id, p["name"]) in state.uses:
        state.uses[(c.id, p["name"])] -= 1
    heal(state, state.creature(action.target), int(p["amount"]), f"{c.id}'s {p['name']}", "M08-149")


def heal(state: Ddm2008State, t: Creature, amount: int, why: str, rule: str) -> None:
    before = t.hp
    t.hp = min(t.template.max_hp, t.hp + amount)
    state.log(Event("heal", f"{t.id} regains {t.hp - before} HP ({why}); {t.hp} HP", rule,
                    {"target": t.id, "amount": t.hp - before}))
    if not is_bloodied(t):
        state.bloodied.discard(t.id)


# Start and end of a creature's turn.

def start_of_turn(state: Ddm2008State, c: Creature) -> None:
    """Ongoing damage, regeneration, the confusion roll (GAP-M08-3) and inactivity (M08-141)."""
    for cond in list(c.conditions):
        if cond.name.startswith("ongoing_"):
            parts = cond.name.split("_")
            amount = int(parts[1])
            dtype = parts[2] if len(parts) > 2 else None
            taken = take_damage(state, c, {dtype: amount}, None)
            state.log(Event("damage", f"{c.id} takes {taken} ongoing damage; {max(c.hp, 0)} HP left", "M08-137",
                            {"target": c.id, "amount": taken, "hp": c.hp}))
            after_damage(state, c, None)
            if not c.on_map:
                return
    for p in stats(c).get("special_powers", []):
        if p["kind"] == "regeneration" and 0 < c.hp < c.template.max_hp:
            heal(state, c, int(p["amount"]), p["name"], "M08-148")
    if any(c.has(x) for x in ("stunned", "helpless")):
        state.act.no_actions = True
        state.log(Event("inactive", f"{c.id} is inactive and takes no actions", "M08-141", {"creature": c.id}))
        return
    if c.has("confused"):
        roll = state.roll(20, f"confusion of {c.id}", "M08-144")
        if roll <= 5:
            text = f"{c.id} is confused ({roll}): its own player controls it"
        elif roll <= 15:
            state.act.no_actions = True
            text = f"{c.id} is confused ({roll}): it takes no action"
        else:
            other = next((s for s in state.sides() if s != c.side), c.side)
            c.marks["true_side"] = c.side
            c.side = other
            c.team = other
            state.act.controller = other
            text = f"{c.id} is confused ({roll}): {other} controls it this turn"
        state.log(Event("confused", text, "M08-144", {"creature": c.id, "roll": roll}))


def end_of_turn(state: Ddm2008State, c: Creature, power: tuple[str, str] | None) -> None:
    """A pit destroys a creature that ends its turn in it (M08-125); saving throws, one per save-ends
    effect (M08-147); effects that last until the end of its next turn end (M08-068); a champion's
    end-of-turn power (M08-151)."""
    if power is not None:
        champ = state.creatures[power[0]]
        _spend_champion(state, champ, power[1])
        heal(state, c, power_amount(champ, power[1]), f"{champ.id}'s {power[1]}", "M08-151")
    if c.on_map and any(state.grid.kind(s).end_turn == "destroyed" for s in c.squares):
        destroy(state, c, "ended its turn in a pit", "M08-125")
    if c.on_map:
        keep = []
        for cond in c.conditions:
            d = cond.duration
            if d.kind == "save_ends":
                roll = state.roll(20, f"saving throw of {c.id} against {cond.name}", "M08-147")
                src = state.creatures.get(cond.source or "")
                if src is not None and not state.ruleset.allies(src, c):
                    state.noisy = True
                if roll >= state.opts.save_success:
                    state.log(Event("save", f"{c.id} saves against {cond.name} ({roll})", "M08-147",
                                    {"creature": c.id, "roll": roll, "success": True}))
                    continue
                state.log(Event("save", f"{c.id} fails to save against {cond.name} ({roll})", "M08-147",
                                {"creature": c.id, "roll": roll, "success": False}))
            elif d.kind == "end_of_next_turn" and d.owner == c.id:
                if d.rounds > 0:
                    keep.append(Condition(cond.name, Duration(d.kind, d.owner, d.rounds - 1), cond.source))
                else:
                    state.log(Event("condition_end", f"{c.id} is no longer {cond.name}", "M08-068",
                                    {"creature": c.id, "condition": cond.name}))
                continue
            keep.append(cond)
        c.conditions = keep
    true_side = c.marks.pop("true_side", None)
    if true_side:
        c.side = true_side
        c.team = true_side


# Victory points.

def score_victory_areas(state: Ddm2008State) -> None:
    """End of round: 10 VP (at 200 points) for a side with a creature in its victory area, at most
    10 a round (M08-155); in Uncontested Victory, 5 per area no enemy holds (M08-158)."""
    scale = state.opts.points / 200
    for side, letter in state.letters.items():
        zones = {name: sqs for name, sqs in state.grid.zones.items() if name.startswith(f"victory_{letter}")}
        if not zones:
            continue
        mine = [c for c in state.on_map() if c.side == side]
        theirs = [c for c in state.on_map() if c.side != side]
        if state.opts.scenario in ("uncontested", "combined"):
            for name, sqs in sorted(zones.items()):
                held = any(s in sqs for c in mine for s in c.squares)
                contested = any(s in sqs for c in theirs for s in c.squares)
                if held and not contested:
                    state.award(side, max(1, int(5 * scale)), f"holds {name} uncontested", "M08-158")
        else:
            if any(s in sqs for sqs in zones.values() for c in mine for s in c.squares):
                state.award(side, max(1, int(10 * scale)), "a creature in its victory area", "M08-155")


def tie_breaker(state: Ddm2008State, rule: str | None) -> None:
    """More VP wins; then the creature closest to the map's centre; then the highest-cost creature
    among the closest (M08-156)."""
    sides = list(state.vp)
    best = max(state.vp.values())
    leaders = [s for s in sides if state.vp[s] == best]
    why = "ten rounds without an attack" if rule else f"round {state.round}, the project's round limit"
    if len(leaders) == 1:
        state.finish(leaders[0], f"tie-breaker after {why}: most VP", rule or "M08-156")
        return
    cx, cy = state.grid.width / 2, state.grid.height / 2

    def closeness(c: Creature) -> float:
        x = c.at[0] + c.size / 2
        y = c.at[1] + c.size / 2
        return math.hypot(x - cx, y - cy)

    per_side = {}
    for s in leaders:
        mine = [c for c in state.on_map() if c.side == s]
        if mine:
            d = min(closeness(c) for c in mine)
            cost = max(int(stats(c).get("cost", 0)) for c in mine if abs(closeness(c) - d) < 1e-9)
            per_side[s] = (d, -cost)
    if not per_side:
        state.finish(None, f"tie-breaker after {why}: nobody left", rule or "M08-156")
        return
    ranked = sorted(per_side.items(), key=lambda kv: kv[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        state.finish(None, f"tie-breaker after {why}: equal in every step", rule or "M08-156")
        return
    state.finish(ranked[0][0], f"tie-breaker after {why}: creature closest to the centre", rule or "M08-156")
