"""The ddm2008 tactician: a rules-aware agent that plays as a competent player would.

It scores every legal action with the rules' own numbers, without rolling dice: the chance to
hit (defence, bonus, combat advantage, cover, charge), the damage and whether it kills, the
victory points a kill is worth; movement toward positions from which it can attack, flanking
positions and its victory area, away from opportunity attacks; champion powers spent where
they turn a hit into a kill. Ties are broken by the agent's own seeded generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skirmish.core import geometry
from skirmish.core.coords import footprint
from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Creature
from skirmish.core.tactics import Tactician
from skirmish.errors import IllegalActionError, InvalidActionError
from skirmish.rulesets.ddm2008 import attack, powers, sight, stats, victory
from skirmish.rulesets.ddm2008.actions import (
    Activate,
    Attack,
    Charge,
    ChooseFirst,
    EndTurn,
    Move,
    Shift,
    Teleport,
    UsePower,
)
from skirmish.rulesets.ddm2008.state import Ddm2008State


def hit_chance(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, *, charge: bool = False,
               bonus: int = 0) -> float:
    """The chance an attack hits: a natural 20 always hits, a natural 1 always misses (M08-073, M08-075)."""
    mods = bonus + (1 if charge else 0)
    if sight.combat_advantage(state, c, t):
        mods += 2
    if any("sacred_circle" in state.grid.kind(s).tags for s in c.squares):
        mods += 2
    if t.has("helpless"):
        if spec.kind == "melee":
            return 1.0
        mods += 4
    if spec.area is None and state.cover_degree(c, t, spec.kind):
        mods -= 2
    need = stats.defense(t, spec.vs) - spec.bonus - mods
    return min(0.95, max(0.05, (21 - need) / 20))


def damage_of(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, *, charge: bool = False,
              advantage: bool | None = None) -> float:
    """Mean damage of a hit, with extra damage from powers and the target's resistances; ``advantage``
    says whether the attacker has combat advantage (worked out from the position when None)."""
    if spec.damage is None:
        return 0.0
    amount = float(spec.damage.mean())
    for p in stats.card(c).special_powers:
        if p.kind == "charge_damage" and charge:
            amount += p.amount
        if p.kind == "sneak_attack" and (
                advantage if advantage is not None else sight.combat_advantage(state, c, t)):
            amount += p.amount
    ab = stats.card(t).abilities
    for dtype in spec.damage.types():
        if dtype in ab.immune:
            return 0.0
        amount -= ab.resist.get(dtype, 0)
        amount += ab.vulnerable.get(dtype, 0)
    if c.has("enervated"):
        amount /= 2
    return max(0.0, amount)


def attack_value(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, *, charge: bool = False,
                 bonus: int = 0, extra: int = 0) -> float:
    """What hitting this target is worth, in victory points: its share of damage, and its cost if it dies."""
    p = hit_chance(state, c, spec, t, charge=charge, bonus=bonus)
    dmg = damage_of(state, c, spec, t, charge=charge) + extra
    return _worth_of_hit(state, c, spec, t, p, dmg)


def attack_bound(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature) -> float:
    """A value no ``attack_value`` of this attack on this target can exceed from any square: a certain
    hit with combat advantage."""
    return _worth_of_hit(state, c, spec, t, 1.0, damage_of(state, c, spec, t, advantage=True))


def _worth_of_hit(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature, p: float, dmg: float) -> float:
    cost = max(1, stats.card(t).cost)
    hp = max(1, t.hp)
    value = p * min(dmg, hp) / max(1, t.template.max_hp) * cost
    if dmg >= hp:
        value += p * cost * 1.5
    if spec.effects:
        value += p * 2
    if state.ruleset.allies(c, t):
        value = -value * 1.5
    return value


def best_attack(state: Ddm2008State, c: Creature) -> float:
    """The best ``attack_value`` of a direct attack from where the creature stands (0 if none), over
    every valid target of every attack it may use."""
    best = 0.0
    for spec in c.template.attacks:
        if spec.area is not None or attack.attack_allowed(state, c, spec):
            continue
        for t in attack.valid_targets(state, c, spec):
            best = max(best, attack_value(state, c, spec, t))
    return best


class Ddm2008Tactician(Tactician):
    """Focuses fire, flanks for combat advantage, charges, avoids provoking, holds the victory area and
    spends champion powers."""

    def ranked(self, state: Any, actions: Sequence[Any]) -> list[Any]:
        """The actions, the one it would play first (a search agent's candidates)."""
        assert isinstance(state, Ddm2008State)
        first = actions[0]
        if isinstance(first, ChooseFirst):
            return sorted(actions, key=lambda a: a.side != state.current_side)
        if isinstance(first, Activate):
            return self.by_value(actions, lambda a: self._activation_value(state, state.creatures[a.actor]))
        return super().ranked(state, actions)

    # Scoring.

    def score(self, state: Ddm2008State, action: Any) -> float:
        c = state.creatures[action.actor]
        if isinstance(action, Attack):
            return self._attack_score(state, c, action)
        if isinstance(action, Charge):
            spec = c.template.attack(action.attack)
            t = state.creatures[action.target]
            assert spec is not None
            here = c.at
            c.at = action.to
            try:
                value = attack_value(state, c, spec, t, charge=True)
            finally:
                c.at = here
            return value - self._provocation(state, c, action.path or (action.to,)) + 0.5
        if isinstance(action, Move | Shift):
            path = getattr(action, "path", ()) or (action.to,)
            risk = 0.0 if isinstance(action, Shift) else self._provocation(state, c, path)
            return self._position_value(state, c, action.to) - self._position_value(state, c, c.at) - risk - 0.05
        if isinstance(action, UsePower):
            t = state.creatures[action.target]
            missing = t.template.max_hp - t.hp
            p = stats.special_power(c, action.power)
            return min(missing, p.amount if p else 0) / max(1, t.template.max_hp) * stats.card(t).cost * 0.8
        if isinstance(action, Teleport):
            return self._position_value(state, c, action.to) - self._position_value(state, c, c.at) - 0.1
        if isinstance(action, EndTurn):
            return 0.5 if action.power is not None else 0.0
        return 0.0

    def _attack_score(self, state: Ddm2008State, c: Creature, action: Attack) -> float:
        spec = c.template.attack(action.attack)
        assert spec is not None
        bonus = extra = 0
        if action.power is not None:
            champ = state.creatures[action.power[0]]
            amount = powers.power_amount(champ, action.power[1])
            if action.power[0] == c.id:
                bonus = amount
            else:
                extra = amount
        if spec.area is not None:
            try:
                ids = state.area(c, spec, action.at, action.origin)
            except (IllegalActionError, InvalidActionError):
                return -1.0
            targets = [state.creatures[i] for i in ids if i != c.id]
        else:
            targets = [state.creatures[i] for i in action.targets]
        value = sum(attack_value(state, c, spec, t, bonus=bonus, extra=extra) for t in targets)
        if spec.kind in ("ranged", "area"):
            value -= 0.5 * sum(1 for e in state.enemies_of(c) if geometry.adjacent(c.squares, e.squares)
                               and state.can_react(e))
        if action.power is not None:
            value -= 1.0  # uses are few: spend them only where they change the outcome
        if (c.id, spec.name) in getattr(state, "uses", {}):
            value -= 0.5  # limited attacks are for when they matter
        return value + 1.0  # attacking beats standing around

    def _provocation(self, state: Ddm2008State, c: Creature, path: Sequence[tuple[int, int]]) -> float:
        """Expected cost of the opportunity attacks the path provokes: leaving each square of it (the
        start, and every square but the last) next to an enemy who can still react."""
        reactors = self._memo.get(("reactors", c.id), lambda: [
            e for e in state.enemies_of(c) if e.id not in state.act.oa_taken and state.can_react(e)])
        if not reactors:
            return 0.0
        risk = 0.0
        here = c.at
        provoked: set[str] = set()
        for sq in (here, *path[:-1]):
            # Who stands next to each square is the same for every path of the decision.
            def beside(sq: tuple[int, int] = sq) -> list[Creature]:
                return [e for e in reactors if geometry.adjacent(footprint(sq, c.size), e.squares)]

            near = self._memo.get(("beside", c.id, sq), beside)
            for e in near:
                if e.id not in provoked:
                    provoked.add(e.id)
                    c.at = sq
                    try:
                        risk += self._threat(state, e, c)
                    finally:
                        c.at = here
        return risk

    def _threat(self, state: Ddm2008State, e: Creature, c: Creature) -> float:
        """What ``e``'s basic attack on ``c``, where ``c`` stands now, is worth (remembered for the decision)."""
        return self._memo.get(("threat", e.id, c.id, c.at), lambda: attack_value(state, e, e.template.attacks[0], c))

    def _position_value(self, state: Ddm2008State, c: Creature, at: tuple[int, int]) -> float:
        """How good it is for this creature to stand at ``at`` now (remembered for the decision)."""
        return self._memo.get((c.id, at), lambda: self._position_value_now(state, c, at))

    def _position_value_now(self, state: Ddm2008State, c: Creature, at: tuple[int, int]) -> float:
        here = c.at
        c.at = at
        try:
            value = 0.0
            enemies = self._active_enemies(state, c)
            if not state.act.attack_used:
                value += self._best_attack_from_here(state, c)
            if victory.in_victory_area(state, c):
                value += 4.0
            squares = c.squares
            # Danger: enemies that can hit it where it stands.
            for e, e_squares in enemies:
                if e.template.attacks and geometry.adjacent(squares, e_squares):
                    value -= 0.3 * self._threat(state, e, c)
            # Closing in: melee creatures want the nearest enemy near; ranged ones want it at range.
            if enemies:
                policy = state.ruleset.policy
                d = min(geometry.direct_distance(policy, squares, e_squares) for _, e_squares in enemies)
                ranged = c.template.attacks and c.template.attacks[0].kind != "melee"
                value -= 0.08 * (abs(d - 4) if ranged else d)
            return value
        finally:
            c.at = here

    def _active_enemies(self, state: Ddm2008State, c: Creature) -> list[tuple[Creature, tuple[tuple[int, int], ...]]]:
        """The creature's active enemies with their squares: the same for every square of a decision."""
        return self._memo.get(("enemies", c.id), lambda: [
            (e, e.squares) for e in state.enemies_of(c) if e.status == "active"])

    def _best_attack_from_here(self, state: Ddm2008State, c: Creature) -> float:
        """The best ``attack_value`` of a direct attack from where the creature stands (0 if none).

        The (attack, target) pairs are taken best bound first and the search stops once no bound can
        beat the best found, so most squares trace few lines of sight; the answer is the plain maximum."""
        usable, pairs = self._memo.get(("pairs", c.id), lambda: self._attack_pairs(state, c))
        if not usable:  # the "nearest" rule: whom it may target depends on the square
            return best_attack(state, c)
        best = 0.0
        policy = state.ruleset.policy
        squares = c.squares
        for bound, spec, t, t_squares, limit in pairs:
            if bound <= best:
                break
            if limit is not None and geometry.direct_distance(policy, squares, t_squares) > limit:
                continue  # out of range whatever the walls (``in_reach`` would say so, at more cost)
            if attack.in_reach(state, c, spec, t):
                best = max(best, attack_value(state, c, spec, t))
        return best

    def _attack_pairs(self, state: Ddm2008State, c: Creature) -> tuple[bool, list[tuple[Any, ...]]]:
        """Every direct attack the creature may make this decision with every active enemy, best bound
        first, with the enemy's squares and the attack's range in squares (None: sight); (False, [])
        when an attack follows the "nearest" rule."""
        enemies = self._active_enemies(state, c)
        pairs: list[tuple[Any, ...]] = []
        for spec in c.template.attacks:
            if spec.area is not None or attack.attack_allowed(state, c, spec):
                continue
            if spec.range == "nearest":
                return False, []
            limit = None if spec.range == "sight" else spec.reach
            pairs.extend((attack_bound(state, c, spec, t), spec, t, t_squares, limit) for t, t_squares in enemies)
        pairs.sort(key=lambda p: p[0], reverse=True)
        return True, pairs

    def _activation_value(self, state: Ddm2008State, c: Creature) -> float:
        best = best_attack(state, c)
        enemies = state.enemies_of(c)
        if enemies:
            d = min(geometry.direct_distance(state.ruleset.policy, c.squares, e.squares) for e in enemies)
            best -= 0.05 * d
        return best
