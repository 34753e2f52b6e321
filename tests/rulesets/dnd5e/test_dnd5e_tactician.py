"""The dnd5e tactician: remembering position values within a decision changes no choice."""

from __future__ import annotations

from pathlib import Path

from skirmish.core.dice import Dice
from skirmish.rulesets.dnd5e.tactician import Dnd5eTactician
from skirmish.scenario.loader import load_scenario_file

ROOT = Path(__file__).resolve().parents[3]


def test_remembered_position_values_give_the_same_choices():
    scenario = load_scenario_file(ROOT / "scenarios" / "mirror-dnd5e.yaml")
    pos = scenario.position.clone()
    pos.dice = Dice(7)
    state = scenario.ruleset.new_state(pos)
    fast = {s: Dnd5eTactician(i) for i, s in enumerate(state.sides())}
    plain = {s: Dnd5eTactician(i) for i, s in enumerate(state.sides())}
    decisions = 0
    for _ in range(2000):
        if state.is_over():
            break
        actions = state.legal_actions()
        side = state.current_side
        chosen = fast[side].choose(state, actions)
        if len(actions) > 1:
            # The same choice, scoring every action afresh (``score`` outside ``choose``).
            agent = plain[side]
            scored = [(agent.score(state, a), agent.rng.random(), i) for i, a in enumerate(actions)]
            assert chosen == actions[max(scored)[2]]
            decisions += 1
        state.apply(chosen)
    assert state.is_over() and decisions > 20
