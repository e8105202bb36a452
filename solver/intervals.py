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


# Student's t quantiles of 0.975 for 1..30 degrees of freedom (beyond: the normal one is
# within 2 %; the last entries step towards it).  A mean over a handful of games (the
# achievable figure of a real-table hint within its budget) needs t, not z.
_T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157,
         2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922,
         2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
         2.048407, 2.045230, 2.042272)


def sign_test(b: int, c: int) -> float:
    """The exact two-sided sign test's p-value for ``b`` pairs won by one side and ``c`` by the
    other (ties left out); on paired wins and losses it is McNemar's exact test.

    >>> round(sign_test(70, 44), 3)
    0.019
    >>> sign_test(0, 0), sign_test(3, 0)
    (1.0, 0.25)
    """
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (z beyond 120)."""
    if df <= len(_T975):
        return _T975[df - 1]
    if df <= 60:
        return 2.000298 if df >= 60 else 2.021075 if df >= 40 else 2.042272
    return 1.979930 if df <= 120 else Z95


def t_interval(values) -> tuple:
    """``(mean, (low, high))`` with Student's t (``None`` for fewer than 2 values), unrounded."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def mean_ci_t(values) -> tuple:
    """``(mean, (low, high))`` with Student's t (``None`` for fewer than 2 values), rounded to 4 places.

    >>> mean_ci_t([1, 2, 3])
    (2.0, (-0.4841, 4.4841))
    """
    mean, ci = t_interval(values)
    return round(mean, 4), None if ci is None else (round(ci[0], 4), round(ci[1], 4))


class ScoreSample:
    """The figures of the games one policy played, as a mixin: the class has ``scores``
    (one final score per game) and says in ``_whole`` whether every distinct order was
    played (the figures are then exact: each interval's two ends are the figure).  The
    mean's interval is Student's t where ``_T_INTERVAL`` (a handful of games), else the
    normal one (explain's paired playouts, as published since they came)."""

    _T_INTERVAL = False

    @property
    def _whole(self) -> bool:
        return False

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def wins(self) -> int:
        return sum(1 for s in self.scores if s > 0)

    @property
    def win_rate(self) -> Optional[float]:
        return self.wins / self.games if self.games else None

    @property
    def win_ci(self) -> Optional[tuple]:
        """Wilson 95 % interval (equal ends when whole; None without games)."""
        if not self.games:
            return None
        if self._whole:
            return (self.win_rate, self.win_rate)
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> Optional[float]:
        return math.fsum(self.scores) / self.games if self.games else None

    @property
    def mean_ci(self) -> Optional[tuple]:
        """95 % interval of the mean (equal ends when whole; None with fewer than 2 games)."""
        if not self.games:
            return None
        if self._whole:
            return (self.mean_score, self.mean_score)
        return (mean_ci_t if self._T_INTERVAL else mean_ci)(list(self.scores))[1]
