"""Layers that hold (DESIGN.md "Shape", STYLE.md "Our own habits"): dependencies point down only.

- core imports nothing above it (rule sets, scenario, agents, sim, server, cli, render, games, replay);
- a rule set imports only the core, ``skirmish.errors`` and its own folder;
- nothing else reaches into a rule set: the interfaces (agents, sim, server, cli, render, games,
  replay, scenario) import only the registry, ``skirmish.rulesets`` itself;
- no import cycle between packages;
- the library never imports the command line;
- the interfaces and the page name no rule set, and the page compares no action's verb or state's
  phase with a word of its own (the rule set's hooks say what to show).

Every import counts wherever it sits (inside functions, under ``TYPE_CHECKING``); relative imports
are resolved; ``from package import module`` imports the module; ``importlib.import_module`` with a
literal name is an import. The rule sets are read from the registry. Each check is a function over a
tree of modules, run on the project and on a small tree with a planted violation of each kind, so
that every check is seen to fail; ``../shared/tools/layers.py``, where it exists, finds nothing the
project's own checks miss.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from skirmish.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "skirmish"
LAYERS_TOOL = ROOT.parent / "shared" / "tools" / "layers.py"

CORE_MAY_IMPORT = frozenset(("core", "errors"))
INTERFACES = frozenset(("scenario", "agents", "sim", "server", "cli", "render", "games", "replay"))
"""The packages and modules built on the game interface."""


def registered_folders() -> list[str]:
    """The rule sets' folders, as the registry knows them (``skirmish.rulesets.<folder>.ruleset``)."""
    return sorted({cls.__module__.split(".")[2] for cls in RULESETS.by_name.values()})


def registered_names() -> set[str]:
    """Every name and alias the registry answers to."""
    return {name for cls in RULESETS.by_name.values() for name in (cls.info.name, *cls.info.aliases)}


# Reading a tree's imports.

@dataclass(frozen=True, slots=True)
class Import:
    """One import of a module of the package: in ``file`` (relative to the package folder) at ``line``."""

    file: str
    line: int
    module: str


@dataclass(frozen=True, slots=True)
class Violation:
    file: str
    line: int
    module: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line} imports {self.module} ({self.why})"


