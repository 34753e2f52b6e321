"""The search agent: its budget, its evaluation, that it never sees the game's own dice, that it
leaves the game as it found it, and quiet clones that play the same rules without a log."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from skirmish.agents import find_agent
from skirmish.agents.search import WIN, SearchAgent, SearchBudget, evaluate
from skirmish.core.dice import Dice
from skirmish.errors import SkirmishError
from skirmish.scenario.loader import load_scenario_file
from skirmish.scenario.runner import output

ROOT = Path(__file__).resolve().parents[2]


def mirror(seed: int):
    scenario = load_scenario_file(ROOT / "scenarios" / "mirror-dnd5e.yaml")
    pos = scenario.position.clone()
    pos.dice = Dice(seed)
    return scenario.ruleset.new_state(pos)


def advance(state, actions: int, seed: int = 3):
    """Play some tactician actions, so the fight is under way."""
    agents = {s: find_agent("tactician", "dnd5e", seed + i) for i, s in enumerate(state.sides())}
    for _ in range(actions):
        state.apply(agents[state.current_side].choose(state, state.legal_actions()))
    return state


def test_budget_from_the_agent_name():
    agent = find_agent("search:width=5:samples=2", "dnd5e", 1)
    assert isinstance(agent, SearchAgent)
    assert agent.budget == SearchBudget(width=5, samples=2)
    assert find_agent("search", "dnd5e", 1).budget == SearchBudget()
    assert find_agent("search:sides=2", "dnd5e", 1).budget.sides == 2


def test_ddm2008_has_its_own_search_budget_overridden_field_by_field():
    """ddm2008's futures run until the foe has answered, so its default budget is the smaller one it
    was measured with; a field named in the agent's name replaces only that field."""
    assert find_agent("search", "ddm2008", 1).budget == SearchBudget(width=2, kinds=1, samples=2, sides=2, confirm=2)
    assert find_agent("search:samples=4", "ddm2008", 1).budget == SearchBudget(
        width=2, kinds=1, samples=4, sides=2, confirm=2)


@pytest.mark.parametrize("text, words", [("depth=3", "unknown 'depth'"), ("samples=0", "at least 1"),
                                         ("width=many", "at least 1"), ("sides=-1", "at least 0")])
def test_bad_budget_is_a_clear_error(text, words):
    with pytest.raises(SkirmishError, match=words):
        find_agent(f"search:{text}", "dnd5e", 1)


def test_search_needs_a_tactician():
    with pytest.raises(SkirmishError, match="tactician"):
        find_agent("search", "dnd3", 1)


def test_evaluation_counts_material_and_the_end():
    state = mirror(1)
    blue, red = state.sides()
    assert evaluate(state, blue) == pytest.approx(0.0)
    hurt = state.clone()
    hurt.creatures["b-fighter"].hp -= 5
    assert evaluate(hurt, blue) > 0 > evaluate(hurt, red)
    assert evaluate(hurt, blue) == pytest.approx(-evaluate(hurt, red))
    hurt.over, hurt.win = True, red
    assert evaluate(hurt, red) == WIN and evaluate(hurt, blue) == -WIN


def test_search_does_not_see_the_games_own_dice():
    """The futures roll from the agent's generator, so the game's next rolls cannot steer the choice."""
    choices = []
    for dice_seed in (11, 12, 13):
        state = advance(mirror(1), 6)
        state.dice = Dice(dice_seed)
        agent = SearchAgent("dnd5e", seed=5, budget=SearchBudget(samples=2))
        choices.append(agent.choose(state, state.legal_actions()))
    assert choices[0] == choices[1] == choices[2]


def test_search_leaves_the_game_as_it_was():
    state = advance(mirror(2), 4)
    before = output(state, [])
    rng = state.dice._rng.getstate()
    SearchAgent("dnd5e", seed=9, budget=SearchBudget(samples=2)).choose(state, state.legal_actions())
    assert output(state, []) == before
    assert state.dice._rng.getstate() == rng


def test_search_is_reproducible():
    def pick(seed: int):
        state = advance(mirror(4), 5)
        return SearchAgent("dnd5e", seed=seed, budget=SearchBudget(samples=2)).choose(state, state.legal_actions())

    assert pick(7) == pick(7)


