"""Deals that once broke the search core, solved again on every run."""
import pytest

from scoundrel_solver import Rules, replay, solve


@pytest.mark.parametrize("seed, rules", [
    # easy flee with an odd number of cards left: up to 41 rotations of one room start
    # overflowed the outcome groups (segfault)
    (0, Rules(flee="easy")),
    (75, Rules(flee="easy")),
    (3, Rules(flee="easy", durability="lenient")),
])
def test_regression_deals_solve_exactly_and_replay(seed, rules):
    result = solve(seed=seed, rules=rules)
    assert result.exact
    end = replay(result.start, result.line)[-1]
    assert end.finished and end.score == result.score
