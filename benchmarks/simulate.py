"""Batch benchmark: games per second on one core and on all cores (the scaling ratio), peak memory
per worker, and the cost of ``clone()`` and ``legal_actions()``, for each playable rule set's
standard game.

Run: ``python benchmarks/simulate.py [-n 8] [--agents random]``.
- ddm2008: two shipped 200-point warbands with the full setup, on the two full-size maps;
- dnd5e: four level-1 fighters against four SRD orcs on an open 12 x 12 map.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
from pathlib import Path

from skirmish.sim.batch import build_state, make_jobs, run_batch

ROOT = Path(__file__).resolve().parents[1]
WARBANDS = ROOT / "src/skirmish/rulesets/ddm2008/content/warbands"


def ddm2008_source() -> dict[str, object]:
    import yaml

    bands = [yaml.safe_load((WARBANDS / f"{n}.yaml").read_text())["creatures"]
             for n in ("civilization-gatehouse-guard", "borderlands-ashpit-warhost")]
    return {"warbands": [["guard", bands[0]], ["warhost", bands[1]]],
            "maps": ["ashen-crossroads", "gloomwater-cistern"]}


STANDARD = {
    "ddm2008": (ddm2008_source, ["guard", "warhost"]),
    "dnd5e": (lambda: {"scenario": str(ROOT / "scenarios/dnd5e/benchmark-fighters-vs-orcs.yaml")},
              ["party", "monsters"]),
}


def per_call(fn, reps: int) -> float:
    start = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - start) / reps * 1e6


def probe_costs(source: dict[str, object]) -> tuple[float, float, float]:
    """Microseconds for clone(), a quiet clone(record=False) (what the search agent plays on) and
    legal_actions(), over positions met in a random game."""
    state = build_state(source, 1)
    rng = random.Random(1)
    clones, quiet, legals = [], [], []
    for _ in range(60):
        if state.is_over():
            break
        clones.append(per_call(state.clone, 20))
        quiet.append(per_call(lambda: state.clone(record=False), 20))
        legals.append(per_call(state.legal_actions, 3))
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return sum(clones) / len(clones), sum(quiet) / len(quiet), sum(legals) / len(legals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=8)
    parser.add_argument("--agents", default="random")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    for name, (make, sides) in STANDARD.items():
        source = make()
        jobs = make_jobs(source, sides, (args.agents, args.agents), args.n, 0, swap=False)
        run_batch(jobs[:1], "serial")  # warm the per-map tables and the catalog
        start = time.perf_counter()
        run_batch(jobs, "serial")
        one = args.n / (time.perf_counter() - start)
        start = time.perf_counter()
        run_batch(jobs, "process", cores)
        many = args.n / (time.perf_counter() - start)
        clone_us, quiet_us, legal_us = probe_costs(source)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"{name} ({args.agents} vs {args.agents}, {args.n} games):")
        print(f"  one core:   {one:8.2f} games/s")
        print(f"  {cores} cores:    {many:8.2f} games/s  (scaling {many / one / cores:.0%} of linear)")
        print(f"  clone():    {clone_us:8.1f} us    quiet clone(): {quiet_us:8.1f} us    "
              f"legal_actions(): {legal_us:8.1f} us")
        print(f"  peak memory of a worker: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
