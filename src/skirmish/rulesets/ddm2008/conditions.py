"""Conditions: what they stop a creature doing (M08-139..M08-146), a hit's effects that put them on
(M08-067, M08-078), and how long they last: saving throws and the ends of their durations (M08-068,
M08-134..M08-137, M08-147).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core.creatures import Attack as AttackSpec
from skirmish.core.creatures import Condition, Creature, Duration
from skirmish.core.events import Event
from skirmish.rulesets.ddm2008.forced import forced_move
from skirmish.rulesets.ddm2008.stats import DurationName, Effect, immune

if TYPE_CHECKING:
    from skirmish.rulesets.ddm2008.state import Ddm2008State

INACTIVE = frozenset(("stunned", "helpless"))
"""Conditions that make a creature inactive: no actions (M08-141, M08-142)."""
NO_REACTIONS = frozenset(("dazed", "staggered", "stunned", "helpless", "confused"))
"""Conditions under which a creature makes no opportunity attacks (M08-139, GAP-M08-3)."""
BASIC_ONLY = frozenset(("staggered", "confused"))
"""Conditions that allow only the basic attack, and no power that costs an action (M08-140, M08-144)."""


# Effects of a hit.

def apply_effects(state: Ddm2008State, c: Creature, spec: AttackSpec, t: Creature) -> None:
    """The hit's effects, after its damage (M08-067): conditions with durations (M08-068,
    M08-134..M08-137), forced movement (M08-126), ongoing damage."""
    for e in spec.effects:
        assert isinstance(e, Effect)
        if e.condition:
            add_condition(state, t, e.condition, e.duration, c)
        elif e.ongoing:
            name = f"ongoing_{e.ongoing}" + (f"_{e.ongoing_type}" if e.ongoing_type else "")
            add_condition(state, t, name, "save_ends", c)
        else:
            for kind, n in (("push", e.push), ("pull", e.pull), ("slide", e.slide)):
                if n:
                    forced_move(state, c, t, kind, n, spec)
        if not t.on_map:
            return


def add_condition(state: Ddm2008State, t: Creature, name: str, duration: DurationName, source: Creature) -> None:
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
    t.conditions.append(Condition(name, Duration(duration, owner, skip), source.id))
    rule = {"save_ends": "M08-137", "end_of_round": "M08-136", "end_of_controller_turn": "M08-135",
            "end_of_battle": "M08-137"}.get(duration, "M08-068")
    state.log(Event("condition", f"{t.id} is {name.replace('_', ' ')} ({duration.replace('_', ' ')})", rule,
                    {"creature": t.id, "condition": name, "duration": duration}))


# Durations.

def end_of_creature_turn(state: Ddm2008State, c: Creature) -> None:
    """As a creature ends its turn: a saving throw per save-ends effect (M08-147); effects that last
    until the end of its next turn end (M08-068)."""
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


def end_of_player_turn(state: Ddm2008State, side: str | None) -> None:
    """Effects that last until the end of the controlling player's next turn end (M08-135)."""
    for c in state.creatures.values():
        keep = []
        for cond in c.conditions:
            d = cond.duration
            if d.kind == "end_of_controller_turn" and d.owner == side:
                if d.rounds > 0:
                    keep.append(Condition(cond.name, Duration(d.kind, d.owner, d.rounds - 1), cond.source))
                else:
                    state.log(Event("condition_end", f"{c.id} is no longer {cond.name}", "M08-135",
                                    {"creature": c.id, "condition": cond.name}))
                continue
            keep.append(cond)
        c.conditions = keep


def end_of_round(state: Ddm2008State) -> None:
    """Effects that last until the end of the round end (M08-136)."""
    for c in state.creatures.values():
        before = len(c.conditions)
        c.conditions = [x for x in c.conditions if x.duration.kind != "end_of_round"]
        if len(c.conditions) != before:
            state.log(Event("condition_end", f"effects on {c.id} that last until the end of the round end",
                            "M08-136", {"creature": c.id}))