def module_name(root: Path, path: Path) -> str:
    """``skirmish.rulesets.ddm2008.setup`` for ``<root>/rulesets/ddm2008/setup.py``."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def read_imports(root: Path) -> tuple[list[Import], list[str]]:
    """Every import of the package's own modules in the tree under ``root`` (the package folder), and
    the files that cannot be read."""
    files = sorted(root.rglob("*.py"))
    known = {module_name(root, f) for f in files}
    out: list[Import] = []
    unreadable: list[str] = []
    for f in files:
        rel = f.relative_to(root).as_posix()
        try:
            tree = ast.parse(f.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            unreadable.append(rel)
            continue
        here = module_name(root, f)
        package = here if f.name == "__init__.py" else here.rpartition(".")[0]
        for node in ast.walk(tree):
            for name in _imported(node, package, known):
                if name == root.name or name.startswith(root.name + "."):
                    out.append(Import(rel, node.lineno, name))  # type: ignore[attr-defined]
    return out, unreadable


def _imported(node: ast.AST, package: str, known: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            base = ".".join([*base_parts, *([node.module] if node.module else [])])
        else:
            base = node.module or ""
        # ``from package import module`` imports the module; ``from module import name`` the module.
        subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
        return [base, *subs]
    if isinstance(node, ast.Call) and node.args:
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        first = node.args[0]
        if called in ("import_module", "__import__") and isinstance(first, ast.Constant) and isinstance(
                first.value, str):
            return [first.value]
    return []


def unit(module: str) -> str:
    """The layer unit a module belongs to: ``core``, ``rulesets`` (the registry), ``rulesets.ddm2008``
    (one rule set), ``cli`` (with ``__main__``), or the top-level package or module (``server``, ``games``)."""
    parts = module.split(".")[1:]
    if not parts:
        return "skirmish"
    if parts[0] == "rulesets" and len(parts) > 1:
        return f"rulesets.{parts[1]}"
    if parts[0] == "__main__":
        return "cli"
    return parts[0]


# The checks: each returns the imports that break one rule.

def core_violations(imports: Iterable[Import]) -> list[Violation]:
    """Core imports nothing above it: only the core and the errors."""
    return [Violation(i.file, i.line, i.module, "core imports only core and errors")
            for i in imports if i.file.startswith("core/") and unit(i.module) not in CORE_MAY_IMPORT]


def ruleset_violations(imports: Iterable[Import], rulesets: Iterable[str]) -> list[Violation]:
    """A rule set imports only the core, the errors and its own folder; the registry, also the rule sets."""
    folders = set(rulesets)
    out = []
    for i in imports:
        parts = i.file.split("/")
        target = unit(i.module)
        if parts[0] != "rulesets":
            continue
        if len(parts) == 2:  # the registry package itself
            if target not in CORE_MAY_IMPORT and target != "rulesets" and not target.startswith("rulesets."):
                out.append(Violation(i.file, i.line, i.module, "the registry imports only core, errors and rule sets"))
            continue
        own = f"rulesets.{parts[1]}"
        if parts[1] not in folders:
            out.append(Violation(i.file, i.line, i.module, f"{parts[1]} is not a registered rule set"))
        elif target not in CORE_MAY_IMPORT and target != own:
            out.append(Violation(i.file, i.line, i.module, f"{parts[1]} imports only core, errors and its own folder"))
    return out


def insides_violations(imports: Iterable[Import]) -> list[Violation]:
    """Only the registry and a rule set itself reach into a rule set: the interfaces import the
    registry package, ``skirmish.rulesets``, and go through its hooks."""
    out = []
    for i in imports:
        here, target = unit(module_name_of(i.file)), unit(i.module)
        if target.startswith("rulesets.") and here != target and here != "rulesets":
            out.append(Violation(i.file, i.line, i.module, "only the registry reaches a rule set's insides"))
    return out


def module_name_of(file: str) -> str:
    parts = ["skirmish", *Path(file).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def cli_violations(imports: Iterable[Import]) -> list[Violation]:
    """The library never imports the command line."""
    return [Violation(i.file, i.line, i.module, "the library never imports the command line")
            for i in imports if unit(i.module) == "cli" and unit(module_name_of(i.file)) != "cli"]


def cycle_violations(imports: Iterable[Import]) -> list[Violation]:
    """No import cycle between packages: each import from one unit to another that lies on a cycle."""
    imports = list(imports)
    graph: dict[str, set[str]] = {}
    for i in imports:
        a, b = unit(module_name_of(i.file)), unit(i.module)
        if a != b:
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set())
    component = _components(graph)
    return [Violation(i.file, i.line, i.module, f"cycle between {', '.join(sorted(component[a]))}")
            for i in imports
            if (a := unit(module_name_of(i.file))) != (b := unit(i.module)) and component[a] is component[b]]


def _components(graph: dict[str, set[str]]) -> dict[str, frozenset[str]]:
    """Each node's strongly connected component (Tarjan's algorithm); a node on no cycle is alone."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: dict[str, frozenset[str]] = {}

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.append(w)
                if w == v:
                    break
            group = frozenset(members)
            for w in members:
                out[w] = group

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def all_violations(root: Path, rulesets: Iterable[str]) -> list[Violation]:
    """Every import under ``root`` that breaks a layer, and every file that cannot be read."""
    imports, unreadable = read_imports(root)
    return [*(Violation(f, 0, "", "cannot be read") for f in unreadable),
            *core_violations(imports), *ruleset_violations(imports, rulesets), *insides_violations(imports),
            *cli_violations(imports), *cycle_violations(imports)]


def named_rulesets(root: Path, names: set[str]) -> list[str]:
    """String constants (docstrings aside) in the interfaces that are a rule set's name or alias."""
    out = []
    for f in sorted(root.rglob("*.py")):
        if unit(module_name(root, f)) not in INTERFACES:
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names
                    and id(node) not in docstrings):
                out.append(f"{f.relative_to(root).as_posix()}:{node.lineno} names {node.value!r}")
    return out


PAGE_RULES = (
    (re.compile(r"\.(?:do|phase)\s*[!=]==?\s*[\"'`]"), "compares an action's verb or a phase with a word"),
    (re.compile(r"includes\(\s*[\w.]*\.(?:do|phase)\s*\)"), "looks an action's verb or a phase up in a list"),
)


def page_violations(static: Path, names: set[str]) -> list[str]:
    """Lines of the page's scripts and HTML that name a rule set or know its verbs and phases."""
    quoted = re.compile(r"[\"'`](" + "|".join(re.escape(n) for n in sorted(names)) + r")[\"'`]")
    out = []
    for f in sorted([*static.glob("*.js"), *static.glob("*.html")]):
        for n, text in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            if quoted.search(text):
                out.append(f"{f.name}:{n} names a rule set: {text.strip()}")
            out.extend(f"{f.name}:{n} {why}: {text.strip()}" for rule, why in PAGE_RULES if rule.search(text))
    return out


