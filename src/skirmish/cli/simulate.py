"""``skirmish simulate``: who wins, and how often? Many games on every core, with honest error bars."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from skirmish.errors import SkirmishError


def _symmetric(position: Any) -> bool:
    """Both sides field the same creatures: then the agents swap sides every other game."""
    sides = position.sides()
    if len(sides) != 2:
        return False
    counts = [Counter(c.template.name for c in position.creatures.values() if c.side == s) for s in sides]
    return counts[0] == counts[1]


def simulate(
    file: Annotated[Path | None, typer.Argument(help="A scenario (any playable rule set).")] = None,
    n: Annotated[int, typer.Option("-n", help="Games to play.", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Root seed; each game's seed is spawned from it.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes (0: all cores).", min=0)] = 0,
    backend: Annotated[str, typer.Option(help="serial, process or ray.")] = "",
    address: Annotated[str | None, typer.Option(help="A running Ray cluster to attach to.")] = None,
    agents: Annotated[str, typer.Option(help="Agent of the first side, then the second.")] = "tactician,tactician",
    warbands: Annotated[str | None, typer.Option(help="Two warbands (lineups) instead of a scenario.")] = None,
    maps: Annotated[str | None, typer.Option(help="With --warbands: the two maps.",
                                             show_default="the rule set's own")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON only.")] = False,
    csv_path: Annotated[Path | None, typer.Option("--csv", help="Write one row per game to this CSV file.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Draw outcomes and rounds (.png or .svg).")] = None,
    until_ci: Annotated[float | None, typer.Option(help="Keep playing until the win-rate interval is this "
                                                        "narrow (e.g. 0.02); -n is then the batch size.")] = None,
    max_games: Annotated[int, typer.Option(help="With --until-ci, stop after this many games.")] = 20_000,
    sweep: Annotated[bool, typer.Option("--sweep", help="Every warband of --warbands against every "
                                                        "other, as a win-rate matrix (--plot: a heat map).")] = False,
    point_value: Annotated[str | None, typer.Option(help="Estimate this creature's worth in points "
                                                         "of --reference (n games a step).")] = None,
    reference: Annotated[str, typer.Option(help="With --point-value: the creature to measure in.")] =
        "gloomfang-goblin",
    base: Annotated[str, typer.Option(help="With --point-value: creatures both sides field besides "
                                           "(comma-separated).")] = "",
    most: Annotated[int | None, typer.Option(help="With --point-value: the most reference copies tried.",
                                             min=1)] = None,
    save_replays: Annotated[Path | None, typer.Option(help="Write each game as a replay file in this folder "
                                                           "(game-0001.json, ...).")] = None,
) -> None:
    """Play many games and report win, loss and draw rates with 95% intervals, rounds, scores and
    per-creature damage, kills and survival."""
    from skirmish.files import write_text
    from skirmish.sim.batch import make_jobs, run_batch
    from skirmish.sim.report import Summary
    from skirmish.sim.report import plot as draw

    err = Console(stderr=True)
    if point_value:
        _point_value(point_value, reference, base, most, maps, n, seed, agents, backend, workers, as_json, plot, err)
        return
    if sweep:
        _sweep(warbands, maps, n, seed, agents, backend, workers, as_json, plot, err)
        return
    try:
        _check_plot(plot)
        _check_folder(csv_path, "--csv")
        source, sides, swap = _source(file, warbands, maps)
        keep = _replay_writer(save_replays, source)
        pair = tuple(a.strip() for a in agents.split(","))
        if len(pair) != 2:
            raise SkirmishError("give two agents, separated by a comma")
        cores = workers or os.cpu_count() or 1
        chosen = backend or ("serial" if cores == 1 else "process")
        if chosen not in ("serial", "process", "ray"):
            raise SkirmishError(f"unknown backend {chosen!r}: serial, process or ray")
        results = []
        target = n
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[rate]:.1f} games/s"), TimeRemainingColumn(), console=err,
                      transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("games", total=target, rate=0.0)
            start = time.perf_counter()
            played = 0
            while True:
                jobs = make_jobs(source, sides, pair, target, seed, swap)[played:]
                if keep is not None:
                    jobs = [replace(job, record=True) for job in jobs]

                def tick(result: Any) -> None:
                    nonlocal played
                    played += 1
                    if keep is not None:
                        keep(result)
                    bar.update(task, completed=played, rate=played / max(1e-9, time.perf_counter() - start))

                batch = run_batch(jobs, chosen, cores, address, on_result=tick)  # type: ignore[arg-type]
                results.extend(batch)
                summary = Summary(results, sides)
                if until_ci is None or len(batch) < len(jobs) or len(results) >= max_games:
                    break  # done, interrupted, or at the cap
                if all(summary.ci_width(s) <= until_ci for s in sides):
                    break
                target = min(max_games, target + n)
                bar.update(task, total=target)
    except (SkirmishError, ImportError) as e:
        err.print(f"[bold red]error:[/] {e}")
        raise typer.Exit(2) from None
    data = summary.to_json()
    if csv_path is not None:
        write_text(csv_path, summary.to_csv())
    if plot is not None:
        try:
            draw(summary, plot, f"{(file.stem if file else _lineup_ruleset_name())}: {data['games']} games")
        except (OSError, ValueError) as e:
            err.print(f"[bold red]error:[/] {plot}: {e}")
            raise typer.Exit(2) from None
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return
    _print(data, sides, pair, swap)
    for r in summary.failed:
        err.print(f"[red]game {r.index} (seed {r.seed}) failed:[/] {(r.error or '').splitlines()[0]}")


def _replay_writer(folder: Path | None, source: dict[str, Any]) -> Any:
    """A function writing each finished game's replay into ``folder`` (made if missing), then dropping
    its steps from the result; None without a folder."""
    if folder is None:
        return None
    from skirmish.replay import build_game, save_replay

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SkirmishError(f"--save-replays {folder}: cannot make the folder: {e.strerror or e}") from None
    ruleset = build_game(source, 0).ruleset.name

    def keep(result: Any) -> None:
        if result.error is None:
            save_replay(folder / f"game-{result.index + 1:04d}.json", source, result.seed, ruleset, result.steps)
        result.steps = []

    return keep


def _check_plot(plot: Path | None) -> None:
    """A wrong picture name is an error before the games, not after them."""
    from skirmish.files import check_picture

    if plot is not None:
        try:
            check_picture(plot)
        except ValueError as e:
            raise SkirmishError(f"--plot {plot}: {e}") from None
    _check_folder(plot, "--plot")


def _check_folder(path: Path | None, option: str) -> None:
    if path is not None and not path.resolve().parent.is_dir():
        raise SkirmishError(f"{option} {path}: the folder {path.parent} does not exist")


def _lineup_ruleset_name() -> str:
    """The name of the rule set that games from warbands are played under."""
    from skirmish.games import lineup_ruleset

    return lineup_ruleset().name


def _maps(maps: str | None) -> list[str]:
    """The maps given, else the rule set's own."""
    from skirmish.games import default_maps

    return [m.strip() for m in maps.split(",")] if maps is not None else default_maps()


