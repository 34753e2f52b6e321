"""(Re)write the generated sections of the rule set reference pages, ``docs/rulesets/<id>.md``.

Usage::

    python tools/reference.py [--shared PATH] [--check]

Each page is hand-written around sections that this script owns, each between two
marker comments::

    <!-- generated:legend -->
    ...written by this script...
    <!-- /generated:legend -->

Everything outside the markers is left untouched. The sections, all read from the code:

- ``legend``: every default legend character, its terrain and what it does.
- ``policy``: the rule set's ``GeometryPolicy``, field by field, and what its options change.
- ``cones``: pictures of the cone templates the policy draws.
- ``answers``: what the page's example scenario (the ```yaml block after ``<!-- example -->``)
  answers when played.
- ``stats``: the stat block model (fields, types, defaults, nested models and attack entries),
  the conditions, the options and the words of the ``cover`` answer.
- ``status``: every id of the rule set's checklist (``<shared>/rules/<id>.md``), its Gaps
  entries included, with whether a test names it (``tested``), only the source does
  (``in code``), or neither (``not yet``).

``--check`` writes nothing: it exits 1 and names the page and section when a page differs
from what would be written. Without the shared folder on disk (default ``../shared``
beside the project), the ``status`` section is skipped, and the script says so.
Files are written atomically (a temporary file, then ``os.replace``).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import os
import re
import sys
import tempfile
import types
import typing
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

    from skirmish.core.game import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
DOCS = ROOT / "docs" / "rulesets"
TESTS = ROOT / "tests"
DEFAULT_SHARED = ROOT.parent / "shared"

SECTIONS = ("answers", "legend", "cones", "policy", "stats", "status")
"""Every section this script writes, in the order a new page gets them."""

NOT_YET = {
    "ddm2008": "played by the rule set, but no test names this id yet",
    "dnd5e": "played by the rule set, but no test names this id yet",
}
NOT_YET_DEFAULT = "comes with this rule set's own issue (not yet filed)"
NOT_DONE = DOCS / "status"
"""``<rule set>.yaml`` there maps a checklist id to the reason it is not done (or done only in part)."""


def not_done_reasons(name: str) -> dict[str, str]:
    """The rule set's recorded reasons for ids not done, from ``docs/rulesets/status/<name>.yaml``."""
    path = NOT_DONE / f"{name}.yaml"
    if not path.exists():
        return {}
    import yaml

    data = yaml.safe_load(path.read_text()) or {}
    return {str(k): str(v) for k, v in (data.get("not_done") or {}).items()}

_MARKER = re.compile(
    r"<!-- generated:(?P<name>[a-z_]+) -->\n(?P<body>.*?)<!-- /generated:(?P=name) -->", re.S)
_EXAMPLE = re.compile(r"<!-- example -->\s*\n```ya?ml\n(?P<yaml>.*?)\n```", re.S)


def _skirmish() -> None:
    """Make ``import skirmish`` work from a checkout without an installed package."""
    try:
        import skirmish  # noqa: F401  (only checking that it imports)
    except ImportError:
        sys.path.insert(0, str(SRC))


# Markdown helpers.

def cell(text: object) -> str:
    """Text made safe for one cell of a Markdown table."""
    return str(text).replace("\n", " ").replace("|", "\\|")


def code(text: object) -> str:
    """Text as inline code, safe inside a table cell."""
    return f"`{cell(text)}`"


