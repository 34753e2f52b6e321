"""The agent interface and the random agent; a game loop that pits agents against each other.

Agents see only the game interface (DESIGN.md): ``current_side``, ``legal_actions()``,
``apply()``, ``clone()``. An agent's own random choices come from a generator seeded from the
game's seed, so a game between agents is reproducible; the rules' dice stay in the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from skirmish.core.game import State
from skirmish.errors import ContentError


class Agent(Protocol):
    """Chooses one of the legal actions."""

    name: str

    def choose(self, state: State, actions: Sequence[Any]) -> Any: ...


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, actions: Sequence[Any]) -> Any:
        return actions[self.rng.randrange(len(actions))]


AGENTS: dict[str, Callable[[str, int], Agent]] = {"random": lambda ruleset, seed: RandomAgent(seed)}
"""Agent factories by name; rule sets register their tacticians here."""


def find_agent(name: str, ruleset: str, seed: int = 0) -> Agent:
    """Make an agent by name for a rule set: ``random``, ``tactician`` (the rule set's own), or ``search``
    with an optional budget (``search:width=4:samples=8``, see ``SearchBudget``) over the rule set's
    own defaults (``Ruleset.search_budget``).

    Raises:
        ContentError: no such agent for this rule set.
    """
    if name == "search" or name.startswith("search:"):
        from skirmish.agents.search import SearchAgent, SearchBudget
        from skirmish.rulesets import find_ruleset

        defaults = find_ruleset(ruleset).search_budget
        return SearchAgent(ruleset, seed, SearchBudget.parse(name.partition(":")[2], defaults))
    if name == "tactician":
        from skirmish.rulesets import find_ruleset

        factory = find_ruleset(ruleset).tactician
        if factory is None:
            raise ContentError(f"{ruleset} has no tactician yet; use random")
        return factory(seed)
    try:
        return AGENTS[name](ruleset, seed)
    except KeyError:
        raise ContentError(f"unknown agent {name!r}; choose one of random, tactician, search") from None


def play_game(state: State, agents: dict[str, Agent], max_actions: int = 200_000,
              on_action: Callable[[State, Any], None] | None = None) -> State:
    """Play a game to its end, each side's agent choosing its actions.

    Raises:
        RuntimeError: the game did not end within ``max_actions`` (a bug in the rules).
    """
    for _ in range(max_actions):
        if state.is_over():
            return state
        actions = state.legal_actions()
        side = state.current_side
        if not actions or side is None:
            raise RuntimeError(f"no legal action, yet the game is not over (side {side})")
        action = agents[side].choose(state, actions)
        if on_action is not None:
            on_action(state, action)
        state.apply(action)
    raise RuntimeError(f"the game did not end within {max_actions} actions")
