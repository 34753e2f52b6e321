"""A dnd5e fight in progress: surprise, initiative, turns, movement, the actions and spells.

Attack rolls, damage, death and conditions live in ``combat``. This module holds the combat
sequence (E5-001..E5-015), the turn and its action economy (E5-016..E5-035), movement on the
grid with opportunity attacks (E5-036..E5-060, E5-097..E5-099) and the actions of E5-061..E5-077,
grappling and shoving (E5-103..E5-109) and spellcasting (E5-064, G5-12).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from skirmish.core import geometry
from skirmish.core.coords import Coord, centre
from skirmish.core.creatures import AreaSpec, Creature
from skirmish.core.dice import DiceExpr
from skirmish.core.events import Event
from skirmish.core.fields import Copy
from skirmish.core.game import State
from skirmish.core.position import Position
from skirmish.errors import IllegalActionError, InvalidActionError
from skirmish.rulesets.dnd5e import combat
from skirmish.rulesets.dnd5e.actions import Action, Attack, Cast, Move, Simple, Targeted
from skirmish.rulesets.dnd5e.combat import ability_mod, conscious, incapacitated, stats
from skirmish.rulesets.dnd5e.spells import Spell, spell_book

MAX_ROUNDS = 100


@dataclass(slots=True)
class Turn:
    """The active creature's turn: what it has left (E5-016..E5-028)."""

    moved: int = 0
    dashes: int = 0
    action: bool = True
    bonus: bool = True
    attacks_left: int = 0
    multiattack: tuple[str, ...] = ()
    light_attack: bool = False
    light_weapon: str = ""
    disengaged: bool = False
    bonus_spell: bool = False
    leveled_spell: bool = False

    def copy(self) -> Turn:
        return replace(self)