def _source(file: Path | None, warbands: str | None, maps: str | None) -> tuple[dict[str, Any], list[str], bool]:
    if file is not None:
        from skirmish.scenario.loader import load_scenario_file

        scenario = load_scenario_file(file)
        if not scenario.ruleset.playable:
            raise SkirmishError(f"{scenario.ruleset.name} cannot play games yet")
        sides = scenario.position.sides()
        if len(sides) != 2:
            raise SkirmishError(f"a simulation needs two sides; {file} has {len(sides)}")
        return {"scenario": str(file)}, sides, _symmetric(scenario.position)
    if warbands:
        from skirmish.games import warband

        pair = [warband(w.strip()) for w in warbands.split(",")]
        if len(pair) != 2:
            raise SkirmishError("give two warbands")
        if pair[0][0] == pair[1][0]:
            pair = [(f"{pair[0][0]}-1", pair[0][1]), (f"{pair[1][0]}-2", pair[1][1])]
        return ({"warbands": pair, "maps": _maps(maps)}, [pair[0][0], pair[1][0]],
                sorted(pair[0][1]) == sorted(pair[1][1]))
    raise SkirmishError("give a scenario file, or --warbands A,B for a game from two warbands")


def _print(data: dict[str, Any], sides: list[str], pair: tuple[str, ...], swap: bool) -> None:
    console = Console()
    table = Table(title=f"{data['games']} games, {pair[0]} vs {pair[1]}"
                        + (" (sides swapped every other game)" if swap else ""))
    for col in ("side", "wins", "win rate", "95% interval", "losses", "score (mean)"):
        table.add_column(col, justify="right" if col != "side" else "left")
    for side in sides:
        s = data["sides"][side]
        table.add_row(side, str(s["wins"]), f"{s['win_rate']:.1%}", f"{s['ci95'][0]:.1%} .. {s['ci95'][1]:.1%}",
                      str(s["losses"]), f"{s['score']['mean']:.1f}")
    table.add_row("draws", str(data["draws"]), "", "", "", "")
    console.print(table)
    if swap:
        agents = Table(title="by agent")
        for col in ("agent", "wins", "games", "win rate", "95% interval"):
            agents.add_column(col)
        for name, a in data["agents"].items():
            agents.add_row(name, str(a["wins"]), str(a["games"]), f"{a['win_rate']:.1%}",
                           f"{a['ci95'][0]:.1%} .. {a['ci95'][1]:.1%}")
        console.print(agents)
    q1, med, q3 = data["rounds"]["quartiles"]
    console.print(f"rounds: mean {data['rounds']['mean']:.2f} ({data['rounds']['low']:.2f} .. "
                  f"{data['rounds']['high']:.2f}), quartiles {q1:g} / {med:g} / {q3:g}")
    creatures = Table(title="creatures (per game)")
    for col in ("creature", "side", "damage dealt", "kills", "survival"):
        creatures.add_column(col)
    for cid, row in sorted(data["creatures"].items(), key=lambda kv: (kv[1]["side"], -kv[1]["damage"])):
        creatures.add_row(cid, str(row["side"]), f"{row['damage']:.1f}", f"{row['kills']:.2f}",
                          f"{row['survival']:.0%}")
    console.print(creatures)


