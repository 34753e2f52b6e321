"""The conformance suite: every playable rule set, on every shipped scenario, under random play
(OpenSpiel's ``games_sim_test``): the game ends, a clone equals its original and stays independent,
replaying the same actions gives the same events, a finished game has no legal actions, and the
invariants hold after every action (no two creatures in one square, hit points never above maximum)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from skirmish.core.dice import Dice
from skirmish.rulesets import RULESETS, find_ruleset
from skirmish.scenario.loader import load_scenario_file
from skirmish.scenario.runner import output

ROOT = Path(__file__).resolve().parents[1]
PLAYABLE = [name for name in RULESETS.names() if find_ruleset(name).state_class is not None]


def scenarios_of(name: str) -> list[Path]:
    out = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        if f"ruleset: {name}" in path.read_text():
            out.append(path)
    return out


CASES = [(name, path) for name in PLAYABLE for path in scenarios_of(name)]


def snapshot(state) -> tuple:
    return (repr(output(state, [])), tuple(map(repr, state.legal_actions())), state.current_side,
            state.is_over(), len(state.events))


def check_invariants(state) -> None:
    taken: dict = {}
    for c in state.creatures.values():
        assert c.hp <= c.template.max_hp, f"{c.id} has {c.hp} HP above its maximum"
        if not c.on_map:
            continue
        for sq in c.squares:
            assert state.grid.inside(sq), f"{c.id} is off the map"
            assert sq not in taken, f"{c.id} and {taken[sq]} share {sq}"
            taken[sq] = c.id


def new_state(path: Path, seed: int):
    scenario = load_scenario_file(path)
    pos = scenario.position.clone()
    pos.dice = Dice(seed)
    return scenario.ruleset.new_state(pos)


@pytest.mark.skipif(not CASES, reason="no playable rule set has shipped scenarios yet")
@pytest.mark.parametrize(("name", "path"), CASES, ids=lambda v: v if isinstance(v, str) else v.stem)
@pytest.mark.parametrize("seed", range(4))
def test_random_play_conformance(name: str, path: Path, seed: int):
    state = new_state(path, seed)
    rng = random.Random(seed)
    played = []
    for step in range(20_000):
        check_invariants(state)
        if state.is_over():
            break
        actions = state.legal_actions()
        assert actions, "a game that is not over must have a legal action"
        action = actions[rng.randrange(len(actions))]
        if step % 25 == 0:
            twin = state.clone()
            assert snapshot(twin) == snapshot(state)
            twin.apply(action)
            assert snapshot(twin) != snapshot(state) or state.is_over()
        state.apply(action)
        played.append(action)
    else:
        pytest.fail("random play did not end within 20,000 actions")
    assert state.legal_actions() == []
    assert state.current_side is None
    # Replaying the same actions from the same seed gives the same events, byte for byte.
    replay = new_state(path, seed)
    for action in played:
        replay.apply(action)
    assert [e.to_json() for e in replay.events] == [e.to_json() for e in state.events]
    assert replay.winner == state.winner and replay.score == state.score
