"""Durations: when a condition ends, declared on the condition and expired by the core.

A ``Condition`` carries a ``Duration`` (``core/creatures.py``): a kind, an owner and a count. The
rule sets call :func:`expire` at the moments the rules name (the start or end of a creature's turn,
the end of a side's turn, the end of a round, a successful saving throw), and the core ends what
is due, counts down what is not yet, and returns what ended, in order, so the rule set logs it with
its own rule ids. Nothing here knows a rule set: each kind ends on one kind of trigger, and its
``owner`` says whose:

- ``end_of_next_turn``: at ``Trigger.turn_end(owner)``, the owner being the creature whose turn it
  is (M08-068); no owner: the holder.
- ``end_of_controller_turn``: at ``Trigger.side_turn_end(owner)``, the owner being a side (M08-135).
- ``start_of_next_turn``: at ``Trigger.turn_start(owner)`` (E5-068, DS-124); no owner: the holder.
- ``end_of_round``: at ``Trigger.round_end()`` (M08-136).
- ``save_ends``: at a successful saving throw: at ``Trigger.turn_end(owner)`` through the ``save``
  hook, the owner being the creature that saves (M08-137, M08-147; no owner: the holder), or at
  ``Trigger.saved(holder, name)`` for a save made at another time (DS-139).
- ``rounds``: counts down at ``Trigger.turn_start(owner)`` (G35-24: it ends just before the owner's
  initiative count), or without an owner at ``Trigger.round_end()``.
- ``end_of_battle``: never (M08-137, M03-115).

The count (``Duration.rounds``) means two things, as the rule sets have used it: for ``rounds``
it is the rounds left, and the effect ends when a trigger brings it to 0; for every other kind it
is how many of its triggers to let pass first (an effect put on a creature during its own turn
lasts until the end of its *next* turn, M08-068: one end of turn is let pass). The helpers
:func:`until_end_of_next_turn` and :func:`until_end_of_controller_turn` set it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from skirmish.core.creatures import Condition, Creature, Duration, DurationKind

TriggerKind = Literal["turn_start", "turn_end", "side_turn_end", "round_end", "saved"]


@dataclass(frozen=True, slots=True)
class Trigger:
    """A moment at which durations may end.

    Attributes:
        kind: what happens.
        who: the creature whose turn starts or ends, or that saved; the side whose turn ends.
        condition: for ``saved``, the name of the condition saved against.
    """

    kind: TriggerKind
    who: str | None = None
    condition: str | None = None

    @classmethod
    def turn_start(cls, creature: str) -> Trigger:
        """The start of a creature's turn."""
        return cls("turn_start", creature)

    @classmethod
    def turn_end(cls, creature: str) -> Trigger:
        """The end of a creature's turn."""
        return cls("turn_end", creature)

    @classmethod
    def side_turn_end(cls, side: str) -> Trigger:
        """The end of a side's (a controlling player's) turn (M08-135)."""
        return cls("side_turn_end", side)

    @classmethod
    def round_end(cls) -> Trigger:
        """The end of the round (M08-136: before the next initiative roll)."""
        return cls("round_end")

    @classmethod
    def saved(cls, creature: str, condition: str) -> Trigger:
        """A successful saving throw against one ``save_ends`` condition, made at another time
        than the end of the creature's turn (Draw Steel's Heal, DS-139)."""
        return cls("saved", creature, condition)


@dataclass(frozen=True, slots=True)
class Expired:
    """A condition that ended.

    Attributes:
        creature: the id of the creature that had it.
        condition: the condition, as it was.
        trigger: the moment it ended at.
        saved: it ended by a successful saving throw.
    """

    creature: str
    condition: Condition
    trigger: Trigger
    saved: bool = False


SaveHook = Callable[[Creature, Condition], bool]
"""Rolls a saving throw of a creature against one condition, logs it, and says whether it succeeded."""


# Durations, built as the rules word them.


def until_end_of_next_turn(owner: str, *, acting: str | None) -> Duration:
    """Until the end of ``owner``'s next turn: when it is put on during ``owner``'s own turn, that
    turn's end is let pass (M08-068)."""
    return Duration("end_of_next_turn", owner, 1 if acting == owner else 0)


def until_end_of_controller_turn(side: str, *, side_acting: str | None) -> Duration:
    """Until the end of the controlling side's next turn: when it is put on during that side's
    turn, that turn's end is let pass (M08-135)."""
    return Duration("end_of_controller_turn", side, 1 if side_acting == side else 0)


