"""ddm2008 warbands: reading a warband file and checking it against the format (M08-014..M08-021,
M08-153, M08-159, M08-160).

A warband file is YAML in one of two equivalent forms. Either everything sits under a top-level
``warband:`` key::

    warband:
      name: Ashpit Warhost
      faction: borderlands        # borderlands | civilization | underdark | wild
      points: 200                 # default 200
      format: standard            # standard | sealed; default standard
      creatures: [ashpit-orc-warchief, gloomfang-goblin, gloomfang-goblin]

or the same keys sit at the top of the file, without ``warband:`` (a file is read that way when it
has no ``warband`` key; :func:`is_warband_data` tells a warband file from a scenario by a
``warband`` key or by ``faction`` together with a ``creatures`` list of names). ``description`` is
an optional line of text. ``creatures`` holds catalog names; a name may repeat.

Reading (:func:`load_warband_file`) refuses what is not a warband at all (bad YAML, an unknown key,
a faction that does not exist, a creature the catalog lacks) with one ``ContentError`` naming the
file and line. Checking (:func:`check_warband`) then lists *every* way a well-formed warband breaks
the format, as :class:`Problem` values, so a player fixes them all at once.

Limits per point level (M08-017, :func:`limits`): the rulebook's table is lost. The 200- and
100-point rows come from the checklist's Gaps (GAP-M08-1), which has them from a 2009 report
(https://strangetorpedoes.wordpress.com/2009/01/): 200 points, at most 10 creatures and none
costing more than 150; 100 points, at most 5 and none over 60. Other sizes are this project's
reading, an option of the format: the 200-point row scaled in proportion, rounded down to whole
creatures and to a multiple of 5 points of cost (250 points, the combined variant of M08-159: at
most 12 creatures, none over 185).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from skirmish.core.catalog import CatalogEntry, read_creatures
from skirmish.core.yamlsrc import KeyPath, LineMap, format_path, line_of, load_yaml_with_lines, where
from skirmish.errors import ContentError
from skirmish.rulesets.ddm2008.stats import Faction

MAX_FILE_BYTES = 1_000_000
FACTIONS = ("borderlands", "civilization", "underdark", "wild")
FORMATS = ("standard", "sealed")
TOO_BIG_FOR_ASSAULT = frozenset(("huge", "gargantuan"))
Severity = Literal["error", "note"]
Catalog = Mapping[str, CatalogEntry | Mapping[str, object]]
"""Creature name -> its raw stat block, or a ``CatalogEntry`` holding one (as ``shipped_catalog()`` gives)."""


class Warband(BaseModel):
    """A warband as the file writes it (M08-014, M08-016, M08-160); an unknown key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str | None = None
    faction: Faction
    points: int = Field(default=200, ge=20, le=100_000)
    format: Literal["standard", "sealed"] = "standard"
    creatures: list[str] = Field(min_length=1)


