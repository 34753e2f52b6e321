"""A ddm2008 game in progress: rounds, initiative, turns of two activations, movement and victory.

Attacks, damage and conditions live in ``combat``; this module holds the turn structure
(M08-028..M08-035), activation (M08-036..M08-039), movement with opportunity attacks
(M08-040..M08-059, M08-113..M08-120), terrain that acts on a turn (M08-125, M08-131),
and the scenarios' victory points and tie-breaker (M08-153..M08-158).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from skirmish.core import geometry
from skirmish.core.coords import Coord, footprint
from skirmish.core.creatures import Condition, Creature, Duration
from skirmish.core.events import Event
from skirmish.core.fields import Copy
from skirmish.core.game import State
from skirmish.core.pathing import Reach
from skirmish.core.position import Position
from skirmish.errors import IllegalActionError, InvalidActionError
from skirmish.rulesets.ddm2008 import combat, setup
from skirmish.rulesets.ddm2008.actions import (
    Action,
    Activate,
    Attack,
    Charge,
    ChooseFirst,
    ChooseMap,
    ChooseStart,
    EndTurn,
    Move,
    Place,
    Shift,
    Teleport,
    UsePower,
)
from skirmish.rulesets.ddm2008.options import Ddm2008Options

INACTIVE = frozenset(("stunned", "helpless"))
"""Conditions that make a creature inactive: no actions (M08-141, M08-142)."""
NO_REACTIONS = frozenset(("dazed", "staggered", "stunned", "helpless", "confused"))
"""Conditions under which a creature makes no opportunity attacks (M08-139, GAP-M08-3)."""


@dataclass(slots=True)
class Activation:
    """What the creature being activated has done this turn (M08-036..M08-039)."""

    move_used: bool = False
    attack_used: bool = False
    moved: bool = False
    no_more_moves: bool = False
    no_actions: bool = False
    controller: str = ""
    on_teleporter: bool = False
    oa_taken: set[str] = field(default_factory=set)
    champion_used: set[str] = field(default_factory=set)
    no_more_moves_rule: str = "M08-039"
    move_left: int = 0
    continue_budget: int = 0
    last: str = ""

    def copy(self) -> Activation:
        return Activation(self.move_used, self.attack_used, self.moved, self.no_more_moves, self.no_actions,
                          self.controller, self.on_teleporter, set(self.oa_taken), set(self.champion_used),
                          self.no_more_moves_rule, self.move_left, self.continue_budget, self.last)


class Ddm2008State(Position, State):
    """A 2008 D&D Miniatures game."""

    __slots__ = (
        "act",
        "activated",
        "active",
        "bloodied",
        "decisions",
        "first_side",
        "first_turn",
        "initiative_winner",
        "letters",
        "noisy",
        "opts",
        "over",
        "phase",
        "placing",
        "quiet_rounds",
        "reach_memo",
        "setup_winner",
        "teleported",
        "turn_left",
        "turn_side",
        "uses",
        "vp",
        "win",
    )
    fields: ClassVar[Mapping[str, Copy]] = {
        "act": Copy.RECORD, "activated": Copy.COPY, "active": Copy.SHARE, "bloodied": Copy.COPY,
        "decisions": Copy.RECORDS, "first_side": Copy.SHARE, "first_turn": Copy.SHARE,
        "initiative_winner": Copy.SHARE, "letters": Copy.SHARE, "noisy": Copy.SHARE, "opts": Copy.SHARE,
        "over": Copy.SHARE, "phase": Copy.SHARE, "placing": Copy.SHARE, "quiet_rounds": Copy.SHARE,
        "reach_memo": Copy.SCRATCH, "setup_winner": Copy.SHARE, "teleported": Copy.COPY,
        "turn_left": Copy.SHARE, "turn_side": Copy.SHARE, "uses": Copy.COPY, "vp": Copy.COPY, "win": Copy.SHARE,
    }

    # Construction.

    @classmethod
    def from_position(cls, pos: Position) -> Ddm2008State:
        """Start a game from a scenario's position; initiative is rolled unless ``start`` sets it."""
        state = cls.__new__(cls)
        Position._copy_into(pos, state)
        opts = pos.ruleset.options
        assert isinstance(opts, Ddm2008Options)
        state.opts = opts
        sides = pos.sides()
        if opts.sides:
            state.letters = {side: letter for letter, side in opts.sides.items()}
        else:
            state.letters = {side: "ab"[i] for i, side in enumerate(sides[:2])}
        state.vp = {side: 0 for side in sides}
        state.uses = {}
        for c in state.creatures.values():
            for a in c.template.attacks:
                if a.extra.get("uses"):
                    state.uses[(c.id, a.name)] = int(a.extra["uses"])
            for p in c.template.stats.get("special_powers", []):
                if p.get("uses"):
                    state.uses[(c.id, p["name"])] = int(p["uses"])
            if c.template.stats.get("champion"):
                state.uses[(c.id, "champion")] = int(c.template.stats["champion"])
        state.bloodied = {c.id for c in state.creatures.values() if combat.is_bloodied(c)}
        state.activated = set()
        state.active = None
        state.act = Activation()
        state.teleported = set()
        state.quiet_rounds = 0
        state.reach_memo = None
        state.noisy = False
        state.over = False
        state.win = None
        state.first_turn = True
        state.turn_side = None
        state.turn_left = 0
        state.first_side = None
        state.initiative_winner = None
        state.phase = "start"
        state.setup_winner = None
        state.placing = None
        state.decisions = [dict(d) for d in pos.start.get("decisions") or []]
        if pos.start.get("setup"):
            state.setup_winner = setup.setup_roll(state)
            state.phase = "choose_map" if len(pos.start["setup"]) > 1 else "choose_start"
            if state.phase == "choose_start":
                setup.choose_map(state, ChooseMap(state.current_actor or "", map=pos.start["setup"][0]))
            return state
        state._start_round(first_side=pos.start.get("first_side"))
        return state

    # The game interface.

    @property
    def current_side(self) -> str | None:
        if self.over:
            return None
        if self.phase == "choose_first":
            return self.initiative_winner
        if self.phase == "choose_map":
            return self.setup_winner
        if self.phase == "choose_start":
            return next(s for s in self.sides() if s != self.setup_winner)
        if self.phase == "place":
            return self.placing
        if self.phase == "act" and self.act.controller:
            return self.act.controller
        return self.turn_side

    @property
    def current_actor(self) -> str | None:
        if self.over:
            return None
        if self.phase == "act":
            return self.active
        side = self.current_side
        if self.phase == "activate":
            left = self._unactivated(side)
            return left[0].id if left else None
        if self.phase == "place":
            return next((c.id for c in self.creatures.values() if c.side == side and c.status == "removed"), None)
        for c in self.creatures.values():
            if c.side == side and (c.on_map or self.phase in ("choose_map", "choose_start")):
                return c.id
        return None

    def is_over(self) -> bool:
        return self.over

    @property
    def winner(self) -> str | None:
        return self.win

    @property
    def score(self) -> dict[str, int]:
        return dict(self.vp)

    def legal_actions(self) -> list[Action]:
        """Every action allowed now; an area attack is listed at the origins that affect a creature."""
        if self.over:
            return []
        if self.phase == "choose_first":
            winner = self.initiative_winner
            actor = self.current_actor or ""
            return [ChooseFirst(actor, side=s) for s in self._sides_in_play()] if winner else []
        if self.phase == "activate":
            return [Activate(c.id) for c in self._unactivated(self.turn_side)]
        if self.phase == "choose_map":
            return [ChooseMap(self.current_actor or "", map=m) for m in self.start["setup"]]
        if self.phase == "choose_start":
            return [ChooseStart(self.current_actor or "", area=x) for x in ("a", "b")]
        if self.phase == "place":
            c = self.creatures[self.current_actor]  # type: ignore[index]
            return [Place(c.id, at=sq) for sq in setup.placements(self, c)]
        out: list[Action] = []
        c = self.creatures[self.active]  # type: ignore[index]
        self.reach_memo = {}  # moves and charges ask the same movement search while nothing changes
        try:
            if not self.act.no_actions:
                out.extend(self._move_actions(c))
                out.extend(self._shift_actions(c))
                out.extend(combat.attack_actions(self, c))
                out.extend(combat.charge_actions(self, c))
                out.extend(combat.power_actions(self, c))
                out.extend(self._teleport_actions(c))
            out.extend(self._end_turn_actions(c))
        finally:
            self.reach_memo = None
        return out

    def reach(self, actor: Creature, budget: int | None = None) -> Reach:
        """``Position.reach``, asked once per creature and budget while the legal actions are listed."""
        memo = getattr(self, "reach_memo", None)  # unset on a state made by hand
        if memo is None:
            return Position.reach(self, actor, budget)
        key = (actor.id, budget)
        found = memo.get(key)
        if found is None:
            found = memo[key] = Position.reach(self, actor, budget)
        return found

    def check(self, action: Any) -> None:
        """Refuse, changing nothing, any action once the game is over (M08-153).

        Raises:
            IllegalActionError: the game is over.
            InvalidActionError: not a ddm2008 action.
        """
        if not isinstance(action, Action):
            raise InvalidActionError(f"not a ddm2008 action: {action!r}")
        if self.over:
            raise IllegalActionError("the game is over", rule="M08-153")

    def _play(self, action: Any) -> None:
        """Play one action (``State.apply`` puts the game back if a rule refuses it part way).

        Raises:
            IllegalActionError: the rules forbid it now (the message names the rule); nothing changed.
            InvalidActionError: it names an unknown creature, attack or square.
        """
        if isinstance(action, ChooseMap | ChooseStart | Place):
            self._setup_action(action)
        elif isinstance(action, ChooseFirst):
            self._choose_first(action)
        elif isinstance(action, Activate):
            self._activate(action)
        else:
            if self.phase == "activate" and action.actor in {c.id for c in self._unactivated(self.turn_side)}:
                self._activate(Activate(action.actor))  # a step may act with a creature not yet activated
            self._check_actor(action)
            if isinstance(action, Move):
                self._move(action)
            elif isinstance(action, Shift):
                self._shift(action)
            elif isinstance(action, Attack):
                combat.attack(self, action)
            elif isinstance(action, Charge):
                combat.charge(self, action)
            elif isinstance(action, UsePower):
                combat.use_power(self, action)
            elif isinstance(action, Teleport):
                self._teleport(action)
            elif isinstance(action, EndTurn):
                self._end_activation(action)
            else:
                raise InvalidActionError(f"not a ddm2008 action: {action!r}")
            if not isinstance(action, Teleport | Move):
                self.act.continue_budget = 0
            self.act.last = action.verb
            if self.phase == "act" and self.active is not None and not self.creatures[self.active].on_map:
                self._after_activation()  # destroyed during its own turn: its activation is over
        self._check_victory()

    # Setup (M08-025..M08-027).

    def _setup_action(self, action: Action) -> None:
        phase = {ChooseMap: "choose_map", ChooseStart: "choose_start", Place: "place"}[type(action)]
        if self.phase != phase:
            raise IllegalActionError(f"the game is not at that step of setup ({self.phase})", rule="M08-026")
        if action.actor != self.current_actor:
            raise IllegalActionError(f"it is {self.current_actor}'s choice, not {action.actor}'s", rule="M08-026")
        if isinstance(action, ChooseMap):
            setup.choose_map(self, action)
            self.phase = "choose_start"
            return
        if isinstance(action, ChooseStart):
            setup.choose_start(self, action)
            self.vp = {side: 0 for side in self.sides()}
            self.placing = self.setup_winner
            self.phase = "place"
            return
        assert isinstance(action, Place)
        setup.place(self, action)
        if not any(c.side == self.placing and c.status == "removed" for c in self.creatures.values()):
            other = [s for s in self.sides() if s != self.placing and any(
                c.side == s and c.status == "removed" for c in self.creatures.values())]
            if other:
                self.placing = other[0]
                return
            self.placing = None
            self.phase = "start"
            self._start_round()

    # Rounds and turns.

    def _sides_in_play(self) -> list[str]:
        return [s for s in self.sides() if any(c.side == s and c.on_map for c in self.creatures.values())]

    def _unactivated(self, side: str | None) -> list[Creature]:
        return [c for c in self.creatures.values() if c.side == side and c.on_map and c.id not in self.activated]

    def _start_round(self, first_side: str | None = None) -> None:
        """Initiative at the start of every round (M08-028, M08-029); the winner chooses (M08-030)."""
        self.activated = set()
        self.teleported = set()
        self.noisy = False
        self.active = None
        if first_side is not None and self.round == self.start.get("round", 1) and self.phase == "start":
            self.log(Event("initiative", f"{first_side} goes first (set by the scenario)", "M08-030",
                           {"first_side": first_side}))
            self._begin_round_turns(first_side)
            return
        self.initiative_winner = self._roll_initiative()
        self.phase = "choose_first"

    def _champion_rating(self, side: str) -> int:
        """The highest champion rating among the side's active, unconfused creatures (M08-029)."""
        best = 0
        for c in self.creatures.values():
            if c.side == side and c.on_map and not any(c.has(x) for x in INACTIVE) and not c.has("confused"):
                best = max(best, int(c.template.stats.get("champion", 0)))
        return best

    def champion_roll(self, a: str, b: str, ratings: tuple[int, int], what: str,
                      rule: str) -> tuple[str, dict[str, int]]:
        """A d20 per side where the side with the higher-rated champion rolls twice and keeps the
        better; ties go to the higher rating, then both roll again. Used by the setup roll (M08-025)
        and by initiative (M08-029). Returns the winner and the kept rolls."""
        ra, rb = ratings
        while True:
            rolls = {}
            for side, mine, theirs in ((a, ra, rb), (b, rb, ra)):
                r = self.roll(20, f"{what} of {side}", rule)
                if mine > theirs:
                    r = max(r, self.roll(20, f"{what} of {side} (champion's second roll)", rule))
                rolls[side] = r
            if rolls[a] != rolls[b]:
                return (a if rolls[a] > rolls[b] else b), rolls
            if ra != rb:
                return (a if ra > rb else b), rolls

    def _roll_initiative(self) -> str:
        """d20 each; the side with the higher-rated champion rolls twice and keeps the better
        (M08-029); ties go to the higher champion rating, then the dice are rolled again."""
        sides = self._sides_in_play()
        if len(sides) == 1:
            return sides[0]
        a, b = sides[0], sides[1]
        ratings = (self._champion_rating(a), self._champion_rating(b))
        winner, rolls = self.champion_roll(a, b, ratings, "initiative", "M08-029")
        loser = b if winner == a else a
        self.log(Event("initiative", f"{winner} wins initiative ({rolls[winner]} to {rolls[loser]})", "M08-029",
                       {"rolls": rolls, "winner": winner}))
        return winner

    def _choose_first(self, action: ChooseFirst) -> None:
        if self.phase != "choose_first":
            raise IllegalActionError("nobody is choosing who goes first now", rule="M08-030")
        if action.side not in self._sides_in_play():
            raise InvalidActionError(f"no side in play is called {action.side!r}")
        chooser = self.creatures.get(action.actor)
        if action.actor and chooser is not None and chooser.side != self.initiative_winner:
            raise IllegalActionError(f"{self.initiative_winner} won initiative: the choice is theirs, not "
                                     f"{chooser.side}'s", rule="M08-030")
        self.log(Event("initiative", f"{self.initiative_winner} chooses {action.side} to go first", "M08-030",
                       {"first_side": action.side}))
        self._begin_round_turns(action.side)

    def _begin_round_turns(self, first_side: str) -> None:
        self.first_side = first_side
        self.first_turn = True
        self._begin_turn(first_side)

    def _begin_turn(self, side: str) -> None:
        """A player's turn: two activations, one in the first turn of a round (M08-031, M08-032)."""
        left = self._unactivated(side)
        other = [s for s in self._sides_in_play() if s != side]
        others_left = any(self._unactivated(s) for s in other)
        self.turn_side = side
        if not others_left:
            self.turn_left = len(left)  # the other side is done: activate them all (M08-034)
        elif self.first_turn and side == self.first_side:
            self.turn_left = 1
        else:
            self.turn_left = 2
        self.phase = "activate"
        self.active = None

    def _next_turn(self) -> None:
        sides = self._sides_in_play()
        if not any(self._unactivated(s) for s in sides):
            self._end_round()
            return
        if self.turn_left > 0 and self._unactivated(self.turn_side):
            self.phase = "activate"
            return
        self._end_player_turn(self.turn_side)
        self.first_turn = False
        nxt = [s for s in sides if s != self.turn_side and self._unactivated(s)]
        self._begin_turn(nxt[0] if nxt else self.turn_side)  # type: ignore[arg-type]

    def _end_player_turn(self, side: str | None) -> None:
        """Effects that last until the end of the controlling player's next turn end (M08-135)."""
        for c in self.creatures.values():
            keep = []
            for cond in c.conditions:
                d = cond.duration
                if d.kind == "end_of_controller_turn" and d.owner == side:
                    if d.rounds > 0:
                        keep.append(Condition(cond.name, Duration(d.kind, d.owner, d.rounds - 1), cond.source))
                    else:
                        self.log(Event("condition_end", f"{c.id} is no longer {cond.name}", "M08-135",
                                       {"creature": c.id, "condition": cond.name}))
                    continue
                keep.append(cond)
            c.conditions = keep

    def _end_round(self) -> None:
        """Victory points for victory areas (M08-155, M08-158), end-of-round effects (M08-136),
        the tie-breaker count (M08-156), then a new round."""
        self._end_player_turn(self.turn_side)
        combat.score_victory_areas(self)
        for c in self.creatures.values():
            before = len(c.conditions)
            c.conditions = [x for x in c.conditions if x.duration.kind != "end_of_round"]
            if len(c.conditions) != before:
                self.log(Event("condition_end", f"effects on {c.id} that last until the end of the round end",
                               "M08-136", {"creature": c.id}))
        if self.noisy:
            self.quiet_rounds = 0
        else:
            self.quiet_rounds += 1
        self.log(Event("round_end", f"round {self.round} ends; VP {self._vp_text()}", "M08-028",
                       {"round": self.round, "vp": dict(self.vp)}))
        self._check_victory()
        if self.over:
            return
        if self.quiet_rounds >= 10 or self.round >= self.opts.max_rounds:
            combat.tie_breaker(self, "M08-156" if self.quiet_rounds >= 10 else None)
            return
        self.round += 1
        self._start_round()

    def _vp_text(self) -> str:
        return ", ".join(f"{s} {v}" for s, v in self.vp.items())

    # Activation.

    def _activate(self, action: Activate) -> None:
        if self.phase != "activate":
            raise IllegalActionError(f"{self.active} is still acting; end its turn first", rule="M08-031")
        c = self.creature(action.actor)
        if c.side != self.turn_side:
            raise IllegalActionError(f"it is {self.turn_side}'s turn, not {c.side}'s", rule="M08-031")
        if c.id in self.activated or not c.on_map:
            raise IllegalActionError(f"{c.id} has already been activated this round", rule="M08-028")
        self.active = c.id
        self.activated.add(c.id)
        self.turn_left -= 1
        self.phase = "act"
        self.act = Activation(controller=c.side)
        self.log(Event("activate", f"{c.id} is activated", "M08-031", {"actor": c.id}))
        combat.start_of_turn(self, c)
        if not c.on_map:
            self._after_activation()
            return
        self.act.on_teleporter = "teleporter" in self.grid.kind(c.at).tags

    def _check_actor(self, action: Action) -> None:
        if self.phase != "act" or action.actor != self.active:
            who = self.active if self.phase == "act" else f"a creature of {self.turn_side}"
            raise IllegalActionError(f"{action.actor} cannot act now: it is {who}'s turn", rule="M08-031")
        if self.act.no_actions and not isinstance(action, EndTurn):
            c = self.creatures[action.actor]
            if any(c.has(x) for x in INACTIVE):
                raise IllegalActionError(f"{c.id} is inactive and takes no actions", rule="M08-141")
            raise IllegalActionError(f"{c.id} is confused and takes no action this turn", rule="M08-144")

    def _end_turn_actions(self, c: Creature) -> list[Action]:
        out: list[Action] = [EndTurn(c.id)]
        for champ, power in combat.end_turn_heals(self, c):
            out.append(EndTurn(c.id, power=(champ, power)))
        return out

    def _end_activation(self, action: EndTurn) -> None:
        c = self.creature(action.actor)
        if action.power is not None:
            combat.check_end_turn_heal(self, c, action.power)
        combat.end_of_turn(self, c, action.power)
        self._after_activation()

    def _after_activation(self) -> None:
        self.active = None
        self.act = Activation()
        if self.over:
            return
        self._next_turn()

    # Movement.

    def speed(self, c: Creature) -> int:
        """The best speed of its movement modes now."""
        return max(self.ruleset.speeds(self, c).values(), default=0)

    def can_move(self, c: Creature) -> bool:
        """A move action is left, the creature has not moved then attacked (M08-039), and can move."""
        a = self.act
        if a.no_actions or a.no_more_moves or c.has("immobilized"):
            return False
        return not (a.move_used and a.attack_used)

    def _spend_move(self) -> None:
        if not self.act.move_used:
            self.act.move_used = True
        else:
            self.act.attack_used = True  # the attack action taken as a move action (M08-038)
        self.act.moved = True

    def _move_actions(self, c: Creature) -> list[Action]:
        if c.has("immobilized") or self.speed(c) <= 0:
            return []
        budget = self.act.continue_budget if self.act.continue_budget > 0 else None
        if budget is None and not self.can_move(c):
            return []
        movements = self.ruleset.movements(self, c)
        if len(movements) == 1:
            reach = self.reach(c, budget=budget)
            return [Move(c.id, to=sq, path=tuple(reach.path(sq))) for sq in reach]
        out: list[Action] = []
        for move in movements:  # several speeds: each mode is its own choice (M08-051)
            reach = self.reach_mode(c, move if budget is None else replace(move, budget=budget))
            out.extend(Move(c.id, to=sq, path=tuple(reach.path(sq)), mode=move.mode) for sq in reach)
        return out

    def _move(self, action: Move) -> None:
        c = self.creature(action.actor)
        if c.has("immobilized") or self.speed(c) <= 0:
            raise IllegalActionError(f"{c.id} cannot move (speed 0)", rule="M08-143")
        continuing = self.act.continue_budget > 0
        if not continuing and not self.can_move(c):
            rule = self.act.no_more_moves_rule if self.act.no_more_moves else "M08-036"
            raise IllegalActionError(f"{c.id} has no move left this turn", rule=rule)
        budget = self.act.continue_budget if continuing else None
        if action.mode is not None:
            # The mode is chosen before the move starts (M08-051): only that mode's squares.
            modes = [m for m in self.ruleset.movements(self, c) if m.mode == action.mode]
            if not modes:
                raise IllegalActionError(f"{c.id} has no {action.mode} speed", rule="M08-051")
            move = modes[0] if budget is None else replace(modes[0], budget=budget)
            reach = self.reach_mode(c, move)
        else:
            reach = self.reach(c, budget=budget)
        if action.path:
            path = list(action.path)
            if path != (reach.path(action.to) if action.to in reach else None):
                self._check_path(c, path, budget)
        else:
            if action.to not in reach:
                raise IllegalActionError(f"{c.id} cannot end a move at {list(action.to)}", rule="M08-042")
            path = reach.path(action.to)
        mode = action.mode or self._mode_for(c, reach, action.to)
        spent = reach.cost(action.to) if action.to in reach else len(path)
        if continuing:
            self.act.continue_budget = 0  # the rest of the move begun before the teleporter (M08-131)
        else:
            self._spend_move()
        self.act.move_left = max(0, (budget if budget is not None else self.speed(c)) - spent)
        self.log(Event("move", f"{c.id} moves to {list(action.to)}", "M08-037",
                       {"actor": c.id, "to": list(action.to), "path": [list(s) for s in path]}))
        self.walk(c, path, mode)

    def _mode_for(self, c: Creature, reach: Reach, to: Coord) -> str:
        modes = self.ruleset.movements(self, c)
        if all(m.mode == "walk" for m in modes):
            return "walk"  # whatever the searches below found
        best = None
        for m in modes:
            single = self.reach_mode(c, m)
            if to in single and (best is None or single.cost(to) < best[0]):
                best = (single.cost(to), m.mode)
        return best[1] if best else "walk"

    def reach_mode(self, c: Creature, move: Any) -> Reach:
        from skirmish.core.pathing import MoveRequest, Passage, reachable

        occupancy = self.occupancy()
        occupied: dict[int, Passage] = {i: self.ruleset.passage(self, c, o, move)
                                        for i, o in occupancy.items() if o is not c}
        req = MoveRequest(at=c.at, size=c.size, budget=move.budget, mode=move.mode, occupied=occupied,
                          ignore_terrain=move.ignore_terrain, through_walls=move.through_walls, flying=move.flying,
                          extra_per_square=move.extra_per_square, min_one_square=move.min_one_square)
        return reachable(self.grid, self.ruleset.policy, req)

    def _check_path(self, c: Creature, path: list[Coord], budget: int | None = None) -> None:
        """An explicit path must be one the creature could take in one of its movement modes: each step
        to an adjacent square (M08-040), not through an enemy (M08-046), not round a wall's corner
        (M08-048), ending where it may stop (M08-042), within its speed (M08-037)."""
        from skirmish.core.pathing import MoveRequest, path_cost

        occupancy = self.occupancy()
        for move in self.ruleset.movements(self, c):
            occupied = {i: self.ruleset.passage(self, c, o, move) for i, o in occupancy.items() if o is not c}
            limit = move.budget if budget is None else budget
            req = MoveRequest(at=c.at, size=c.size, budget=limit, mode=move.mode, occupied=occupied,
                              ignore_terrain=move.ignore_terrain, through_walls=move.through_walls,
                              flying=move.flying, extra_per_square=move.extra_per_square)
            cost = path_cost(self.grid, self.ruleset.policy, req, path)
            if cost is not None and (cost <= limit or (move.min_one_square and len(path) == 1)):
                return
        raise IllegalActionError(f"{c.id} cannot take the path {[list(s) for s in path]}: "
                                 + self._path_fault(c, path, occupancy))

    def _path_fault(self, c: Creature, path: list[Coord], occupancy: dict[int, Creature]) -> str:
        """Why a walking path fails, worded with the rule that forbids it (for the error's message)."""
        from skirmish.core.coords import DIRECTIONS_8
        from skirmish.core.pathing import unit_steps

        steps = unit_steps(self.grid)
        prev = c.at
        for sq in path:
            d = (sq[0] - prev[0], sq[1] - prev[1])
            if d not in DIRECTIONS_8:
                raise IllegalActionError(f"{list(prev)} -> {list(sq)} is not a step to an adjacent square",
                                         rule="M08-040")
            for s in footprint(sq, c.size):
                if not self.grid.inside(s) or self.grid.kind(s).entry == "none":
                    raise IllegalActionError(f"{list(s)} is a wall", rule="M08-132")
                other = occupancy.get(self.grid.index(s))
                if other is not None and other is not c and not self.ruleset.allies(c, other):
                    raise IllegalActionError(f"{c.id} cannot move through {other.id}, an enemy", rule="M08-046")
            if d[0] and d[1] and not all(steps[self.grid.index(s)][DIRECTIONS_8.index(d)]
                                         for s in footprint(prev, c.size)):
                raise IllegalActionError(f"{list(prev)} -> {list(sq)} cuts a wall's corner", rule="M08-048")
            prev = sq
        if not self._legal_end(c, path[-1]):
            raise IllegalActionError(f"{c.id} may not end its move at {list(path[-1])}", rule="M08-042")
        raise IllegalActionError("the path costs more squares than its speed", rule="M08-037")

    def walk(self, c: Creature, path: Iterable[Coord], mode: str = "walk", provoke: bool = True) -> None:
        """Move a creature square by square, resolving opportunity attacks before each square it
        leaves (M08-114, M08-118); a creature stopped in an illegal square goes back to the last
        legal one it passed (M08-043)."""
        last_legal = c.at
        first = True
        for sq in path:
            if provoke and mode != "burrow":
                for enemy in self._provoked_by_leaving(c, sq, mode, first):
                    if not self.takes_opportunity(enemy, c):
                        continue
                    before = c.at
                    combat.opportunity_attack(self, enemy, c)
                    if not c.on_map:
                        return
                    if c.at != before:
                        return  # pushed or pulled off its path: the move ends where it was put
                    if c.has("immobilized") or any(c.has(x) for x in INACTIVE):
                        self._settle(c, last_legal)
                        return
            c.at = sq
            first = False
            if self._legal_end(c, sq):
                last_legal = sq
            if "teleporter" in self.grid.kind(sq).tags and c.id == self.active:
                self.act.on_teleporter = True
        if not self._legal_end(c, c.at):
            self._settle(c, last_legal)

    def _settle(self, c: Creature, square: Coord) -> None:
        if c.at != square:
            self.log(Event("move", f"{c.id} goes back to {list(square)}, the last legal square it passed",
                           "M08-043", {"actor": c.id, "to": list(square)}))
            c.at = square

    def _legal_end(self, c: Creature, at: Coord) -> bool:
        occupancy = self.occupancy()
        for s in footprint(at, c.size):
            if not self.grid.inside(s):
                return False
            kind = self.grid.kind(s)
            if not kind.occupiable or kind.entry == "none":
                return False
            if kind.entry == "flyers" and "fly" not in c.template.speed:
                return False
            other = occupancy.get(self.grid.index(s))
            if other is not None and other is not c:
                return False
        return True

    def _provoked_by_leaving(self, c: Creature, nxt: Coord, mode: str, first: bool) -> list[Creature]:
        """Enemies whose opportunity attack leaving the current squares provokes (M08-114, M08-117,
        M08-120; flight provokes non-flyers only on its first square, M08-053)."""
        out = []
        here = c.squares
        for e in self.enemies_of(c):
            if not geometry.adjacent(here, e.squares):
                continue
            if e.id in self.act.oa_taken and c.id == self.active:
                continue
            if mode == "fly" and not first and "fly" not in e.template.speed:
                continue
            if not self.can_react(e) or not combat.can_see(self, e, c):
                continue
            out.append(e)
        return out

    def takes_opportunity(self, e: Creature, mover: Creature) -> bool:
        """Whether a creature makes an opportunity attack it may make: the scenario's explicit
        ``decisions`` list when its next entry is this creature's, otherwise yes (``auto``)."""
        if self.decisions and self.decisions[0].get("actor") == e.id:
            choice = self.decisions.pop(0).get("do")
            if choice == "decline":
                self.act.oa_taken.add(e.id)
                self.log(Event("decline", f"{e.id} lets {mover.id} go without an opportunity attack", "M08-113",
                               {"actor": e.id, "target": mover.id}))
                return False
        return True

    def combat_advantage(self, attacker: Creature, target: Creature) -> bool:
        """Whether the attacker has combat advantage against the target now (M08-108)."""
        return combat.combat_advantage(self, attacker, target) is not None

    def can_react(self, e: Creature) -> bool:
        """Whether a creature can make an opportunity attack: active, not dazed, stunned, helpless or
        confused (M08-109, M08-139..M08-144), with a basic attack."""
        return e.status == "active" and not any(e.has(x) for x in NO_REACTIONS) and bool(e.template.attacks)

    def _shift_actions(self, c: Creature) -> list[Action]:
        if not self.can_move(c) or self.speed(c) <= 0:
            return []
        return [Shift(c.id, to=sq) for sq in self._shift_squares(c)]

    def _shift_squares(self, c: Creature) -> list[Coord]:
        reach = self.reach(c, budget=1)
        out = []
        for sq in reach:
            if max(abs(sq[0] - c.at[0]), abs(sq[1] - c.at[1])) != 1:
                continue
            new = set(footprint(sq, c.size)) - set(c.squares)
            if any(self.grid.kind(s).difficult for s in new):
                continue
            out.append(sq)
        return out

    def _shift(self, action: Shift) -> None:
        c = self.creature(action.actor)
        if not self.can_move(c):
            raise IllegalActionError(f"{c.id} has no move left this turn", rule="M08-039")
        if action.to not in self._shift_squares(c):
            raise IllegalActionError(f"{c.id} cannot shift to {list(action.to)}: one adjacent, unobstructed "
                                     "square that is not difficult terrain", rule="M08-055")
        self._spend_move()
        self.log(Event("shift", f"{c.id} shifts to {list(action.to)}", "M08-055", {"actor": c.id,
                                                                                   "to": list(action.to)}))
        self.walk(c, [action.to], provoke=False)

    def _teleport_squares(self, c: Creature) -> list[Coord]:
        if not self.act.on_teleporter or c.id in self.teleported or c.size != 1:
            return []
        if "teleporter" not in self.grid.kind(c.at).tags:
            return []
        occupancy = self.occupancy()
        return [sq for sq in self.grid.squares() if sq != c.at and "teleporter" in self.grid.kind(sq).tags
                and self.grid.index(sq) not in occupancy]

    def _teleport_actions(self, c: Creature) -> list[Action]:
        return [Teleport(c.id, to=sq) for sq in self._teleport_squares(c)]

    def _teleport(self, action: Teleport) -> None:
        c = self.creature(action.actor)
        if action.to not in self._teleport_squares(c):
            raise IllegalActionError(f"{c.id} cannot teleport to {list(action.to)}: it must stand on a teleporter "
                                     "it entered or started on, once a round, to an unoccupied one", rule="M08-131")
        self.teleported.add(c.id)
        if self.act.last == "move" and self.act.move_left > 0:
            self.act.continue_budget = self.act.move_left  # the move goes on from the far teleporter
        c.at = action.to
        self.log(Event("teleport", f"{c.id} steps through the teleporter to {list(action.to)}", "M08-131",
                       {"actor": c.id, "to": list(action.to)}))

    # Victory.

    def award(self, side: str, points: int, why: str, rule: str) -> None:
        """Give victory points to a side."""
        if points <= 0 or side not in self.vp:
            return
        self.vp[side] += points
        self.log(Event("vp", f"{side} scores {points} VP ({why}); VP {self._vp_text()}", rule,
                       {"side": side, "points": points, "vp": dict(self.vp)}))

    def target_vp(self) -> int:
        """VP needed to win: the warband size (M08-153)."""
        return self.opts.points

    def _check_victory(self) -> None:
        if self.over or self.phase in ("choose_map", "choose_start", "place"):
            return
        for side, points in self.vp.items():
            if points >= self.target_vp():
                self.finish(side, f"{side} reaches {points} VP", "M08-153")
                return
        in_play = self._sides_in_play()
        if len(self.sides()) >= 2 and len(in_play) <= 1:
            if in_play:
                self.finish(in_play[0], f"{in_play[0]} has the only creatures left on the map", "M08-153")
            else:
                best = max(self.vp.values())
                leaders = [s for s, v in self.vp.items() if v == best]
                self.finish(leaders[0] if len(leaders) == 1 else None, "no creature is left on the map", "M08-153")

    def finish(self, side: str | None, why: str, rule: str | None) -> None:
        """End the game."""
        self.over = True
        self.win = side
        self.phase = "over"
        self.active = None
        self.log(Event("game_over", f"{why}: " + (f"{side} wins" if side else "a draw"), rule,
                       {"winner": side, "vp": dict(self.vp)}))
