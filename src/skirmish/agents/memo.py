"""Values an agent remembers while it scores one decision."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
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
