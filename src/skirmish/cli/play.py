"""``skirmish play``: a whole game, each side a person at the terminal or an agent; save and resume.

A saved game (a replay) is JSON: the rule set, the seed, where the game came from (a scenario
file, or two warbands and two maps) and every action as a scenario step; loading it replays the
actions, so the same events follow, and play goes on from there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from skirmish.errors import ContentError, IllegalActionError, InvalidActionError, SkirmishError
from skirmish.games import default_lineups, default_maps, describe, lineup_ruleset
from skirmish.games import warband as _warband
from skirmish.replay import REPLAY_VERSION, build_game, load_replay, save_replay

__all__ = ["REPLAY_VERSION", "_warband", "build_game", "describe", "load_replay", "play", "save_replay"]


def _fail(message: str, code: int = 2) -> typer.Exit:
    Console(stderr=True, highlight=False, soft_wrap=True).print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


def play(
    scenario: Annotated[Path | None, typer.Argument(help="Start from this scenario instead of two warbands.")] = None,
    warbands: Annotated[str | None, typer.Option(
        help="Two warbands (lineups), shipped names or files.", show_default="the rule set's own")] = None,
    maps: Annotated[str | None, typer.Option(
        help="The two players' maps (shipped names).", show_default="the rule set's own")] = None,
    agents: Annotated[str, typer.Option(help="Who plays each side: human, random or tactician.")] = "tactician,human",
    seed: Annotated[int, typer.Option(help="Seeds the game's dice and the agents.")] = 1,
    save: Annotated[Path | None, typer.Option(help="Write the game as a replay file (also when you quit).")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue a saved game.")] = None,
    picture: Annotated[Path | None, typer.Option(help="Draw the final map to a .png or .svg file.")] = None,
    quiet: Annotated[bool, typer.Option(help="Print only the result.")] = False,
    sealed: Annotated[bool, typer.Option(help="Sealed format: each side's warband drawn from boosters.")] = False,
) -> None:
    """Play a whole game: each side a person at the terminal or an agent."""
    from skirmish.agents import find_agent
    from skirmish.render import render_terminal

    console = Console(highlight=False)
    try:
        if resume is not None:
            source, seed, done = load_replay(resume)
        else:
            done = []
            if scenario is not None:
                source = {"scenario": str(scenario)}
            else:
                chosen = [m.strip() for m in maps.split(",") if m.strip()] if maps is not None else default_maps()
                if sealed:
                    ruleset = lineup_ruleset()
                    pair = [("sealed-a", ruleset.draw_lineup(seed * 2)),
                            ("sealed-b", ruleset.draw_lineup(seed * 2 + 1))]
                else:
                    names = [w.strip() for w in warbands.split(",")] if warbands is not None else default_lineups()
                    pair = [_warband(w) for w in names]
                    if len(pair) != 2:
                        raise ContentError("give two warbands, separated by a comma")
                source = {"warbands": pair, "maps": chosen}
        state = build_game(source, seed)
        for i, step in enumerate(done):
            state.apply(state.ruleset.parse_action(step))
            if state.is_over() and i < len(done) - 1:
                raise ContentError("the replay goes on after the game ended", file=str(resume))
        kinds = [a.strip() for a in agents.split(",")]
        sides = state.sides()
        if len(kinds) != len(sides):
            raise ContentError(f"give one agent per side ({len(sides)}: {', '.join(sides)})")
        players = {side: (None if kind == "human" else find_agent(kind, state.ruleset.name, seed + i))
                   for i, (side, kind) in enumerate(zip(sides, kinds, strict=True))}
    except (SkirmishError, OSError) as e:
        raise _fail(str(e)) from None

    steps = list(done)
    printed = len(state.events)
    if not quiet:
        who = " vs ".join(f"{s} ({k})" for s, k in zip(sides, kinds, strict=True))
        console.rule(f"{state.ruleset.info.title}: {who}")
    shown_map = False
    while not state.is_over():
        side = state.current_side
        actions = state.legal_actions()
        if not shown_map and not quiet and state.ruleset.prompt(state).show_board:
            console.print(render_terminal(state, title=f"round {state.round}"))
            shown_map = True
        agent = players.get(side)
        if agent is None:
            action = _ask_human(console, state, side, actions)
            if action is None:
                if save is not None:
                    save_replay(save, source, seed, state.ruleset.name, steps)
                    console.print(f"saved to {save}; resume with --resume {save}")
                raise typer.Exit(0)
        else:
            action = agent.choose(state, actions)
        try:
            state.apply(action)
        except (IllegalActionError, InvalidActionError) as e:
            console.print(f"[red]{e}[/]")
            continue
        steps.append(action.to_step())
        if not quiet:
            for event in state.events[printed:]:
                if event.type == "roll":
                    continue
                rule = f" [dim]({event.rule})[/]" if event.rule else ""
                console.print(f"  {event.text}{rule}", markup=True)
                if event.type == "round_end":
                    shown_map = False
        printed = len(state.events)
    if not quiet:
        console.print(render_terminal(state, title=f"the end, round {state.round}"))
    score = ", ".join(f"{s} {v} VP" for s, v in state.score.items())
    console.print(f"[bold]{state.winner or 'nobody'} wins[/] after {state.round} rounds ({score})")
    if save is not None:
        save_replay(save, source, seed, state.ruleset.name, steps)
        console.print(f"saved the game to {save}")
    if picture is not None:
        from skirmish.render import render_picture

        try:
            console.print(f"wrote {render_picture(state, picture, title=f'{state.winner} wins')}")
        except (OSError, ValueError) as e:
            raise _fail(f"{picture}: {e}") from None


def _ask_human(console: Console, state: Any, side: str | None, actions: list[Any]) -> Any | None:
    """List the legal actions and read a choice; None to stop."""
    from skirmish.render import render_terminal

    console.print(f"[bold]{side}[/] to decide ({state.current_actor}):")
    for i, a in enumerate(actions):
        console.print(f"  {i:3d}  {a.actor}: {describe(a)}")
    while True:
        answer = console.input("number, 'm' for the map, 'q' to stop: ").strip().lower()
        if answer == "q":
            return None
        if answer == "m":
            console.print(render_terminal(state))
            continue
        if answer.isdigit() and int(answer) < len(actions):
            return actions[int(answer)]
        console.print("[red]give one of the numbers above[/]")
