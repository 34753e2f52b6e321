"""drawsteel: Draw Steel combat."""

from skirmish.rulesets.drawsteel.ruleset import DrawSteel

__all__ = ["DrawSteel"]
