"""dnd3: D&D 3rd edition combat."""

from skirmish.rulesets.dnd3.ruleset import Dnd3

__all__ = ["Dnd3"]
