"""Glitzerhaus with the setup by the setup hint: double-dummy figures, and what each setup step is worth.

    python benchmarks/bottleimp/glitzerhaus_setup.py run --step open --deals 1-200 [--samples 16] [--out FILE]
    python benchmarks/bottleimp/glitzerhaus_setup.py run --step s1 --deals 1-20 [--samples 8]
    python benchmarks/bottleimp/glitzerhaus_setup.py run --step all --deals 1-100 \
        [--from-duplicate benchmarks/results/bottleimp/duplicate/glitzerhaus-table-vs-table-low.jsonl]
    python benchmarks/bottleimp/glitzerhaus_setup.py summary [FILE ...]

The published Glitzerhaus figures (docs/statistics.md) make the two stack steps by the
low-cards setup policy and then let both players see every card for the open choice (the exact
2 x 2 open-stack game).  The ``table`` bot makes the open choice by the setup hint instead,
from what its seat knows (its own two stacks, what it laid, passed and received), over
``--samples`` drawn deals (by default the bot's own counts, ``TableBot.SETUP_SAMPLES``: 16 at the
open choice, 8 at each stack step; the first stack-step runs, 2026-12-07, drew 4).  Per deal:

``--step open`` (both stack steps by the low-cards policy; the deal's four open-stack cells
solved exactly):

* ``value``: the open-stack game's value (both players see every card: today's figure);
* ``policy``: the cell of both seats' hint choices: the round's double-dummy value when both
  seats make the open choice as the ``table`` bot does;
* ``low``: the cell of both keeping stack 1 open (the low-cards policy);
* ``worth_A``, ``worth_B``: what the seat's hint choice gains against an opponent keeping stack
  1 open, beside both keeping stack 1 open (each seat's own sign: more is better for it);
* ``hint_cost_A``, ``hint_cost_B``: what the hint choice gives up against the opponent's
  equilibrium mix, beside the value (never negative); ``low_cost_*``: the same for stack 1.

``--step s1`` or ``s2``: the seat's choice at that stack step by the setup hint (``--samples``
drawn deals, its default model: the opponent by the low-cards policy, the later steps as the
hint names them), the opponent's by the low-cards policy, the other stack step by the
low-cards policy for both, then the exact open-stack game's value.  ``worth_A``/``worth_B``:
that value less the all-low-cards one, each seat's sign; ``choice_A``/``choice_B`` and the
low-cards choices beside them.

``--step all`` (no ``--samples``: each step at the ``table`` bot's own counts): the whole setup
made for each seat either as the ``table`` bot makes it (the hint at every step, from what the
seat knows then) or by the low-cards policy, in the four pairings; per deal the play phase's
double-dummy value after each (``table_table``, ``table_low``, ``low_table``, ``low_low``, with
the setup line of each) and ``worth_A``/``worth_B``, the bot's setup against the low-cards one
with the opponent's by the low-cards policy: the duplicate game of ``bots.py``'s ``table``
against ``table-low`` with the play double dummy.  A deal's hints cost minutes (six stack-step
hints of about 20 CPU seconds); ``--from-duplicate FILE`` takes the ``table`` bot's choices that
``bots.py``'s duplicate run of ``table`` against ``table-low`` recorded in its lines (the bot at A
in the first game, at B in the second: the pairings ``table_low`` and ``low_table``) instead of
asking the hint again, so only ``table_table``'s later steps are hinted: the same records, about
a third of the CPU.  It measures only the deals of ``--deals`` that file holds (it follows the
duplicate run; the others are left for a later run, which resumes).

Every figure is double dummy after the choices it names (perfect play on both sides, every
card seen); the hint's choices see only the seat's own cards.  A line a deal as it finishes
(this process the only writer); ``run`` again resumes.
"""
import argparse
import json
import statistics
import sys
from fractions import Fraction
from pathlib import Path

from scoundrel_solver.batch import BatchError, command_main, parse_seeds, read_json_lines, resume_lines
from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.analysis import open_stack_value, policy_steps, shared_engine
from scoundrel_solver.bottleimp.bots import LowSetupTableBot, TableBot, setup_out
from scoundrel_solver.bottleimp.notation import format_line, line_of, parse_line
from scoundrel_solver.bottleimp.policy import low_cards_setup
from scoundrel_solver.bottleimp.setuphint import open_game, setup_hint
from scoundrel_solver.bottleimp.setupview import setup_view_of
from scoundrel_solver.bottleimp.state import Reveal
from scoundrel_solver.intervals import mean_ci

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "bottleimp" / "setup-hint"
SEATS = {"A": 0, "B": 1}