def layers_tool_breaks(root: Path) -> list[tuple[str, int | None, str]] | None:
    """What ``../shared/tools/layers.py`` finds under ``root``: (file, line or None, module); None
    when the tool is not there."""
    if not LAYERS_TOOL.is_file():
        return None
    spec = importlib.util.spec_from_file_location("layers_tool", LAYERS_TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out: list[tuple[str, int | None, str]] = []
    for line in tool.breaks(root):
        found = re.fullmatch(r"(.+?):(\d+) imports (\S+)", line)
        if found:
            out.append((found[1], int(found[2]), found[3]))
        else:
            out.append((line.split(":", 1)[0], None, ""))  # a file it cannot read
    return out


def missed_by_us(root: Path, rulesets: Iterable[str]) -> list[tuple[str, int | None, str]]:
    """What the layers tool finds that the project's checks do not."""
    theirs = layers_tool_breaks(root) or []
    ours = all_violations(root, rulesets)
    lines = {(v.file, v.line, v.module) for v in ours}
    files = {v.file for v in ours}
    return [b for b in theirs if (b[1] is None and b[0] not in files) or (b[1] is not None and b not in lines)]


# The project.

def test_every_ruleset_folder_is_registered():
    on_disk = sorted(p.name for p in (SRC / "rulesets").iterdir() if p.is_dir() and any(p.glob("*.py")))
    assert on_disk == registered_folders()


def test_core_imports_nothing_above_it():
    imports, _ = read_imports(SRC)
    assert [str(v) for v in core_violations(imports)] == []


def test_rulesets_import_only_core_errors_and_their_own_folder():
    imports, _ = read_imports(SRC)
    assert [str(v) for v in ruleset_violations(imports, registered_folders())] == []


def test_only_the_registry_reaches_into_a_ruleset():
    imports, _ = read_imports(SRC)
    assert [str(v) for v in insides_violations(imports)] == []


def test_no_import_cycle_between_packages():
    imports, _ = read_imports(SRC)
    assert [str(v) for v in cycle_violations(imports)] == []


def test_library_never_imports_the_cli():
    imports, _ = read_imports(SRC)
    assert [str(v) for v in cli_violations(imports)] == []


def test_every_module_can_be_read():
    assert read_imports(SRC)[1] == []


def test_interfaces_name_no_ruleset():
    assert named_rulesets(SRC, registered_names()) == []


def test_the_page_knows_no_ruleset():
    assert page_violations(SRC / "server" / "static", registered_names()) == []


def test_the_layers_tool_finds_nothing_the_project_misses():
    if layers_tool_breaks(SRC) is None:
        pytest.skip(f"{LAYERS_TOOL} is not there")
    assert missed_by_us(SRC, registered_folders()) == []


# A small tree with one violation of each kind: every check must fail on it.

PLANTED = {
    "__init__.py": "",
    "__main__.py": "from skirmish.cli import main\n",
    "errors.py": "",
    "core/__init__.py": "",
    "core/geo.py": "def f():\n    from skirmish.scenario import loader\n",  # 2: core -> scenario, in a function
    "core/base.py": "import skirmish.rulesets\n",  # 1: core -> the registry
    "rulesets/__init__.py": "from skirmish.rulesets.alpha import A\nfrom skirmish.rulesets.beta import B\n",
    "rulesets/alpha/__init__.py": "from .rules import A\n",
    "rulesets/alpha/rules.py": (
        "from skirmish.core.geo import f\n"
        "from skirmish.errors import E\n"
        "from . import helpers\n"
        "def g():\n"
        "    from skirmish.agents.tactician import T\n"  # 5: rule set -> agents
        "    from skirmish.rulesets.beta.rules import B\n"  # 6: another rule set
        "    from skirmish.rulesets import find\n"  # 7: the registry
    ),
    "rulesets/alpha/helpers.py": "",
    "rulesets/beta/__init__.py": "from skirmish.rulesets.beta.rules import B\n",
    "rulesets/beta/rules.py": "from ..alpha import rules\n",  # 1: another rule set, relative
    "rulesets/gamma/__init__.py": "",  # not registered
    "agents/__init__.py": "",
    "agents/tactician.py": (
        "from skirmish.rulesets import alpha\n"  # 1: a rule set through its package
        "def h():\n"
        "    import skirmish.rulesets.beta.rules\n"  # 3: a rule set's insides
    ),
    "agents/fine.py": "from skirmish.rulesets import RULESETS\n",
    "scenario/__init__.py": "",
    "scenario/loader.py": "from skirmish.rulesets import RULESETS\n",
    "server/__init__.py": "",
    "server/views.py": (
        "import importlib\n"
        "from skirmish.games import describe\n"
        "def v():\n"
        "    from skirmish.cli import main\n"  # 4: library -> cli
        "    return importlib.import_module('skirmish.rulesets.alpha.rules')\n"  # 5: dynamic
    ),
    "cli/__init__.py": "from skirmish.cli.main import main\n",
    "cli/main.py": "from skirmish.server import views\n",
    "sim/__init__.py": "",
    "sim/batch.py": "from skirmish.replay import build\n",  # 1: sim -> replay
    "replay.py": "def build():\n    from skirmish.sim import batch\n",  # 2: replay -> sim: a cycle
    "games.py": "DEFAULT = 'alpha'\n",  # names a rule set
}


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    root = tmp_path / "skirmish"
    for rel, text in PLANTED.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def found(violations: Iterable[Violation]) -> set[tuple[str, int, str]]:
    return {(v.file, v.line, v.module) for v in violations}


def test_planted_core_violations_are_found(planted: Path):
    imports, _ = read_imports(planted)
    assert found(core_violations(imports)) == {("core/geo.py", 2, "skirmish.scenario"),
                                               ("core/geo.py", 2, "skirmish.scenario.loader"),
                                               ("core/base.py", 1, "skirmish.rulesets")}


def test_planted_ruleset_violations_are_found(planted: Path):
    imports, _ = read_imports(planted)
    assert found(ruleset_violations(imports, ["alpha", "beta"])) == {
        ("rulesets/alpha/rules.py", 5, "skirmish.agents.tactician"),
        ("rulesets/alpha/rules.py", 6, "skirmish.rulesets.beta.rules"),
        ("rulesets/alpha/rules.py", 7, "skirmish.rulesets"),
        ("rulesets/beta/rules.py", 1, "skirmish.rulesets.alpha"),
        ("rulesets/beta/rules.py", 1, "skirmish.rulesets.alpha.rules"),
    }
    assert {v.file for v in ruleset_violations(imports, ["alpha"])} >= {"rulesets/beta/__init__.py"}


def test_planted_reaches_into_a_ruleset_are_found(planted: Path):
    imports, _ = read_imports(planted)
    assert found(insides_violations(imports)) == {
        ("agents/tactician.py", 1, "skirmish.rulesets.alpha"),
        ("agents/tactician.py", 3, "skirmish.rulesets.beta.rules"),
        ("server/views.py", 5, "skirmish.rulesets.alpha.rules"),
        ("rulesets/alpha/rules.py", 6, "skirmish.rulesets.beta.rules"),
        ("rulesets/beta/rules.py", 1, "skirmish.rulesets.alpha"),
        ("rulesets/beta/rules.py", 1, "skirmish.rulesets.alpha.rules"),
    }


def test_planted_cli_import_is_found(planted: Path):
    imports, _ = read_imports(planted)
    assert found(cli_violations(imports)) == {("server/views.py", 4, "skirmish.cli"),
                                              ("server/views.py", 4, "skirmish.cli.main")}


def test_planted_cycles_are_found(planted: Path):
    imports, _ = read_imports(planted)
    cycles = found(cycle_violations(imports))
    assert {("sim/batch.py", 1, "skirmish.replay"), ("replay.py", 2, "skirmish.sim")} <= cycles
    # server -> cli (views) and cli -> server (main) make another; an import onto no cycle is not one.
    assert ("cli/main.py", 1, "skirmish.server") in cycles
    assert ("server/views.py", 2, "skirmish.games") not in cycles


def test_planted_unreadable_file_is_found(planted: Path):
    (planted / "core" / "broken.py").write_text("def (:\n")
    assert Violation("core/broken.py", 0, "", "cannot be read") in all_violations(planted, ["alpha", "beta"])


def test_planted_ruleset_name_in_an_interface_is_found(planted: Path):
    assert named_rulesets(planted, {"alpha", "beta"}) == ["games.py:1 names 'alpha'"]


def test_planted_page_knowledge_is_found(tmp_path: Path):
    (tmp_path / "app.js").write_text(
        'const ok = a.ends_turn;\n'
        'if (a.do === "end_turn") go();\n'
        'if (["move", "place"].includes(a.do)) fold();\n'
        'cat.maps.filter((x) => x.ruleset === "alpha");\n'
        'if (state.phase !== "place") wait();\n')
    assert [line.split(" ")[0] for line in page_violations(tmp_path, {"alpha"})] == [
        "app.js:2", "app.js:3", "app.js:4", "app.js:5"]


def test_the_project_checks_catch_what_the_layers_tool_catches_in_a_planted_tree(planted: Path):
    theirs = layers_tool_breaks(planted)
    if theirs is None:
        pytest.skip(f"{LAYERS_TOOL} is not there")
    assert theirs, "the planted tree breaks the layers"
    assert missed_by_us(planted, ["alpha", "beta"]) == []
