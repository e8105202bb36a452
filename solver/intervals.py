"""95 % intervals for the figures the project publishes (statistics, real-table hints).

>>> wilson(99, 100)
(0.945514, 0.998233)
>>> mean_ci([1, 2, 3])
(2.0, (0.8684, 3.1316))
"""
from __future__ import annotations

import math
from typing import Optional

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


def wilson(k: int, n: int, z: float = Z95) -> Optional[tuple]:
    """Wilson score interval of a proportion ``k/n`` (95 % by default), rounded to 6 places."""
    if n <= 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6))


def mean_ci(values, z: float = Z95) -> tuple:
    """``(mean, (low, high))``: normal approximation, sample standard deviation."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return round(mean, 4), None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return round(mean, 4), (round(mean - half, 4), round(mean + half, 4))
