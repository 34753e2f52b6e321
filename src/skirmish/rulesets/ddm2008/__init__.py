"""ddm2008: the 2008 D&D Miniatures Game."""

from skirmish.rulesets.ddm2008.ruleset import Ddm2008

__all__ = ["Ddm2008"]
