"""Values remembered for one decision, and only for it."""

from __future__ import annotations

from skirmish.agents.memo import DecisionMemo


def test_values_are_remembered_only_while_deciding():
    memo = DecisionMemo()
    calls: list[str] = []

    def compute() -> float:
        calls.append("x")
        return 1.5

    assert memo.get("k", compute) == 1.5 and memo.get("k", compute) == 1.5
    assert len(calls) == 2  # outside a decision: afresh every time
    with memo.deciding():
        assert memo.get("k", compute) == memo.get("k", compute) == 1.5
    assert len(calls) == 3  # once within the decision
    with memo.deciding():
        memo.get("k", compute)
    assert len(calls) == 4  # a new decision forgets the last one's values
