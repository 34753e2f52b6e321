"""dnd5e: D&D 5th edition combat."""

from skirmish.rulesets.dnd5e.ruleset import Dnd5e

__all__ = ["Dnd5e"]