def value_text(value: Any) -> str:
    """A value as a scenario file would write it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (frozenset, set)):
        return json.dumps(sorted(value))
    if isinstance(value, tuple):
        return json.dumps([list(v) if isinstance(v, tuple) else v for v in value])
    if isinstance(value, (list, dict)):
        return json.dumps(value)
    return str(value)


def table(header: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """A Markdown table; cells are used as given (escape them with ``cell``)."""
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def words(items: Iterable[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    seq = list(items)
    if len(seq) <= 1:
        return "".join(seq)
    return ", ".join(seq[:-1]) + " and " + seq[-1]


KIND_ORDER = ("melee", "ranged", "close", "area")


def kinds_text(kinds: Iterable[str]) -> str:
    """Attack kinds in their usual order."""
    found = set(kinds)
    return words([k for k in KIND_ORDER if k in found] + sorted(found - set(KIND_ORDER)))


# The legend.

_CORNER_NAMES = {"nw": "top-left", "ne": "top-right", "sw": "bottom-left", "se": "bottom-right"}


def terrain_text(kind: Any, cover_model: str) -> str:
    """What a terrain kind does, in words, from its declared fields."""
    out: list[str] = []
    if kind.entry == "none":
        out.append("Nobody may enter it")
    elif kind.entry == "flyers":
        out.append("Only flying movement may enter it" + (" or end over it" if kind.occupiable else ""))
    elif not kind.occupiable:
        out.append("May be crossed, but no move may end on it")
    else:
        out.append("Open: may be entered and ended on")
    if kind.entry != "none":
        if kind.move_cost > 1:
            cost = f"costs {kind.move_cost} squares of movement to enter"
            if kind.difficult:
                cost += " (difficult terrain)"
            if not kind.difficult_for_flyers:
                cost += "; flying movement pays 1"
            out.append(cost)
        elif kind.difficult:
            out.append("difficult terrain")
        else:
            out.append("costs 1 square")
    if kind.shape != "full":
        out.append(f"only its {_CORNER_NAMES[kind.shape]} triangle is solid: the other half may be "
                   "stood in, a diagonal step may pass its corners, and a line that grazes the "
                   "diagonal edge is clear")
    elif kind.blocks_corners:
        out.append("no diagonal step or count may cut its corner")
    sight = {"block": "blocks line of sight",
             "opposite_sides": "blocks line of sight only for a line that crosses two opposite "
                               "sides of the same square",
             "clear": "does not block line of sight"}[kind.sight]
    effect = "blocks line of effect" if kind.blocks_effect else "does not block line of effect"
    out.append(f"{sight}; {effect}")
    if kind.cover_against:
        text = f"a line through it gives cover against {kinds_text(kind.cover_against)} attacks"
        if cover_model == "degrees" and kind.cover_degree:
            text += " (" + {"half": "half cover", "three_quarters": "three-quarters cover",
                            "total": "total cover: a line through it is blocked outright"}.get(
                                kind.cover_degree, kind.cover_degree) + ")"
        out.append(text)
    else:
        out.append("gives no cover")
    end_turn = getattr(kind, "end_turn", None)
    if end_turn:
        out.append({"destroyed": "a creature that ends its turn here is destroyed",
                    "damage": "a creature that ends its turn here takes damage"}.get(
                        end_turn, f"a creature that ends its turn here: {end_turn}"))
    if kind.tags:
        out.append("rule tags: " + ", ".join(f"`{t}`" for t in sorted(kind.tags)))
    return cell("; ".join(out) + ".")


def render_legend(rs: Ruleset) -> str:
    """The default legend: every character, its terrain name and what it does."""
    rows = []
    for ch, kind in rs.legend.items():
        rows.append([code(ch), code(kind.name), terrain_text(kind, rs.policy.cover_model)])
    return table(["char", "terrain", "what it does"], rows)


# The geometry policy.

def policy_meaning(field: str, value: Any, policy: Any) -> str:
    """One line on what a policy field's value means for play."""
    if field == "diagonal":
        return {"one": "every diagonal step or count costs 1 square, like an orthogonal one",
                "alternating": "diagonals cost 1, 2, 1, 2... counted across a whole move or count"}[value]
    if field == "distance":
        return {"around_walls": "ranges and counts go square by square around walls, never through them "
                                "(creatures do not lengthen them)",
                "direct": "ranges ignore walls: the count of squares on the open grid (walls matter "
                          "through line of effect and cover instead)"}[value]
    if field == "count_past_corners":
        if policy.distance == "direct":
            return "not used: distance is direct"
        return ("a count may step diagonally past one wall corner, never between two walls that meet "
                "at a point" if value else "a count may not step diagonally past a wall corner")
    if field == "difficult_diagonal_cost":
        if policy.diagonal == "one":
            return "not used: every diagonal costs 1 (difficult terrain costs its own price)"
        return f"a diagonal step into difficult terrain costs {value} squares"
    if field == "cover_model":
        return {
            "any_line": "the attacker picks its best corner; one blocked line from it to a corner of the "
                        "target's square gives cover (melee: one square of each creature, any blocked "
                        "line between their corners gives cover); a diagonal-wall square uses only the "
                        "corners of its open half",
            "degrees": "lines from the attacker's best corner to the corners of the target's square (the "
                       "open half's three in a diagonal-wall square): 1-2 blocked give half cover, 3-4 "
                       "three-quarters, no line of effect total; no obstacle gives more than its own "
                       "degree (a low wall or a creature: half)",
            "half_blocked": "lines from the attacker's best corner to the corners of the target's square "
                            "(the open half's three in a diagonal-wall square): at least half of them "
                            "blocked give cover; no line of effect gives total cover",
        }[value]
    if field == "creature_cover":
        against = kinds_text(policy.creature_cover_against)
        return {"none": "creatures never give cover",
                "enemies": f"creatures that are not the attacker's allies give cover against {against} "
                           "attacks; allies never do",
                "all": f"any creature in the way gives cover against {against} attacks"}[value]
    if field == "creature_cover_against":
        if policy.creature_cover == "none":
            return "not used: creatures give no cover"
        return f"attack kinds creatures give cover against: {kinds_text(value)}"
    if field == "flanking":
        return {"adjacent": "an attacker and an ally both adjacent to the target flank it when the line "
                            "between their centres crosses two opposite sides (or corners) of its square",
                "threatens": "an attacker and an ally both within melee reach of the target flank it when "
                             "the line between their centres crosses two opposite sides (or corners) of "
                             "its square",
                "off": "no flanking"}[value]
    if field == "min_one_square":
        return ("a creature with any speed can always step one square on its turn, whatever the square "
                "costs (never into a wall or other closed square)" if value
                else "no minimum move: a square costs what it costs")
    if field == "cone_lengths":
        if not value:
            return "no named cone templates: write `cone N` with a length in squares"
        return "named 90-degree cone templates: " + words(f"`cone {n}` reaches {v} squares" for n, v in value)
    return _doc_attribute(type(policy), field) or ""


