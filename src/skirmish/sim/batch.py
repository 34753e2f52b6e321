"""Batches of games: plain-data jobs, a module-level function that plays one, and three executors.

``serial`` plays in this process (debuggable); ``process`` spreads the games over all cores;
``ray`` (the optional extra ``skirmish[ray]``) runs them on a Ray cluster, or a local Ray
instance when no address is given. Every game's seed is spawned from one root seed, so the
same batch gives the same results whatever the executor or the number of workers. A game
that fails is reported with its seed and does not lose the others; Ctrl-C stops the batch
and keeps what finished.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

Backend = Literal["serial", "process", "ray"]


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play, as plain data.

    Attributes:
        index: the game's number in the batch.
        seed: the game's seed (spawned from the batch's root seed).
        source: where the game comes from: ``{"scenario": path}`` or, for a rule set whose games
            start from lineups (ddm2008's warbands), ``{"warbands": [[side, [names]], ...], "maps": [...]}``
            with optional ``"ruleset"`` (default: the one rule set that makes such games) and ``"options"``.
        agents: agent name per side.
        record: keep every action's scenario step in the result (to write a replay).
    """

    index: int
    seed: int
    source: dict[str, Any]
    agents: dict[str, str]
    record: bool = False


@dataclass(slots=True)
class GameResult:
    """One finished game, as plain data; ``steps`` holds its actions when the job asked to record them."""

    index: int
    seed: int
    agents: dict[str, str]
    winner: str | None = None
    score: dict[str, int] = field(default_factory=dict)
    rounds: int = 0
    damage: dict[str, int] = field(default_factory=dict)
    kills: dict[str, int] = field(default_factory=dict)
    survived: dict[str, bool] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def spawn_seeds(root: int, n: int) -> list[int]:
    """Per-game seeds spawned from one root seed (numpy's SeedSequence)."""
    return [int(c.generate_state(1)[0]) for c in np.random.SeedSequence(root).spawn(n)]


def make_jobs(source: dict[str, Any], sides: list[str], agents: tuple[str, str], n: int, seed: int,
              swap: bool) -> list[Job]:
    """The batch's jobs; with ``swap`` the two agents change sides every other game, so the first
    side's edge is measured, not hidden."""
    jobs = []
    for i, s in enumerate(spawn_seeds(seed, n)):
        first, second = (agents[1], agents[0]) if swap and i % 2 else agents
        jobs.append(Job(i, s, source, {sides[0]: first, sides[1]: second}))
    return jobs


def build_state(source: dict[str, Any], seed: int) -> Any:
    """A fresh game from a job's source."""
    if "scenario" in source:
        from skirmish.core.dice import Dice

        scenario = _scenario(source["scenario"])
        pos = scenario.position.clone()
        pos.dice = Dice(seed)
        return scenario.ruleset.new_state(pos)
    from skirmish.games import lineup_ruleset

    ruleset = lineup_ruleset(source.get("ruleset"), source.get("options") or {})
    return ruleset.new_game([(side, list(names)) for side, names in source["warbands"]], list(source["maps"]), seed)


_SCENARIOS: dict[str, Any] = {}


def _scenario(path: str) -> Any:
    """Scenarios are read once per worker process."""
    if path not in _SCENARIOS:
        from skirmish.scenario.loader import load_scenario_file

        _SCENARIOS[path] = load_scenario_file(path)
    return _SCENARIOS[path]


def run_job(job: Job) -> GameResult:
    """Play one game and return its result; an error is caught and reported with the job's seed."""
    result = GameResult(job.index, job.seed, dict(job.agents))
    try:
        from skirmish.agents import find_agent, play_game

        state = build_state(job.source, job.seed)
        players = {side: find_agent(name, state.ruleset.name, job.seed + k)
                   for k, (side, name) in enumerate(sorted(job.agents.items()))}
        record = (lambda _, action: result.steps.append(action.to_step())) if job.record else None
        play_game(state, players, on_action=record)  # plays ``state`` to its end
        result.winner = state.winner
        result.score = dict(state.score)
        result.rounds = int(state.round)
        result.sides = {c.id: c.side for c in state.creatures.values()}
        _credit(state, result)
    except Exception as e:  # a failed game is data, reported with its seed
        result.error = f"{type(e).__name__}: {e}\n{traceback.format_exc(limit=3)}"
    return result


def _credit(state: Any, result: GameResult) -> None:
    """Damage dealt and kills per creature, from the log: each is credited to the creature whose
    attack or spell came last before it."""
    last: str | None = None
    for e in state.events:
        actor = e.data.get("actor")
        if e.type in ("attack", "cast", "opportunity", "charge", "attack_action") and actor:
            last = str(actor)
        elif e.type == "damage" and last is not None:
            result.damage[last] = result.damage.get(last, 0) + int(e.data.get("amount", 0))
        elif e.type in ("destroyed", "dead") and last is not None:
            result.kills[last] = result.kills.get(last, 0) + 1
    result.survived = {c.id: c.status in ("active", "down") for c in state.creatures.values()}


def run_batch(jobs: list[Job], backend: Backend = "serial", workers: int = 1, address: str | None = None,
              on_result: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play every job; results come back in job order whatever the executor.

    Raises:
        ImportError: the ``ray`` backend without the ``skirmish[ray]`` extra installed.
    """
    done: dict[int, GameResult] = {}
    with suppress(KeyboardInterrupt):  # Ctrl-C: stop, and keep what finished
        for result in _results(jobs, backend, workers, address):
            done[result.index] = result
            if on_result is not None:
                on_result(result)
    return [done[i] for i in sorted(done)]


def _results(jobs: list[Job], backend: Backend, workers: int, address: str | None) -> Iterator[GameResult]:
    if backend == "serial":
        for job in jobs:
            yield run_job(job)
        return
    if backend == "process":
        yield from _process(jobs, workers)
        return
    if backend == "ray":
        yield from _ray(jobs, workers, address)
        return
    raise ValueError(f"unknown backend {backend!r}: serial, process or ray")


def _process(jobs: list[Job], workers: int) -> Iterable[GameResult]:
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        pending: set[Future[GameResult]] = set()
        queue = iter(jobs)
        try:
            for job in queue:
                pending.add(pool.submit(run_job, job))
                if len(pending) >= 4 * max(1, workers):
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in finished:
                        yield f.result()
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    yield f.result()
        except KeyboardInterrupt:
            for f in pending:
                f.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _ray(jobs: list[Job], workers: int, address: str | None) -> Iterable[GameResult]:
    try:
        import ray
    except ImportError as e:
        raise ImportError("the ray backend needs the ray extra: pip install 'skirmish[ray]'") from e
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), ignore_reinit_error=True, log_to_driver=False,
                     include_dashboard=False)
        started = True
    remote = ray.remote(run_job)
    try:
        refs = [remote.remote(job) for job in jobs]
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                yield ray.get(ref)
    finally:
        if started and not address:
            ray.shutdown()