def test_candidates_include_other_kinds_of_action():
    agent = SearchAgent("dnd5e", seed=1, budget=SearchBudget(width=2, kinds=1))
    state = advance(mirror(1), 0)
    ranked = agent.policy.ranked(state, state.legal_actions())
    picked = agent.candidates(ranked)
    assert picked[:2] == ranked[:2] and len(picked) == 3
    assert type(picked[2]).__name__ + str(getattr(picked[2], "what", "")) not in {
        type(a).__name__ + str(getattr(a, "what", "")) for a in picked[:2]}


class _Scripted(SearchAgent):
    """Futures whose values are scripted: candidate "b" looks better on the first dice and worse on
    the fresh ones."""

    def __init__(self, confirm: int) -> None:
        super().__init__("dnd5e", seed=1, budget=SearchBudget(width=2, kinds=0, samples=2, confirm=confirm))
        self.policy.ranked = lambda state, actions: list(actions)  # type: ignore[method-assign]
        self.calls = 0

    def future(self, state, action, side, seed):
        self.calls += 1
        first_look = self.calls <= 4  # two candidates, two samples each
        return float(action == "b") if first_look else float(action == "a")


class _Side:
    current_side = "blue"


@pytest.mark.parametrize(("confirm", "chosen", "futures"), [(0, "b", 4), (3, "a", 10)])
def test_leaving_the_tacticians_first_choice_takes_a_second_look(confirm, chosen, futures):
    """A candidate that beat the tactician's first choice on the first dice is taken only if it
    wins again on fresh dice (``confirm`` more futures each); with ``confirm=0``, at once."""
    agent = _Scripted(confirm)
    assert agent.choose(_Side(), ["a", "b"]) == chosen
    assert agent.calls == futures


def test_no_second_look_when_the_first_choice_stays():
    agent = _Scripted(3)
    agent.future = lambda state, action, side, seed: float(action == "a")  # type: ignore[method-assign]
    assert agent.choose(_Side(), ["a", "b"]) == "a"


def test_quiet_clone_plays_the_same_rules_without_a_log():
    """A quiet clone rolls the same dice and reaches the same position; it keeps no events or rolls."""
    state = advance(mirror(3), 3)
    loud, quiet = state.clone(), state.clone(record=False)
    assert quiet.events == [] and quiet.dice.log == []
    agents = {s: find_agent("tactician", "dnd5e", 8 + i) for i, s in enumerate(state.sides())}
    for _ in range(40):
        if loud.is_over():
            break
        action = agents[loud.current_side].choose(loud, loud.legal_actions())
        loud.apply(action)
        quiet.apply(action)
    a, b = output(loud, []), output(quiet, [])
    assert a["events"] and not b["events"] and quiet.dice.log == []
    a.pop("events"), b.pop("events")
    assert a == b
    # A clone of a quiet clone stays quiet.
    assert quiet.clone().events == [] and not quiet.clone().recording


def test_search_plays_a_whole_ddm2008_activation():
    """Through the game interface only: the same agent plays the other playable rule set."""
    from skirmish.rulesets.ddm2008.setup import new_game

    state = new_game([("a", ["hillfort-spearman", "gloomfang-goblin"]), ("b", ["gloomfang-goblin"] * 3)],
                     ["broken-bridge-shrine"], 2)
    agents = {s: find_agent("search:width=2:kinds=1:samples=1:horizon=1", "ddm2008", 1 + i)
              for i, s in enumerate(state.sides())}
    for _ in range(300):
        if state.is_over() or (state.phase == "act" and state.round >= 2):
            break
        state.apply(agents[state.current_side].choose(state, state.legal_actions()))
    assert state.round >= 2 or state.is_over()


def test_a_future_by_sides_holds_the_foes_reply():
    """With ``sides=2`` a future runs through the other side's turn and stops when it is back."""
    state = advance(mirror(1), 0)
    side = state.current_side
    agent = SearchAgent("dnd5e", seed=1, budget=SearchBudget(sides=2, max_steps=200))
    seen: list[str] = []
    real_choose = agent.policy.choose

    def watch(sim, options):
        seen.append(sim.current_side)
        return real_choose(sim, options)

    agent.policy.choose = watch  # type: ignore[method-assign]
    agent.future(state, state.legal_actions()[0], side, 5)
    changes = sum(1 for a, b in pairwise(seen) if a != b)
    assert seen and changes == 1 and seen[-1] != side
