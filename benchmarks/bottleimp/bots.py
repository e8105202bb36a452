"""The Bottle Imp's bots against each other, duplicate: each deal played twice, seats swapped.

    python benchmarks/bottleimp/bots.py play [--variant lopaka] [--pairs table:greedy,...] [--deals 1-1000] [--jobs 2]
    python benchmarks/bottleimp/bots.py summary
    python benchmarks/bottleimp/bots.py verify      # every recorded line replayed to its margin
    python benchmarks/bottleimp/bots.py setup-dd    # the same setups with the play double dummy
    python benchmarks/bottleimp/bots.py swings --top 12   # the largest gains either way, game by game

A pair ``first:second`` plays every deal twice: ``first`` as A and ``second`` as B, then the
seats swapped, so the luck of the cards cancels.  The figure is ``first``'s gain per round:
half the difference of A's margin in the two games, averaged over the deals, with a 95 %
interval (mean +- 1.96 standard errors).  Setup choices are each bot's own (all but
``random`` use the low-cards setup).

Results go to one JSON-lines file per variant and pair under ``--out`` (default
``benchmarks/results/bottleimp/duplicate/``), one line per deal as it finishes (this process
is the only writer; workers only compute), so an interrupted run loses nothing and
``play`` again goes on where it stopped (a line torn by a kill is cut and its deal played
again; the file is locked while a run writes it, so a second run on the same pair is refused).
``summary`` prints every file's figures.  Each line names the build that played it (``build``:
the commit and a hash of the compiled core, as benchmarks/bottleimp/bench_solve.py records it);
lines written before builds were recorded have none and read as they are.

The default pairs: the ``table`` bot (the real-table hint's card over 16 worlds of what its
seat knows, and its setup by the setup hint over a fixed count of drawn deals) against
``table-low`` (the same play, the low-cards setup: what the setup hint gains) and ``greedy``;
then issue 46's: ``table-low`` against ``random``, ``lopaka-rule`` and ``greedy``, and
``double-dummy`` (which sees every card) against ``table-low``, to show what hidden information
costs.  (Records made before the setup hint name ``table-low`` what was then called ``table``.)
Where the ``table`` bot plays, a record also holds its setup hint's drawn deals a step
(``table_setup``).

Since 2026-12-08 a record also holds the two games' lines (``lines``: ``first`` as A, then
``second`` as A, in the project's notation).  ``verify`` replays each through the rules engine
and checks it ends at the recorded margin.  ``setup-dd`` values each game after its setup by the
exact double-dummy engine (perfect play after the setup, every card seen): the duplicate gain
the setups alone would give, beside the gain the bots realised, over the same deals.
"""
import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Optional

from bench_solve import build_id
from scoundrel_solver.batch import (AppendFile, BatchError, JsonLines, command_main, parse_seeds, percentile,
                                    read_json_lines, seed_problem)
from scoundrel_solver.bottleimp import Rules, deal
from scoundrel_solver.bottleimp.bots import TableBot, factory, make_bot, play_out, play_out_from, setup_out
from scoundrel_solver.bottleimp.notation import format_line, line_of, parse_line, replay
from scoundrel_solver.bottleimp.setupview import STEP_NAMES
from scoundrel_solver.errors import InputError
from scoundrel_solver.intervals import mean_ci, sign_test
from scoundrel_solver.progress import ProgressLine

PAIRS = ["table:table-low", "table:greedy", "table-low:random", "table-low:lopaka-rule", "table-low:greedy",
         "double-dummy:table-low"]
OUT = Path(__file__).resolve().parents[1] / "results" / "bottleimp" / "duplicate"


#: pairs of bots whose play phase is the same (they differ only at the setup)
SAME_PLAY = {frozenset(("table", "table-low"))}


def seated(start, a_bot, b_bot, seed) -> dict:
    return {start.seat_index("A"): make_bot(a_bot, seed), start.seat_index("B"): make_bot(b_bot, seed)}


def margin(start, a_bot, b_bot, seed):
    """The margin A - B of deal ``start`` with ``a_bot`` as A and ``b_bot`` as B."""
    return end_of(start, play_out(start, seated(start, a_bot, b_bot, seed))).value()


def end_of(start, actions):
    state = start
    for action in actions:
        state = state.apply(action)
    return state