class _Card(BaseModel):
    """The part of a ddm2008 stat card (``stats.Ddm2008Stats``) that warband building reads, with
    the same defaults; the rest of the card is not looked at here."""

    model_config = ConfigDict(extra="ignore")

    cost: int = Field(default=0, ge=0)
    alignment: Literal["good", "evil", "unaligned"] = "unaligned"
    factions: list[Faction] = Field(default_factory=list)
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    unique: bool = False
    epic: bool = False


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a warband breaks the format.

    Attributes:
        rule: the checklist id of the rule broken (``M08-017``), or None for a name the catalog lacks.
        message: what is wrong and what would be right, naming the creature and its list index.
        path: key path inside the warband mapping, e.g. ``("creatures", 3)``.
        severity: ``"error"`` makes the warband illegal; ``"note"`` is advice (M08-018).
        file: the warband's file, if known.
        line: the line of ``path`` in that file, if known.
    """

    rule: str | None
    message: str
    path: KeyPath
    severity: Severity = "error"
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        """``FILE: line N, creatures[3]: message [M08-017]``, leaving out what is unknown."""
        place = format_path(self.path)
        if self.line is not None:
            place = f"line {self.line}, {place}" if place else f"line {self.line}"
        head = ": ".join(p for p in (self.file, place) if p)
        text = f"{head}: {self.message}" if head else self.message
        return f"{text} [{self.rule}]" if self.rule else text


@dataclass(frozen=True, slots=True)
class WarbandFile:
    """A warband read from a file, with where its keys are.

    Attributes:
        warband: the validated warband.
        file: the file name used in messages.
        lines: key path -> line, with paths relative to the warband mapping (``("creatures", 3)``)
            whichever of the two forms the file uses.
    """

    warband: Warband
    file: str
    lines: LineMap


def shipped_catalog() -> Mapping[str, CatalogEntry]:
    """The shipped ddm2008 creature catalog (``content/creatures.yaml``)."""
    return read_creatures(__name__.rpartition(".")[0])


# Limits.

def limits(points: int) -> tuple[int, int]:
    """The most creatures and the highest single creature cost a warband of ``points`` may have (M08-017).

    200 -> (10, 150) and 100 -> (5, 60): the checklist's Gaps (GAP-M08-1, from a 2009 report,
    https://strangetorpedoes.wordpress.com/2009/01/), the rulebook's own table being lost. Any
    other size is this project's reading: the 200-point row scaled by ``points / 200``, rounded
    down to whole creatures and to a multiple of 5 points, so 250 -> (12, 185) and 150 -> (7, 110).

    Raises:
        ValueError: ``points`` is below 1.
    """
    if points < 1:
        raise ValueError(f"a warband has a positive point limit, not {points}")
    if points == 200:
        return 10, 150
    if points == 100:
        return 5, 60
    return points * 10 // 200, points * 150 // 200 // 5 * 5


# Checking.

def check_warband(warband: Warband, *, catalog: Catalog | None = None, file: str | None = None,
                  lines: Mapping[KeyPath, int] | None = None) -> list[Problem]:
    """Every way ``warband`` breaks the ddm2008 format, errors first in list order, then notes.

    Checked: each creature is in ``catalog`` (default: the shipped ddm2008 catalog); belongs to
    the warband's faction (M08-014; a creature of several factions joins any of them); good and
    evil are not mixed (M08-015; unaligned creatures join either); the total cost is within the
    points (M08-016); the creature count and the most expensive creature are within
    :func:`limits` (M08-017); a unique creature appears once (M08-020); no Huge or Gargantuan
    creature in the standard Assault format (M08-021, M08-153). In the sealed format (M08-160)
    faction, alignment and unique limits do not apply, nor (as this project reads it) the Assault
    size limit, but an epic card is an error: it is played as its standard version. At 100 points
    or fewer a note says to use the half-size maps (M08-018).

    Args:
        warband: the warband.
        catalog: creature name -> raw stat block (or ``CatalogEntry``).
        file: the warband's file, for the problems' ``file``.
        lines: key path (relative to the warband mapping) -> line, for the problems' ``line``.

    Returns:
        The problems; empty when the warband is legal and needs no note.

    Raises:
        ContentError: a catalog stat block used by the warband is itself invalid.
    """
    cards_source = shipped_catalog() if catalog is None else catalog
    line_map: Mapping[KeyPath, int] = lines or {}
    problems: list[Problem] = []

    def add(rule: str | None, path: KeyPath, message: str, severity: Severity = "error") -> None:
        problems.append(Problem(rule, message, path, severity, file, line_of(line_map, path)))

    wb = warband
    sealed = wb.format == "sealed"
    most, dearest = limits(wb.points)
    known: list[tuple[int, str, _Card]] = []
    for i, name in enumerate(wb.creatures):
        if name not in cards_source:
            add(None, ("creatures", i), f"creatures[{i}] {name!r} is not in the catalog{_near(name, cards_source)}")
            continue
        known.append((i, name, _card(name, cards_source[name])))

    for i, name, card in known:
        label = f"creatures[{i}] {name}"
        # Faction (M08-014).
        if not sealed and wb.faction not in card.factions:
            theirs = ", ".join(card.factions) if card.factions else "no faction"
            add("M08-014", ("creatures", i),
                f"{label} belongs to {theirs}, not {wb.faction}; every creature in a {wb.faction} warband "
                f"must have the {wb.faction} faction")
        # Single cost (M08-017).
        if card.cost > dearest:
            add("M08-017", ("creatures", i),
                f"{label} costs {card.cost}; with {wb.points} points no creature may cost more than {dearest}")
        # Size (M08-021).
        if not sealed and card.size in TOO_BIG_FOR_ASSAULT:
            add("M08-021", ("creatures", i),
                f"{label} is {card.size}; the standard (Assault) format allows no Huge or larger creatures")
        # Epic cards in sealed play (M08-160).
        if sealed and card.epic:
            add("M08-160", ("creatures", i),
                f"{label} is an epic card; in the sealed format play its standard (non-epic) version instead")

    # Good and evil (M08-015).
    if not sealed:
        good = [(i, n) for i, n, c in known if c.alignment == "good"]
        evil = [(i, n) for i, n, c in known if c.alignment == "evil"]
        if good and evil:
            # The side with fewer creatures is the one flagged; on a tie, the side that comes later.
            keep, drop = (good, evil) if (len(good), -good[0][0]) >= (len(evil), -evil[0][0]) else (evil, good)
            keep_word, drop_word = ("good", "evil") if keep is good else ("evil", "good")
            first_i, first_name = keep[0]
            for i, name in drop:
                add("M08-015", ("creatures", i),
                    f"creatures[{i}] {name} is {drop_word} but creatures[{first_i}] {first_name} is {keep_word} "
                    f"({len(keep)} {keep_word} in all); a warband may not mix good and evil creatures "
                    "(unaligned ones may join either)")

    # Unique creatures (M08-020).
    if not sealed:
        first_at: dict[str, int] = {}
        for i, name, card in known:
            if not card.unique:
                continue
            if name in first_at:
                add("M08-020", ("creatures", i),
                    f"creatures[{i}] {name} is unique and already at creatures[{first_at[name]}]; a warband "
                    "holds at most one copy of a unique creature (the sealed format allows more)")
            else:
                first_at[name] = i

    # Total cost (M08-016).
    total = sum(card.cost for _, _, card in known)
    if total > wb.points:
        add("M08-016", ("creatures",),
            f"the creatures cost {total} points in all; with {wb.points} points they may cost at most "
            f"{wb.points} ({total - wb.points} over)")

    # Creature count (M08-017).
    if len(wb.creatures) > most:
        add("M08-017", ("creatures",),
            f"{len(wb.creatures)} creatures; with {wb.points} points a warband holds at most {most} "
            f"(creatures[{most}] {wb.creatures[most]} and those after it are over)")

    problems.sort(key=lambda p: _index(p.path))
    # Half-size maps (M08-018).
    if wb.points <= 100:
        add("M08-018", ("points",),
            "a warband of 100 points or fewer plays on the starter set's half-size maps",
            "note")
    return problems


def total_cost(warband: Warband, *, catalog: Catalog | None = None) -> int:
    """The summed cost of the warband's creatures that are in the catalog (M08-016)."""
    cards_source = shipped_catalog() if catalog is None else catalog
    return sum(_card(n, cards_source[n]).cost for n in warband.creatures if n in cards_source)