def _doc_attribute(cls: type, name: str) -> str | None:
    """The first sentence of an attribute's entry in a Google-style class docstring."""
    doc = cls.__doc__ or ""
    m = re.search(rf"^\s+{re.escape(name)}: (?P<text>.+?)(?=^\s+[a-z_]+: |\Z)", doc, re.S | re.M)
    if not m:
        return None
    text = " ".join(m.group("text").split())
    return first_sentence(text)


def render_policy(cls: type[Ruleset]) -> str:
    """The geometry policy, field by field, and the fields the options change."""
    rs = cls()
    policy = rs.policy
    rows = []
    for f in dataclasses.fields(policy):
        value = getattr(policy, f.name)
        rows.append([code(f.name), code(value_text(value)), cell(policy_meaning(f.name, value, policy))])
    out = [table(["field", "value", "meaning"], rows)]
    changes = []
    for name, values in option_values(cls.options_model):
        default = cls.options_model.model_fields[name].get_default(call_default_factory=True)
        for v in values:
            if v == default:
                continue
            try:
                other = cls({name: v}).policy
            except Exception:  # an option value the rule set refuses on its own: nothing to show
                continue
            diff = [f"`{f.name}` becomes `{value_text(getattr(other, f.name))}`"
                    for f in dataclasses.fields(policy) if getattr(other, f.name) != getattr(policy, f.name)]
            if diff:
                changes.append(f"- `options: {{{name}: {value_text(v)}}}`: {words(diff)}.")
    if changes:
        out.append("Options that change this table:\n\n" + "\n".join(changes))
    return "\n\n".join(out)


def option_values(model: type[BaseModel]) -> Iterator[tuple[str, list[Any]]]:
    """Each option with its allowed values, when they are a closed set (literals, true/false)."""
    for name, f in model.model_fields.items():
        values = _closed_values(f.annotation)
        if values:
            yield name, values


def _closed_values(annotation: Any) -> list[Any]:
    if annotation is bool:
        return [False, True]
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return []


# Cones.

def render_cones(rs: Ruleset) -> str:
    """Pictures of the cone templates: straight and diagonal, from an attacker ``A``."""
    from skirmish.core import areas
    from skirmish.core.grid import Grid
    from skirmish.core.terrain import BASE_LEGEND

    named = list(rs.policy.cone_lengths)
    shown = named or [("3", 3)]
    span = 2 * max(length for _, length in shown) + 3
    mid = span // 2
    grid = Grid(["." * span] * span, BASE_LEGEND)
    parts = []
    for name, length in shown:
        pictures = []
        counts = []
        for toward in ((mid + length, mid), (mid + length, mid + length)):
            squares = areas.cone(grid, [(mid, mid)], toward, length)[0]
            counts.append(len(squares))
            pictures.append(_picture(squares, (mid, mid)))
        title = f"`cone {name}`" if named else f"`cone {length}` (an example; any length may be given)"
        parts.append(f"{title}: {counts[0]} squares straight, {counts[1]} diagonally.\n\n```text\n"
                     + _side_by_side(pictures) + "\n```")
    return "\n\n".join(parts)


