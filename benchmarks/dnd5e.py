"""dnd5e benchmarks: fights per second, and the tactician's win rate against the random agent.

Run: ``python benchmarks/dnd5e.py speed [-n 200]`` (four level-1 fighters against four SRD orcs on
an open 12 x 12 map, one core, random and tactician agents) and
``python benchmarks/dnd5e.py versus [-n 200] [--workers 2]`` (two identical level-2 parties, the
tactician's side alternating from seed to seed).
"""

from __future__ import annotations

import argparse
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from skirmish.agents import find_agent, play_game
from skirmish.core.dice import Dice
from skirmish.scenario.loader import load_scenario_file
from skirmish.sim.stats import wilson

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "scenarios/dnd5e/benchmark-fighters-vs-orcs.yaml"
MIRROR = ROOT / "scenarios/mirror-dnd5e.yaml"


def fight(path: Path, seed: int, agents: dict[str, str]) -> tuple[str | None, int]:
    scenario = load_scenario_file(path)
    pos = scenario.position.clone()
    pos.dice = Dice(seed)
    state = scenario.ruleset.new_state(pos)
    players = {side: find_agent(agents.get(side, "random"), "dnd5e", seed + i) for i, side in enumerate(state.sides())}
    state = play_game(state, players)
    return state.winner, state.round


def speed(n: int) -> None:
    scenario = load_scenario_file(BENCH)
    for agent in ("random", "tactician"):
        start = time.perf_counter()
        rounds = 0
        for seed in range(n):
            pos = scenario.position.clone()
            pos.dice = Dice(seed)
            state = scenario.ruleset.new_state(pos)
            players = {side: find_agent(agent, "dnd5e", seed + i) for i, side in enumerate(state.sides())}
            rounds += play_game(state, players).round
        elapsed = time.perf_counter() - start
        print(f"dnd5e four fighters vs four orcs, {agent} vs {agent}: {n / elapsed:,.1f} fights per second on one "
              f"core ({elapsed / n * 1000:.1f} ms a fight, {rounds / n:.1f} rounds)")
    print(f"  peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def one_versus(seed: int) -> bool:
    tactician_side = "blue" if seed % 2 == 0 else "red"
    other = "red" if tactician_side == "blue" else "blue"
    winner, _ = fight(MIRROR, seed, {tactician_side: "tactician", other: "random"})
    return winner == tactician_side


def versus(n: int, workers: int) -> None:
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        wins = sum(pool.map(one_versus, range(n), chunksize=5))
    lo, hi = wilson(wins, n)
    print(f"dnd5e tactician vs random, mirror parties: {n} seeded fights (seeds 0..{n - 1}), "
          f"{time.perf_counter() - start:.0f} s")
    print(f"  tactician wins {wins} ({wins / n:.1%}, 95% CI {lo:.1%}..{hi:.1%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["speed", "versus"])
    parser.add_argument("-n", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.n or 50)
    else:
        versus(args.n or 200, args.workers)


if __name__ == "__main__":
    main()