def _index(path: KeyPath) -> tuple[int, int]:
    """Sort key: problems about one creature in list order, then those about the whole list."""
    if len(path) >= 2 and isinstance(path[1], int):
        return 0, path[1]
    return 1, 0


def _card(name: str, raw: CatalogEntry | Mapping[str, object]) -> _Card:
    stats = raw.stats if isinstance(raw, CatalogEntry) else raw
    try:
        return _Card.model_validate(dict(stats))
    except ValidationError as e:
        err = e.errors()[0]
        loc = tuple(p for p in err["loc"] if isinstance(p, str | int))
        message = f"the catalog's {name}: {format_path(loc) or 'stats'}: {_lower(err['msg'])}"
        if isinstance(raw, CatalogEntry):
            raise ContentError(message, file=raw.file, where=where(raw.lines, ("creatures", name, *loc))) from None
        raise ContentError(message) from None


def _near(name: str, names: Mapping[str, object]) -> str:
    near = difflib.get_close_matches(name, sorted(names), n=3)
    return f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""


def _lower(msg: str) -> str:
    return msg[len("Value error, "):] if msg.startswith("Value error, ") else msg[:1].lower() + msg[1:]


# Reading.

def is_warband_data(data: object) -> bool:
    """Whether a parsed file is a warband: a top-level ``warband`` key, or ``faction`` with a
    ``creatures`` list of names (a scenario's ``creatures`` are mappings and it has no ``faction``)."""
    if not isinstance(data, dict):
        return False
    if "warband" in data:
        return True
    creatures = data.get("creatures")
    return "faction" in data and isinstance(creatures, list) and all(isinstance(c, str) for c in creatures)


def looks_like_warband_file(path: str | Path) -> bool:
    """Whether ``path`` reads as a warband file (:func:`is_warband_data`); False when it cannot be read."""
    try:
        text = _read(Path(path), str(path))
        data, _ = load_yaml_with_lines(text, str(path))
    except ContentError:
        return False
    return is_warband_data(data)


def read_warband_file(path: str | Path, *, catalog: Catalog | None = None) -> WarbandFile:
    """Read a warband file in either form, with its line map (paths relative to the warband mapping).

    Raises:
        ContentError: the file cannot be read, is not valid YAML, or is not a well-formed warband:
            an unknown key, a missing or wrong value (a faction or format that does not exist),
            an empty creature list, or a creature the catalog (default: the shipped one) lacks.
            The error names the file, the line and the key path.
    """
    label = str(path)
    return read_warband_text(_read(Path(path), label), label, catalog=catalog)


