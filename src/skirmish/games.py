"""Starting a game the way ``skirmish play`` does: the rule set whose games start from lineups (ddm2008's
warbands), a lineup by shipped name or file, the rule set's default lineups and maps, and an action in a
few words. Shared by the command line, the browser interface and the simulator.

Everything here goes through the registry and ``Ruleset``'s hooks, so it names no rule set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from skirmish.core.catalog import Lineup
from skirmish.core.game import Ruleset
from skirmish.errors import ContentError


def lineup_rulesets() -> list[type[Ruleset]]:
    """The registered rule sets whose games start from lineups: those that answer ``Ruleset.new_game``."""
    from skirmish.rulesets import RULESETS

    classes = [RULESETS.by_name[name] for name in RULESETS.names()]
    return [cls for cls in classes if cls.new_game is not Ruleset.new_game]


def lineup_ruleset(name: str | None = None, options: Mapping[str, Any] | None = None) -> Ruleset:
    """The rule set that makes a game from lineups: the one named, else the only registered rule set
    whose games start from lineups.

    Raises:
        ContentError: an unknown name, or no (or more than one) rule set that makes such games.
    """
    from skirmish.rulesets import find_ruleset

    if name is not None:
        return find_ruleset(name)(options)
    found = lineup_rulesets()
    if len(found) != 1:
        names = ", ".join(cls.info.name for cls in found) or "none"
        raise ContentError(f"say which rule set the lineups are for (rule sets that start games from lineups: {names})")
    return found[0](options)


def warband(value: str, ruleset: str | None = None) -> Lineup:
    """A lineup (a ddm2008 warband) by shipped name or file: (side name, creature names).

    Raises:
        ContentError: no such lineup, or a file that is not one.
    """
    return lineup_ruleset(ruleset).lineup(value)


def default_lineups(ruleset: str | None = None) -> list[str]:
    """The lineups a game takes when none are chosen."""
    return list(lineup_ruleset(ruleset).catalog().default_lineups)


def default_maps(ruleset: str | None = None) -> list[str]:
    """The maps a game takes when none are chosen."""
    return list(lineup_ruleset(ruleset).catalog().default_maps)


def describe(action: Any) -> str:
    """An action in a few words."""
    step = action.to_step()
    rest = ", ".join(f"{k} {v}" for k, v in step.items() if k not in ("actor", "do"))
    return f"{step['do']}" + (f" ({rest})" if rest else "")