def _picture(squares: set[tuple[int, int]], attacker: tuple[int, int]) -> list[str]:
    xs = [x for x, _ in squares] + [attacker[0]]
    ys = [y for _, y in squares] + [attacker[1]]
    rows = []
    for y in range(min(ys), max(ys) + 1):
        row = ""
        for x in range(min(xs), max(xs) + 1):
            row += "A" if (x, y) == attacker else ("x" if (x, y) in squares else ".")
        rows.append(row)
    return rows


def _side_by_side(pictures: list[list[str]]) -> str:
    height = max(len(p) for p in pictures)
    widths = [len(p[0]) for p in pictures]
    lines = []
    for i in range(height):
        parts = [(p[i] if i < len(p) else "").ljust(w) for p, w in zip(pictures, widths, strict=True)]
        lines.append("    ".join(parts).rstrip())
    return "\n".join(lines)


# The example's answers.

def example_yaml(page: str) -> str | None:
    """The example scenario of a page: the ```yaml block right after ``<!-- example -->``."""
    m = _EXAMPLE.search(page)
    return m.group("yaml") + "\n" if m else None


def render_answers(name: str, page: str) -> str:
    """What the page's example scenario answers, question by question."""
    from skirmish.scenario.loader import load_scenario_text
    from skirmish.scenario.runner import run

    text = example_yaml(page)
    if text is None:
        return "(This page has no example: put a ```yaml block right after `<!-- example -->`.)"
    scenario = load_scenario_text(text, f"docs/rulesets/{name}.md (example)")
    result = run(scenario)
    asks = [s for s in scenario.model.steps if "ask" in s]
    rows = [[code(_flow(step)), code(_flow(a["value"]))] for step, a in zip(asks, result["answers"], strict=True)]
    return ("What `skirmish run` answers for this example (`--json` gives the same values under "
            "`answers`):\n\n" + table(["question", "answer"], rows))


def _flow(value: Any) -> str:
    """A value in YAML flow style, as scenario steps are written."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return value_text(value)


# The stat block.

def type_text(annotation: Any, metadata: Iterable[Any] = ()) -> str:
    """A field's type in words, with its bounds."""
    text = _type_words(annotation)
    lo = hi = None
    extra = []
    for m in metadata:
        if getattr(m, "ge", None) is not None:
            lo = m.ge
        if getattr(m, "le", None) is not None:
            hi = m.le
        pattern = getattr(m, "pattern", None)
        if pattern == r"^[a-z0-9_]+$":
            extra.append("snake_case")
        elif pattern:
            extra.append(f"matching {pattern}")
    bound = ""
    if lo is not None and hi is not None:
        bound = f" from {lo} to {hi}"
    elif lo is not None:
        bound = f" ≥ {lo}"
    elif hi is not None:
        bound = f" ≤ {hi}"
    if bound:
        text = text.replace("integer", "integer" + bound, 1) if "integer" in text else text + bound
    if extra:
        text += " (" + ", ".join(extra) + ")"
    return text


def _type_words(annotation: Any) -> str:
    from pydantic import BaseModel

    if annotation is type(None):
        return "none"
    if annotation is bool:
        return "true/false"
    if annotation is int:
        return "integer"
    if annotation is float:
        return "number"
    if annotation is str:
        return "text"
    if annotation is Any:
        return "anything"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "mapping (fields below)"
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        parts = [_type_words(a) for a in args if a is not type(None)]
        if type(None) in args:
            parts.append("none")
        return ", ".join(parts[:-1]) + " or " + parts[-1] if len(parts) > 1 else parts[0]
    if origin is list:
        inner = args[0] if args else Any
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return "list of mappings (fields below)"
        if typing.get_origin(inner) in (typing.Literal, typing.Union, types.UnionType):
            return f"list, each {_type_words(inner)}"
        return f"list of {_type_words(inner)}"
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"list of {_type_words(args[0])}"
        return "[" + ", ".join(_type_words(a) for a in args) + "]"
    if origin is dict:
        return f"mapping of {_type_words(args[0])} to {_type_words(args[1])}" if args else "mapping"
    return getattr(annotation, "__name__", str(annotation))


def _nested(annotation: Any) -> Iterator[tuple[type[BaseModel], str]]:
    """Models inside a field's type, with the path joiner: ``.`` for a mapping, ``[].`` for a list."""
    from pydantic import BaseModel

    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation, "."
        return
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        for a in args:
            yield from _nested(a)
    elif origin in (list, tuple) and args:
        inner = args[0]
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            yield inner, "[]."
    elif origin is dict and len(args) == 2:
        inner = args[1]
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            yield inner, "{}."


