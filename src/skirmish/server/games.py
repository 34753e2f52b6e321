"""The server's games and replays: each game its own state, agents and lock, so several games at
once never interfere; each replay kept as checkpoints, so any step is cheap to show.

Errors are the library's: ``ContentError`` for a bad request's content, ``IllegalActionError`` for
an action the rules refuse, ``LookupError`` subclasses for unknown games and replays.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from skirmish.agents import Agent, find_agent
from skirmish.errors import ContentError, IllegalActionError
from skirmish.games import describe
from skirmish.replay import parse_replay, replay_data, replayed

HUMAN = "human"
ADVANCE_LIMIT = 500
"""The most agent actions one ``advance`` plays unless asked for more."""
CHECKPOINT = 8
"""A replay keeps a copy of the state every this many actions and replays the rest."""


class NotFound(LookupError):
    """An unknown game, replay or creature."""


class NotYourTurn(IllegalActionError):
    """An action sent while no person is to act."""


@dataclass
class Game:
    """One game being played: its state, who plays each side, and the actions played so far.

    Attributes:
        id: the game's id.
        source: where it came from (a replay's ``source``).
        seed: the game's seed (its dice and its agents).
        state: the live state.
        players: the kind of player per side (``human`` or an agent name).
        agents: the agent playing each side that is not a person.
        steps: every action played, as scenario steps.
        listed: the actions last listed, which ``{"index": i}`` refers to.
        lock: held while the game is read or changed.
    """

    id: str
    source: dict[str, Any]
    seed: int
    state: Any
    players: dict[str, str]
    agents: dict[str, Agent]
    steps: list[dict[str, Any]] = field(default_factory=list)
    listed: list[Any] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def human_to_act(self) -> bool:
        return not self.state.is_over() and self.players.get(self.state.current_side or "") == HUMAN

    def extra(self) -> dict[str, Any]:
        """The keys a game adds to the state view."""
        return {"id": self.id, "players": dict(self.players), "human_to_act": self.human_to_act}

    def actions(self) -> list[Any]:
        """The legal actions now, remembered for ``{"index": i}``."""
        if self.listed is None:
            self.listed = list(self.state.legal_actions())
        return self.listed

    def play(self, action: Any) -> None:
        """Apply one action and record it."""
        self.state.apply(action)
        self.steps.append(action.to_step())
        self.listed = None

    def human_action(self, index: int | None, step: Mapping[str, Any] | None) -> Any:
        """Play a person's action, by index into the listed actions or as a step.

        Raises:
            NotYourTurn: no person is to act.
            ContentError: the index is out of range.
            InvalidActionError: the step is malformed.
            IllegalActionError: the rules refuse it; the game is unchanged.
        """
        if not self.human_to_act:
            who = "the game is over" if self.state.is_over() else (
                f"{self.state.current_side} is played by {self.players.get(self.state.current_side or '')}")
            raise NotYourTurn(f"no person is to act ({who}); POST /api/games/{self.id}/advance lets the agents play")
        if index is not None:
            actions = self.actions()
            if not 0 <= index < len(actions):
                raise ContentError(f"index {index} is not one of the {len(actions)} listed actions "
                                   f"(0 to {len(actions) - 1})")
            self.play(actions[index])
            return actions[index]
        action = self.state.ruleset.parse_action(dict(step or {}))
        # Played on a copy that then becomes the game, so a refused step leaves the game as it was.
        trial = self.state.clone()
        trial.apply(action)
        self.state = trial
        self.steps.append(action.to_step())
        self.listed = None
        return action

    def advance(self, most: int) -> list[dict[str, Any]]:
        """Let the agents play until a person must act, the game ends, or ``most`` actions are played."""
        applied: list[dict[str, Any]] = []
        while len(applied) < most and not self.state.is_over():
            agent = self.agents.get(self.state.current_side or "")
            if agent is None:
                break
            action = agent.choose(self.state, self.state.legal_actions())
            self.play(action)
            applied.append(self.steps[-1])
        return applied

    def replay(self) -> dict[str, Any]:
        return replay_data(self.source, self.seed, self.state.ruleset.name, self.steps)


@dataclass
class Replay:
    """A finished (or saved) game to step through.

    Attributes:
        id: the replay's id.
        data: the replay object it was made from.
        ruleset: the rule set's name.
        checkpoints: a copy of the state after every ``CHECKPOINT`` actions.
        counts: the number of events after each number of actions (``counts[k]``).
        lines: one line per action: ``{"k", "text", "actor"}``.
    """

    id: str
    data: dict[str, Any]
    ruleset: str
    checkpoints: list[Any]
    counts: list[int]
    lines: list[dict[str, Any]]
    lock: threading.Lock = field(default_factory=threading.Lock)
    last: tuple[int, Any] | None = None

    @property
    def steps(self) -> int:
        return len(self.lines)

    def state_at(self, k: int) -> Any:
        """The state after the first ``k`` actions (a copy: the caller may keep it)."""
        if not 0 <= k <= self.steps:
            raise ContentError(f"step {k} is outside this replay: give 0 to {self.steps}")
        with self.lock:
            if self.last is not None and self.last[0] == k:
                return self.last[1]
            start = (k // CHECKPOINT) * CHECKPOINT
            if self.last is not None and start <= self.last[0] < k:
                start, state = self.last[0], self.last[1].clone()  # one step on from the last one shown
            else:
                state = self.checkpoints[k // CHECKPOINT].clone()
            actions = self.data["actions"]
            for i in range(start, k):
                state.apply(state.ruleset.parse_action(actions[i]))
            self.last = (k, state)
            return state


class Store:
    """Games and replays by id; safe to use from several threads."""

    def __init__(self) -> None:
        self.games: dict[str, Game] = {}
        self.replays: dict[str, Replay] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)

    def _id(self, prefix: str) -> str:
        with self._lock:
            return f"{prefix}{next(self._ids)}"

    def new_game(self, source: dict[str, Any], seed: int, players: Mapping[str, str] | None,
                 steps: list[dict[str, Any]] | None = None) -> Game:
        """A game from a source (replaying ``steps`` first), its players' agents made.

        Raises:
            ContentError: a bad source, replay, side or agent name.
        """
        *_, (state, _) = replayed(source, seed, list(steps or []))
        kinds = _players(state, players or {})
        agents = {}
        for i, side in enumerate(state.sides()):
            if kinds[side] != HUMAN:
                # Seeded as `skirmish play` seeds them, so the same game plays the same here.
                agents[side] = find_agent(kinds[side], state.ruleset.name, seed + i)
        game = Game(self._id("g"), source, seed, state, kinds, agents, list(steps or []))
        with self._lock:
            self.games[game.id] = game
        return game

    def game(self, gid: str) -> Game:
        try:
            return self.games[gid]
        except KeyError:
            raise NotFound(f"no game {gid!r}; GET /api/games lists the games") from None

    def new_replay(self, data: Any) -> Replay:
        """A replay to step through, every action checked by replaying it.

        Raises:
            ContentError: not a replay, or one whose actions the rules refuse.
        """
        source, seed, steps = parse_replay(data, "replay")
        checkpoints: list[Any] = []
        counts: list[int] = []
        lines: list[dict[str, Any]] = []
        ruleset = ""
        for k, (state, action) in enumerate(replayed(source, seed, steps, "replay")):
            ruleset = state.ruleset.name
            if k % CHECKPOINT == 0:
                checkpoints.append(state.clone())
            counts.append(len(state.events))
            if action is not None:
                lines.append({"k": k, "text": f"{steps[k - 1].get('actor')}: {describe(action)}",
                              "actor": steps[k - 1].get("actor")})
        replay = Replay(self._id("r"), replay_data(source, seed, ruleset, steps), ruleset, checkpoints, counts,
                        lines)
        with self._lock:
            self.replays[replay.id] = replay
        return replay

    def replay(self, rid: str) -> Replay:
        try:
            return self.replays[rid]
        except KeyError:
            raise NotFound(f"no replay {rid!r}; POST /api/replays loads one") from None


def _players(state: Any, given: Mapping[str, str]) -> dict[str, str]:
    """Who plays each side: as given; a side not given is a person for the first side, else the
    rule set's tactician (random where it has none)."""
    sides = state.sides()
    unknown = [s for s in given if s not in sides]
    if unknown:
        raise ContentError(f"no side {unknown[0]!r} in this game; its sides are {', '.join(sides)}")
    fallback = "tactician" if state.ruleset.tactician is not None else "random"
    return {side: str(given.get(side, HUMAN if i == 0 else fallback)) for i, side in enumerate(sides)}
