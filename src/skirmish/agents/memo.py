"""Values an agent remembers while it scores one decision (``skirmish.core.tactics.DecisionMemo``)."""

from skirmish.core.tactics import DecisionMemo

__all__ = ["DecisionMemo"]
