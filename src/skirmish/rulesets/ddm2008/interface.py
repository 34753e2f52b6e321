"""What the interfaces ask of ddm2008, answered through ``Ruleset``'s hooks: the shipped warbands and
maps, a game from two warbands, the Sealed format's draw, a warband file checked against the format,
and, during a game, the phase's question and each action's squares and targets.

``Ddm2008`` inherits these from ``Ddm2008Interface``, so the player, the server, the simulator and the
page need no knowledge of warbands, phases or ddm2008's actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from skirmish.core.catalog import Catalog, Lineup, LineupCheck, LineupEntry, MapEntry
from skirmish.core.creatures import Creature
from skirmish.core.display import ActionDisplay, Prompt, show
from skirmish.core.game import Ruleset, State
from skirmish.errors import ContentError
from skirmish.rulesets.ddm2008 import setup
from skirmish.rulesets.ddm2008.actions import (
    Activate,
    Attack,
    Charge,
    ChooseStart,
    EndTurn,
    Move,
    Place,
    Shift,
    Teleport,
    UsePower,
)
from skirmish.rulesets.ddm2008.state import Ddm2008State
from skirmish.rulesets.ddm2008.warband import (
    check_warband,
    load_warband_file,
    looks_like_warband_file,
    read_warband_file,
    shipped_catalog,
    total_cost,
)

WARBANDS = Path(__file__).resolve().parent / "content" / "warbands"
"""The shipped warbands."""

DEFAULT_WARBANDS = ("civilization-gatehouse-guard", "borderlands-ashpit-warhost")
"""The warbands of a game when none are chosen (``skirmish play``, the server)."""

DEFAULT_MAPS = ("ashen-crossroads", "gloomwater-cistern")
"""The two players' maps when none are chosen."""

VERBS = {"choose_map": "choose the map", "choose_start": "choose a start area", "place": "place",
         "choose_first": "choose who goes first", "activate": "activate", "act": "act"}
"""What the side to decide does in each phase, after "side X to"."""

HINTS = {
    "choose_map": "Choose the map.",
    "choose_start": "Choose your start area.",
    "place": "Click a highlighted square to place",
    "choose_first": "Choose which side goes first this round.",
    "activate": "Click one of your creatures (ringed) to activate it.",
    "act": "Move (click a square), attack (click a ringed enemy), use a power, or end the turn.",
}
"""The page's question in each phase (placing names the creature)."""


def warband(value: str) -> Lineup:
    """A warband by shipped name or file: (side name, creature names); the side is the file's name
    without its faction (``civilization-gatehouse-guard`` plays as ``gatehouse-guard``).

    Raises:
        ContentError: no such warband, or a file that is not one.
    """
    path = Path(value)
    if not path.exists():
        path = WARBANDS / f"{value}.yaml"
        if not path.exists():
            names = sorted(p.stem for p in WARBANDS.glob("*.yaml"))
            raise ContentError(f"no warband {value!r}: give a file or one of {', '.join(names)}")
    wb = load_warband_file(path)
    side = path.stem.split("-", 1)[-1] if "-" in path.stem else path.stem
    return side, list(wb.creatures)


@cache
def catalog() -> Catalog:
    """The shipped creatures, warbands (with their cost) and maps, read once."""
    creatures = shipped_catalog()
    lineups = []
    for path in sorted(WARBANDS.glob("*.yaml")):
        side, names = warband(path.stem)
        lineups.append(LineupEntry(path.stem, side, total_cost(load_warband_file(path)), tuple(names)))
    return Catalog(
        creatures=creatures,
        lineups=tuple(lineups),
        maps=tuple(MapEntry(key, info.name) for key, info in setup.shipped_maps().items()),
        default_lineups=DEFAULT_WARBANDS,
        default_maps=DEFAULT_MAPS,
        costs={name: _whole(entry.stats.get("cost", 0)) for name, entry in creatures.items()},
        unique=frozenset(name for name, entry in creatures.items() if entry.stats.get("unique")),
    )


def _whole(value: object) -> int:
    return int(value) if isinstance(value, int | float | str) else 0


