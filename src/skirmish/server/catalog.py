"""What a game can be made of: scenarios from a folder, the shipped lineups (ddm2008's warbands) and
maps of the rule sets whose games start from them, the agents and the rule sets. Read once when the app
is made, through the registry and ``Ruleset``'s hooks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skirmish.errors import SkirmishError

if TYPE_CHECKING:
    from skirmish.core.game import Ruleset

SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True, slots=True)
class ScenarioEntry:
    """A scenario the page may start: its name (path in the folder, without suffix) and its file."""

    name: str
    file: str
    ruleset: str
    title: str
    sides: list[str]
    playable: bool

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "file": self.file, "ruleset": self.ruleset, "title": self.title,
                "sides": self.sides, "playable": self.playable}


def scenarios(folder: Path | None) -> list[ScenarioEntry]:
    """The scenarios in a folder and its subfolders; files that do not load are left out."""
    from skirmish.scenario.loader import load_scenario_file

    if folder is None or not folder.is_dir():
        return []
    out = []
    for path in sorted(p for p in folder.rglob("*") if p.suffix in SCENARIO_SUFFIXES and p.is_file()):
        try:
            scenario = load_scenario_file(path)
        except (SkirmishError, OSError):
            continue
        sides = scenario.position.sides()
        out.append(ScenarioEntry(
            name=path.relative_to(folder).with_suffix("").as_posix(), file=path.as_posix(),
            ruleset=scenario.ruleset.name, title=scenario.model.name or path.stem, sides=sides,
            playable=scenario.ruleset.playable and len(sides) >= 2))
    return out


def lineup_rulesets() -> list[Ruleset]:
    """The registered rule sets whose games start from lineups."""
    from skirmish.games import lineup_rulesets as classes

    return [cls() for cls in classes()]


def warbands() -> list[dict[str, Any]]:
    """The shipped lineups (ddm2008's warbands) of the rule sets whose games start from them: name, side
    name, points spent, creatures, rule set."""
    return [{"name": w.name, "side": w.side, "points": w.points, "creatures": list(w.creatures),
             "ruleset": rs.name}
            for rs in lineup_rulesets() for w in rs.catalog().lineups]


def maps() -> list[dict[str, Any]]:
    """The shipped maps those games are played on."""
    return [{"name": m.name, "ruleset": rs.name, "title": m.title}
            for rs in lineup_rulesets() for m in rs.catalog().maps]


def defaults() -> dict[str, Any]:
    """The rule set, lineups and maps of a game from lineups when none are chosen (the first rule set
    whose games start from lineups; nothing when none does)."""
    for rs in lineup_rulesets():
        cat = rs.catalog()
        return {"ruleset": rs.name, "warbands": list(cat.default_lineups), "maps": list(cat.default_maps)}
    return {"ruleset": None, "warbands": [], "maps": []}


def agents() -> list[str]:
    """The agents ``find_agent`` makes for some playable rule set, then ``human``."""
    from skirmish.agents import AGENTS, find_agent
    from skirmish.rulesets import RULESETS

    playable = [name for name in RULESETS.names() if RULESETS.by_name[name]().playable]
    known = []
    for name in sorted(set(AGENTS) | {"tactician", "search"}):  # the two find_agent makes itself
        for ruleset in playable:
            try:
                find_agent(name, ruleset)
            except SkirmishError:
                continue
            known.append(name)
            break
    return [*known, "human"]


def rulesets() -> list[dict[str, Any]]:
    """Every rule set: name, title, whether it plays."""
    from skirmish.rulesets import RULESETS

    out = []
    for name in RULESETS.names():
        rs = RULESETS.by_name[name]()
        out.append({"name": name, "title": rs.info.title, "playable": rs.playable})
    return out