def default_text(field: Any) -> str:
    """A field's default as a scenario would write it, or ``required``."""
    from pydantic import BaseModel
    from pydantic_core import PydanticUndefined

    if field.is_required():
        return "required"
    value = field.get_default(call_default_factory=True)
    if value is PydanticUndefined:
        return "required"
    if isinstance(value, BaseModel):
        return "each field's default"
    if isinstance(value, str):
        return code(value)
    return code(value_text(value))


def stat_fields(model: type[BaseModel], prefix: str = "",
                outer: tuple[type, ...] = ()) -> Iterator[tuple[str, str, str]]:
    """(path, type, default) of every field of a stat block, nested models and list entries included."""
    for name, f in model.model_fields.items():
        key = f.alias or name
        path = prefix + key
        yield path, type_text(f.annotation, f.metadata), default_text(f)
        for sub, joiner in _nested(f.annotation):
            if sub not in (*outer, model):  # a model nested in itself is described once
                yield from stat_fields(sub, path + joiner, (*outer, model))


def render_stats(cls: type[Ruleset]) -> str:
    """The stat block, the conditions, the options and the cover answer words."""
    out = []
    rows = [[code(path), cell(kind), cell(default)] for path, kind, default in stat_fields(cls.stats_model)]
    out.append(f"Stat block (`{cls.stats_model.__name__}`): every field may be left out and takes its "
               "default; `a.b` is a field of the mapping `a`, `a[].b` a field of each entry of the list "
               "`a`.\n\n" + table(["field", "type", "default"], rows))

    conditions = sorted(cls.conditions)
    zero = frozenset(getattr(cls, "speed_zero_conditions", frozenset()))
    crow = [[code(c), "yes" if c in cls.no_flank_conditions else "", "yes" if c in zero else ""]
            for c in conditions]
    notes = []
    slowed = getattr(cls, "slowed_speed", None)
    if slowed is not None:
        notes.append(f"- `slowed`: speed at most {slowed}.")
    crawl = getattr(cls, "crawl_condition", None)
    if crawl:
        notes.append(f"- `{crawl}`: the creature crawls, every square costs 1 more.")
    down = _down_text(cls())
    if down:
        notes.append(f"- Hit points: {down}.")
    out.append("Conditions (`conditions:` of a creature, and the names answers use):\n\n"
               + table(["condition", "stops it flanking or helping flank", "stops its movement"], crow)
               + ("\n\n" + "\n".join(notes) if notes else ""))

    options = cls.options_model
    if not options.model_fields:
        out.append("Options: none; leave `options:` out (any key is refused).")
    else:
        orows = []
        for name, f in options.model_fields.items():
            values = _closed_values(f.annotation)
            allowed = ", ".join(code(value_text(v)) for v in values) if values else cell(type_text(f.annotation))
            meaning = _doc_attribute(options, name) or ""
            orows.append([code(name), allowed, default_text(f), cell(meaning)])
        out.append("Options (`options:` at the top of a scenario):\n\n"
                   + table(["option", "allowed values", "default", "meaning"], orows))

    words_ = cls.cover_words
    degrees = ["none", "partial", "three_quarters", "total"]
    labels = {"none": "no line blocked", "partial": "cover (partial)", "three_quarters": "three-quarters",
              "total": "no line of effect at all"}
    used = {"any_line": ("none", "partial", "total"), "half_blocked": ("none", "partial", "total"),
            "degrees": tuple(degrees)}.get(cls.base_policy.cover_model, tuple(degrees))
    wrows = [[cell(labels[d]), code(words_[degrees.index(d)])] for d in degrees if d in used]
    distinct = []
    for w in words_:
        if w not in distinct:
            distinct.append(w)
    out.append(f"The `cover` answer is one of {words(code(w) for w in distinct).replace(' and ', ' or ')}:\n\n"
               + table(["the geometry finds", "answer"], wrows))
    return "\n\n".join(out)


