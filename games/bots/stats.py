"""Mean and 95% confidence interval of per-deal results."""

from __future__ import annotations

import math
from typing import NamedTuple

Z_95 = 1.96


class Interval(NamedTuple):
    """A sample mean with its 95% confidence interval (normal approximation)."""

    n: int
    mean: float
    low: float
    high: float

    def excludes_zero(self) -> bool:
        """Whether the whole interval lies on one side of zero."""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"{self.mean:+.1f} (95% CI {self.low:+.1f} .. {self.high:+.1f}, n={self.n})"


def interval(values: list[float]) -> Interval:
    """The mean of `values` and its 95% interval (needs two values for a width)."""
    n = len(values)
    if n == 0:
        return Interval(0, 0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return Interval(1, mean, -math.inf, math.inf)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z_95 * math.sqrt(variance / n)
    return Interval(n, mean, mean - half, mean + half)
