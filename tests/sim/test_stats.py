"""Statistics with error bars: exact values of the Wilson interval, the normal interval and quartiles."""

from __future__ import annotations

import random

import pytest

from skirmish.sim.stats import mean_ci, quartiles, stdev, wilson


def test_wilson_known_values():
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.1611, abs=1e-4)


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time():
    rng = random.Random(4)
    p, n, trials = 0.3, 100, 2000
    covered = 0
    for _ in range(trials):
        wins = sum(rng.random() < p for _ in range(n))
        lo, hi = wilson(wins, n)
        covered += lo <= p <= hi
    assert 0.93 <= covered / trials <= 0.97


def test_mean_interval_and_spread():
    m, lo, hi = mean_ci([2, 4, 4, 4, 5, 5, 7, 9])
    assert m == 5
    assert stdev([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.138, abs=1e-3)
    assert lo == pytest.approx(5 - 1.959964 * 2.13809 / 8 ** 0.5, abs=1e-3) and hi > m
    assert quartiles([1, 2, 3, 4, 5]) == (2, 3, 4)
