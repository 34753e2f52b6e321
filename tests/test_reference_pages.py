"""The rule set reference pages (``docs/rulesets/<id>.md``) agree with the code, and their examples load.

The pages' generated sections are checked by running ``tools/reference.py`` in check mode in
this process; a failure means a page is stale: run ``python tools/reference.py``.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import types
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from skirmish.rulesets import RULESETS
from skirmish.scenario.loader import load_scenario_text
from skirmish.scenario.runner import run

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rulesets"
SHARED = ROOT.parent / "shared"
NAMES = RULESETS.names()
EXAMPLE = re.compile(r"<!-- example -->\s*\n```yaml\n(?P<yaml>.*?)\n```", re.S)


def _reference() -> ModuleType:
    """``tools/reference.py``, imported by its path (``tools`` is not a package)."""
    name = "skirmish_tools_reference"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _page(name: str) -> str:
    path = DOCS / f"{name}.md"
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing: run python tools/reference.py and write it"
    return path.read_text(encoding="utf-8")


def _section(page: str, section: str) -> str:
    m = re.search(rf"<!-- generated:{section} -->\n(.*?)<!-- /generated:{section} -->", page, re.S)
    assert m, f"the page has no generated {section!r} section"
    return m.group(1)


def _field_paths(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Every field of a stat block as the page names it: ``abilities.str``, ``attacks[].name``."""
    out = []
    for name, field in model.model_fields.items():
        path = prefix + (field.alias or name)
        out.append(path)
        for sub, joiner in _models_in(field.annotation):
            out += _field_paths(sub, path + joiner)
    return out


def _models_in(annotation: Any) -> list[tuple[type[BaseModel], str]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [(annotation, ".")]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return [found for a in args for found in _models_in(a)]
    if origin in (list, tuple) and args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return [(args[0], "[].")]
    return []


def test_generated_sections_match_the_code():
    """Legend, policy, cones, the example's answers and the stat block, as the script would write them."""
    reference = _reference()
    sections = [s for s in reference.SECTIONS if s != "status"]
    problems = reference.check(None, only=sections)
    assert not problems, "\n".join(problems) + "\nrun: python tools/reference.py"


def test_status_sections_match_the_checklists_and_tests():
    """The rules status tables, when the shared checklists are on disk."""
    if not (SHARED / "rules").is_dir():
        pytest.skip(f"the checklists ({SHARED / 'rules'}) are not on disk, so the rules status "
                    "tables cannot be checked")
    problems = _reference().check(SHARED, only=["status"])
    assert not problems, "\n".join(problems) + "\nrun: python tools/reference.py (tests naming rule ids changed)"


@pytest.mark.parametrize("name", NAMES)
def test_page_lists_every_legend_character(name):
    legend = _section(_page(name), "legend")
    for ch, kind in RULESETS.by_name[name].legend.items():
        shown = ch.replace("|", "\\|")
        assert f"| `{shown}` | `{kind.name}` |" in legend, f"{name}: legend character {ch!r} is not listed"


@pytest.mark.parametrize("name", NAMES)
def test_page_names_every_stat_field(name):
    page = _page(name)
    stats = _section(page, "stats")
    for path in _field_paths(RULESETS.by_name[name].stats_model):
        assert f"`{path}`" in stats, f"{name}: stat field {path!r} is not described"


@pytest.mark.parametrize("name", NAMES)
def test_page_example_loads_and_answers(name):
    page = _page(name)
    m = EXAMPLE.search(page)
    assert m, f"{name}: no ```yaml block right after <!-- example -->"
    scenario = load_scenario_text(m.group("yaml") + "\n", f"docs/rulesets/{name}.md (example)")
    assert scenario.ruleset.name == name
    steps = scenario.model.steps
    assert steps and all("ask" in s for s in steps), f"{name}: the example should ask questions, not act"
    assert len(run(scenario)["answers"]) == len(steps)


@pytest.mark.parametrize("name", NAMES)
def test_page_says_how_to_choose_the_rule_set(name):
    page = _page(name)
    assert f"ruleset: {name}" in page
    assert "options" in page


def test_index_links_every_page():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for name in NAMES:
        assert f"]({name}.md)" in index, f"docs/rulesets/README.md does not link {name}.md"
    assert "tools/reference.py" in index


def test_checklist_parsing_and_summaries():
    """Item lines, bold ids and Gaps headings are read; summaries stop at the first sentence."""
    reference = _reference()
    text = "\n".join([
        "- Saving throw (X-001): not an item line.",
        "- AB-001 Diagonal moves cost 1, e.g. like this. Second sentence.",
        "- **CD-002** A **bold** rule with a 「locator」. More.",
        "  - AB-003 an indented sub-item is not an item",
        "- **GAP-AB-1: a lost table** (count and cost), referred to at 「x」.",
        "### G-01 Power roll — [from outside the seed] (SC-basics)",
        "- AB-001 a repeated id is kept once",
    ])
    assert reference.parse_checklist(text) == [
        ("AB-001", "Diagonal moves cost 1, e.g. like this"),
        ("CD-002", "A bold rule with a"),
        ("GAP-AB-1", "A lost table (count and cost), referred to at"),
        ("G-01", "Power roll — from outside the seed (SC-basics)"),
    ]
    long = reference.summarize("word " * 40)
    assert len(long) <= 100 and long.endswith("…")


def test_id_mentions_in_source_and_test_names():
    reference = _reference()
    assert reference.mentions("see AB-121..AB-123 and CD-10..12, not xAB-130 or AB-1230") == {
        "AB-121", "AB-122", "AB-123", "CD-10", "CD-11", "CD-12"}
    assert reference.snake_mentions("test_ab_031_two_creatures_gap_ab_6") == {"AB-031", "GAP-AB-6"}
