"""Geometry benchmark: line-of-sight queries and reachable-square searches per second.

A 30x30 map with walls, pillars and difficult terrain (fixed seed). "Cold" numbers build a
fresh map for every round so the per-map tables are empty; "warm" numbers ask again on the
same map, with its tables (sight between squares, step table, distance fields) cached.

Run: ``python benchmarks/geometry.py`` (or ``make bench``).
"""

from __future__ import annotations

import random
import resource
import time
from collections.abc import Callable

from skirmish.core.creatures import Creature, CreatureTemplate
from skirmish.core.dice import Dice
from skirmish.core.geometry import line_of_sight
from skirmish.core.grid import Grid
from skirmish.core.position import Position
from skirmish.rulesets import find_ruleset

SIZE = 30


def make_rows(seed: int = 1) -> str:
    """A 30x30 map: an outer wall, a few wall runs, pillars and patches of difficult terrain."""
    rng = random.Random(seed)
    cells = [["." for _ in range(SIZE)] for _ in range(SIZE)]
    for i in range(SIZE):
        cells[0][i] = cells[SIZE - 1][i] = cells[i][0] = cells[i][SIZE - 1] = "#"
    for _ in range(12):
        x, y = rng.randrange(2, SIZE - 8), rng.randrange(2, SIZE - 8)
        length = rng.randrange(3, 8)
        for k in range(length):
            if rng.random() < 0.5:
                cells[y][x + k] = "#"
            else:
                cells[y + k][x] = "#"
    for _ in range(25):
        cells[rng.randrange(1, SIZE - 1)][rng.randrange(1, SIZE - 1)] = "#"
    for _ in range(8):
        x, y = rng.randrange(1, SIZE - 4), rng.randrange(1, SIZE - 4)
        for dy in range(3):
            for dx in range(3):
                if cells[y + dy][x + dx] == ".":
                    cells[y + dy][x + dx] = "~"
    return "\n".join("".join(r) for r in cells)


def rate(fn: Callable[[], int], seconds: float = 1.5) -> float:
    """Operations per second of ``fn`` (which returns how many operations it did)."""
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += fn()
    return done / (time.perf_counter() - start)


def main() -> None:
    ruleset = find_ruleset("ddm2008")()
    rows = make_rows()
    grid = Grid.parse(rows, ruleset.legend)
    rng = random.Random(7)
    open_squares = [sq for sq in grid.squares() if grid.kind(sq).entry == "all"]
    pairs = [(rng.choice(open_squares), rng.choice(open_squares)) for _ in range(2000)]

    def los_cold() -> int:
        g = Grid.parse(rows, ruleset.legend)
        for a, b in pairs[:200]:
            line_of_sight(g, [a], [b])
        return 200

    def los_warm() -> int:
        for a, b in pairs:
            line_of_sight(grid, [a], [b])
        return len(pairs)

    starts = rng.sample(open_squares, 40)

    def position(g: Grid) -> tuple[Position, list[Creature]]:
        creatures = [Creature(f"c{i}", "a" if i % 2 else "b", CreatureTemplate(f"c{i}", speed={"walk": 6}), sq)
                     for i, sq in enumerate(starts)]
        return Position(g, ruleset, creatures, Dice(0)), creatures

    def reach_cold() -> int:
        pos, creatures = position(Grid.parse(rows, ruleset.legend))
        for c in creatures[:10]:
            pos.reach(c)
        return 10

    warm_pos, warm_creatures = position(grid)

    def reach_warm() -> int:
        for c in warm_creatures:
            warm_pos.reach(c)
        return len(warm_creatures)

    los_warm()  # fill the sight table before timing the warm case
    figures = {
        "line of sight, cold map (queries/s)": rate(los_cold),
        "line of sight, warm map (queries/s)": rate(los_warm),
        "reachable, speed 6, cold map (searches/s)": rate(reach_cold),
        "reachable, speed 6, warm map (searches/s)": rate(reach_warm),
    }
    print(f"geometry benchmark: {SIZE}x{SIZE} map, {sum(r.count('#') for r in rows.splitlines())} wall squares")
    for name, value in figures.items():
        print(f"  {name:45s} {value:12,.0f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  {'peak memory (MiB)':45s} {peak:12,.1f}")


if __name__ == "__main__":
    main()
