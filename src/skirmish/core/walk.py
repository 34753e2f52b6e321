"""Movement as it is played: one request, and one walk that pauses square by square for reactions.

``pathing`` answers where a creature could go (its ``MoveRequest`` is that question, and
``Reach.path`` the answer); this module plays one chosen path. Every rule set moves the same way:
before the mover leaves a square, enemies may react (opportunity attacks: M08-113..M08-118,
M03-062..M03-069, E35-075..E35-080, E5-097, DS-142); it enters the next square; arriving may set
off reactions too (5e's readied attacks, E5-072; 3.0's attacks of opportunity for entering a
threatened square, E35-078); it goes on while it can. Who may react, with which attack and reach,
what the reaction does and whether the mover can go on differ: those are the hooks of
:class:`WalkRules`.

The walk itself rolls no die and logs nothing: each reaction is resolved by the rule set's
``react`` hook, in the order its ``leaving`` and ``entering`` hooks give, so a walk's dice and events are the
rule set's, in the rule set's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from skirmish.core import geometry
from skirmish.core.coords import Coord, footprint
from skirmish.core.pathing import MoveMode, Reach

if TYPE_CHECKING:
    from skirmish.core.creatures import Attack, Creature
    from skirmish.core.position import Position

Phase = Literal["leave", "enter"]
"""``leave``: the mover still stands in ``Step.here`` and is about to step to ``Step.there``;
``enter``: it has just entered ``Step.there``."""

Stop = Literal["moved", "reaction", "stopped"]
"""Why a walk ended early: a reaction put the mover elsewhere (M08-126's push off the path); a
reaction's hook said the mover could not go on (it was destroyed, M08-118; immobilized); or
``can_go_on`` said no after a square (speed 0, G5-01)."""


@dataclass(frozen=True, slots=True)
class WalkRequest:
    """One move as it is played: who moves, along which squares, how.

    Attributes:
        mover: the id of the creature that moves.
        path: the squares its top-left corner enters, in order, the last one where it ends
            (``Reach.path``; a big creature's footprint follows its top-left square).
        mode: the movement mode (``walk``, ``fly``, ``burrow``...), for the hooks (M08-053).
        provokes: whether leaving squares may draw opportunity attacks: False for a shift
            (M08-115, DS-044), a 5-foot step (E35-080), Disengage (E5-067), forced movement
            (M08-115, E5-099, DS-097), falling (DS-084), burrowing (M08-115), teleporting (DS-071).
        kind: what kind of move it is, for the hooks (``move``, ``charge``, ``shift``, ``forced``).
    """

    mover: str
    path: tuple[Coord, ...]
    mode: MoveMode = "walk"
    provokes: bool = True
    kind: str = "move"

    @classmethod
    def along(cls, mover: str, reach: Reach, to: Coord, *, mode: MoveMode = "walk", provokes: bool = True,
              kind: str = "move") -> WalkRequest:
        """The request to walk the path a movement search found to ``to``.

        Raises:
            KeyError: ``to`` is not a square the search reached.
        """
        return cls(mover, tuple(reach.path(to)), mode, provokes, kind)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a walk, as the hooks see it.

    Attributes:
        request: the move.
        index: 0 for the first step.
        here: the mover's top-left square before the step.
        there: its top-left square after the step.
        phase: before leaving ``here`` or after entering ``there``.
    """

    request: WalkRequest
    index: int
    here: Coord
    there: Coord
    phase: Phase

    @property
    def first(self) -> bool:
        """The first step of the move (flight provokes non-flyers only here, M08-053)."""
        return self.index == 0

    @property
    def last(self) -> bool:
        """The step into the square where the move ends."""
        return self.index == len(self.request.path) - 1

    @property
    def provokes(self) -> bool:
        """Whether the move may draw opportunity attacks (the request's flag)."""
        return self.request.provokes


@dataclass(frozen=True, slots=True)
class Reaction:
    """One creature's reaction to a step, for the rule set's ``react`` hook to resolve.

    Attributes:
        reactor: the id of the reacting creature.
        attack: the attack it reacts with (an opportunity attack's), if it attacks.
        kind: what the reaction is (``opportunity``, ``readied``...).
        rule: the checklist id of the rule that allows it.
    """

    reactor: str
    attack: Attack | None = None
    kind: str = "opportunity"
    rule: str | None = None


@dataclass(frozen=True, slots=True)
class WalkResult:
    """How a walk went.

    Attributes:
        request: the move.
        entered: the squares the mover entered, in order (a prefix of the path).
        reactions: the reactions resolved, in order.
        stop: why it ended before the end of the path, or None when it walked all of it and can
            go on (a mover stopped by ``can_go_on`` in its last square also has a ``stop``).
    """

    request: WalkRequest
    entered: tuple[Coord, ...]
    reactions: tuple[Reaction, ...]
    stop: Stop | None

    @property
    def completed(self) -> bool:
        """It walked the whole path and was not stopped."""
        return self.stop is None


class WalkRules:
    """A rule set's hooks for the walk, each neutral here: nobody reacts and the mover goes on while
    it is on the map. A rule set subclasses it, often per move (the object may keep what the walk
    needs, such as ddm2008's last legal square, M08-043)."""

    def leaving(self, pos: Position, mover: Creature, step: Step) -> Iterable[Reaction]:
        """Who reacts as the mover is about to leave ``step.here`` for ``step.there``, with what, in the
        order they resolve (M03-070: play order). Asked only when the move provokes; the mover still
        stands in ``step.here``. The rule set decides reach and attack: see
        :func:`attacks_leaving_reach`, or ``geometry.adjacent`` for adjacency rules (M08-114, DS-142).

        The walk takes the reactions one at a time, so a generator sees what the earlier ones did.
        """
        return ()

    def entering(self, pos: Position, mover: Creature, step: Step) -> Iterable[Reaction]:
        """Who reacts to the mover having entered ``step.there`` (5e readied attacks, E5-072; 3.0
        attacks of opportunity for entering a threatened square, E35-078, which check
        ``step.provokes``). Asked after every step, whether the move provokes or not; taken one at
        a time like ``leaving``."""
        return ()

    def react(self, pos: Position, mover: Creature, reaction: Reaction, step: Step) -> bool:
        """Resolve one reaction (roll, log, damage) and say whether the mover may go on; ``step.phase``
        says whether it answers ``leaving`` or ``entering``.

        A reactor that lets the mover pass (a declined opportunity attack, M08-113) changes
        nothing and returns True.
        """
        return True

    def entered(self, pos: Position, mover: Creature, step: Step) -> None:
        """The mover has entered ``step.there``, before any reaction to it: record what the rule set
        needs (a teleporter square, M08-131; the last legal square, M08-043; a dragged creature, E5-108)."""

    def can_go_on(self, pos: Position, mover: Creature, step: Step) -> bool:
        """Whether the mover can take another step after entering ``step.there`` and the reactions to it."""
        return mover.on_map


def walk(pos: Position, request: WalkRequest, rules: WalkRules) -> WalkResult:
    """Move a creature along its path square by square, pausing for reactions before it leaves each
    square and after it enters each (M08-118, M03-069, E5-098: the reaction interrupts the move
    before the mover leaves; the move goes on only if the mover can).

    The legality of the path (speed, walls, enemies in the way) is the caller's to check first:
    the walk trusts it.

    Args:
        pos: the position; the mover's square changes as it walks.
        request: the move.
        rules: the rule set's hooks.

    Returns:
        The squares entered, the reactions resolved, and why it stopped early, if it did.
    """
    mover = pos.creature(request.mover)
    entered: list[Coord] = []
    resolved: list[Reaction] = []

    def pause(step: Step, reactions: Iterable[Reaction]) -> Stop | None:
        for reaction in reactions:
            before = mover.at
            go_on = rules.react(pos, mover, reaction, step)
            resolved.append(reaction)
            if mover.at != before:
                return "moved"  # put elsewhere: the rest of the path no longer starts where it stands
            if not go_on or not mover.on_map:
                return "reaction"
        return None

    for i, there in enumerate(request.path):
        step = Step(request, i, mover.at, there, "leave")
        if request.provokes and (stop := pause(step, rules.leaving(pos, mover, step))) is not None:
            return WalkResult(request, tuple(entered), tuple(resolved), stop)
        mover.at = there
        entered.append(there)
        step = replace(step, phase="enter")
        rules.entered(pos, mover, step)
        if (stop := pause(step, rules.entering(pos, mover, step))) is not None:
            return WalkResult(request, tuple(entered), tuple(resolved), stop)
        if not rules.can_go_on(pos, mover, step):
            return WalkResult(request, tuple(entered), tuple(resolved), "stopped")
    return WalkResult(request, tuple(entered), tuple(resolved), None)


def attacks_leaving_reach(pos: Position, reactor: Creature, mover: Creature, step: Step,
                          attacks: Sequence[Attack]) -> tuple[Attack, ...]:
    """The attacks ``reactor`` may make at a mover whose step takes it out of its reach (E5-046, E5-097).

    The reactor's reach is the longest reach of ``attacks`` (its melee attacks, usually); the step
    leaves it when the mover is within that reach before the step and beyond it after. The attacks
    it may then use are those that reach the mover where it still stands, every one considered
    with its own reach (a dragon's 15-foot tail when its 5-foot bite cannot reach). Distances are
    counted directly, walls aside, from the nearest squares (G5-18). A rule set whose trigger is
    adjacency (M08-114, DS-142) tests ``geometry.adjacent`` instead.

    Returns:
        The usable attacks in the given order, or () when the step does not leave the reach.
    """
    if not attacks:
        return ()
    policy = pos.ruleset.policy
    here = geometry.direct_distance(policy, footprint(step.here, mover.size), reactor.squares)
    there = geometry.direct_distance(policy, footprint(step.there, mover.size), reactor.squares)
    longest = max(a.reach for a in attacks)
    if not here <= longest < there:
        return ()
    return tuple(a for a in attacks if a.reach >= here)