def games(start, first, second, seed) -> tuple:
    """The actions of the two games: ``first`` as A against ``second``, and ``second`` as A
    against ``first``.  Where the two bots play alike (:data:`SAME_PLAY`) and the second game's
    setup is the first's, action for action, its play phase is the first's too (each seat's card
    depends on nothing but the deal and the actions before it), so it is not played again."""
    bots = seated(start, first, second, seed)
    setup = setup_out(start, bots)
    one = setup + play_out_from(start, setup, bots)
    bots = seated(start, second, first, seed)
    setup_two = setup_out(start, bots)
    if frozenset((first, second)) in SAME_PLAY and setup_two == setup:
        return one, one
    return one, setup_two + play_out_from(start, setup_two, bots)


def duplicate(task):
    variant, first, second, seed, build = task
    start = deal(seed, Rules(variant)).start()
    t0 = time.process_time()
    both = games(start, first, second, seed)
    m1, m2 = (end_of(start, g).value() for g in both)
    rec = {"seed": seed, "variant": variant, "first": first, "second": second, "first_as_A": m1,
           "second_as_A": m2, "gain": (m1 - m2) / 2, "build": build,
           "cpu_seconds": round(time.process_time() - t0, 3),   # both games (one where the second is the first)
           "lines": [format_line(line_of(start, g)) for g in both]}
    if "table" in (first, second):
        rec["table_setup"] = dict(TableBot.SETUP_SAMPLES)     # the drawn deals of its setup hint, a step
    return rec


def path_for(out: Path, variant: str, pair: str) -> Path:
    return out / f"{variant}-{pair.replace(':', '-vs-')}.jsonl"


def record_problem(rec: dict) -> Optional[str]:
    """What is wrong with a line of a duplicate results file (None if nothing)."""
    wrong = seed_problem(rec)
    if wrong:
        return wrong
    for key in ("variant", "first", "second"):
        if not isinstance(rec.get(key), str):
            return f'"{key}" is not a name'
    cpu = rec.get("cpu_seconds", 0)
    if isinstance(cpu, bool) or not isinstance(cpu, (int, float)) or not math.isfinite(cpu) or cpu < 0:
        return '"cpu_seconds" is not a number of seconds'
    for key in ("first_as_A", "second_as_A", "gain"):
        value = rec.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return f'"{key}" is not a number'
    if "build" in rec and not isinstance(rec["build"], str):
        return '"build" is not a build name'
    lines = rec.get("lines", ["", ""])
    if not isinstance(lines, list) or len(lines) != 2 or not all(isinstance(x, str) for x in lines):
        return '"lines" is not a list of the two games\' lines'
    return None


def read_pair(path: Path, pair: Optional[tuple] = None) -> JsonLines:
    """One pair's results file, every record checked (:func:`record_problem`) and of one pair:
    ``pair`` = (variant, first, second) if given, else the pair of the file's first record."""
    found = read_json_lines(path, record_problem)
    for number, rec in found.items:
        pair = pair or (rec["variant"], rec["first"], rec["second"])
        if (rec["variant"], rec["first"], rec["second"]) != pair:
            raise BatchError(f"{path} line {number}: a record of another pair than {pair[0]} {pair[1]}:{pair[2]}")
    return found


def setup_text(counts: dict, variant: str) -> str:
    """``s1 4, s2 4, open 16``: a table bot's setup-hint deals at each step of ``variant``."""
    return ", ".join(f"{step} {counts.get(step, 0)}" for step in STEP_NAMES[variant])


def setup_mismatch(found: JsonLines, counts: dict, variant: str) -> Optional[dict]:
    """The first ``table_setup`` of ``found``'s records that differs from ``counts`` at a step of
    ``variant`` (None if none)."""
    for _, rec in found.items:
        if "table_setup" in rec and setup_text(rec["table_setup"], variant) != setup_text(counts, variant):
            return rec["table_setup"]
    return None


def parse_pairs(text: str) -> list:
    pairs = [x for x in text.split(",") if x]
    if not pairs:
        raise BatchError("--pairs is empty: give first:second,...")
    for pair in pairs:
        names = pair.split(":")
        if len(names) != 2:
            raise BatchError(f"bad pair {pair!r}: give first:second, e.g. table:greedy")
        for name in names:
            factory(name)
    return pairs


