"""``skirmish``: run, validate and render scenarios.

Expected errors become one clear line on standard error and an exit status (2: bad input,
3: a step the rules refuse); nothing is written on error, and no traceback is shown.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from skirmish.errors import ContentError, SkirmishError

app = typer.Typer(
    name="skirmish",
    help="Rules engine, player and simulator for tactical combat on a square grid.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

EXIT_BAD_INPUT = 2
EXIT_REFUSED = 3


def _fail(message: str, code: int) -> typer.Exit:
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {message}", markup=True)
    return typer.Exit(code)


def _load(file: Path) -> Any:
    from skirmish.scenario.loader import load_scenario_file

    try:
        return load_scenario_file(file)
    except ContentError as e:
        raise _fail(str(e), EXIT_BAD_INPUT) from None


@app.command()
def run(
    file: Annotated[Path, typer.Argument(help="Scenario file (YAML or JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
) -> None:
    """Play a scenario's steps and answer its questions."""
    from skirmish.scenario.runner import StepRefused
    from skirmish.scenario.runner import run as run_steps

    scenario = _load(file)
    try:
        result = run_steps(scenario)
    except StepRefused as e:
        raise _fail(f"{file}: {e}", EXIT_REFUSED) from None
    except ContentError as e:
        raise _fail(f"{file}: {e}", EXIT_BAD_INPUT) from None
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
        return
    _print_run(scenario, result)


def _print_run(scenario: Any, result: dict[str, Any]) -> None:
    from skirmish.render import render_terminal

    console = Console()
    model = scenario.model
    title = model.name or str(scenario.file)
    console.print(render_terminal(scenario.position, title=f"{title} ({result['ruleset']})"))
    if model.description:
        console.print(model.description.strip(), style="italic")
    steps = [s for s in model.steps if "ask" in s]
    if steps:
        table = Table(title="Questions", show_lines=False)
        table.add_column("#", justify="right")
        table.add_column("question")
        table.add_column("answer")
        for i, (step, ans) in enumerate(zip(steps, result["answers"], strict=True)):
            table.add_row(str(i), describe_question(step), describe_answer(step, ans["value"]))
        console.print(table)
    for event in result["events"]:
        console.print(f"- {event['text']}" + (f" [dim]({event['rule']})[/]" if event.get("rule") else ""))


def describe_question(step: dict[str, Any]) -> str:
    """A question step in words."""
    q = step["ask"]
    if q in ("distance", "line_of_sight", "line_of_effect", "cover"):
        extra = f" against {step['with']}" if "with" in step else (f" ({step['kind']})" if "kind" in step else "")
        return f"{q.replace('_', ' ')} from {step['from']} to {step['to']}{extra}"
    if q == "flanking":
        return f"does {step['attacker']} flank {step['target']}?"
    if q == "reachable":
        return f"where can {step['actor']} move?"
    if q == "area":
        at = f" at {step['at']}" if "at" in step else ""
        return f"who does {step['actor']}'s {step['with']}{at} affect?"
    return f"{q} of {step.get('actor')}"


def describe_answer(step: dict[str, Any], value: Any) -> str:
    """An answer in words."""
    q = step["ask"]
    if q == "distance":
        return "no way round the walls" if value is None else f"{value} squares"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if q == "reachable":
        return f"{len(value)} squares: " + ", ".join(f"{tuple(sq)}={cost}" for sq, cost in value[:12]) + (
            " ..." if len(value) > 12 else "")
    if q == "area":
        return ", ".join(value) if value else "nobody"
    return str(value)


@app.command()
def validate(file: Annotated[Path, typer.Argument(help="Scenario or warband (lineup) file to check.")]) -> None:
    """Check a scenario file (format, map, creatures, steps) or a warband file (format limits)."""
    from skirmish.rulesets import RULESETS

    for name in RULESETS.names():
        try:
            check = RULESETS.by_name[name]().check_lineup(file)
        except ContentError as e:
            raise _fail(str(e), EXIT_BAD_INPUT) from None
        if check is not None:
            _report_lineup(file, check)
            return
    scenario = _load(file)
    pos = scenario.position
    Console().print(
        f"[green]ok[/]: {file}: {pos.ruleset.name}, {pos.grid.width}x{pos.grid.height} map, "
        f"{len(pos.creatures)} creatures on {len(pos.sides())} sides, {len(scenario.model.steps)} steps")


