"""What the rule sets' tacticians share: a seeded tie-break, a memo for one decision, and choosing the
best-scored action (``ranked`` also gives the search agent its candidates).

It sits in the core so that a rule set's tactician, which lives in the rule set's folder, builds on it
without importing the agents package; the agents reach a tactician through ``Ruleset.tactician``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


class DecisionMemo:
    """Remembers computed values for the length of one decision, while the state cannot change;
    outside ``deciding()`` every value is computed afresh, so no answer outlives its state."""

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] | None = None

    @contextmanager
    def deciding(self) -> Iterator[None]:
        self._values = {}
        try:
            yield
        finally:
            self._values = None

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        if self._values is None:
            return compute()
        found = self._values.get(key)
        if found is None:
            found = self._values[key] = compute()
        return found


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