def _sweep(warbands: str | None, maps: str | None, n: int, seed: int, agents: str, backend: str, workers: int,
           as_json: bool, plot: Path | None, err: Console) -> None:
    from skirmish.games import warband
    from skirmish.sim.sweep import heat_map
    from skirmish.sim.sweep import sweep as run_sweep

    try:
        _check_plot(plot)
        names = [w.strip() for w in (warbands or "").split(",") if w.strip()]
        if len(names) < 2:
            raise SkirmishError("--sweep needs --warbands with two or more warbands")
        bands = [warband(w) for w in names]
        agent = agents.split(",")[0].strip()
        cores = workers or os.cpu_count() or 1
        chosen = backend or ("serial" if cores == 1 else "process")
        total = n * len(bands) * (len(bands) - 1) // 2
        with Progress(TextColumn("sweeping"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("games", total=total)
            matrix = run_sweep(bands, _maps(maps), n, seed, agent, chosen, cores,
                               on_result=lambda _: bar.advance(task))
    except (SkirmishError, ImportError) as e:
        err.print(f"[bold red]error:[/] {e}")
        raise typer.Exit(2) from None
    if plot is not None:
        heat_map(matrix, plot, f"win rates, {n} games a pair ({agent})")
    if as_json:
        sys.stdout.write(json.dumps(matrix.to_json(), indent=2) + "\n")
        return
    table = Table(title=f"row beats column: win rate over {n} games a pair ({agent} on both sides)")
    table.add_column("")
    for name in matrix.names:
        table.add_column(name, justify="right")
    for i, name in enumerate(matrix.names):
        table.add_row(name, *["-" if i == j else f"{matrix.rate(i, j):.0%}" for j in range(len(matrix.names))])
    Console().print(table)


def _point_value(creature: str, reference: str, base: str, most: int | None, maps: str | None, n: int, seed: int,
                 agents: str, backend: str, workers: int, as_json: bool, plot: Path | None, err: Console) -> None:
    from skirmish.sim.pointvalue import plot_steps, point_value

    agent = agents.split(",")[0].strip()
    cores = workers or os.cpu_count() or 1
    chosen = backend or ("serial" if cores == 1 else "process")
    try:
        _check_plot(plot)
        with Progress(TextColumn("pricing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=err, transient=True, disable=not err.is_terminal) as bar:
            task = bar.add_task("games", total=None)
            pv = point_value(creature, reference, [b.strip() for b in base.split(",") if b.strip()],
                             _maps(maps), n, seed, agent, chosen, cores, most,
                             on_result=lambda _: bar.advance(task))
    except (SkirmishError, ImportError) as e:
        err.print(f"[bold red]error:[/] {e}")
        raise typer.Exit(2) from None
    if plot is not None:
        plot_steps(pv, plot)
    if as_json:
        sys.stdout.write(json.dumps(pv.to_json(), indent=2) + "\n")
        return
    table = Table(title=f"{creature} (stated {pv.stated_cost}) against copies of {reference} "
                        f"({pv.reference_cost} points), {n} games a step, {agent} on both sides")
    for col in ("copies", "points", "games", f"{creature}'s score", "95% interval"):
        table.add_column(col, justify="right")
    for s in pv.steps:
        table.add_row(str(s.count), str(s.points), str(s.games), f"{s.rate:.1%}",
                      f"{s.ci95[0]:.1%} .. {s.ci95[1]:.1%}")
    console = Console()
    console.print(table)
    lo, hi = pv.interval

    def show(x: float | None, above: str) -> str:
        return above if x is None else f"{x:.1f}"

    top = f"over {pv.steps[-1].points}"
    console.print(f"estimated worth: {show(pv.estimate, top)} points "
                  f"(95% interval {show(lo, top)} .. {show(hi, top)}; stated cost {pv.stated_cost})")
    for r in pv.failed:
        err.print(f"[red]game seed {r.seed} failed:[/] {(r.error or '').splitlines()[0]}")
    if pv.interrupted:
        err.print("[yellow]interrupted:[/] the estimate uses the games that finished")