def out_path(step: str, samples: int) -> Path:
    return OUT / f"glitzerhaus-setup-{step}-{samples}.jsonl"


def exact_game(state):
    """``(value, A's mix, B's mix, matrix)`` of the open-stack game of ``state`` (before ``open``)."""
    return open_game(state, 0.0)


def _against(matrix, mix, row=None, col=None):
    if row is not None:
        return sum((q * matrix[row][j] for j, q in enumerate(mix)), Fraction(0))
    return sum((p * matrix[i][col] for i, p in enumerate(mix)), Fraction(0))


def measure_open(seed: int, samples: int) -> dict:
    start = deal(seed, Rules("glitzerhaus")).start()
    actions, state = policy_steps(start), start
    for a in actions:
        state = state.apply(a)
    value, x, y, m = exact_game(state)
    hint = {seat: setup_hint(setup_view_of(start, actions, i), samples=samples, workers=1).recommended
            for seat, i in SEATS.items()}
    low = {seat: low_cards_setup(state, i) for seat, i in SEATS.items()}
    ia, ib, la, lb = hint["A"] - 1, hint["B"] - 1, low["A"] - 1, low["B"] - 1
    return {"seed": seed, "step": "open", "samples": samples, "value": str(value), "matrix": m,
            "mix_A": [str(p) for p in x], "mix_B": [str(q) for q in y],
            "hint_A": hint["A"], "hint_B": hint["B"], "low_A": low["A"], "low_B": low["B"],
            "policy": m[ia][ib], "low": m[la][lb],
            "worth_A": m[ia][lb] - m[la][lb], "worth_B": m[la][lb] - m[la][ib],
            "hint_cost_A": float(value - _against(m, y, row=ia)), "hint_cost_B": float(_against(m, x, col=ib) - value),
            "low_cost_A": float(value - _against(m, y, row=la)), "low_cost_B": float(_against(m, x, col=lb) - value)}


def measure_stack(seed: int, step: str, samples: int) -> dict:
    """The worth of the setup hint at stack step ``step`` (s1 or s2) to each seat, double dummy."""
    index = {"s1": 0, "s2": 1}[step]
    start = deal(seed, Rules("glitzerhaus")).start()
    before, state = policy_steps(start)[:index], start
    for a in before:
        state = state.apply(a)
    low = {seat: low_cards_setup(state, i) for seat, i in SEATS.items()}

    def value_after(choices):
        s = state.apply(state.joint_action(choices))
        for a in policy_steps(s):
            s = s.apply(a)
        value = open_stack_value(s, shared_engine())[0]       # the game's value alone: a saddle search
        assert value.exact
        return value.lower
    base = value_after({0: low["A"], 1: low["B"]})
    rec = {"seed": seed, "step": step, "samples": samples, "low_value": str(base),
           "low_A": list(low["A"]), "low_B": list(low["B"])}
    for seat, i in SEATS.items():
        choice = setup_hint(setup_view_of(start, before, i), samples=samples, workers=1).recommended
        other = "B" if seat == "A" else "A"
        v = value_after({i: choice, 1 - i: low[other]})
        rec[f"choice_{seat}"] = list(choice)
        rec[f"value_{seat}"] = str(v)
        rec[f"worth_{seat}"] = float(v - base) if seat == "A" else float(base - v)
    return rec


class _Remembering:
    """A ``table`` bot that makes each setup choice once per deal: the same seat after the same
    setup actions chooses the same (the bot depends on nothing else), so the games of
    :func:`measure_all` that share a prefix share its hints.  ``made``: choices known already,
    ``(seat, setup actions before) -> choice`` (:func:`known_choices`)."""
    needs_history = True

    def __init__(self, made=None):
        self.bot, self.made = TableBot(), dict(made or {})

    def choose_setup(self, state, seat, start, actions, progress=None):
        key = (seat, tuple(actions))
        if key not in self.made:
            self.made[key] = self.bot.choose_setup(state, seat, start, actions)
        return self.made[key]


