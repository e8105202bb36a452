"""The Bottle Imp's bots against each other, duplicate: each deal played twice, seats swapped.

    python benchmarks/bottleimp/bots.py [--deals 500]

Prints, for Lopaka and Glitzerhaus and each pair of bots, the first bot's mean margin per
round over the second (half the difference of the two margins of a deal, so that the luck
of the cards cancels) with a 95 % interval.  The figures are in docs/bottleimp.md, "Bots".
"""
import argparse
import statistics

from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.bots import make_bot, play_out

PAIRS = [("greedy", "random"), ("lopaka-rule", "greedy"), ("lopaka-rule", "random")]


def margin(start, a_bot, b_bot, seed):
    """The margin A - B of deal ``start`` with ``a_bot`` as A and ``b_bot`` as B."""
    b_seat = 2 if start.rules.variant == "lopaka" else 1
    bots = {0: make_bot(a_bot, seed), b_seat: make_bot(b_bot, seed)}
    state = start
    for action in play_out(start, bots):
        state = state.apply(action)
    return state.value()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals 0..N-1 (default 500)")
    deals = parser.parse_args().deals
    for variant in ("lopaka", "glitzerhaus"):
        rules = Rules(variant)
        for first, second in PAIRS:
            gains = []
            for seed in range(deals):
                start = deal(seed, rules).start()
                gains.append((margin(start, first, second, seed) - margin(start, second, first, seed)) / 2)
            mean = statistics.mean(gains)
            half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
            print(f"{variant:12} {first} vs {second}: {mean:+.1f} per round (±{half:.1f}), "
                  f"deals 0-{deals - 1}, duplicate")


if __name__ == "__main__":
    main()
