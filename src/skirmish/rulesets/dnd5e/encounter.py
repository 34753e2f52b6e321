"""Encounter difficulty by the published XP thresholds, beside the simulated deadliness.

The numbers are from outside the seed: the 5th edition Dungeon Master's Guide's encounter
building tables (XP thresholds by character level, XP by challenge rating, multipliers by the
number of monsters), which the SRD 5.1 also gives for challenge ratings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

THRESHOLDS = {
    1: (25, 50, 75, 100), 2: (50, 100, 150, 200), 3: (75, 150, 225, 400), 4: (125, 250, 375, 500),
    5: (250, 500, 750, 1100), 6: (300, 600, 900, 1400), 7: (350, 750, 1100, 1700), 8: (450, 900, 1400, 2100),
    9: (550, 1100, 1600, 2400), 10: (600, 1200, 1900, 2800), 11: (800, 1600, 2400, 3600),
    12: (1000, 2000, 3000, 4500), 13: (1100, 2200, 3400, 5100), 14: (1250, 2500, 3800, 5700),
    15: (1400, 2800, 4300, 6400), 16: (1600, 3200, 4800, 7200), 17: (2000, 3900, 5900, 8800),
    18: (2100, 4200, 6300, 9500), 19: (2400, 4900, 7300, 10900), 20: (2800, 5700, 8500, 12700),
}
"""XP thresholds per character: easy, medium, hard, deadly."""

XP_BY_CR = {
    "0": 10, "1/8": 25, "1/4": 50, "1/2": 100, "1": 200, "2": 450, "3": 700, "4": 1100, "5": 1800, "6": 2300,
    "7": 2900, "8": 3900, "9": 5000, "10": 5900, "11": 7200, "12": 8400, "13": 10000, "14": 11500, "15": 13000,
    "16": 15000, "17": 18000, "18": 20000, "19": 22000, "20": 25000, "21": 33000, "22": 41000, "23": 50000,
    "24": 62000, "30": 155000,
}
MULTIPLIERS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0)


@dataclass(frozen=True, slots=True)
class Difficulty:
    """The XP arithmetic of an encounter."""

    xp: int
    adjusted_xp: int
    thresholds: tuple[int, int, int, int]
    rating: str


def multiplier_index(monsters: int) -> int:
    if monsters <= 1:
        return 0
    if monsters == 2:
        return 1
    if monsters <= 6:
        return 2
    if monsters <= 10:
        return 3
    if monsters <= 14:
        return 4
    return 5


def difficulty(levels: Iterable[int], challenges: Iterable[str]) -> Difficulty:
    """Easy, medium, hard or deadly by the party's thresholds and the monsters' adjusted XP;
    fewer than three characters use the next higher multiplier, six or more the next lower."""
    levels = [max(1, min(20, lv)) for lv in levels]
    crs = [c for c in challenges if c in XP_BY_CR]
    xp = sum(XP_BY_CR[c] for c in crs)
    i = multiplier_index(len(crs))
    if len(levels) < 3:
        i = min(i + 1, len(MULTIPLIERS) - 1)
    elif len(levels) >= 6:
        i = max(i - 1, 0)
    adjusted = int(xp * MULTIPLIERS[i])
    totals = tuple(sum(THRESHOLDS[lv][k] for lv in levels) for k in range(4))
    rating = "trivial"
    for name, limit in zip(("easy", "medium", "hard", "deadly"), totals, strict=True):
        if adjusted >= limit:
            rating = name
    return Difficulty(xp, adjusted, totals, rating)  # type: ignore[arg-type]
