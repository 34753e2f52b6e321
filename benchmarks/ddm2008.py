"""ddm2008 benchmarks: tactician-vs-tactician 200-point games per second on one core, and the
tactician's win rate against the random agent over seeded games.

Run: ``python benchmarks/ddm2008.py speed [-n 5]`` and
``python benchmarks/ddm2008.py versus [-n 200] [--workers 2]``.
Each game: two shipped 200-point warbands, the full setup (setup roll, map choice, placement),
then rounds to the end; sides alternate between the two warbands from seed to seed.
"""

from __future__ import annotations

import argparse
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import yaml

from skirmish.agents import find_agent, play_game
from skirmish.rulesets.ddm2008.setup import new_game
from skirmish.sim.stats import wilson

WARBANDS = Path(__file__).resolve().parents[1] / "src/skirmish/rulesets/ddm2008/content/warbands"
PAIRS = [
    ("civilization-gatehouse-guard", "borderlands-ashpit-warhost"),
    ("wild-moonglade-circle", "underdark-web-court"),
    ("borderlands-hillfort-company", "wild-howlpack"),
    ("underdark-deepstone-watch", "civilization-magisters-circle"),
]
MAPS = ["ashen-crossroads", "gloomwater-cistern"]


def warband(name: str) -> list[str]:
    return list(yaml.safe_load((WARBANDS / f"{name}.yaml").read_text())["creatures"])


def one_game(seed: int, agent_a: str, agent_b: str) -> tuple[str | None, str, str, int]:
    """Play one game; return (winner side, side of agent A, side of agent B, rounds)."""
    first, second = PAIRS[seed % len(PAIRS)]
    sides = [("a-" + first.split("-", 1)[1], warband(first)), ("b-" + second.split("-", 1)[1], warband(second))]
    state = new_game(sides, MAPS, seed)
    names = state.sides()
    # Alternate which warband agent A gets, so neither warband's strength is measured as the agent's.
    a_side, b_side = (names[0], names[1]) if (seed // len(PAIRS)) % 2 == 0 else (names[1], names[0])
    agents = {a_side: find_agent(agent_a, "ddm2008", seed), b_side: find_agent(agent_b, "ddm2008", seed + 1)}
    state = play_game(state, agents)
    return state.winner, a_side, b_side, state.round


def speed(n: int) -> None:
    one_game(10_000, "tactician", "tactician")  # warm the per-map tables, as in a long batch
    start = time.perf_counter()
    rounds = 0
    for seed in range(n):
        rounds += one_game(seed, "tactician", "tactician")[3]
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"ddm2008 tactician vs tactician, 200 points: {n} games in {elapsed:.1f} s on one core")
    print(f"  games per second: {n / elapsed:.3f}   ({elapsed / n:.2f} s a game, {rounds / n:.1f} rounds a game)")
    print(f"  peak memory: {peak:.0f} MiB")


def versus(n: int, workers: int) -> None:
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one_game, range(n), ["tactician"] * n, ["random"] * n, chunksize=4))
    wins = sum(1 for winner, a_side, _, _ in results if winner == a_side)
    draws = sum(1 for winner, _, _, _ in results if winner is None)
    lo, hi = wilson(wins, n)
    print(f"ddm2008 tactician vs random: {n} seeded games (seeds 0..{n - 1}), {time.perf_counter() - start:.0f} s")
    print(f"  tactician wins {wins} ({wins / n:.1%}, 95% CI {lo:.1%}..{hi:.1%}), draws {draws}, "
          f"random wins {n - wins - draws}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["speed", "versus"])
    parser.add_argument("-n", type=int, default=None)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.n or 5)
    else:
        versus(args.n or 200, args.workers)


if __name__ == "__main__":
    main()
