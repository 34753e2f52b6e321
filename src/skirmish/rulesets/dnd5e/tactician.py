"""The dnd5e tactician: fights as a competent player would, scoring each legal action by the rules'
own numbers without rolling: focus fire on what it can drop, casters and archers keep their
distance, a creature that has attacked steps out of reach where it can, Dodge or Disengage when
that is better, heal or stabilize allies who are down."""

from __future__ import annotations

from typing import Any

from skirmish.core import geometry
from skirmish.core.coords import footprint
from skirmish.core.creatures import Creature
from skirmish.core.tactics import Tactician
from skirmish.rulesets.dnd5e import combat
from skirmish.rulesets.dnd5e.actions import Attack, Cast, Move, Simple, Targeted
from skirmish.rulesets.dnd5e.spells import spell_book
from skirmish.rulesets.dnd5e.state import Dnd5eState


def hit_chance(bonus: int, ac: int, adv: int) -> float:
    p = min(0.95, max(0.05, (21 - (ac - bonus)) / 20))
    if adv > 0:
        return 1 - (1 - p) ** 2
    if adv < 0:
        return p * p
    return p


def is_caster(c: Creature) -> bool:
    return bool(combat.stats(c).get("spells"))


def prefers_range(c: Creature) -> bool:
    """Casters and creatures whose best attack is ranged keep their distance."""
    if is_caster(c):
        return True
    best = max(c.template.attacks, key=lambda a: float(a.damage.mean()) if a.damage else 0.0, default=None)
    return best is not None and best.kind == "ranged"


