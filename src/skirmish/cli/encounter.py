"""``skirmish encounter``: how deadly is this fight? Simulate it N times and report, with 95% intervals."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from skirmish.errors import SkirmishError


def encounter(
    file: Annotated[Path, typer.Argument(help="A scenario: a party (hero: true) against its foes.")],
    n: Annotated[int, typer.Option("-n", help="How many fights to simulate.", min=1)] = 200,
    seed: Annotated[int, typer.Option(help="Root seed; each fight's seed is spawned from it.")] = 0,
    agents: Annotated[str, typer.Option(help="The party's agent, then the foes'.")] = "tactician,tactician",
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON only.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Write outcome and rounds charts (.png or .svg).")] = None,
) -> None:
    """Simulate a fight many times: chance the party wins, a character dies, characters downed,
    rounds and hit points left, beside the XP-threshold difficulty."""
    from skirmish.scenario.loader import load_scenario_file
    from skirmish.sim.encounter import plot as draw
    from skirmish.sim.encounter import simulate

    err = Console(stderr=True)
    try:
        scenario = load_scenario_file(file)
        pair = tuple(a.strip() for a in agents.split(","))
        if len(pair) != 2:
            raise SkirmishError("give two agents: the party's, then the foes'")
        if not scenario.ruleset.playable:
            raise SkirmishError(f"{scenario.ruleset.name} cannot play fights yet")
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=err, transient=True, disable=as_json and not sys.stderr.isatty()) as bar:
            task = bar.add_task("fights", total=n)
            report = simulate(scenario, n, seed, pair, progress=lambda done: bar.update(task, completed=done))
        rating = scenario.ruleset.difficulty(scenario.position)
    except SkirmishError as e:
        err.print(f"[bold red]error:[/] {e}")
        raise typer.Exit(2) from None
    data = report.to_json()
    if rating is not None:
        data["difficulty"] = rating
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        table = Table(title=f"{file.name}: {n} fights, party {report.party} ({pair[0]}) against {pair[1]}")
        table.add_column("measure")
        table.add_column("estimate", justify="right")
        table.add_column("95% interval", justify="right")
        for name, (value, lo, hi), pct in (
            ("party wins", report.win(), True), ("a character dies", report.death(), True),
            ("characters downed", report.downed(), False), ("rounds", report.rounds(), False),
            ("party hit points left", report.hp_left(), True),
        ):
            fmt = (lambda v: f"{v:.1%}") if pct else (lambda v: f"{v:.2f}")
            table.add_row(name, fmt(value), f"{fmt(lo)} .. {fmt(hi)}")
        q1, med, q3 = data["rounds"]["quartiles"]
        table.add_row("rounds: spread", f"sd {data['rounds']['stdev']:.2f}", f"quartiles {q1:g} / {med:g} / {q3:g}")
        Console().print(table)
        if rating is not None:
            Console().print(f"XP budget: {rating['xp']} XP, adjusted {rating['adjusted_xp']} against the party's "
                            f"thresholds {rating['thresholds']} (easy, medium, hard, deadly): "
                            f"[bold]{rating['rating']}[/]")
    if plot is not None:
        try:
            draw(report, plot, f"{file.stem}: {n} fights")
        except (OSError, ValueError) as e:
            err.print(f"[bold red]error:[/] {plot}: {e}")
            raise typer.Exit(2) from None
        if not as_json:
            Console().print(f"wrote {plot}")