def load_warband_file(path: str | Path, *, catalog: Catalog | None = None) -> Warband:
    """Read a warband file in either form (see the module docstring).

    Raises:
        ContentError: as :func:`read_warband_file`.
    """
    return read_warband_file(path, catalog=catalog).warband


def read_warband_text(text: str, file: str = "<warband>", *, catalog: Catalog | None = None) -> WarbandFile:
    """Read a warband from its text; see :func:`read_warband_file`.

    Raises:
        ContentError: as :func:`read_warband_file`.
    """
    data, all_lines = load_yaml_with_lines(text, file)
    assert isinstance(data, dict)
    root: KeyPath = ()
    body: object = data
    if "warband" in data:
        extra = [k for k in data if k != "warband"]
        if extra:
            raise ContentError(f"unknown top-level key {extra[0]!r}: a warband file holds only 'warband:' "
                               "(or the warband's keys at the top, without 'warband:')",
                               file=file, where=where(all_lines, (extra[0],)))
        root = ("warband",)
        body = data["warband"]
        if not isinstance(body, dict):
            raise ContentError("'warband' must be a mapping with name, faction, points, format and creatures",
                               file=file, where=where(all_lines, root))

    def fail(path: KeyPath, message: str) -> ContentError:
        return ContentError(message, file=file, where=where(all_lines, (*root, *path)))

    try:
        warband = Warband.model_validate(body)
    except ValidationError as e:
        raise _format_error(e, fail) from None

    cards_source = shipped_catalog() if catalog is None else catalog
    unknown = [i for i, n in enumerate(warband.creatures) if n not in cards_source]
    if unknown:
        i = unknown[0]
        name = warband.creatures[i]
        also = f" (also unknown: {', '.join(f'creatures[{j}]' for j in unknown[1:])})" if unknown[1:] else ""
        raise fail(("creatures", i), f"ddm2008's catalog has no creature {name!r}{_near(name, cards_source)}{also}")

    n = len(root)
    lines = {path[n:]: line for path, line in all_lines.items() if path[:n] == root}
    return WarbandFile(warband, file, lines)


def _format_error(e: ValidationError, fail: Callable[[KeyPath, str], ContentError]) -> ContentError:
    """The first pydantic error as a ``ContentError`` that says what would be right."""
    err = e.errors()[0]
    loc: KeyPath = tuple(p for p in err["loc"] if isinstance(p, str | int))
    key = loc[0] if loc else ""
    got = err.get("input")
    kind = err["type"]
    if kind == "extra_forbidden":
        known = sorted(f.alias or k for k, f in Warband.model_fields.items())
        near = difflib.get_close_matches(str(key), known, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        return fail(loc, f"unknown key {key!r}{hint} (known keys: {', '.join(known)})")
    if kind == "missing":
        return fail(loc, f"{format_path(loc)} is required")
    if key in ("faction", "format") and len(loc) == 1:
        choices = FACTIONS if key == "faction" else FORMATS
        near = difflib.get_close_matches(str(got), choices, n=1) if isinstance(got, str) else []
        hint = f"; did you mean {near[0]!r}?" if near else ""
        return fail(loc, f"{key} {got!r} is not one of {', '.join(choices)}{hint}")
    if key == "creatures" and kind == "too_short":
        return fail(loc, "a warband holds at least one creature: list catalog names under 'creatures'")
    if key == "creatures" and len(loc) == 2:
        return fail(loc, f"each creature is a catalog name (text such as 'gloomfang-goblin'), not {got!r}")
    if key == "points" and kind in ("greater_than_equal", "less_than_equal"):
        return fail(loc, f"points {got!r}: a warband has 20 to 100000 points (at least room for one creature under "
                         "M08-017's limits); 200 is the standard (M08-016)")
    shown = "" if isinstance(got, dict | list) else f" (got {got!r})"
    return fail(loc, f"{_lower(err['msg'])}{shown}")


def _read(p: Path, label: str) -> str:
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise ContentError(f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB; is it a warband?",
                               file=label)
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError("no such file", file=label) from None
    except IsADirectoryError:
        raise ContentError("this is a folder, not a warband file", file=label) from None
    except UnicodeDecodeError:
        raise ContentError("the file is not UTF-8 text; save it as UTF-8 YAML", file=label) from None
    except OSError as e:
        raise ContentError(f"cannot read the file: {e.strerror}", file=label) from None
