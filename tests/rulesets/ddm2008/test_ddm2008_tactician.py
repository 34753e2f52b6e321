"""The ddm2008 tactician: remembering position values within a decision changes no choice."""

from __future__ import annotations

from typing import Any

from skirmish.rulesets.ddm2008.actions import Activate, ChooseFirst
from skirmish.rulesets.ddm2008.setup import new_game
from skirmish.rulesets.ddm2008.tactician import Ddm2008Tactician


def _uncached_choice(agent: Ddm2008Tactician, state: Any, actions: list[Any]) -> Any:
    """The choice as ``choose`` makes it, but scoring every action afresh (``score`` outside ``choose``)."""
    first = actions[0]
    if len(actions) == 1 or isinstance(first, ChooseFirst | Activate):
        return agent.choose(state, actions)
    scored = [(agent.score(state, a), agent.rng.random(), i) for i, a in enumerate(actions)]
    return actions[max(scored)[2]]


def test_remembered_position_values_give_the_same_choices():
    state = new_game([("a", ["greywood-wolf", "hillfort-spearman", "thornbury-slinger"]),
                      ("b", ["gloomfang-goblin", "redmaw-goblin-skulker", "scarhide-orc-raider"])],
                     ["broken-bridge-shrine"], seed=4)
    fast = {s: Ddm2008Tactician(i) for i, s in enumerate(state.sides())}
    plain = {s: Ddm2008Tactician(i) for i, s in enumerate(state.sides())}
    moves = 0
    for _ in range(400):
        if state.is_over():
            break
        actions = state.legal_actions()
        side = state.current_side
        chosen = fast[side].choose(state, actions)
        assert chosen == _uncached_choice(plain[side], state, actions)
        if not isinstance(chosen, Activate):
            moves += 1
        state.apply(chosen)
    assert moves > 20  # enough decisions to have compared many scored ones