def _report_lineup(file: Path, check: Any) -> None:
    """A lineup's check (``Ruleset.check_lineup``): every error (``FILE: line N, creatures[3]: message
    [M08-0xx]``) on standard error and exit 2 if there is one; else ``ok: ...`` and the notes, exit 0."""
    from rich.markup import escape

    if check.errors:
        for line in check.errors:
            typer.echo(line, err=True)
        for line in check.notes:
            typer.echo(f"note: {line}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    Console(highlight=False, soft_wrap=True).print(f"[green]ok[/]: {escape(str(file))}: {escape(check.summary)}")
    for line in check.notes:
        typer.echo(f"note: {line}")


@app.command()
def render(
    file: Annotated[Path, typer.Argument(help="Scenario or replay file to draw.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write a picture: .png or .svg.")] = None,
    step: Annotated[int | None, typer.Option(help="Of a replay: draw the game after this many actions "
                                                  "(default: all of them).", min=0)] = None,
) -> None:
    """Draw a scenario's map, zones and creatures, or a replay's game after some actions, in the terminal
    or as a PNG or SVG picture."""
    from skirmish.render import print_terminal, render_picture

    replay = _read_replay(file)
    if replay is not None:
        position, title = _replay_position(file, replay, step)
    else:
        if step is not None:
            raise _fail(f"{file}: --step is for replay files; this is a scenario", EXIT_BAD_INPUT)
        scenario = _load(file)
        position, title = scenario.position, scenario.model.name
    if out is None:
        print_terminal(position, title=title or str(file))
        return
    if out.suffix.lower() not in (".png", ".svg"):
        raise _fail(f"{out}: pictures are .png or .svg, not {out.suffix or 'no suffix'!r}", EXIT_BAD_INPUT)
    try:
        written = render_picture(position, out, title=title)
    except OSError as e:
        raise _fail(f"{out}: cannot write the picture: {e.strerror or e}", EXIT_BAD_INPUT) from None
    Console().print(f"wrote {written}")


def _read_replay(file: Path) -> dict[str, Any] | None:
    """The file's JSON when it is a replay (it has the ``skirmish_replay`` key); None otherwise."""
    from skirmish.replay import is_replay

    if file.suffix.lower() != ".json":
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # not readable JSON: the scenario loader says what is wrong
    return data if is_replay(data) else None


def _replay_position(file: Path, data: dict[str, Any], step: int | None) -> tuple[Any, str]:
    """The game of a replay after ``step`` actions (all when None), and a title saying so."""
    from skirmish.replay import parse_replay, replayed

    try:
        source, seed, steps = parse_replay(data, str(file))
        k = len(steps) if step is None else step
        if k > len(steps):
            raise ContentError(f"--step {k}: the replay has {len(steps)} actions; give 0 to {len(steps)}",
                               file=str(file))
        *_, (state, _) = replayed(source, seed, steps[:k], str(file))
    except ContentError as e:
        raise _fail(str(e), EXIT_BAD_INPUT) from None
    return state, f"{file.stem}: after {k} of {len(steps)} actions, round {state.round}"


@app.command()
def rulesets() -> None:
    """List the rule sets, their geometry and whether they can play yet."""
    from skirmish.rulesets import RULESETS

    table = Table(title="Rule sets")
    for col in ("name", "title", "diagonals", "distance", "cover", "flanking", "plays"):
        table.add_column(col)
    for name in RULESETS.names():
        rs = RULESETS.by_name[name]()
        p = rs.policy
        table.add_row(name, rs.info.title, p.diagonal, p.distance, p.cover_model, p.flanking,
                      "yes" if rs.playable else "questions only")
    Console().print(table)


from skirmish.cli.encounter import encounter  # noqa: E402 - registered after the app exists
from skirmish.cli.play import play  # noqa: E402
from skirmish.cli.serve import serve  # noqa: E402
from skirmish.cli.simulate import simulate  # noqa: E402

app.command()(play)
app.command()(encounter)
app.command()(simulate)
app.command()(serve)


def main() -> None:
    """Entry point: run the app, turning any unexpected error into one line, not a traceback."""
    try:
        app()
    except SkirmishError as e:
        Console(stderr=True).print(f"[bold red]error:[/] {e}")
        sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        sys.exit(130)