def _down_text(rs: Ruleset) -> str:
    """What a creature given 0 or -1 hit points is, and whether it may move, asked of the rule set."""
    from skirmish.core.creatures import Creature, CreatureTemplate

    parts = []
    for hp in (0, -1):
        c = Creature("x", "x", CreatureTemplate("x", max_hp=10, speed={"walk": 6}), (0, 0), hp=hp, hero=True)
        c.status = rs.initial_status(c)  # type: ignore[assignment]
        who = "a creature with `hero: true` given" if not parts else "given"
        text = f"{who} `hp: {hp}` it is `{c.status}`" if parts else f"{who} `hp: {hp}` is `{c.status}`"
        if c.status == "down":
            try:
                moves = any(v > 0 for v in rs.speeds(None, c).values())  # type: ignore[arg-type]
            except Exception:  # a rule set whose speeds need a whole position: read its switch
                moves = bool(getattr(rs, "down_can_move", False))
            text += " and " + ("still moves" if moves else "does not move")
        parts.append(text)
    return "; ".join(parts)


# The rules status.

_ID = r"(?:GAP-)?[A-Z]{1,3}[0-9]{0,2}-[0-9]{1,3}"
_ITEM = re.compile(rf"^(?:- |#{{2,4}} )(?:\*\*)?(?P<id>{_ID})(?![0-9A-Za-z])(?P<rest>.*)$")
_MENTION = re.compile(rf"(?<![A-Za-z0-9])(?P<id>{_ID})(?![0-9])"
                      rf"(?:(?:\.\.|\u2013)(?P<end>{_ID}|[0-9]{{1,3}})(?![0-9]))?")
_SNAKE_MENTION = re.compile(r"(?<![a-z0-9])(?P<id>(?:gap_)?[a-z]{1,3}[0-9]{0,2}_[0-9]{1,3})(?![0-9])")
_ABBREVIATIONS = frozenset(("e.g", "i.e", "vs", "etc", "cf", "p", "pp", "ch", "no", "approx", "ft", "st"))


def parse_checklist(text: str) -> list[tuple[str, str]]:
    """(id, summary) of every item and every Gaps entry with an id, in file order, each id once."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for line in text.splitlines():
        m = _ITEM.match(line)
        if not m or m.group("id") in seen:
            continue
        seen.add(m.group("id"))
        out.append((m.group("id"), summarize(m.group("rest"))))
    return out


def summarize(text: str, limit: int = 100) -> str:
    """An item's text up to its first sentence end, without markdown, at most about ``limit`` characters."""
    t = re.sub(r"「[^」]*」", "", text)
    t = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", t)
    t = re.sub(r"\[(?:TL|GARBLED|INCONSISTENT|AMBIGUOUS|POSSIBLE MISTRANSLATION)[^\]]*\]", "", t)
    t = re.sub(r"\[([^\]]*)\]", r"\1", t)
    t = t.replace("**", "").replace("__", "").replace("`", "").replace("✔", "")
    t = re.sub(r"(?<![A-Za-z0-9])\*([^*]+)\*", r"\1", t)
    t = " ".join(t.split())
    t = t.lstrip(":.—- ").strip()
    t = first_sentence(t)
    t = re.sub(r"\s+([,.;:])", r"\1", t).rstrip(" —-/,;:")
    if t:
        t = t[0].upper() + t[1:]
    if len(t) > limit:
        cut = t[: limit - 1]
        cut = cut[: cut.rfind(" ")] if " " in cut else cut
        t = cut.rstrip(" ,;:—-(") + "…"
    return t


def first_sentence(text: str) -> str:
    """Text up to its first sentence end (not counting abbreviations such as ``e.g.``), without the stop."""
    for m in re.finditer(r"[.!?](?=\s|$)", text):
        before = text[: m.start()]
        word = re.split(r"[\s(]", before)[-1].lower() if before else ""
        if word in _ABBREVIATIONS or word.rstrip(".") in _ABBREVIATIONS:
            continue
        return before.strip()
    return text.strip()


def mentions(text: str) -> set[str]:
    """Checklist ids a text names, ranges such as ``M08-121..M08-132`` or ``E5-110..114`` expanded."""
    out: set[str] = set()
    for m in _MENTION.finditer(text):
        first = m.group("id")
        out.add(first)
        end = m.group("end")
        if not end:
            continue
        head, _, num = first.rpartition("-")
        if "-" in end:
            end_head, _, end_num = end.rpartition("-")
            if end_head != head:
                out.add(end)
                continue
        else:
            end_num = end
        lo, hi = int(num), int(end_num)
        if lo < hi <= lo + 60:
            out.update(f"{head}-{n:0{len(num)}d}" for n in range(lo, hi + 1))
        if "-" in end:
            out.add(end)
    return out


def snake_mentions(name: str) -> set[str]:
    """Checklist ids a test name carries in snake form: ``test_m08_031_...`` names M08-031."""
    return {m.group("id").replace("_", "-").upper() for m in _SNAKE_MENTION.finditer(name.lower())}