class Dnd5eTactician(Tactician):
    """A competent player of dnd5e fights."""

    # Values.

    def threat(self, state: Dnd5eState, t: Creature) -> float:
        """How much a creature is worth dropping: its damage output per hit point left."""
        out = max((float(a.damage.mean()) for a in t.template.attacks if a.damage), default=2.0)
        return out * (1 + len(combat.stats(t).get("multiattack") or ())) / max(1, t.hp)

    def expected(self, state: Dnd5eState, c: Creature, spec: Any, t: Creature, *, exact: bool = True) -> float:
        """Expected value of an attack; ``exact`` weighs cover and advantage, otherwise a quick estimate
        for judging squares to move to."""
        within5 = geometry.adjacent(c.squares, t.squares)
        adv = combat.attack_advantage(state, c, spec, t, spec.kind == "ranged", within5)[0] if exact else 0
        cover = (combat.cover_bonus(state, c, t, spec.kind) or 0) if exact else 0
        p = hit_chance(spec.bonus, int(combat.stats(t).get("ac", 10)) + cover, adv)
        dmg = float(spec.damage.mean()) if spec.damage else 0.0
        value = p * min(dmg, t.hp) * (1 + self.threat(state, t))
        if dmg >= t.hp:
            value += p * 10
        return value

    def score(self, state: Dnd5eState, action: Any) -> float:
        c = state.creatures[action.actor]
        if isinstance(action, Attack):
            spec = c.template.attack(action.attack)
            t = state.creatures[action.target]
            if spec is None or t.status != "active":
                return -1.0
            return 2.0 + self.expected(state, c, spec, t)
        if isinstance(action, Cast):
            return self._cast_value(state, c, action)
        if isinstance(action, Move):
            return self._position(state, c, action.to) - self._position(state, c, c.at) - self._risk(state, c, action)
        if isinstance(action, Targeted):
            if action.what == "stabilize":
                return 6.0
            if action.what == "help":
                return 0.3
            return 0.2
        if isinstance(action, Simple):
            return self._simple_value(state, c, action)
        return 0.0

    def _cast_value(self, state: Dnd5eState, c: Creature, action: Cast) -> float:
        spell = spell_book().get(action.spell)
        if spell is None:
            return -1.0
        cost = 1.5 * spell.level  # slots are few
        if spell.heal:
            t = state.creatures[action.targets[0]]
            if t.status == "down":
                return 25.0 - cost
            missing = t.template.max_hp - t.hp
            return (3.0 if missing > t.template.max_hp / 2 else 0.5) - cost
        if spell.bless:
            return 4.0 + len(action.targets) - cost
        avg = 0.0
        if spell.damage:
            from skirmish.core.dice import DiceExpr

            avg = float(DiceExpr.parse(spell.damage).mean())
        if spell.darts:
            avg *= spell.darts
        if spell.area is not None and action.at is not None:
            try:
                hit = state._spell_area(c, spell, action.at)
            except Exception:
                return -1.0
            foes = sum(1 for x in hit if not state.ruleset.allies(c, x) and x.status == "active")
            friends = sum(1 for x in hit if state.ruleset.allies(c, x))
            return 2.0 + avg * 0.6 * (foes - 2 * friends) - cost
        t = state.creatures[action.targets[0]]
        return 2.0 + 0.6 * min(avg, t.hp) * (1 + self.threat(state, t)) + (8 if avg >= t.hp else 0) - cost

    def _simple_value(self, state: Dnd5eState, c: Creature, action: Simple) -> float:
        what = action.what
        enemies_near = [e for e in state.enemies_of(c)
                        if e.status == "active" and geometry.adjacent(c.squares, e.squares)]
        if what == "second_wind":
            return 5.0 if c.hp < c.template.max_hp / 2 else -1.0
        if what == "stand_up":
            return 3.0
        if what == "disengage":
            return 2.5 if enemies_near and prefers_range(c) else -0.5
        if what == "dodge":
            return 1.0 if enemies_near and c.hp < c.template.max_hp / 3 else -0.5
        if what == "dash":
            return 0.4 if not enemies_near else -1.0
        if what == "hide":
            return 0.6
        if what == "end_turn":
            return 0.0
        return -0.2

    def _risk(self, state: Dnd5eState, c: Creature, action: Move) -> float:
        """Opportunity attacks the move would provoke (unless disengaged)."""
        if state.turn_state.disengaged:
            return 0.0
        policy = state.ruleset.policy
        risk = 0.0
        for squares, reach, here, damage in self._memo.get(("threats", c.id), lambda: self._threats(state, c)):
            if here <= reach < geometry.direct_distance(policy, [action.to], squares):
                risk += damage
        return risk * 0.5

    def _threats(self, state: Dnd5eState, c: Creature) -> list[tuple[Any, int, int, float]]:
        """Enemies that could take an opportunity attack on the creature: their squares, reach,
        distance now and mean damage (the same for every move of one decision)."""
        out = []
        for e in state.enemies_of(c):
            if not combat.can_react(state, e) or e.status != "active":
                continue
            spec = state._best_melee(e)
            if spec is None:
                continue
            here = geometry.direct_distance(state.ruleset.policy, c.squares, e.squares)
            out.append((e.squares, combat.reach_of(spec), here, float(spec.damage.mean()) if spec.damage else 2.0))
        return out

    def _position(self, state: Dnd5eState, c: Creature, at: tuple[int, int]) -> float:
        """How good it is for the creature to stand at ``at`` now (remembered for the decision)."""
        return self._memo.get((c.id, at), lambda: self._position_now(state, c, at))

    def _options(self, state: Dnd5eState, c: Creature) -> tuple[list[Creature], list[tuple[float, Any, Creature]]]:
        """The active enemies, and every (quick attack value, attack, enemy) best first: the same from
        every square, so one decision works them out once."""
        enemies = [e for e in state.enemies_of(c) if e.status == "active"]
        pairs = [(self.expected(state, c, spec, e, exact=False), spec, e)
                 for spec in c.template.attacks for e in enemies]
        pairs.sort(key=lambda p: p[0], reverse=True)
        return enemies, pairs

    def _position_now(self, state: Dnd5eState, c: Creature, at: tuple[int, int]) -> float:
        enemies, pairs = self._memo.get(("options", c.id), lambda: self._options(state, c))
        if not enemies:
            return 0.0
        policy = state.ruleset.policy
        ranged, enemy_squares, down_allies = self._memo.get(("around", c.id), lambda: (
            prefers_range(c), [e.squares for e in enemies],
            [a.squares for a in state.creatures.values() if a.status == "down" and state.ruleset.allies(c, a)]))
        squares = footprint(at, c.size)
        t = state.turn_state
        value = 0.0
        dists = [geometry.direct_distance(policy, squares, es) for es in enemy_squares]
        nearest = min(dists)
        if ranged:
            value -= 1.5 * sum(1 for d in dists if d <= 1)
            value -= 0.1 * abs(nearest - 5)
        elif t.action or t.attacks_left > 0:
            # The best attack in range from here: the first in range of the pairs, best first.
            here = c.at
            c.at = at
            try:
                value += next((v for v, spec, e in pairs if v > 0 and combat.in_range(state, c, spec, e)), 0.0)
            finally:
                c.at = here
            value -= 0.15 * nearest
        else:
            # It has attacked: out of reach where it can (the tactician's retreat).
            value -= 0.8 * sum(1 for d in dists if d <= 1)
        for a in down_allies:
            value -= 0.1 * geometry.direct_distance(policy, squares, a)
        return value
