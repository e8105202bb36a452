"""The one percentile every statistic and benchmark prints (``batch.percentile``)."""
import math

from hypothesis import given, strategies as st

from scoundrel_solver.batch import percentile


@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=60), st.floats(0, 100))
def test_percentile_is_the_nearest_rank(values, q):
    """The smallest value with at least q % of the values at or below it (nearest rank),
    whatever the order the values come in."""
    got = percentile(values, q)
    n = len(values)
    assert got in values
    assert sum(v <= got for v in values) >= q / 100 * n
    assert all(sum(v <= w for v in values) < q / 100 * n for w in values if w < got)
    assert percentile(sorted(values, reverse=True), q) == got


def test_percentile_ends_and_no_values():
    assert percentile(range(1, 101), 0) == 1 and percentile(range(1, 101), 90) == 90
    assert percentile(range(1, 101), 100) == 100 and percentile([7, 3], 50) == 3
    assert math.isnan(percentile([], 90))
