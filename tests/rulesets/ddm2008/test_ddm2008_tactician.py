"""The ddm2008 tactician: remembering position values within a decision, and looking at attacks best
bound first, change no choice."""

from __future__ import annotations

from typing import Any

from skirmish.rulesets.ddm2008.actions import Activate, ChooseFirst
from skirmish.rulesets.ddm2008.setup import new_game
from skirmish.rulesets.ddm2008.tactician import Ddm2008Tactician, best_attack


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


def test_best_attack_by_bounds_is_the_plain_maximum():
    """Taking (attack, target) pairs best bound first and stopping early gives the plain maximum from
    every square the acting creature could reach, all through a game."""
    state = new_game([("a", ["greywood-wolf", "hillfort-spearman", "thornbury-slinger", "redmaw-goblin-skulker"]),
                      ("b", ["gloomfang-goblin", "redmaw-goblin-skulker", "scarhide-orc-raider", "thornbury-slinger"])],
                     ["broken-bridge-shrine"], seed=6)
    agents = {s: Ddm2008Tactician(i) for i, s in enumerate(state.sides())}
    compared = pruned = 0
    for _ in range(400):
        if state.is_over():
            break
        actions = state.legal_actions()
        if state.phase == "act" and not state.act.attack_used:
            c = state.creatures[state.active]
            agent = agents[state.current_side]
            here = c.at
            for sq in {a.to for a in actions if hasattr(a, "to") and a.to is not None}:
                c.at = sq
                with agent._memo.deciding():
                    fast = agent._best_attack_from_here(state, c)
                plain = best_attack(state, c)
                c.at = here
                assert fast == plain, (c.id, sq)
                compared += 1
                pruned += plain > 0
        state.apply(agents[state.current_side].choose(state, actions))
    assert compared > 100 and pruned > 10
