"""The rule sets, by name: ``find_ruleset("ddm2008")`` (python-chess's ``find_variant``)."""

from __future__ import annotations

from skirmish.core.game import Registry, Ruleset
from skirmish.errors import ContentError
from skirmish.rulesets.ddm2003 import Ddm2003
from skirmish.rulesets.ddm2008 import Ddm2008
from skirmish.rulesets.dnd3 import Dnd3
from skirmish.rulesets.dnd5e import Dnd5e
from skirmish.rulesets.drawsteel import DrawSteel

RULESETS = Registry()
for _cls in (Ddm2008, Ddm2003, Dnd5e, Dnd3, DrawSteel):
    RULESETS.register(_cls)


def find_ruleset(name: str) -> type[Ruleset]:
    """The rule set class registered under a name or alias.

    Raises:
        ContentError: no rule set has that name.
    """
    try:
        return RULESETS.by_name[name]
    except KeyError:
        raise ContentError(
            f"unknown rule set {name!r}; choose one of {', '.join(RULESETS.names())}") from None


__all__ = ["RULESETS", "find_ruleset"]