def part(action, seat: int):
    """``seat``'s own choice in a joint Glitzerhaus setup action (as ``State.joint_action`` joined it)."""
    if isinstance(action, Reveal):
        return action.b if seat else action.a
    return (action.b_devil, action.b_pass) if seat else (action.a_devil, action.a_pass)


def known_choices(rec: dict) -> dict:
    """The ``table`` bot's setup choices in a duplicate record of ``bots.py`` (``table`` against
    ``table-low``, with its games' lines): in its first game it sits at A, in its second at B; each
    choice keyed as :class:`_Remembering` keys it.  Empty when the record has no lines, or its bot
    drew other counts than today's ``TableBot`` (its choices could differ)."""
    if "lines" not in rec or rec.get("table_setup") != dict(TableBot.SETUP_SAMPLES) \
            or (rec.get("first"), rec.get("second"), rec.get("variant")) != ("table", "table-low", "glitzerhaus"):
        return {}
    start = deal(rec["seed"], Rules("glitzerhaus")).start()
    made = {}
    for seat, line in enumerate(rec["lines"]):
        actions = [a for segment in parse_line(line, start.rules) for a in segment]
        state, before = start, []
        for action in actions:
            if not state.in_setup:
                break
            made[(seat, tuple(before))] = part(action, seat)
            before.append(action)
            state = state.apply(action)
    return made


def duplicate_choices(path) -> dict:
    """``seed -> known_choices`` of every record of a ``bots.py`` results file."""
    found = read_json_lines(path)
    return {rec.get("seed"): made for _, rec in found.items if (made := known_choices(rec))}


def measure_all(seed: int, known: dict = None) -> dict:
    """The whole setup as the ``table`` bot makes it (the hint at its counts at every step) or as
    the low-cards policy does, for each seat: the double-dummy value of the play phase after each
    of the four pairings (A's way, B's way).  ``known``: the bot's choices already made
    (:func:`known_choices`), not asked again (the same choices: the bot depends on nothing but
    the deal and the setup so far)."""
    start = deal(seed, Rules("glitzerhaus")).start()
    table, low = _Remembering(known), LowSetupTableBot()
    rec = {"seed": seed, "step": "all", "samples": dict(TableBot.SETUP_SAMPLES)}
    for name, a, b in (("table_table", table, table), ("table_low", table, low), ("low_table", low, table),
                       ("low_low", low, low)):
        actions = setup_out(start, {0: a, 1: b})
        state = start
        for action in actions:
            state = state.apply(action)
        value = shared_engine().bounds(state)
        assert value.exact
        rec[name] = value.lower
        rec[name + "_setup"] = format_line(line_of(start, actions))
    rec["worth_A"] = rec["table_low"] - rec["low_low"]
    rec["worth_B"] = rec["low_low"] - rec["low_table"]
    return rec


def run(args):
    if args.samples < 0:
        raise BatchError("--samples takes 1 or more (0 or none: the table bot's count, 16 at open, 8 at s1 and s2)")
    seeds = list(parse_seeds(args.deals))
    samples = args.samples or TableBot.SETUP_SAMPLES.get(args.step, 0)
    if args.step == "all":
        if args.samples:
            raise BatchError("--step all makes each step as the table bot does, at its own counts: give no --samples")
        samples = "table"
    out = args.out or out_path(args.step, samples)
    known = {}
    if args.from_duplicate:
        if args.step != "all":
            raise BatchError("--from-duplicate is for --step all (the table bot's whole setup)")
        known = duplicate_choices(args.from_duplicate)
    with resume_lines(out) as (f, done):
        todo = [s for s in seeds if s not in done]
        if args.from_duplicate:         # follow the duplicate run: the deals it has played
            later = [s for s in todo if s not in known]
            todo = [s for s in todo if s in known]
            if later:
                print(f"{len(later)} deals have no record with lines in {args.from_duplicate} yet: left for a "
                      f"later run", file=sys.stderr)
        print(f"{len(todo)} deals to measure -> {out}", file=sys.stderr)
        for s in todo:
            if args.step == "all":
                rec = measure_all(s, known.get(s))
            elif args.step == "open":
                rec = measure_open(s, samples)
            else:
                rec = measure_stack(s, args.step, samples)
            f.write((json.dumps(rec) + "\n").encode())


