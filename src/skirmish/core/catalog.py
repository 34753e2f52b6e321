"""What a rule set's games can be made of: its creature catalog, and, for a rule set whose games start
from two lineups (ddm2008's warbands), its shipped lineups and maps.

The creature catalog is data in the rule set's own folder (``rulesets/<id>/content/*.yaml``), read
once; ``Ruleset.creatures()`` and ``Ruleset.catalog()`` give it to the scenario loader and to the
interfaces, which list it without knowing any rule set's files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from skirmish.core.yamlsrc import LineMap, load_yaml_with_lines

Lineup = tuple[str, list[str]]
"""One side of a game built from lineups: the side's name and its creatures' catalog names."""


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """A creature's raw stat block, with where it came from for error messages."""

    name: str
    stats: dict[str, object]
    file: str
    lines: LineMap


@dataclass(frozen=True, slots=True)
class LineupEntry:
    """A shipped lineup (a ddm2008 warband).

    Attributes:
        name: the name that picks it (``civilization-gatehouse-guard``).
        side: the side name it plays under.
        points: what its creatures cost in all, where lineups are bought with points (else 0).
        creatures: its creatures' catalog names, repeats included.
    """

    name: str
    side: str
    points: int
    creatures: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MapEntry:
    """A shipped battle map that games from lineups are played on."""

    name: str
    title: str


@dataclass(frozen=True, slots=True)
class Catalog:
    """What a rule set's games can be made of, for listing.

    Attributes:
        creatures: the creature catalog by name.
        lineups: the shipped lineups, for a rule set whose games start from two of them.
        maps: the shipped maps those games are played on.
        default_lineups: the two lineups a game takes when none are chosen.
        default_maps: the maps a game takes when none are chosen.
        costs: what each creature costs in a lineup, where lineups are bought with points.
        unique: the creatures a lineup may field only once.
    """

    creatures: Mapping[str, CatalogEntry] = field(default_factory=dict)
    lineups: tuple[LineupEntry, ...] = ()
    maps: tuple[MapEntry, ...] = ()
    default_lineups: tuple[str, ...] = ()
    default_maps: tuple[str, ...] = ()
    costs: Mapping[str, int] = field(default_factory=dict)
    unique: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class LineupCheck:
    """A lineup file checked against its rule set's format.

    Attributes:
        summary: the lineup in a line, for a legal one (``Ashpit Warhost, borderlands, 6 creatures,
            195 points of 200``).
        errors: every way it breaks the format, one line each, naming the file, line and rule.
        notes: advice that does not make it illegal.
    """

    summary: str
    errors: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@cache
def read_creatures(package: str) -> dict[str, CatalogEntry]:
    """The creatures of the YAML files in a package's ``content`` folder, by name; empty when it has none.

    Every ``*.yaml`` file there is a mapping; its ``creatures`` key, where it has one, maps creature
    names to stat blocks.

    Raises:
        ContentError: a file that is not valid YAML.
    """
    out: dict[str, CatalogEntry] = {}
    try:
        folder = resources.files(package).joinpath("content")
    except (ModuleNotFoundError, TypeError, ValueError):
        return out
    if not folder.is_dir():
        return out
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if not item.name.endswith(".yaml"):
            continue
        label = f"{package.replace('.', '/')}/content/{item.name}"
        data, lines = load_yaml_with_lines(item.read_text(encoding="utf-8"), label)
        assert isinstance(data, dict)
        for name, stats in (data.get("creatures") or {}).items():
            out[str(name)] = CatalogEntry(str(name), dict(stats), label, lines)
    return out