def play(args):
    if args.jobs < 1:
        raise BatchError(f"--jobs {args.jobs}: give 1 or more")
    variants = args.variant or ["lopaka", "glitzerhaus"]
    pairs = parse_pairs(args.pairs)
    seeds = list(parse_seeds(args.deals))
    args.out.mkdir(parents=True, exist_ok=True)
    build = build_id()
    for variant in variants:
        for pair in pairs:
            first, second = pair.split(":")
            path = path_for(args.out, variant, pair)
            with AppendFile(path) as out:     # locked: a second run on this pair is refused
                found = read_pair(path, (variant, first, second))
                out.mend(found)               # a torn last line (a kill mid-write): cut, played again
                if "table" in (first, second):
                    other = setup_mismatch(found, TableBot.SETUP_SAMPLES, variant)
                    if other is not None:
                        raise BatchError(f"{path}: its deals were played by a table bot whose setup hint drew "
                                         f"{setup_text(other, variant)} deals a step, today's "
                                         f"{setup_text(TableBot.SETUP_SAMPLES, variant)}: "
                                         f"move the file aside (e.g. to {path.stem}-old.jsonl) to start today's bot")
                done = {r["seed"] for _, r in found.items}
                todo = [(variant, first, second, s, build) for s in seeds if s not in done]
                print(f"{variant} {pair}: {len(todo)} deals to play -> {path}", file=sys.stderr)
                if args.jobs > 1 and len(todo) > 1:
                    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
                        for rec in pool.imap(duplicate, todo):
                            out.write((json.dumps(rec) + "\n").encode())
                else:
                    for task in todo:
                        out.write((json.dumps(duplicate(task)) + "\n").encode())


def summary(args):
    if not args.out.is_dir():
        raise BatchError(f"{args.out} is not a folder of results")
    if args.markdown:
        print("| variant | bot | against | deals | gain per round | 95 % interval | deals won: bot / against / even (sign test) |")
        print("|---|---|---|---|---|---|---|")
    for path in sorted(args.out.glob("*.jsonl")):
        by_seed = {rec["seed"]: rec for _, rec in read_pair(path).items}     # the last of a seed wins
        records = [by_seed[s] for s in sorted(by_seed)]
        if len(records) < 2:
            continue
        rec = records[0]
        bot = rec["first"]
        if path != path_for(args.out, rec["variant"], f"{rec['first']}:{rec['second']}"):
            bot = path.stem[len(rec["variant"]) + 1:].rsplit("-vs-", 1)[0]      # a run moved aside: its own name
        if "table_setup" in rec:
            bot += f" [{setup_text(rec['table_setup'], rec['variant'])}]"
        gains = [r["gain"] for r in records]
        mean = statistics.mean(gains)
        half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
        seeds = [r["seed"] for r in records]
        won, lost = sum(g > 0 for g in gains), sum(g < 0 for g in gains)
        wins = f"{won} / {lost} / {len(gains) - won - lost} (p = {sign_test(won, lost):.2g})"
        timed = [r["cpu_seconds"] for r in records if "cpu_seconds" in r]
        cost = (f"; CPU a deal (both games, one core): median {statistics.median(timed):.1f} s, "
                f"p90 {percentile(timed, 90):.1f} s, max {max(timed):.1f} s over {len(timed)} deals"
                if timed else "")
        if args.markdown:
            print(f"| {rec['variant']} | `{bot}` | `{rec['second']}` | {len(gains):,} ({min(seeds)}–{max(seeds)}) | "
                  f"**{mean:+.2f}** | {mean - half:+.2f} to {mean + half:+.2f} | {wins} |")
            continue
        builds = sorted({r.get("build", "not recorded") for r in records})
        print(f"{rec['variant']:12} {bot:>12} vs {rec['second']:<12} {mean:+6.2f} per round "
              f"(95 % interval {mean - half:+.2f} to {mean + half:+.2f}), {len(gains)} deals "
              f"({min(seeds)}-{max(seeds)}), duplicate; deals won by {bot.split()[0]} / {rec['second']} / even: {wins}, "
              f"the exact sign test; builds: {', '.join(builds)}{cost}")


def _lined(args):
    """``(path, records)`` of every results file under ``--out``, the records that hold lines."""
    if not args.out.is_dir():
        raise BatchError(f"{args.out} is not a folder of results")
    for path in sorted(args.out.glob("*.jsonl")):
        found = read_pair(path)
        yield path, [(number, rec) for number, rec in found.items if "lines" in rec]


def _games_of(path, number, rec) -> list:
    """The two recorded games of ``rec``, replayed: each a list of the states it passes through."""
    start = deal(rec["seed"], Rules(rec["variant"])).start()
    out = []
    for which, line in enumerate(rec["lines"]):
        try:
            out.append(replay(start, parse_line(line, start.rules)))
        except InputError as exc:
            raise BatchError(f"{path} line {number}: game {which + 1} does not replay: {exc}") from None
    return out


def _after_setup(states) -> object:
    """The first play-phase state of a replayed game (:func:`_games_of`)."""
    return next(st for st in states if not st.in_setup)


