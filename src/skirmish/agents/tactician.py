"""What the rule sets' tacticians share: a seeded tie-break, a memo for one decision, and choosing the
best-scored action (``ranked`` also gives the search agent its candidates)."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from skirmish.agents.memo import DecisionMemo


class Tactician(ABC):
    """A rules-aware agent that scores every legal action without rolling dice and plays the best;
    ties are broken by its own seeded generator."""

    name = "tactician"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._memo = DecisionMemo()

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        if len(actions) == 1:
            return actions[0]
        return self.ranked(state, actions)[0]

    def ranked(self, state: Any, actions: Sequence[Any]) -> list[Any]:
        """The actions, the one it would play first, by ``score`` (values remembered for the decision)."""
        with self._memo.deciding():
            return self.by_value(actions, lambda a: self.score(state, a))

    def by_value(self, actions: Sequence[Any], value: Callable[[Any], float]) -> list[Any]:
        """The actions from the highest value down, equal values in the generator's order."""
        keyed = [(value(a), self.rng.random(), i) for i, a in enumerate(actions)]
        return [actions[k[2]] for k in sorted(keyed, reverse=True)]

    @abstractmethod
    def score(self, state: Any, action: Any) -> float:
        """How good the action is now, in the rule set's own units."""
