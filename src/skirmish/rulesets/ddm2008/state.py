"""A ddm2008 game in progress: setup, rounds, initiative, and turns of two activations
(M08-025..M08-035).

This module holds the turn structure and plays each action by handing it to the module of its
topic: ``movement`` (moves, shifts, teleporters), ``attack`` and ``charge`` (attack actions),
``powers`` (special and champion powers), ``activation`` (a creature's turn starting and ending),
``conditions`` (durations) and ``victory`` (victory points and the end of the game).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from skirmish.core.creatures import Creature
from skirmish.core.events import Event
from skirmish.core.fields import Copy
from skirmish.core.game import State
from skirmish.core.pathing import Reach
from skirmish.core.position import Position
from skirmish.errors import IllegalActionError, InvalidActionError
from skirmish.rulesets.ddm2008 import activation, attack, charge, conditions, movement, powers, setup, sight, victory
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
from skirmish.rulesets.ddm2008.activation import Activation
from skirmish.rulesets.ddm2008.conditions import INACTIVE, NO_REACTIONS
from skirmish.rulesets.ddm2008.damage import is_bloodied
from skirmish.rulesets.ddm2008.options import Ddm2008Options
from skirmish.rulesets.ddm2008.record import Ddm2008Record
from skirmish.rulesets.ddm2008.stats import card


class Ddm2008State(Position, State):
    """A 2008 D&D Miniatures game.

    Attributes:
        act: what the creature being activated has done this turn.
        activated: creatures activated this round (M08-028).
        active: the creature being activated, if any.
        bloodied: creatures known to be bloodied, so that the event comes once (M08-061).
        decisions: the scenario's explicit decisions still to take (opportunity attacks declined).
        first_side: the side that goes first this round (M08-030).
        first_turn: whether the round's first player turn is on (one activation, M08-032).
        initiative_winner: the side that won this round's initiative (M08-029).
        letters: player letter (``a``/``b``) by side, for the start and victory areas.
        noisy: whether anything attacked or hurt an enemy this round (the tie-breaker count, M08-156).
        opts: the rule set's options.
        over: whether the game has ended; ``win`` is the winner (None: a draw).
        phase: ``choose_map``, ``choose_start``, ``place``, ``start``, ``choose_first``, ``activate``,
            ``act`` or ``over``.
        placing: the side placing its creatures during setup (M08-027).
        quiet_rounds: rounds in a row without an attack (M08-156).
        reach_memo: movement searches by (creature, budget) while the legal actions are listed.
        setup_winner: the side that won the setup roll (M08-025).
        teleported: creatures that have used a teleporter this round (M08-131).
        turn_left: activations left in this player turn (M08-031..M08-034).
        turn_side: the side whose player turn it is.
        uses: uses left by (creature, attack or power), and (champion, ``"champion"``) for a
            champion's rating (M08-069, M08-150).
        vp: victory points by side (M08-153).
    """

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
    act: Activation
    activated: set[str]
    active: str | None
    bloodied: set[str]
    decisions: list[dict[str, Any]]
    first_side: str | None
    first_turn: bool
    initiative_winner: str | None
    letters: dict[str, str]
    noisy: bool
    opts: Ddm2008Options
    over: bool
    phase: str
    placing: str | None
    quiet_rounds: int
    reach_memo: dict[tuple[str, int | None], Reach] | None
    setup_winner: str | None
    teleported: set[str]
    turn_left: int
    turn_side: str | None
    uses: dict[tuple[str, str], int]
    vp: dict[str, int]
    win: str | None

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
            c.rules = Ddm2008Record()
            stats = card(c)
            for a in stats.attacks:
                if a.uses:
                    state.uses[(c.id, a.name)] = a.uses
            for p in stats.special_powers:
                if p.uses:
                    state.uses[(c.id, p.name)] = p.uses
            if stats.champion:
                state.uses[(c.id, "champion")] = stats.champion
        state.bloodied = {c.id for c in state.creatures.values() if is_bloodied(c)}
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
            return [ChooseFirst(actor, side=s) for s in self.sides_in_play()] if winner else []
        if self.phase == "activate":
            return [Activate(c.id) for c in self._unactivated(self.turn_side)]
        if self.phase == "choose_map":
            return [ChooseMap(self.current_actor or "", map=m) for m in self.start["setup"]]
        if self.phase == "choose_start":
            return [ChooseStart(self.current_actor or "", area=x) for x in ("a", "b")]
        if self.phase == "place":
            assert self.current_actor is not None, "a creature is left to place"
            c = self.creatures[self.current_actor]
            return [Place(c.id, at=sq) for sq in setup.placements(self, c)]
        out: list[Action] = []
        assert self.active is not None, "a creature is acting"
        c = self.creatures[self.active]
        self.reach_memo = {}  # moves and charges ask the same movement search while nothing changes
        try:
            if not self.act.no_actions:
                out.extend(movement.move_actions(self, c))
                out.extend(movement.shift_actions(self, c))
                out.extend(attack.attack_actions(self, c))
                out.extend(charge.charge_actions(self, c))
                out.extend(powers.power_actions(self, c))
                out.extend(movement.teleport_actions(self, c))
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

    def clone(self, *, record: bool = True) -> Self:
        """A copy made from the declared fields (``State.clone``)."""
        return State.clone(self, record=record)

    # Queries the interfaces and agents ask.

    def combat_advantage(self, attacker: Creature, target: Creature) -> bool:
        """Whether the attacker has combat advantage against the target now (M08-108)."""
        return sight.combat_advantage(self, attacker, target) is not None

    def can_react(self, e: Creature) -> bool:
        """Whether a creature can make an opportunity attack: active, not dazed, stunned, helpless or
        confused (M08-109, M08-139..M08-144), with a basic attack."""
        return e.status == "active" and not any(e.has(x) for x in NO_REACTIONS) and bool(e.template.attacks)

    def sides_in_play(self) -> list[str]:
        """The sides with a creature still on the map."""
        return [s for s in self.sides() if any(c.side == s and c.on_map for c in self.creatures.values())]

    # Playing an action.

    def check(self, action: Any) -> None:
        """Refuse, changing nothing, an action the turn structure forbids now: any once the game is over
        (M08-153); a setup choice out of its step or by the wrong player (M08-026); choosing who goes
        first out of turn (M08-030); activating out of turn or twice (M08-028, M08-031); acting with a
        creature that is not the one activated, or that takes no actions (M08-031, M08-141, M08-144).
        What each action itself needs is checked as it is played.

        Raises:
            IllegalActionError: the rules forbid it now.
            InvalidActionError: not a ddm2008 action, or it names no side or creature in the game.
        """
        if not isinstance(action, Action):
            raise InvalidActionError(f"not a ddm2008 action: {action!r}")
        if self.over:
            raise IllegalActionError("the game is over", rule="M08-153")
        if isinstance(action, ChooseMap | ChooseStart | Place):
            self._check_setup(action)
        elif isinstance(action, ChooseFirst):
            self._check_choose_first(action)
        elif isinstance(action, Activate):
            self._check_activate(action)
        elif not self._activates_first(action):
            self._check_actor(action)

    def _play(self, action: Any) -> None:
        """Play one action that ``check`` let through (``State.apply`` puts the game back if a rule
        refuses it part way).

        Raises:
            IllegalActionError: the rules forbid it now (the message names the rule).
            InvalidActionError: it names an unknown creature, attack or square.
        """
        if isinstance(action, ChooseMap | ChooseStart | Place):
            self._setup_action(action)
        elif isinstance(action, ChooseFirst):
            self.log(Event("initiative", f"{self.initiative_winner} chooses {action.side} to go first", "M08-030",
                           {"first_side": action.side}))
            self._begin_round_turns(action.side)
        elif isinstance(action, Activate):
            self._activate(action)
        else:
            if self._activates_first(action):
                self._activate(Activate(action.actor))  # a step may act with a creature not yet activated
                self._check_actor(action)
            if isinstance(action, Move):
                movement.move(self, action)
            elif isinstance(action, Shift):
                movement.shift(self, action)
            elif isinstance(action, Attack):
                attack.attack(self, action)
            elif isinstance(action, Charge):
                charge.charge(self, action)
            elif isinstance(action, UsePower):
                powers.use_power(self, action)
            elif isinstance(action, Teleport):
                movement.teleport(self, action)
            elif isinstance(action, EndTurn):
                self._end_activation(action)
            else:
                raise InvalidActionError(f"not a ddm2008 action: {action!r}")
            if not isinstance(action, Teleport | Move):
                self.act.continue_budget = 0
            self.act.last = action.verb
            if self.phase == "act" and self.active is not None and not self.creatures[self.active].on_map:
                self._after_activation()  # destroyed during its own turn: its activation is over
        victory.check_victory(self)

    # Setup (M08-025..M08-027).

    def _check_setup(self, action: ChooseMap | ChooseStart | Place) -> None:
        """Each setup choice at its own step, by the player whose choice it is (M08-026)."""
        phase = {ChooseMap: "choose_map", ChooseStart: "choose_start", Place: "place"}[type(action)]
        if self.phase != phase:
            raise IllegalActionError(f"the game is not at that step of setup ({self.phase})", rule="M08-026")
        if action.actor != self.current_actor:
            raise IllegalActionError(f"it is {self.current_actor}'s choice, not {action.actor}'s", rule="M08-026")

    def _setup_action(self, action: ChooseMap | ChooseStart | Place) -> None:
        """The map (M08-026), the start areas (M08-026), then each creature placed, the setup roll's
        winner first (M08-027); round 1 begins once both sides are on the map."""
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

    def _unactivated(self, side: str | None) -> list[Creature]:
        """The side's creatures on the map not yet activated this round (M08-028)."""
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
                best = max(best, card(c).champion)
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
        sides = self.sides_in_play()
        if len(sides) == 1:
            return sides[0]
        a, b = sides[0], sides[1]
        ratings = (self._champion_rating(a), self._champion_rating(b))
        winner, rolls = self.champion_roll(a, b, ratings, "initiative", "M08-029")
        loser = b if winner == a else a
        self.log(Event("initiative", f"{winner} wins initiative ({rolls[winner]} to {rolls[loser]})", "M08-029",
                       {"rolls": rolls, "winner": winner}))
        return winner

    def _check_choose_first(self, action: ChooseFirst) -> None:
        """Only the initiative winner chooses, and only a side in play (M08-030)."""
        if self.phase != "choose_first":
            raise IllegalActionError("nobody is choosing who goes first now", rule="M08-030")
        if action.side not in self.sides_in_play():
            raise InvalidActionError(f"no side in play is called {action.side!r}")
        chooser = self.creatures.get(action.actor)
        if action.actor and chooser is not None and chooser.side != self.initiative_winner:
            raise IllegalActionError(f"{self.initiative_winner} won initiative: the choice is theirs, not "
                                     f"{chooser.side}'s", rule="M08-030")

    def _begin_round_turns(self, first_side: str) -> None:
        """The round's first player turn, for the side chosen to go first (M08-030, M08-032)."""
        self.first_side = first_side
        self.first_turn = True
        self._begin_turn(first_side)

    def _begin_turn(self, side: str) -> None:
        """A player's turn: two activations, one in the first turn of a round (M08-031, M08-032)."""
        left = self._unactivated(side)
        other = [s for s in self.sides_in_play() if s != side]
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
        """After an activation: the same player activates again while its turn lasts, else the other
        player's turn, or the round ends when nobody has a creature left to activate (M08-031..M08-034)."""
        sides = self.sides_in_play()
        if not any(self._unactivated(s) for s in sides):
            self._end_round()
            return
        if self.turn_left > 0 and self._unactivated(self.turn_side):
            self.phase = "activate"
            return
        assert self.turn_side is not None, "a player turn is on"
        conditions.end_of_player_turn(self, self.turn_side)
        self.first_turn = False
        nxt = [s for s in sides if s != self.turn_side and self._unactivated(s)]
        self._begin_turn(nxt[0] if nxt else self.turn_side)

    def _end_round(self) -> None:
        """Victory points for victory areas (M08-155, M08-158), end-of-round effects (M08-136),
        the tie-breaker count (M08-156), then a new round."""
        conditions.end_of_player_turn(self, self.turn_side)
        victory.score_victory_areas(self)
        conditions.end_of_round(self)
        if self.noisy:
            self.quiet_rounds = 0
        else:
            self.quiet_rounds += 1
        self.log(Event("round_end", f"round {self.round} ends; VP {victory.vp_text(self)}", "M08-028",
                       {"round": self.round, "vp": dict(self.vp)}))
        victory.check_victory(self)
        if self.over:
            return
        if self.quiet_rounds >= 10 or self.round >= self.opts.max_rounds:
            victory.tie_breaker(self, "M08-156" if self.quiet_rounds >= 10 else None)
            return
        self.round += 1
        self._start_round()

    # Activation.

    def _check_activate(self, action: Activate) -> None:
        """Activate a creature of the side whose turn it is, once a round (M08-028, M08-031).

        Raises:
            IllegalActionError: out of turn, or already activated.
            InvalidActionError: no such creature.
        """
        if self.phase != "activate":
            raise IllegalActionError(f"{self.active} is still acting; end its turn first", rule="M08-031")
        c = self.creature(action.actor)
        if c.side != self.turn_side:
            raise IllegalActionError(f"it is {self.turn_side}'s turn, not {c.side}'s", rule="M08-031")
        if c.id in self.activated or not c.on_map:
            raise IllegalActionError(f"{c.id} has already been activated this round", rule="M08-028")

    def _activates_first(self, action: Action) -> bool:
        """Whether acting with this creature activates it first: a step may act with a creature of the
        side whose turn it is that has not been activated (M08-031)."""
        return self.phase == "activate" and action.actor in {c.id for c in self._unactivated(self.turn_side)}

    def _activate(self, action: Activate) -> None:
        """Activate a creature (M08-031) and start its turn (``activation.start_of_turn``)."""
        c = self.creature(action.actor)
        self.active = c.id
        self.activated.add(c.id)
        self.turn_left -= 1
        self.phase = "act"
        self.act = Activation(controller=c.side)
        self.log(Event("activate", f"{c.id} is activated", "M08-031", {"actor": c.id}))
        activation.start_of_turn(self, c)
        if not c.on_map:
            self._after_activation()
            return
        self.act.on_teleporter = "teleporter" in self.grid.kind(c.at).tags

    def _check_actor(self, action: Action) -> None:
        """Only the creature being activated acts, and not while it takes no actions (M08-031, M08-141,
        M08-144)."""
        if self.phase != "act" or action.actor != self.active:
            who = self.active if self.phase == "act" else f"a creature of {self.turn_side}"
            raise IllegalActionError(f"{action.actor} cannot act now: it is {who}'s turn", rule="M08-031")
        if self.act.no_actions and not isinstance(action, EndTurn):
            c = self.creatures[action.actor]
            if any(c.has(x) for x in INACTIVE):
                raise IllegalActionError(f"{c.id} is inactive and takes no actions", rule="M08-141")
            raise IllegalActionError(f"{c.id} is confused and takes no action this turn", rule="M08-144")

    def _end_turn_actions(self, c: Creature) -> list[Action]:
        """Ending the activation, plainly or with each champion's end-of-turn heal on it (M08-151)."""
        out: list[Action] = [EndTurn(c.id)]
        for champ, power in powers.end_turn_heals(self, c):
            out.append(EndTurn(c.id, power=(champ, power)))
        return out

    def _end_activation(self, action: EndTurn) -> None:
        """End the creature's activation (M08-031), with a champion's heal if the action names one (M08-151)."""
        c = self.creature(action.actor)
        if action.power is not None:
            powers.check_end_turn_heal(self, c, action.power)
        activation.end_of_turn(self, c, action.power)
        self._after_activation()

    def _after_activation(self) -> None:
        """The activation is over: on to the next one (``_next_turn``) unless the game is."""
        self.active = None
        self.act = Activation()
        if self.over:
            return
        self._next_turn()