class Ddm2008Interface(Ruleset):
    """ddm2008's answers to the interfaces' hooks (``Ruleset``)."""

    def catalog(self) -> Catalog:
        return catalog()

    def lineup(self, value: str) -> Lineup:
        return warband(value)

    def draw_lineup(self, seed: int) -> list[str]:
        """A Sealed warband drawn from two boosters (M08-160)."""
        return setup.sealed_warband(seed)

    def check_lineup(self, path: Path) -> LineupCheck | None:
        """A warband file's every problem under the format (M08-014..M08-021, M08-153, M08-160)."""
        if not looks_like_warband_file(path):
            return None
        read = read_warband_file(path)
        problems = check_warband(read.warband, file=read.file, lines=read.lines)
        wb = read.warband
        sealed = ", sealed format" if wb.format == "sealed" else ""
        return LineupCheck(
            f"{wb.name}, {wb.faction}, {len(wb.creatures)} creatures, {total_cost(wb)} points of {wb.points}{sealed}",
            errors=tuple(str(p) for p in problems if p.severity == "error"),
            notes=tuple(str(p) for p in problems if p.severity != "error"))

    def new_game(self, lineups: Sequence[Lineup], maps: Sequence[str], seed: int = 0) -> State:
        """Two warbands on the players' maps, before the setup roll's choices (M08-022..M08-027)."""
        return setup.new_game(lineups, maps, seed, ruleset=self)

    def prompt(self, state: State) -> Prompt:
        """The phase's question: setup's choices, placing (with the creatures still to place and a button
        that places them), who goes first, which creature to activate, and the active creature's turn."""
        assert isinstance(state, Ddm2008State)
        phase = state.phase
        text = HINTS.get(phase)
        actor = state.current_actor
        if phase != "place":
            return Prompt(phase, VERBS.get(phase, phase or "act"), text, actor if phase == "act" else None,
                          show_board=phase == "activate")
        if actor is not None:
            text = f"{text} {state.creatures[actor].template.name}."
        side = state.current_side
        pending = tuple(c.id for c in state.creatures.values()
                        if c.side == side and not c.on_map and c.status == "removed")
        return Prompt(phase, VERBS[phase], text, None, pending, "Still to place", "Place the rest for me",
                      show_board=False)

    def display(self, state: State, action: Any) -> ActionDisplay:
        """Moves by their end square and path, placements by their square, attacks by their targets or
        area (with cover and combat advantage, a charge's from where it ends), activations by the
        creature, a start area by its squares."""
        assert isinstance(state, Ddm2008State)
        actor = action.actor
        if isinstance(action, Move):
            return show(state, actor, to=action.to, path=action.path, fold="move")
        if isinstance(action, Shift):
            return show(state, actor, to=action.to, fold="shift")
        if isinstance(action, Teleport):
            return show(state, actor, to=action.to)
        if isinstance(action, Place):
            return show(state, actor, aim=action.at, mark="place", fold="place")
        if isinstance(action, Attack):
            return show(state, actor, aim=action.at, origin=action.origin, attack=action.attack,
                        targets=action.targets, area_fold=f"{action.attack or action.verb} (area)",
                        advantage=_advantage)
        if isinstance(action, Charge):
            return show(state, actor, to=action.to, path=action.path, attack=action.attack,
                        targets=(action.target,) if action.target else (), advantage=_advantage)
        if isinstance(action, UsePower):
            return show(state, actor, targets=(action.target,) if action.target else (), advantage=_advantage)
        if isinstance(action, Activate):
            return ActionDisplay(select=actor, fold="activate")
        if isinstance(action, EndTurn):
            return ActionDisplay(ends_turn=True)
        if isinstance(action, ChooseStart):
            squares = setup.start_squares(state.grid, action.area)
            return ActionDisplay(highlight=tuple(sorted(squares, key=lambda s: (s[1], s[0]))))
        return ActionDisplay()


def _advantage(state: Any, attacker: Creature, target: Creature) -> bool:
    """Combat advantage as the rules give it (M08-108)."""
    return bool(state.combat_advantage(attacker, target))
