"""Dependencies point down only (DESIGN.md, STYLE.md): core imports no rule set; rule sets import
no other rule set; the library never imports the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "skirmish"
RULESETS = ("ddm2008", "ddm2003", "dnd5e", "dnd3", "drawsteel")


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_core_imports_no_ruleset_scenario_or_cli():
    for f in (SRC / "core").rglob("*.py"):
        bad = {m for m in imports(f) if m.startswith(("skirmish.rulesets", "skirmish.scenario", "skirmish.cli",
                                                      "skirmish.render"))}
        assert not bad, f"{f.name} imports {bad}"


def test_rulesets_do_not_import_each_other():
    for name in RULESETS:
        for f in (SRC / "rulesets" / name).rglob("*.py"):
            others = {m for m in imports(f) for o in RULESETS if o != name and m.startswith(f"skirmish.rulesets.{o}")}
            assert not others, f"{name}/{f.name} imports {others}"


def test_library_never_imports_the_cli():
    for f in SRC.rglob("*.py"):
        if "cli" in f.relative_to(SRC).parts or f.name == "__main__.py":
            continue
        assert not {m for m in imports(f) if m.startswith("skirmish.cli")}, f