def _fmt(xs):
    mean, ci = mean_ci([float(x) for x in xs])
    return f"{mean:+.2f}" + ("" if ci is None else f" (95 % {ci[0]:+.2f} to {ci[1]:+.2f})")


def summary_lines(recs) -> list:
    """The summary of one file's records (one step, one sample count) as lines of text."""
    n = len(recs)
    step, samples = recs[0]["step"], recs[0]["samples"]
    seeds = sorted(r["seed"] for r in recs)
    head = f"Glitzerhaus, step {step}, the hint at {samples} drawn deals; {n} deals ({seeds[0]}-{seeds[-1]}), double dummy:"
    lines = [head]
    if step == "all":
        lines[0] = (f"Glitzerhaus, the whole setup by the table bot (the hint at "
                    f"{', '.join(f'{k} {v}' for k, v in samples.items() if k != 'pass')} deals) or by the low-cards "
                    f"policy; {n} deals ({seeds[0]}-{seeds[-1]}), double dummy after the setup:")
        for key, name in (("table_table", "both as the table bot"), ("low_low", "both by the low-cards policy")):
            vals = [r[key] for r in recs]
            lines.append(f"  {name}: mean A - B {_fmt(vals)}, median {statistics.median(vals):+.1f}, "
                         f"A ahead in {sum(v > 0 for v in vals)} of {n}")
        for seat in ("A", "B"):
            lines.append(f"  {seat}: the table bot's setup is worth {_fmt([r['worth_' + seat] for r in recs])} against "
                         f"the low-cards setup, the opponent's by the low-cards policy")
        lines.append(f"  duplicate, the table bot against table-low with the play double dummy: "
                     f"{_fmt([(r['worth_A'] + r['worth_B']) / 2 for r in recs])} a round")
        return lines
    if step == "open":
        for key, name in (("value", "both see every card (the exact open-stack game)"),
                          ("policy", "both by the setup hint (the table bot)"),
                          ("low", "both keep stack 1 open (low-cards)")):
            vals = [float(Fraction(r[key])) for r in recs]
            ahead = sum(v > 0 for v in vals)
            lines.append(f"  {name}: mean A - B {_fmt(vals)}, median {statistics.median(vals):+.1f}, "
                         f"A ahead in {ahead} of {n}")
        for seat in ("A", "B"):
            lines.append(f"  {seat}: the hint's choice is worth {_fmt([r['worth_' + seat] for r in recs])} against stack 1 "
                         f"kept open; gives up {_fmt([r['hint_cost_' + seat] for r in recs])} against the equilibrium "
                         f"mix (stack 1: {_fmt([r['low_cost_' + seat] for r in recs])}); opens stack 1 in "
                         f"{sum(r['hint_' + seat] == 1 for r in recs)} of {n}")
    else:
        for seat in ("A", "B"):
            same = sum(r["choice_" + seat] == r["low_" + seat] for r in recs)
            lines.append(f"  {seat}: the hint's choice is worth {_fmt([r['worth_' + seat] for r in recs])} against the "
                         f"low-cards choice (the rest of the setup as the low-cards policy, then the exact open-stack "
                         f"game); the same choice in {same} of {n}")
    return lines


def summary(args):
    files = args.files or sorted(OUT.glob("glitzerhaus-setup-*.jsonl"))
    if not files:
        raise BatchError(f"no results file under {OUT}")
    for path in files:
        recs = [r for _, r in read_json_lines(path, lambda r: None).items]
        if not recs:
            raise BatchError(f"{path} holds no record")
        print("\n".join(summary_lines(recs)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run")
    p.add_argument("--step", choices=["open", "s1", "s2", "all"], default="open")
    p.add_argument("--deals", default="1-200")
    p.add_argument("--samples", type=int, default=0, help="drawn deals a hint (default: the table bot's count at the step, 16 at open, 8 at s1/s2)")
    p.add_argument("--out", type=Path)
    p.add_argument("--from-duplicate", type=Path, metavar="FILE",
                   help="with --step all: take the table bot's setup choices a bots.py duplicate file recorded "
                        "(table against table-low, with lines) instead of asking the hint again; the same figures")
    s = sub.add_parser("summary")
    s.add_argument("files", type=Path, nargs="*")
    args = parser.parse_args()
    return command_main(run if args.command == "run" else summary, args)


if __name__ == "__main__":
    sys.exit(main())
