"""ddm2003: the 2003-2007 D&D Miniatures skirmish rules."""

from skirmish.rulesets.ddm2003.ruleset import Ddm2003

__all__ = ["Ddm2003"]
