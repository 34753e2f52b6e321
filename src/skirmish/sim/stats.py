"""Statistics with honest error bars: Wilson intervals for rates, normal intervals for means."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    lo = 0.0 if successes == 0 else max(0.0, c - h)  # exact ends: no rounding dust past the rate
    hi = 1.0 if successes == n else min(1.0, c + h)
    return (lo, hi)


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation 95% interval: (mean, low, high)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    h = z * sd / math.sqrt(n)
    return (m, m - h, m + h)


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """The first quartile, median and third quartile (linear interpolation)."""
    if not values:
        return (0.0, 0.0, 0.0)
    xs = sorted(values)

    def q(p: float) -> float:
        k = (len(xs) - 1) * p
        lo, hi = math.floor(k), math.ceil(k)
        return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

    return (q(0.25), q(0.5), q(0.75))


def stdev(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    m = sum(values) / n
    return math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