class TestRef(typing.NamedTuple):
    """A test that names a checklist id."""

    file: str
    line: int
    name: str
    xfail: bool
    """Marked ``pytest.mark.xfail``: it records a known failure, it does not show the rule works."""


def scan_tests(folder: Path) -> dict[str, list[TestRef]]:
    """Per id, the tests whose name or docstring names it."""
    found: dict[str, list[TestRef]] = {}
    for path in sorted(folder.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (OSError, UnicodeDecodeError, SyntaxError):
            continue  # a test file being written: counted once it parses
        for name, line, docs, xfail in _test_functions(tree):
            ids = snake_mentions(name)
            for doc in docs:
                ids |= mentions(doc.upper()) | snake_mentions(doc)
            for i in ids:
                found.setdefault(i, []).append(TestRef(rel, line, name, xfail))
    return found


def _is_xfail(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Attribute) and target.attr == "xfail":
            return True
    return False


def _test_functions(tree: ast.Module) -> Iterator[tuple[str, int, list[str], bool]]:
    """(name, line, docstrings, xfail) of each test function; a test class's docstring and marks go
    with its methods."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node.name, node.lineno, [ast.get_docstring(node) or ""], _is_xfail(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            class_doc = ast.get_docstring(node) or ""
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) and sub.name.startswith("test"):
                    yield (f"{node.name}.{sub.name}", sub.lineno,
                           [ast.get_docstring(sub) or "", class_doc, node.name],
                           _is_xfail(sub) or _is_xfail(node))


def scan_source(folder: Path) -> dict[str, list[str]]:
    """Per id, the source files (relative to the package) whose text names it."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        rel = path.relative_to(folder).as_posix()
        for i in mentions(text):
            found.setdefault(i, []).append(rel)
    return found


def _first_two(names: Iterable[str]) -> str:
    seq: list[str] = []
    for n in names:
        if n not in seq:
            seq.append(n)
    return ", ".join(code(n) for n in seq[:2]) + (f" (+{len(seq) - 2})" if len(seq) > 2 else "")


def render_status(name: str, checklist: str, tested: dict[str, list[TestRef]],
                  in_source: dict[str, list[str]]) -> str:
    """One row per checklist id: tested, in code, or not yet (and which issue brings it).

    A test marked xfail records a known failure: it does not make an id ``tested``, and the
    row names it as such.
    """
    items = parse_checklist(checklist)
    reason = NOT_YET.get(name, NOT_YET_DEFAULT)
    reasons = not_done_reasons(name)
    rows = []
    counts = {"tested": 0, "in code": 0, "not yet": 0}
    for rid, summary in items:
        tests = sorted(tested.get(rid, []))
        passing = [t.name for t in tests if not t.xfail]
        failing = [t.name for t in tests if t.xfail]
        if rid in reasons:
            status = "not yet"
            where = cell(reasons[rid]) + (f"; tests: {_first_two(passing)}" if passing else "")
        elif passing:
            status = "tested"
            where = _first_two(passing)
        elif rid in in_source:
            status = "in code"
            where = _first_two(sorted(set(in_source[rid])))
        else:
            status = "not yet"
            where = cell(reason)
        if failing:
            where += "; known failure (xfail): " + _first_two(failing)
        counts[status] += 1
        rows.append([code(rid), cell(summary), status, where])
    gaps = sum(1 for rid, _ in items if rid.startswith("G"))
    head = (f"{len(items)} ids ({len(items) - gaps} rules, {gaps} Gaps entries): {counts['tested']} tested, "
            f"{counts['in code']} in code, {counts['not yet']} not yet.")
    return head + "\n\n" + table(["id", "rule", "status", "where"], rows)


# Pages.

class Sources(typing.NamedTuple):
    """What the status section reads, gathered once per run."""

    rules: Path | None
    tested: dict[str, list[TestRef]]
    in_source: dict[str, list[str]]


def gather(shared: Path | None) -> Sources:
    """The checklists folder (if present) and the test and source indexes."""
    rules = shared / "rules" if shared is not None and (shared / "rules").is_dir() else None
    if rules is None:
        return Sources(None, {}, {})
    return Sources(rules, scan_tests(TESTS), scan_source(SRC / "skirmish"))


def render_sections(name: str, page: str, sources: Sources, only: Iterable[str] | None = None) -> dict[str, str]:
    """The body of every section this script can write now for one page (``status`` needs the rules)."""
    _skirmish()
    from skirmish.rulesets import RULESETS

    cls = RULESETS.by_name[name]
    rs = cls()
    wanted = set(only) if only is not None else set(SECTIONS)
    out: dict[str, str] = {}
    if "legend" in wanted:
        out["legend"] = render_legend(rs)
    if "policy" in wanted:
        out["policy"] = render_policy(cls)
    if "cones" in wanted:
        out["cones"] = render_cones(rs)
    if "answers" in wanted:
        out["answers"] = render_answers(name, page)
    if "stats" in wanted:
        out["stats"] = render_stats(cls)
    if "status" in wanted and sources.rules is not None:
        path = sources.rules / f"{name}.md"
        if path.is_file():
            out["status"] = render_status(name, path.read_text(encoding="utf-8"), sources.tested,
                                          sources.in_source)
    return out


def skeleton(name: str) -> str:
    """A new page: a title and every section, for the hand-written text to grow around."""
    _skirmish()
    from skirmish.rulesets import RULESETS

    cls = RULESETS.by_name[name]
    parts = [f"# {cls.info.title} (`{name}`)\n"]
    for section in SECTIONS:
        parts.append(f"## {section.capitalize()}\n\n<!-- generated:{section} -->\n<!-- /generated:{section} -->\n")
    return "\n".join(parts)


def splice(page: str, sections: dict[str, str]) -> tuple[str, list[str], list[str]]:
    """The page with each section's body replaced.

    Returns:
        The new text, the sections whose body changed, and the sections with no markers
        (appended at the end of the new text).
    """
    changed: list[str] = []
    present: set[str] = set()

    def replace(m: re.Match[str]) -> str:
        name = m.group("name")
        if name not in sections:
            return m.group(0)
        present.add(name)
        body = sections[name].strip("\n") + "\n"
        if m.group("body") != body:
            changed.append(name)
        return f"<!-- generated:{name} -->\n{body}<!-- /generated:{name} -->"

    text = _MARKER.sub(replace, page)
    missing = [n for n in sections if n not in present]
    for name in missing:
        body = sections[name].strip("\n") + "\n"
        text = text.rstrip("\n") + f"\n\n<!-- generated:{name} -->\n{body}<!-- /generated:{name} -->\n"
    return text, changed, missing


def write_atomic(path: Path, text: str) -> None:
    """Write a file through a temporary file in the same folder and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, mode)  # mkstemp makes the file private; keep the page's own mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def names() -> list[str]:
    """The rule set ids, without aliases."""
    _skirmish()
    from skirmish.rulesets import RULESETS

    return RULESETS.names()


def check(shared: Path | None, only: Iterable[str] | None = None) -> list[str]:
    """Problems found without writing: one line per page and section that differs from the code."""
    sources = gather(shared)
    problems = []
    for name in names():
        path = DOCS / f"{name}.md"
        if not path.is_file():
            problems.append(f"{path.relative_to(ROOT)}: the page is missing")
            continue
        page = path.read_text(encoding="utf-8")
        _, changed, missing = splice(page, render_sections(name, page, sources, only))
        problems += [f"{path.relative_to(ROOT)}: section {s!r} differs from the code" for s in changed]
        problems += [f"{path.relative_to(ROOT)}: section {s!r} has no markers" for s in missing]
    return problems


def write(shared: Path | None, only: Iterable[str] | None = None) -> list[str]:
    """Rewrite every page's sections; the pages written."""
    sources = gather(shared)
    written = []
    for name in names():
        path = DOCS / f"{name}.md"
        page = path.read_text(encoding="utf-8") if path.is_file() else skeleton(name)
        text, _, _ = splice(page, render_sections(name, page, sources, only))
        if not path.is_file() or text != page:
            write_atomic(path, text)
            written.append(str(path.relative_to(ROOT)))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rewrite the generated sections of docs/rulesets/<id>.md.")
    parser.add_argument("--shared", type=Path, default=None,
                        help="the shared folder holding rules/<id>.md (default: ../shared beside the project)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a page differs from what would be written")
    args = parser.parse_args(argv)
    shared = args.shared if args.shared is not None else DEFAULT_SHARED
    if not (shared / "rules").is_dir():
        print(f"{shared / 'rules'} is not there: skipping the 'status' sections", file=sys.stderr)
    if args.check:
        problems = check(shared)
        for p in problems:
            print(p)
        if problems:
            print("run: python tools/reference.py", file=sys.stderr)
            return 1
        print("reference pages are up to date")
        return 0
    written = write(shared)
    for w in written:
        print(f"wrote {w}")
    if not written:
        print("reference pages are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