class Dnd5eState(Position, State):
    """A D&D 5th edition fight on the grid."""

    __slots__ = ("index", "noisy", "order", "over", "turn_state", "win")
    fields: ClassVar[Mapping[str, Copy]] = {
        "index": Copy.SHARE, "noisy": Copy.SHARE, "order": Copy.COPY, "over": Copy.SHARE,
        "turn_state": Copy.RECORD, "win": Copy.SHARE,
    }

    @classmethod
    def from_position(cls, pos: Position) -> Dnd5eState:
        state = cls.__new__(cls)
        Position._copy_into(pos, state)
        state.over = False
        state.win = None
        state.noisy = False
        state.turn_state = Turn()
        for c in state.creatures.values():
            slots = {int(k): int(v) for k, v in (stats(c).get("spell_slots") or {}).items()}
            c.marks.setdefault("slots", slots)
            if c.status == "down":
                combat.add_condition(state, c, "unconscious", None)  # at 0 hit points: unconscious (E5-134)
                combat.add_condition(state, c, "prone", None)  # and prone (G5-01, unconscious)
        surprised = set(pos.start.get("surprised") or [])
        surprised |= state._stealth_surprise()
        for cid in surprised:
            state.creatures[cid].marks["surprised"] = True
            combat.add_condition(state, state.creatures[cid], "surprised", None)
            state.log(Event("surprise", f"{cid} is surprised", "E5-010", {"creature": cid}))
        state.order = state._initiative(pos.start.get("initiative"))
        state.index = -1
        state._advance()
        return state

    # Surprise and initiative (E5-001..E5-015).

    def _stealth_surprise(self) -> set[str]:
        """``start: {hidden: [ids]}``: each hidden creature rolls Dexterity (Stealth); a creature of the
        other side is surprised if its passive Perception beats none of them (E5-009; ties notice)."""
        hiders = [self.creatures[c] for c in self.start.get("hidden") or [] if c in self.creatures]
        if not hiders:
            return set()
        totals = {}
        for h in hiders:
            roll = self.roll(20, f"stealth of {h.id}", "E5-009")
            totals[h.id] = roll + combat.check_bonus(h, "stealth", "dex")
        out = set()
        for c in self.creatures.values():
            if any(self.ruleset.allies(c, h) for h in hiders):
                continue
            score = combat.passive(c, "perception", "wis")
            if all(score < totals[h.id] for h in hiders if not self.ruleset.allies(c, h)):
                out.add(c.id)
        return out

    def _initiative(self, forced: list[str] | None) -> list[str]:
        """Dexterity checks, one per group of identical monsters (E5-012, E5-013), highest first
        (E5-014); ties between a character and a monster go to a d20 roll-off (E5-015's option),
        other ties keep the scenario's order. ``start.initiative`` forces the order."""
        creatures = [c for c in self.creatures.values() if c.status != "dead"]
        if forced:
            order: list[str] = []
            for name in forced:
                for c in creatures:
                    if name in (c.id, c.side, c.template.name) and c.id not in order:
                        order.append(c.id)
            order += [c.id for c in creatures if c.id not in order]
            self.log(Event("initiative", "initiative order set by the scenario: " + ", ".join(order), "E5-014",
                           {"order": order}))
            return order
        group_roll: dict[str, int] = {}
        totals: dict[str, int] = {}
        for c in creatures:
            key = c.template.name if not c.hero else c.id
            if key not in group_roll:
                roll = self.roll(20, f"initiative of {key}", "E5-012")
                group_roll[key] = roll + ability_mod(c, "dex")
            totals[c.id] = group_roll[key]
        rolloff: dict[str, int] = {}
        for value in sorted(set(totals.values()), reverse=True):
            tied = [c for c in creatures if totals[c.id] == value]
            if any(c.hero for c in tied) and any(not c.hero for c in tied):
                for c in tied:  # a character and a monster tie: each rolls a d20, higher first (E5-015)
                    rolloff[c.id] = self.roll(20, f"initiative tie roll-off of {c.id}", "E5-015")
        final = sorted(((totals[c.id], rolloff.get(c.id, 0), -i, c.id) for i, c in enumerate(creatures)),
                       reverse=True)
        order = [cid for *_, cid in final]
        self.log(Event("initiative", "initiative: " + ", ".join(f"{cid} {t}" for t, _, _, cid in final), "E5-014",
                       {"order": order}))
        return order

    # The game interface.

    @property
    def current_actor(self) -> str | None:
        return None if self.over else self.turn

    @property
    def current_side(self) -> str | None:
        return None if self.over or self.turn is None else self.creatures[self.turn].side

    def is_over(self) -> bool:
        return self.over

    @property
    def winner(self) -> str | None:
        return self.win

    @property
    def score(self) -> dict[str, int]:
        """Hit points left per side."""
        out = {side: 0 for side in self.sides()}
        for c in self.creatures.values():
            if c.status == "active":
                out[c.side] += c.hp
        return out

    def legal_actions(self) -> list[Action]:
        if self.over or self.turn is None:
            return []
        c = self.creatures[self.turn]
        t = self.turn_state
        out: list[Action] = []
        out.extend(self._move_actions(c))  # speed 0 under the conditions that stop movement (G5-01)
        if not incapacitated(c):
            out.extend(self._attack_actions(c))
            out.extend(self._spell_actions(c))
            if t.action:
                for what in ("dash", "disengage", "dodge"):
                    out.append(Simple(c.id, what=what))
                if self._can_hide(c):
                    out.append(Simple(c.id, what="hide"))
                if any(x.marks.get("hidden") for x in self.enemies_of(c)):
                    out.append(Simple(c.id, what="search"))
                out.extend(self._help_actions(c))
                out.extend(self._stabilize_actions(c))
                if c.marks.get("grappled_by") and c.has("grappled"):
                    out.append(Simple(c.id, what="escape"))
                if self._best_melee(c) is not None:
                    out.append(Simple(c.id, what="ready"))
            out.extend(self._bonus_actions(c))
            if c.has("prone") and self._can_stand(c):
                out.append(Simple(c.id, what="stand_up"))
            if not c.has("prone"):
                out.append(Simple(c.id, what="drop_prone"))
        out.append(Simple(c.id, what="end_turn"))
        return out

    def check(self, action: Any) -> None:
        """Refuse, changing nothing, an action after the fight or out of turn (E5-007, E5-004).

        Raises:
            IllegalActionError: the fight is over, or it is not the actor's turn.
            InvalidActionError: not a dnd5e action.
        """
        if not isinstance(action, Action):
            raise InvalidActionError(f"not a dnd5e action: {action!r}")
        if self.over:
            raise IllegalActionError("the fight is over", rule="E5-007")
        if action.actor != self.turn:
            raise IllegalActionError(f"it is {self.turn}'s turn, not {action.actor}'s", rule="E5-004")

    def _play(self, action: Any) -> None:
        """Play one action that ``check`` let through (``State.apply`` puts the fight back if a rule
        refuses it part way).

        Raises:
            IllegalActionError: the rules forbid it now; the message names the rule.
            InvalidActionError: it names an unknown creature, attack, spell or square.
        """
        c = self.creature(action.actor)
        if isinstance(action, Move):
            self._move(c, action)
        elif isinstance(action, Attack):
            self._attack(c, action)
        elif isinstance(action, Cast):
            self._cast(c, action)
        elif isinstance(action, Simple):
            self._simple(c, action)
        elif isinstance(action, Targeted):
            self._targeted(c, action)
        else:
            raise InvalidActionError(f"not a dnd5e action: {action!r}")
        self._check_end()

    # Turns.

    def _advance(self) -> None:
        """Next creature in initiative order; a new round when the order wraps (E5-004, E5-005)."""
        while not self.over:
            self.index += 1
            if self.index >= len(self.order):
                self.index = 0
                self.round += 1
                if self.round > MAX_ROUNDS:
                    self._finish(None, f"the fight reached round {MAX_ROUNDS}, this project's bound", None)
                    return
                self.log(Event("round", f"round {self.round}", "E5-005", {"round": self.round}))
            c = self.creatures[self.order[self.index]]
            if c.status == "dead":
                continue
            if self._start_turn(c):
                return

    def _start_turn(self, c: Creature) -> bool:
        """Start a creature's turn; False when it has nothing it can do (it is skipped)."""
        self.turn = c.id
        self.turn_state = Turn()
        c.marks.pop("reaction_used", None)
        c.marks.pop("readied", None)  # a readied action lapses at the start of its next turn (E5-072)
        c.marks.pop("dodging", None)  # the Dodge lasts until the start of its next turn (E5-068)
        c.marks.pop("shield", None)
        c.marks.pop("sneak_used", None)
        for other in self.creatures.values():
            helped = other.marks.get("helped_against")
            if helped:
                other.marks["helped_against"] = {k: v for k, v in helped.items() if v != c.id}
        self.log(Event("turn", f"{c.id}'s turn", "E5-004", {"actor": c.id}))
        if c.status == "down":
            if not c.marks.get("stable") and c.hero:
                combat.death_save(self, c)
            if c.status != "active":
                self._end_turn(c)
                return False
        if c.marks.get("surprised"):
            self.log(Event("surprise", f"{c.id} is surprised: no move and no action this turn", "E5-010",
                           {"actor": c.id}))
            self._end_turn(c)
            return False
        return not self.over

    def _end_turn(self, c: Creature) -> None:
        if c.marks.pop("surprised", None):  # its reaction returns once its first turn ends (E5-010)
            combat.remove_condition(c, "surprised")
        self.log(Event("end_turn", f"{c.id} ends its turn", "E5-004", {"actor": c.id}))

    def _check_end(self) -> None:
        """The fight ends when one side has no creature on its feet (E5-007)."""
        if self.over:
            return
        standing = {side for side in self.sides() if any(conscious(c) for c in self.creatures.values()
                                                            if c.side == side)}
        if len(standing) <= 1:
            side = next(iter(standing), None)
            self._finish(side, f"{side} is the only side left standing" if side else "nobody is left standing",
                         "E5-007")

    def _finish(self, side: str | None, why: str, rule: str | None) -> None:
        self.over = True
        self.win = side
        self.turn = None
        self.log(Event("game_over", f"{why}: " + (f"{side} wins" if side else "no winner"), rule, {"winner": side}))

    # Movement.

    def budget(self, c: Creature, mode: str) -> int:
        """Movement left in a mode: its speed (times Dash) minus what it has moved (E5-034, E5-065)."""
        speeds = self.ruleset.speeds(self, c)
        if mode not in speeds:
            return 0
        speed = speeds[mode]
        if any(self._drags(c, o) for o in self.creatures.values()):
            speed //= 2  # dragging a grappled creature halves speed, unless it is two sizes smaller (E5-108)
        return max(0, speed * (1 + self.turn_state.dashes) - self.turn_state.moved)

    def _drags(self, c: Creature, other: Creature) -> bool:
        return (other.marks.get("grappled_by") == c.id and other.status != "dead"
                and other.template.size_rank > c.template.size_rank - 2)

    def _move_actions(self, c: Creature) -> list[Action]:
        if c.status != "active":
            return []
        out: list[Action] = []
        modes = self.ruleset.movements(self, c)
        for move in modes:
            budget = self.budget(c, move.mode)
            if budget <= 0:
                continue
            reach = self.reach_mode(c, replace(move, budget=budget))
            out.extend(Move(c.id, to=sq, path=tuple(reach.path(sq)), mode=move.mode if len(modes) > 1 else None)
                       for sq in reach)
        return out

    def reach_now(self, c: Creature) -> Any:
        """Where the creature could end a move now: its movement left on its own turn (E5-030)."""
        if c.id != self.turn:
            return self.reach(c)
        best = None
        for move in self.ruleset.movements(self, c):
            budget = self.budget(c, move.mode)
            found = self.reach_mode(c, replace(move, budget=budget))
            best = found if best is None else best.merged(found)
        return best if best is not None else self.reach(c, budget=0)

    def reach_mode(self, c: Creature, move: Any) -> Any:
        from skirmish.core.pathing import MoveRequest, Passage, reachable

        occupied: dict[int, Passage] = {i: self.ruleset.passage(self, c, o, move)
                                        for i, o in self.occupancy().items() if o is not c}
        req = MoveRequest(at=c.at, size=c.size, budget=move.budget, mode=move.mode, occupied=occupied,
                          ignore_terrain=move.ignore_terrain, through_walls=move.through_walls, flying=move.flying,
                          extra_per_square=move.extra_per_square)
        return reachable(self.grid, self.ruleset.policy, req)

    def _move(self, c: Creature, action: Move) -> None:
        if c.status != "active":
            raise IllegalActionError(f"{c.id} cannot move", rule="E5-134")
        modes = [m for m in self.ruleset.movements(self, c) if action.mode in (None, m.mode)]
        best = None
        for move in modes:
            budget = self.budget(c, move.mode)
            if budget <= 0:
                continue
            reach = self.reach_mode(c, replace(move, budget=budget))
            if action.to in reach and (best is None or reach.cost(action.to) < best[0]):
                best = (reach.cost(action.to), reach, move)
        if best is None:
            raise IllegalActionError(f"{c.id} cannot end a move at {list(action.to)} with the movement it has left",
                                     rule="E5-030")
        cost, reach, move = best
        path = reach.path(action.to)
        if action.path and list(action.path) != path:
            from skirmish.core.pathing import MoveRequest, path_cost

            occupied = {i: self.ruleset.passage(self, c, o, move) for i, o in self.occupancy().items() if o is not c}
            req = MoveRequest(at=c.at, size=c.size, budget=self.budget(c, move.mode), mode=move.mode,
                              occupied=occupied, flying=move.flying, extra_per_square=move.extra_per_square)
            given = path_cost(self.grid, self.ruleset.policy, req, list(action.path))
            if given is None or given > self.budget(c, move.mode):
                raise IllegalActionError(f"{c.id} cannot take that path (blocked, a corner, or too long)",
                                         rule="E5-059")
            path, cost = list(action.path), given
        self.turn_state.moved += cost
        self.log(Event("move", f"{c.id} moves to {list(action.to)} ({cost} squares)", "E5-030",
                       {"actor": c.id, "to": list(action.to), "path": [list(s) for s in path]}))
        self.walk(c, path)

    def walk(self, c: Creature, path: list[Coord], provoke: bool = True) -> None:
        """Square by square; leaving a hostile creature's reach provokes its opportunity attack, resolved
        before the creature leaves (E5-046, E5-097, E5-098), unless it took the Disengage action (E5-099)."""
        for sq in path:
            if provoke and not self.turn_state.disengaged:
                for e in self.enemies_of(c):
                    if not self._oa_possible(e, c, sq):
                        continue
                    self._opportunity_attack(e, c)
                    if not self._can_go_on(c):
                        return
            before = c.at
            c.at = sq
            self._drag_along(c, before)
            self._readied_attacks(c)
            if not self._can_go_on(c):
                return
        for other in self.creatures.values():
            if other.marks.get("grappled_by") == c.id:
                self._grapple_check(other)  # the grappler moved away: the grapple ends (G5-01)
        self._check_end()

    def _can_go_on(self, c: Creature) -> bool:
        """A move goes on unless the creature dropped or its speed became 0 (G5-01)."""
        return c.status == "active" and max(self.ruleset.speeds(self, c).values(), default=0) > 0

    def _drag_along(self, c: Creature, left: Coord) -> None:
        """A grappler that moves drags or carries the creature it grapples (E5-108): it takes the square
        the grappler left when it would otherwise fall out of reach."""
        for other in self.creatures.values():
            if other.marks.get("grappled_by") != c.id or other.status == "dead" or other.size != 1:
                continue
            if geometry.adjacent(c.squares, other.squares):
                continue
            occupied = self.occupancy()
            if self.grid.index(left) not in occupied and self.grid.kind(left).entry == "all":
                other.at = left

    def _readied_attacks(self, c: Creature) -> None:
        """A readied attack goes off when an enemy comes within the readier's reach (E5-072, E5-073)."""
        for e in self.enemies_of(c):
            if not e.marks.get("readied") or not combat.can_react(self, e):
                continue
            spec = self._best_melee(e)
            if spec is None or not combat.in_range(self, e, spec, c):
                continue
            e.marks.pop("readied", None)
            e.marks["reaction_used"] = True
            self.log(Event("readied", f"{c.id} comes within reach: {e.id}'s readied attack", "E5-073",
                           {"actor": e.id, "target": c.id}))
            combat.resolve_attack(self, e, spec, c, reaction=True)
            if c.status != "active":
                return

    def _oa_possible(self, e: Creature, c: Creature, nxt: Coord) -> bool:
        if not combat.can_react(self, e) or not combat.can_see(self, e, c):
            return False
        melee = self._best_melee(e)
        if melee is None:
            return False
        reach = combat.reach_of(melee)
        here = geometry.direct_distance(self.ruleset.policy, c.squares, e.squares)
        from skirmish.core.coords import footprint

        there = geometry.direct_distance(self.ruleset.policy, footprint(nxt, c.size), e.squares)
        return here <= reach < there

    def _best_melee(self, c: Creature) -> Any:
        melee = [a for a in c.template.attacks if a.kind == "melee"]
        return max(melee, key=lambda a: (float(a.damage.mean()) if a.damage else 0.0), default=None)

    def _opportunity_attack(self, e: Creature, c: Creature) -> None:
        spec = self._best_melee(e)
        e.marks["reaction_used"] = True
        self.log(Event("opportunity", f"{c.id} leaves {e.id}'s reach: {e.id} makes an opportunity attack", "E5-097",
                       {"actor": e.id, "target": c.id}))
        combat.resolve_attack(self, e, spec, c, reaction=True)

    def _can_stand(self, c: Creature) -> bool:
        """Standing up costs half its speed; not possible with too little movement left or speed 0 (E5-039)."""
        speed = self.ruleset.speeds(self, c).get("walk", 0)
        return speed > 0 and self.budget(c, "walk") >= speed // 2

    # Attacks.

    def _attack_actions(self, c: Creature) -> list[Action]:
        t = self.turn_state
        out: list[Action] = []
        if not (t.action or t.attacks_left > 0):
            return out
        for spec in c.template.attacks:
            if t.attacks_left > 0 and t.multiattack and spec.name not in t.multiattack:
                continue
            for target in self.enemies_of(c):
                # In range needs line of effect, so a creature behind total cover is no target (E5-114).
                if target.status != "dead" and combat.in_range(self, c, spec, target):
                    out.append(Attack(c.id, attack=spec.name, target=target.id))
        if t.action or t.attacks_left > 0:
            for target in self.enemies_of(c):
                # Grapple and shove: a target no more than one size larger (E5-104, E5-109).
                if target.status == "active" and geometry.adjacent(c.squares, target.squares) and \
                        target.template.size_rank <= c.template.size_rank + 1:
                    out.append(Targeted(c.id, what="grapple", target=target.id))
                    out.append(Targeted(c.id, what="shove", target=target.id, option="prone"))
                    out.append(Targeted(c.id, what="shove", target=target.id, option="push"))
        return out

    def _start_attack_action(self, c: Creature) -> None:
        """The first attack of the Attack action spends the action; Extra Attack or Multiattack give the
        rest (E5-063, E5-033)."""
        t = self.turn_state
        if t.attacks_left > 0:
            return
        if not t.action:
            raise IllegalActionError(f"{c.id} has used its action", rule="E5-016")
        t.action = False
        multi = tuple(stats(c).get("multiattack") or ())
        if multi:
            t.multiattack = multi
            t.attacks_left = len(multi)
        else:
            t.attacks_left = int((stats(c).get("features") or {}).get("extra_attack", 1))

    def _attack(self, c: Creature, action: Attack) -> None:
        if incapacitated(c):
            raise IllegalActionError(f"{c.id} is incapacitated and takes no actions", rule="G5-01")
        spec = c.template.attack(action.attack)
        if spec is None:
            raise InvalidActionError(f"{c.id} has no attack {action.attack!r}")
        target = self.creature(action.target)
        if self.ruleset.allies(c, target) or target.status == "dead":
            raise IllegalActionError(f"{target.id} is not a target for {c.id}", rule="E5-078")
        if not combat.in_range(self, c, spec, target):
            rule = "E5-114" if not self.line_of_effect(c, target) else "E5-091"
            raise IllegalActionError(f"{target.id} is out of {spec.name}'s range or behind total cover", rule=rule)
        t = self.turn_state
        if action.offhand:
            self._check_offhand(c, spec)
            t.bonus = False
        else:
            if t.attacks_left > 0 and t.multiattack and spec.name not in t.multiattack:
                raise IllegalActionError(f"{spec.name} is not left in {c.id}'s multiattack", rule="E5-063")
            self._start_attack_action(c)
            t.attacks_left -= 1
            if t.multiattack:
                left = list(t.multiattack)
                left.remove(spec.name)
                t.multiattack = tuple(left)
            if "light" in (spec.extra.get("properties") or []) and spec.kind == "melee":
                t.light_attack = True
                t.light_weapon = spec.name
        damage = spec.damage
        if action.versatile and spec.extra.get("versatile_damage"):
            damage = DiceExpr.parse(spec.extra["versatile_damage"])
        combat.resolve_attack(self, c, spec, target, damage=damage, offhand=action.offhand,
                              knock_out=action.knock_out)

    def _check_offhand(self, c: Creature, spec: Any) -> None:
        """Two-weapon fighting: after attacking with a light melee weapon, a bonus action attack with a
        different light melee weapon (E5-100), which may be thrown if it has the thrown property (E5-102)."""
        t = self.turn_state
        if not t.bonus or not t.light_attack:
            raise IllegalActionError("an off-hand attack needs the bonus action, after an Attack action with a "
                                     "light melee weapon", rule="E5-100")
        props = spec.extra.get("properties") or []
        if "light" not in props or not (spec.kind == "melee" or "thrown" in props):
            raise IllegalActionError(f"{spec.name} is not a light melee weapon", rule="E5-100")
        if spec.name == t.light_weapon:
            raise IllegalActionError(f"the off-hand attack is with a different weapon than {spec.name}",
                                     rule="E5-100")

    # Spells.

    def spend_slot(self, c: Creature, level: int) -> bool:
        """Spend the lowest spell slot of at least ``level``; False if none is left."""
        slots = c.marks.get("slots") or {}
        for lv in sorted(slots):
            if lv >= level and slots[lv] > 0:
                slots[lv] -= 1
                return True
        return False

    def _slot_for(self, c: Creature, spell: Spell, wanted: int | None) -> int | None:
        if spell.level == 0:
            return 0
        slots = c.marks.get("slots") or {}
        if wanted is not None:
            return wanted if wanted >= spell.level and slots.get(wanted, 0) > 0 else None
        for lv in sorted(slots):
            if lv >= spell.level and slots[lv] > 0:
                return lv
        return None

    def _spell_actions(self, c: Creature) -> list[Action]:
        book = spell_book()
        t = self.turn_state
        out: list[Action] = []
        for name in stats(c).get("spells") or []:
            spell = book.get(name)
            if spell is None or spell.casting_time == "reaction" or not self._can_cast_now(c, spell):
                continue
            if self._slot_for(c, spell, None) is None:
                continue
            area = spell.area_spec()
            if area is not None and area.shape in ("radius", "cube"):
                for e in self.enemies_of(c):
                    if e.status == "active" and (self.distance(c, e) or 99) <= spell.range:
                        out.append(Cast(c.id, spell=name, at=e.at))
            elif area is not None:
                for e in self.enemies_of(c):
                    if e.status == "active" and (self.distance(c, e) or 99) <= int(area.size):
                        out.append(Cast(c.id, spell=name, at=e.at))
            elif spell.heal:
                for a in self.creatures.values():
                    if self.ruleset.allies(c, a) and a.status != "dead" and a.hp < a.template.max_hp and \
                            self._spell_reaches(c, spell, a):
                        out.append(Cast(c.id, spell=name, targets=(a.id,)))
            elif spell.bless:
                allies = [a for a in self.creatures.values() if self.ruleset.allies(c, a) and conscious(a)
                          and self._spell_reaches(c, spell, a)]
                if allies and not c.marks.get("concentration"):
                    out.append(Cast(c.id, spell=name, targets=tuple(a.id for a in allies[:spell.targets])))
            else:
                for e in self.enemies_of(c):
                    if e.status != "dead" and self._spell_reaches(c, spell, e):
                        out.append(Cast(c.id, spell=name, targets=(e.id,)))
        del t
        return out

    def _can_cast_now(self, c: Creature, spell: Spell) -> bool:
        t = self.turn_state
        if spell.casting_time == "bonus":
            return t.bonus and not t.leveled_spell
        if not t.action or t.attacks_left > 0:
            return False
        # After a bonus-action spell, only a cantrip with a casting time of one action (G5-12).
        return not (t.bonus_spell and spell.level > 0)

    def _cast(self, c: Creature, action: Cast) -> None:
        """Cast a Spell (E5-064): spell attacks, saves for half, darts, areas with one damage roll for
        all (E5-118), healing, bless with concentration (G5-12)."""
        if incapacitated(c):
            raise IllegalActionError(f"{c.id} is incapacitated and takes no actions", rule="G5-01")
        spell = spell_book().get(action.spell)
        if spell is None or action.spell not in (stats(c).get("spells") or []):
            raise InvalidActionError(f"{c.id} does not know the spell {action.spell!r}")
        if spell.casting_time == "reaction":
            raise IllegalActionError(f"{action.spell} is cast as a reaction, when its trigger happens", rule="E5-027")
        if not self._can_cast_now(c, spell):
            rule = "G5-12" if self.turn_state.bonus_spell or self.turn_state.leveled_spell else "E5-016"
            raise IllegalActionError(f"{c.id} cannot cast {action.spell} now", rule=rule)
        slot = self._slot_for(c, spell, action.slot)
        if slot is None:
            raise IllegalActionError(f"{c.id} has no spell slot for {action.spell}", rule="G5-12")
        targets = [self.creature(t) for t in action.targets]
        self._check_spell_targets(c, spell, targets, action)
        t = self.turn_state
        if spell.casting_time == "bonus":
            t.bonus = False
            t.bonus_spell = True
        else:
            t.action = False
        if spell.level > 0:
            c.marks["slots"][slot] -= 1
            if spell.casting_time == "action":
                t.leveled_spell = True
        self.log(Event("cast", f"{c.id} casts {action.spell}" + (f" with a level {slot} slot" if slot else ""),
                       "E5-064", {"actor": c.id, "spell": action.spell, "slot": slot}))
        dc = 8 + int(stats(c).get("proficiency_bonus", 2)) + self._spell_mod(c)
        damage = self._spell_damage(c, spell, slot)
        if spell.heal:
            expr = _upcast(DiceExpr.parse(spell.heal), spell, slot)
            for target in targets:
                amount = self.dice.roll_expr(expr, f"{action.spell} healing").total + self._spell_mod(c)
                combat.heal(self, target, max(0, amount), action.spell)
        if spell.bless:
            combat.drop_concentration(self, c)
            c.marks["concentration"] = action.spell
            for target in targets:
                target.marks["blessed"] = c.id
                self.log(Event("bless", f"{target.id} is blessed", "G5-12", {"creature": target.id}))
        if spell.darts and damage is not None:
            darts = spell.darts + max(0, slot - spell.level)
            expr = DiceExpr.parse(spell.damage or "1d4+1 force")
            for i in range(darts):
                target = targets[i % len(targets)]
                if target.status != "dead":
                    combat.deal(self, c, [target], expr, why=f"{action.spell} dart {i + 1}")
        elif spell.attack and damage is not None:
            spec = _spell_attack_spec(c, spell, action.spell, self)
            for target in targets:
                combat.resolve_attack(self, c, spec, target, damage=damage, spell_attack=True)
        elif spell.save and damage is not None:
            hit = targets if spell.area is None else self._spell_area(c, spell, action.at)
            saved: set[str] = set()
            origins = self._area_origins(c, spell, action.at)
            for target in hit:
                bonus = 0
                if spell.save == "dex" and not spell.no_cover:
                    # Cover against an area is judged from its point of origin (E5-110, the DMG's grid).
                    cover = combat.cover_bonus(self, c, target, "area", origins)
                    bonus = cover or 0
                if combat.saving_throw(self, target, spell.save, dc, action.spell, bonus=bonus):
                    saved.add(target.id)
            damaged = [x for x in hit if x.id not in saved or spell.half]
            if damaged:
                combat.deal(self, c, damaged, damage, halved=saved if spell.half else None, why=action.spell)
        self.noisy = True

    def _check_spell_targets(self, c: Creature, spell: Spell, targets: list[Creature], action: Cast) -> None:
        if spell.area is not None:
            if action.at is None:
                raise InvalidActionError(f"{action.spell} needs at: [x, y]")
            origin_range = spell.range if spell.area_spec().shape in ("radius", "cube") else 0  # type: ignore[union-attr]
            d = geometry.distance(self.grid, self.ruleset.policy, c.squares, [action.at])
            if origin_range and (d is None or d > origin_range):
                raise IllegalActionError(f"{list(action.at)} is beyond {action.spell}'s range", rule="E5-092")
            return
        if not targets:
            raise InvalidActionError(f"{action.spell} needs a target")
        if len(targets) > max(spell.targets, spell.darts or 1):
            raise IllegalActionError(f"{action.spell} has at most {spell.targets} targets", rule="E5-078")
        for target in targets:
            if not self._spell_reaches(c, spell, target):
                raise IllegalActionError(f"{target.id} is out of {action.spell}'s range or line of effect, or "
                                         "behind total cover", rule="E5-092")

    def _spell_reaches(self, c: Creature, spell: Spell, target: Creature) -> bool:
        """A spell reaches a target within its range (touch: adjacent or itself) and line of effect, not
        behind total cover when it deals damage (E5-092, E5-114)."""
        if target is c:
            return spell.range >= 0 and not spell.damage
        d = self.distance(c, target)
        # Line of effect: a target behind total cover cannot be targeted (E5-114).
        return d is not None and d <= max(spell.range, 1) and self.line_of_effect(c, target)

    def _spell_area(self, c: Creature, spell: Spell, at: Coord | None) -> list[Creature]:
        area = spell.area_spec()
        assert area is not None and at is not None
        if area.shape == "cone":
            from skirmish.core import areas

            squares, apex, owner = areas.cone(self.grid, c.squares, at, int(area.size))
            hit = [x for x in self.on_map() if x is not c and any(s in squares for s in x.squares)
                   and any(geometry.point_sees_square(self.grid, "effect", apex, s, owner) for s in x.squares)]
            return hit
        if area.shape == "line":
            from skirmish.core import areas

            start, owner = areas.nearest_corner(c.squares, centre(at))
            end = areas.far_corner(at, start)
            squares = set(areas.line_squares(self.grid, start, end, self.grid.mask("effect"), owner))
            return [x for x in self.on_map() if x is not c and any(s in squares for s in x.squares)]
        from skirmish.core import areas

        squares = areas.radius(self.grid, self.ruleset.policy, at, int(area.size)) if area.shape == "radius" \
            else areas.block(self.grid, at, int(area.size))
        return [x for x in self.on_map() if any(s in squares for s in x.squares)
                and geometry.line_of_effect(self.grid, [at], x.squares)]

    def _area_origins(self, c: Creature, spell: Spell, at: Coord | None) -> Any:
        """Where an area spell comes from: the corners of its origin square, or a cone's or line's apex."""
        from skirmish.core import areas
        from skirmish.core.coords import corners

        area = spell.area_spec()
        if area is None or at is None:
            return None
        if area.shape in ("cone", "line"):
            apex, owner = areas.nearest_corner(c.squares, centre(at))
            return [(apex, owner)]
        return [(p, at) for p in corners(at)]

    def _spell_mod(self, c: Creature) -> int:
        ability = stats(c).get("spellcasting")
        return ability_mod(c, ability) if ability else 0

    def _spell_damage(self, c: Creature, spell: Spell, slot: int) -> DiceExpr | None:
        if spell.damage is None:
            return None
        text = spell.damage
        level = int(stats(c).get("level", 0)) or 1
        for at_level, dmg in sorted(spell.scaling.items()):
            if level >= at_level:
                text = dmg
        return _upcast(DiceExpr.parse(text), spell, slot)

    # The other actions.

    def _simple(self, c: Creature, action: Simple) -> None:
        what = action.what
        t = self.turn_state
        if what == "end_turn":
            self._end_turn(c)
            self._advance()
            return
        if incapacitated(c):
            raise IllegalActionError(f"{c.id} is incapacitated and takes no actions", rule="G5-01")
        if what == "stand_up":
            speed = self.ruleset.speeds(self, c).get("walk", 0)
            if not c.has("prone") or speed <= 0 or self.budget(c, "walk") < speed // 2:
                raise IllegalActionError(f"{c.id} cannot stand: half its speed is needed", rule="E5-039")
            t.moved += speed // 2
            combat.remove_condition(c, "prone")
            self.log(Event("stand_up", f"{c.id} stands up ({speed // 2} squares of movement)", "E5-039",
                           {"actor": c.id}))
            return
        if what == "drop_prone":
            combat.add_condition(self, c, "prone", c)
            self.log(Event("drop_prone", f"{c.id} drops prone", "E5-038", {"actor": c.id}))
            return
        bonus_ok = self._bonus_allows(c, what)
        if action.bonus:
            if not (t.bonus and bonus_ok):
                raise IllegalActionError(f"{c.id} has no bonus action for {what}", rule="E5-019")
            t.bonus = False
        elif what == "second_wind":
            if not (t.bonus and bonus_ok):
                raise IllegalActionError(f"{c.id} has no Second Wind left", rule="E5-019")
            t.bonus = False
        else:
            if not t.action or t.attacks_left > 0:
                raise IllegalActionError(f"{c.id} has used its action", rule="E5-016")
            t.action = False
        if what == "dash":
            t.dashes += 1
            self.log(Event("dash", f"{c.id} dashes", "E5-065", {"actor": c.id}))
        elif what == "disengage":
            t.disengaged = True
            self.log(Event("disengage", f"{c.id} disengages: no opportunity attacks this turn", "E5-067",
                           {"actor": c.id}))
        elif what == "dodge":
            c.marks["dodging"] = True
            self.log(Event("dodge", f"{c.id} dodges until its next turn", "E5-068", {"actor": c.id}))
        elif what == "hide":
            self._hide(c)
        elif what == "search":
            self._search(c)
        elif what == "escape":
            self._escape(c)
        elif what == "second_wind":
            c.marks["second_wind_used"] = True
            amount = self.roll(10, f"second wind of {c.id}", None) + int(stats(c).get("level", 1))
            combat.heal(self, c, amount, "Second Wind")
        elif what == "ready":
            c.marks["readied"] = True
            self.log(Event("ready", f"{c.id} readies an attack against the next enemy that comes within its reach",
                           "E5-072", {"actor": c.id}))
        else:
            raise InvalidActionError(f"{what} is not an action here")

    def _bonus_allows(self, c: Creature, what: str) -> bool:
        f = stats(c).get("features") or {}
        if what == "second_wind":
            return bool(f.get("second_wind")) and not c.marks.get("second_wind_used")
        if what in ("dash", "disengage", "hide") and f.get("cunning_action"):
            return True
        if what in ("disengage", "hide") and f.get("nimble_escape"):
            return True
        return what == "dash" and bool(f.get("aggressive"))

    def _bonus_actions(self, c: Creature) -> list[Action]:
        t = self.turn_state
        out: list[Action] = []
        if not t.bonus:
            return out
        for what in ("dash", "disengage", "hide", "second_wind"):
            if self._bonus_allows(c, what) and (what != "hide" or self._can_hide(c)):
                out.append(Simple(c.id, what=what, bonus=what != "second_wind"))
        if t.light_attack:
            lights = [a for a in c.template.attacks if "light" in (a.extra.get("properties") or [])
                      and (a.kind == "melee" or "thrown" in (a.extra.get("properties") or []))
                      and a.name != t.light_weapon]
            if lights:
                for spec in lights:
                    for e in self.enemies_of(c):
                        if e.status != "dead" and combat.in_range(self, c, spec, e):
                            out.append(Attack(c.id, attack=spec.name, target=e.id, offhand=True))
        return out

    def _can_hide(self, c: Creature) -> bool:
        """Hiding needs to be out of every enemy's sight (G5-06: you can't hide from a creature that sees you)."""
        return not c.marks.get("hidden") and not any(
            conscious(e) and self.line_of_sight(e, c) for e in self.enemies_of(c))

    def _hide(self, c: Creature) -> None:
        """Hide (E5-071): Dexterity (Stealth); hidden from every enemy whose passive Perception it beats."""
        if not self._can_hide(c):
            raise IllegalActionError(f"{c.id} is in sight of an enemy and cannot hide", rule="E5-071")
        roll = self.roll(20, f"stealth of {c.id}", "E5-071")
        total = roll + combat.check_bonus(c, "stealth", "dex")
        best = max((combat.passive(e, "perception", "wis") for e in self.enemies_of(c) if conscious(e)), default=0)
        if total > best:
            c.marks["hidden"] = total
        self.log(Event("hide", f"{c.id} tries to hide: {total} against passive Perception {best}, "
                               + ("hidden" if total > best else "not hidden"), "E5-071", {"actor": c.id}))

    def _search(self, c: Creature) -> None:
        """Search (E5-075): Wisdom (Perception) against each hidden enemy's Stealth."""
        roll = self.roll(20, f"perception of {c.id}", "E5-075")
        total = roll + combat.check_bonus(c, "perception", "wis")
        for e in self.enemies_of(c):
            if e.marks.get("hidden") and total >= int(e.marks["hidden"]):
                e.marks.pop("hidden", None)
                self.log(Event("found", f"{c.id} finds {e.id} ({total})", "E5-075", {"actor": c.id, "target": e.id}))

    def _help_actions(self, c: Creature) -> list[Action]:
        out: list[Action] = []
        for e in self.enemies_of(c):
            if e.status == "active" and geometry.adjacent(c.squares, e.squares):
                for a in self.on_map():
                    if a is not c and self.ruleset.allies(c, a) and conscious(a):
                        out.append(Targeted(c.id, what="help", target=a.id, against=e.id))
        return out

    def _stabilize_actions(self, c: Creature) -> list[Action]:
        return [Targeted(c.id, what="stabilize", target=a.id) for a in self.creatures.values()
                if a.status == "down" and not a.marks.get("stable") and geometry.adjacent(c.squares, a.squares)]

    def _targeted(self, c: Creature, action: Targeted) -> None:
        t = self.turn_state
        target = self.creature(action.target)
        if incapacitated(c):
            raise IllegalActionError(f"{c.id} is incapacitated", rule="G5-01")
        if action.what in ("grapple", "shove"):
            if not geometry.adjacent(c.squares, target.squares) or self.ruleset.allies(c, target):
                raise IllegalActionError(f"{target.id} is not a hostile creature within reach", rule="E5-104")
            if target.template.size_rank > c.template.size_rank + 1:
                raise IllegalActionError(f"{target.id} is more than one size larger", rule="E5-104")
            self._start_attack_action(c)
            t.attacks_left -= 1
            self._contest(c, target, action)
            return
        if not t.action or t.attacks_left > 0:
            raise IllegalActionError(f"{c.id} has used its action", rule="E5-016")
        if action.what == "help":
            enemy = self.creature(action.against)
            if not geometry.adjacent(c.squares, enemy.squares):
                raise IllegalActionError(f"{enemy.id} is not within 5 feet of {c.id}", rule="E5-070")
            t.action = False
            helped = dict(enemy.marks.get("helped_against") or {})
            helped[target.id] = c.id
            enemy.marks["helped_against"] = helped
            self.log(Event("help", f"{c.id} helps {target.id} against {enemy.id}", "E5-070",
                           {"actor": c.id, "target": target.id}))
        elif action.what == "stabilize":
            if target.status != "down" or not geometry.adjacent(c.squares, target.squares):
                raise IllegalActionError(f"{target.id} is not a dying creature within reach", rule="E5-139")
            t.action = False
            roll = self.roll(20, f"medicine of {c.id}", "E5-139")
            total = roll + combat.check_bonus(c, "medicine", "wis")
            ok = total >= 10
            self.log(Event("stabilize", f"{c.id} tends {target.id}: Medicine {total} vs DC 10, "
                                        + ("stable" if ok else "no luck"), "E5-139", {"actor": c.id, "success": ok}))
            if ok:
                target.marks["stable"] = True
                combat.add_condition(self, target, "stable", c)
        else:
            raise InvalidActionError(f"unknown action {action.what!r}")

    def _contest(self, c: Creature, target: Creature, action: Targeted) -> None:
        """Grapple and shove: Strength (Athletics) against the target's choice of Strength (Athletics) or
        Dexterity (Acrobatics); an incapacitated target loses; a tie changes nothing (E5-103..E5-109,
        Decisions)."""
        mine = self.roll(20, f"athletics of {c.id}", "E5-105") + combat.check_bonus(c, "athletics", "str")
        if incapacitated(target):
            theirs, won = -1, True
        else:
            best = max(combat.check_bonus(target, "athletics", "str"), combat.check_bonus(target, "acrobatics", "dex"))
            theirs = self.roll(20, f"contest of {target.id}", "E5-105") + best
            won = mine > theirs
        what = action.what if action.what == "grapple" else f"shove ({action.option or 'prone'})"
        rule = "E5-105" if action.what == "grapple" else "E5-109"
        self.log(Event("contest", f"{c.id} tries to {what} {target.id}: {mine} against {theirs}, "
                                  + ("success" if won else "failure"), rule,
                       {"actor": c.id, "target": target.id, "success": won}))
        self.noisy = True
        if not won:
            return
        if action.what == "grapple":
            target.marks["grappled_by"] = c.id
            target.marks["escape_dc"] = None
            combat.add_condition(self, target, "grappled", c)
        elif action.option == "push":
            self._push(c, target, 1)
        else:
            combat.add_condition(self, target, "prone", c)

    def _push(self, c: Creature, target: Creature, squares: int) -> None:
        """Push 5 feet away (E5-109); forced movement provokes nothing (E5-099)."""
        from skirmish.core.coords import footprint

        best = None
        here = geometry.direct_distance(self.ruleset.policy, c.squares, target.squares)
        occupied = self.occupancy()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                sq = (target.at[0] + dx * squares, target.at[1] + dy * squares)
                fp = footprint(sq, target.size)
                if any(not self.grid.inside(s) or self.grid.kind(s).entry != "all"
                       or (occupied.get(self.grid.index(s)) not in (None, target)) for s in fp):
                    continue
                d = geometry.direct_distance(self.ruleset.policy, c.squares, fp)
                if d > here and (best is None or d > best[0]):
                    best = (d, sq)
        if best is not None:
            target.at = best[1]
            self.log(Event("push", f"{c.id} pushes {target.id} to {list(best[1])}", "E5-109",
                           {"actor": c.id, "target": target.id, "to": list(best[1])}))
            self._grapple_check(target)

    def _escape(self, c: Creature) -> None:
        """Escape a grapple: Strength (Athletics) or Dexterity (Acrobatics) against the grappler's
        Strength (Athletics), or a stat block's escape DC (E5-107)."""
        grappler = self.creatures.get(c.marks.get("grappled_by") or "")
        mine = self.roll(20, f"escape of {c.id}", "E5-107") + max(
            combat.check_bonus(c, "athletics", "str"), combat.check_bonus(c, "acrobatics", "dex"))
        dc = c.marks.get("escape_dc")
        if dc is None and grappler is not None:
            dc = self.roll(20, f"grapple of {grappler.id}", "E5-107") + combat.check_bonus(grappler, "athletics", "str")
        ok = mine > int(dc or 0) if c.marks.get("escape_dc") is None else mine >= int(dc or 0)
        self.log(Event("escape", f"{c.id} tries to escape: {mine} against {dc}, " + ("free" if ok else "still held"),
                       "E5-107", {"actor": c.id, "success": ok}))
        if ok:
            self._release(c)

    def _release(self, c: Creature) -> None:
        combat.remove_condition(c, "grappled")
        c.marks.pop("grappled_by", None)
        c.marks.pop("escape_dc", None)

    def _grapple_check(self, c: Creature) -> None:
        """A grapple ends when the grappled creature is moved out of the grappler's reach (G5-01)."""
        grappler = self.creatures.get(c.marks.get("grappled_by") or "")
        if grappler is None:
            return
        if not geometry.adjacent(c.squares, grappler.squares) or incapacitated(grappler):
            self._release(c)


def _upcast(expr: DiceExpr, spell: Spell, slot: int) -> DiceExpr:
    """Extra dice for a slot above the spell's level."""
    if not spell.upcast or slot <= spell.level:
        return expr
    extra = DiceExpr.parse(spell.upcast)
    text = expr.text + "".join(f" + {extra.text}" for _ in range(slot - spell.level))
    return DiceExpr.parse(text)


def _spell_attack_spec(c: Creature, spell: Spell, name: str, state: Dnd5eState) -> Any:
    from skirmish.core.creatures import Attack as AttackSpec

    bonus = int(stats(c).get("proficiency_bonus", 2)) + state._spell_mod(c)
    return AttackSpec(name=name, kind=spell.attack or "ranged", range=spell.range, bonus=bonus, damage=None)


__all__ = ["AreaSpec", "Dnd5eState"]