def until_start_of_next_turn(owner: str) -> Duration:
    """Until the start of ``owner``'s next turn (E5-068's Dodge, DS-124's Aid Attack)."""
    return Duration("start_of_next_turn", owner)


def for_rounds(n: int, owner: str | None = None) -> Duration:
    """For ``n`` rounds: until just before ``owner``'s turn ``n`` rounds on (G35-24), or, without an
    owner, until the end of the ``n``-th round end."""
    return Duration("rounds", owner, n)


# Expiry.

_ENDS_AT: dict[DurationKind, TriggerKind] = {
    "end_of_next_turn": "turn_end",
    "end_of_controller_turn": "side_turn_end",
    "start_of_next_turn": "turn_start",
    "end_of_round": "round_end",
}


def waits_for(holder: str, duration: Duration, trigger: Trigger) -> bool:
    """Whether ``trigger`` is a moment ``duration`` (on ``holder``) counts or ends at, saves aside."""
    kind = duration.kind
    if kind == "rounds":
        if duration.owner is None:
            return trigger.kind == "round_end"
        return trigger.kind == "turn_start" and trigger.who == duration.owner
    wanted = _ENDS_AT.get(kind)
    if wanted is None or trigger.kind != wanted:
        return False
    if wanted == "round_end":
        return True
    owner = duration.owner if duration.owner is not None else holder
    if wanted == "side_turn_end":
        return trigger.who == duration.owner
    return trigger.who == owner


def advance(holder: str, condition: Condition, trigger: Trigger) -> Condition | None:
    """One condition at one trigger, saves aside: the same condition when the trigger is not its
    own, a counted-down copy while triggers are still to pass, None when it ends. Pure."""
    d = condition.duration
    if not waits_for(holder, d, trigger):
        return condition
    if d.kind == "rounds":
        left = d.rounds - 1
        return None if left <= 0 else Condition(condition.name, Duration(d.kind, d.owner, left), condition.source)
    if d.rounds > 0:
        return Condition(condition.name, Duration(d.kind, d.owner, d.rounds - 1), condition.source)
    return None


def expire(creatures: Iterable[Creature], trigger: Trigger, *, save: SaveHook | None = None,
           on_expire: Callable[[Expired], None] | None = None) -> list[Expired]:
    """End the conditions due at ``trigger`` on these creatures, count down the others; the one call a
    rule set makes at each moment the rules name.

    Creatures are taken in the order given, each creature's conditions in the order gained. At the
    end of a creature's turn, each ``save_ends`` condition it owns is saved against with ``save``,
    one roll per condition (M08-147), in that same order, between the other endings; a condition
    that ends is reported to ``on_expire`` at once, so a rule set that logs there keeps saves and
    endings in the order they happened. A creature's list of conditions is written back after its
    last condition is looked at; the hooks must not add or remove conditions of that creature.

    Args:
        creatures: the creatures whose conditions to look at (usually all of the position's).
        trigger: the moment.
        save: rolls one saving throw and says whether it succeeded; without it, ``save_ends``
            conditions end only at a ``saved`` trigger.
        on_expire: called with each ending as it happens.

    Returns:
        What ended, in order.
    """
    out: list[Expired] = []
    for creature in creatures:
        keep: list[Condition] = []
        changed = False
        saved_one = False
        for cond in creature.conditions:
            ended: Expired | None = None
            d = cond.duration
            if d.kind == "save_ends":
                saver = d.owner if d.owner is not None else creature.id
                if trigger.kind == "turn_end" and trigger.who == saver and save is not None:
                    if save(creature, cond):
                        ended = Expired(creature.id, cond, trigger, saved=True)
                elif (trigger.kind == "saved" and trigger.who == creature.id and not saved_one
                      and trigger.condition == cond.name):
                    saved_one = True  # one save ends one effect
                    ended = Expired(creature.id, cond, trigger, saved=True)
                if ended is None:
                    keep.append(cond)
            else:
                after = advance(creature.id, cond, trigger)
                if after is None:
                    ended = Expired(creature.id, cond, trigger)
                else:
                    keep.append(after)
                    changed = changed or after is not cond
            if ended is not None:
                changed = True
                out.append(ended)
                if on_expire is not None:
                    on_expire(ended)
        if changed:
            creature.conditions = keep
    return out
