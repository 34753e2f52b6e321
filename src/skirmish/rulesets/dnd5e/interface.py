"""What the interfaces ask of dnd5e during a game, answered through ``Ruleset``'s hooks: each action's
squares and targets. A turn is one creature's, with no phases, so the prompt is ``Ruleset``'s own.

``Dnd5e`` inherits this from ``Dnd5eInterface``, so the server and the page need no knowledge of
dnd5e's actions.
"""

from __future__ import annotations

from typing import Any

from skirmish.core.display import ActionDisplay, show
from skirmish.core.game import Ruleset, State
from skirmish.rulesets.dnd5e.actions import Attack, Cast, Move, Simple, Targeted


class Dnd5eInterface(Ruleset):
    """dnd5e's answers to the interfaces' hooks (``Ruleset``)."""

    def display(self, state: State, action: Any) -> ActionDisplay:
        """Moves by their end square and path, attacks and one-target actions by their target (with
        cover), spells by their targets or the area at their aim, and the end of the turn."""
        actor = action.actor
        if isinstance(action, Move):
            return show(state, actor, to=action.to, path=action.path, fold="move")
        if isinstance(action, Attack):
            return show(state, actor, attack=action.attack, targets=(action.target,) if action.target else (),
                        area_fold=f"{action.attack or action.verb} (area)")
        if isinstance(action, Cast):
            return show(state, actor, aim=action.at, attack=action.spell, targets=action.targets,
                        area_fold=f"{action.verb} (area)")
        if isinstance(action, Targeted):
            return show(state, actor, targets=(action.target,) if action.target else ())
        if isinstance(action, Simple):
            return ActionDisplay(ends_turn=action.what == "end_turn")
        return ActionDisplay()