def verify(args):
    """Every recorded line replayed through the rules engine: it must finish the round at the
    recorded margin."""
    total = 0
    for path, lined in _lined(args):
        with ProgressLine() as progress:
            for k, (number, rec) in enumerate(lined, 1):
                for which, (states, key) in enumerate(zip(_games_of(path, number, rec), ("first_as_A", "second_as_A"))):
                    end = states[-1]
                    if not end.finished or end.value() != rec[key]:
                        got = end.value() if end.finished else "an unfinished round"
                        raise BatchError(f"{path} line {number}: game {which + 1} replays to {got}, recorded {rec[key]}")
                progress.show(f"{path.name}: {k} of {len(lined)} deals replayed")
        if lined:
            print(f"{path.name}: {len(lined)} deals, both games replayed to their recorded margins")
        total += len(lined)
    print(f"{total} deals verified")


def setup_dd(args):
    """Each recorded game valued after its setup by the exact double-dummy engine: the gain the
    two setups would give with the play perfect (every card seen), beside the gain realised."""
    from scoundrel_solver.bottleimp.engine import Engine
    engine = Engine()
    for path, lined in _lined(args):
        if len(lined) < 2:
            continue
        dd, real = [], []
        with ProgressLine() as progress:     # a terminal sees the deals valued after a second
            for k, (number, rec) in enumerate(lined, 1):
                values = []
                for states in _games_of(path, number, rec):
                    values.append(engine.value(_after_setup(states)))
                dd.append((values[0] - values[1]) / 2)
                real.append(rec["gain"])
                progress.show(f"{path.name}: {k} of {len(lined)} deals valued after their setups")
        rec = lined[0][1]
        seeds = [r["seed"] for _, r in lined]
        print(f"{path.name}: {len(lined)} deals with lines ({min(seeds)}-{max(seeds)}); {rec['first']}'s gain a round "
              f"over {rec['second']}:")
        for name, xs in (("the setups, the play double dummy", dd), ("as played (the bots' own play)", real)):
            mean, ci = mean_ci(xs)
            print(f"  {name:36} {mean:+7.2f}  (95 % {ci[0]:+.2f} to {ci[1]:+.2f})")
        mean, ci = mean_ci([a - b for a, b in zip(real, dd)])
        print(f"  {'realised less double dummy':36} {mean:+7.2f}  (95 % {ci[0]:+.2f} to {ci[1]:+.2f}), deal by deal")


def swings(args):
    """The ``--top`` deals of largest gain either way of each file with lines: per game its setup,
    the bottle's holder at the end, the exact value after the setup and the margin."""
    if args.top < 1:
        raise BatchError(f"--top {args.top}: give 1 or more")
    from scoundrel_solver.bottleimp.engine import Engine
    engine = Engine()
    for path, lined in _lined(args):
        if not lined:
            continue
        top = sorted(lined, key=lambda item: (-abs(item[1]["gain"]), item[1]["seed"]))[:args.top]
        rec = top[0][1]
        print(f"{path.name}: the {len(top)} largest gains of {len(lined)} deals with lines; game 1 {rec['first']} "
              f"at A, game 2 {rec['second']} at A")
        for number, rec in top:
            print(f"  deal {rec['seed']}: gain {rec['gain']:+g}")
            for which, states in enumerate(_games_of(path, number, rec)):
                after, end = _after_setup(states), states[-1]
                holder = end.seats[end.holder] if end.holder is not None else "nobody"
                setup = " | ".join(rec["lines"][which].split(" | ")[:len(STEP_NAMES[rec["variant"]])])
                print(f"    game {which + 1}: {setup}; after it {engine.value(after):+d} double dummy; margin "
                      f"{end.value():+d}; the bottle ends with {holder}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--variant", action="append", choices=["lopaka", "glitzerhaus"])
    p.add_argument("--pairs", default=",".join(PAIRS), help=f"first:second,... (default {','.join(PAIRS)})")
    p.add_argument("--deals", default="1-1000", help="deal numbers, e.g. 1-1000 (default)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", type=Path, default=OUT)
    s = sub.add_parser("summary")
    s.add_argument("--out", type=Path, default=OUT)
    s.add_argument("--markdown", action="store_true", help="a Markdown table (benchmarks/README.md)")
    for name in ("verify", "setup-dd", "swings"):
        sub.add_parser(name).add_argument("--out", type=Path, default=OUT)
    sub.choices["swings"].add_argument("--top", type=int, default=12, help="deals a file (default 12)")
    args = parser.parse_args()
    action = {"play": play, "summary": summary, "verify": verify, "setup-dd": setup_dd, "swings": swings}[args.command]
    return command_main(action, args)


if __name__ == "__main__":
    sys.exit(main())
