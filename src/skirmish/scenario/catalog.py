"""Each rule set's creature catalog: YAML files under ``rulesets/<id>/content/``, read once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from skirmish.scenario.yamlsrc import LineMap, load_yaml_with_lines


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """A creature's raw stat block, with where it came from for error messages."""

    name: str
    stats: dict[str, object]
    file: str
    lines: LineMap


@cache
def catalog(ruleset: str) -> dict[str, CatalogEntry]:
    """The creatures of a rule set's catalog, by name.

    Every ``*.yaml`` file in the rule set's ``content`` folder is a mapping with a
    ``creatures`` key: a mapping of creature name to stat block.
    """
    out: dict[str, CatalogEntry] = {}
    folder = resources.files("skirmish.rulesets").joinpath(ruleset, "content")
    if not folder.is_dir():
        return out
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if not item.name.endswith(".yaml"):
            continue
        label = f"skirmish/rulesets/{ruleset}/content/{item.name}"
        data, lines = load_yaml_with_lines(item.read_text(encoding="utf-8"), label)
        assert isinstance(data, dict)
        for name, stats in (data.get("creatures") or {}).items():
            out[str(name)] = CatalogEntry(str(name), dict(stats), label, lines)
    return out
