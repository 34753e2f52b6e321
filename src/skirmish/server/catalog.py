"""What a game can be made of: scenarios from a folder, the shipped ddm2008 warbands and maps,
the agents and the rule sets. Read once when the app is made."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skirmish.errors import SkirmishError

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


def warbands() -> list[dict[str, Any]]:
    """The shipped ddm2008 warbands: name, side name, points spent, creatures."""
    from skirmish.games import WARBANDS_FOLDER, warband
    from skirmish.rulesets.ddm2008.warband import load_warband_file, total_cost

    out = []
    for path in sorted(WARBANDS_FOLDER.glob("*.yaml")):
        side, creatures = warband(path.stem)
        out.append({"name": path.stem, "side": side, "points": total_cost(load_warband_file(path)),
                    "creatures": creatures})
    return out


def maps() -> list[dict[str, Any]]:
    """The shipped ddm2008 maps."""
    from skirmish.rulesets.ddm2008.setup import shipped_maps

    return [{"name": key, "ruleset": "ddm2008", "title": info.name} for key, info in shipped_maps().items()]


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
