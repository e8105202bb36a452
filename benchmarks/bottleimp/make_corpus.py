"""Write tests/bottleimp/imp_reference_corpus.jsonl: endgames with their double-dummy values.

    python benchmarks/bottleimp/make_corpus.py

Each line is one play-phase position (IMP-RULES §7) of Lopaka or Glitzerhaus, reached by
random legal play from a numbered deal (6 to 15 cards in hand in Lopaka, 8 to 16 in
Glitzerhaus, both card tables, some inside a trick), with the reference solver's value, every legal card's
value and its optimal line.  The positions are fixed by the seeds below, so the file is the
same on every run; tests/bottleimp/test_imp_reference.py checks the reference against it, and
the fast core of the next issue will be checked against the same values.
"""
import json
import random
import sys
from pathlib import Path

from scoundrel_solver.bottleimp import Play, Rules, deal, format_line, line_of
from scoundrel_solver.bottleimp.position import position_dict
from scoundrel_solver.bottleimp.reference import action_values, best_line, value

OUT = Path(__file__).resolve().parents[2] / "tests" / "bottleimp" / "imp_reference_corpus.jsonl"
PLAN = [(Rules("lopaka"), range(6, 16)), (Rules("lopaka", cards="matagot"), range(6, 16)),
        (Rules("glitzerhaus"), range(8, 17)), (Rules("glitzerhaus", cards="matagot"), range(8, 17))]
PER_SIZE = 2


def random_endgame(rules, seed, cards_left):
    rng = random.Random(seed)
    state = deal(seed, rules).start()
    while state.in_setup or sum(map(len, state.hands)) > cards_left:
        if state.in_setup:
            state = state.apply(state.joint_action({i: rng.choice(state.setup_options(i))
                                                    for i in range(len(state.seats)) if state.setup_options(i)}))
        else:
            state = state.apply(Play(rng.choice(state.legal_cards())))
    return state


def main():
    lines = []
    seed = 1000
    for rules, sizes in PLAN:
        for left in sizes:
            for _ in range(PER_SIZE):
                seed += 1
                state = random_endgame(rules, seed, left)
                memo = {}
                lines.append(json.dumps({
                    "seed": seed, "position": position_dict(state), "value": value(state, memo),
                    "actions": [[a.card, v] for a, v in action_values(state, memo)],
                    "line": format_line(line_of(state, best_line(state, memo)))}))
    OUT.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} positions written to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
