#!/usr/bin/env python3
"""The main job's lines keep their fewest rooms: each deal solved as the CLI's solve does
(``solve(shortest=True, line_budget="proof")``, on ``--threads``) and with the library's
2 M-node cap (``line_budget="cap"``, one thread); both must be proven the fewest and give the
same line (issue 48: solo classic 1-200 stay at their shortest lines).

    python benchmarks/main_job_lines.py --deals 1-200 --out /tmp/lines.jsonl

One JSON line per deal on stdout (and appended to ``--out``), then a summary.  Exit 0 when
every deal is proven and the same; 1 otherwise; 2 (one line) on bad input.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoundrel_solver import Rules, solve  # noqa: E402


def fail(message: str):
    print(f"main_job_lines.py: {message}", file=sys.stderr)
    raise SystemExit(2)


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line too (exit 2)."""

    def error(self, message):
        fail(message)


def deal_range(text: str) -> list:
    a, dash, b = text.partition("-")
    if not a.isdigit() or (dash and not b.isdigit()):
        fail(f"bad --deals {text!r}: give N or N-M")
    lo, hi = int(a), int(b) if dash else int(a)
    if hi < lo:
        fail(f"bad --deals {text!r}: the end is before the start")
    return list(range(lo, hi + 1))


def main(argv=None) -> int:
    p = OneLineParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", default="1-200")
    p.add_argument("--flee", default="classic", choices=["classic", "easy", "hard"])
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", help="append the per-deal JSON lines here too")
    a = p.parse_args(argv)
    if not 1 <= a.threads <= 8:
        fail("--threads must be 1 to 8")
    seeds = deal_range(a.deals)
    rules = Rules(flee=a.flee)
    out = open(a.out, "a", encoding="utf-8") if a.out else None
    bad, worst, t0 = [], 0, time.time()
    for seed in seeds:
        r = solve(seed=seed, rules=rules, shortest=True, line_budget="proof", threads=a.threads)
        c = solve(seed=seed, rules=rules, shortest=True)
        same = r.line_text == c.line_text
        ok = r.shortest is True and r.line_search == "proven" and c.shortest is True and same
        worst = max(worst, r.line_nodes)
        if not ok:
            bad.append(seed)
        text = json.dumps({"seed": seed, "score": r.score, "rooms": len(r.line), "shortest": r.shortest,
                           "line_search": r.line_search, "line_nodes": r.line_nodes,
                           "line_budget": r.line_budget, "same_as_cap": same})
        print(text, flush=True)
        if out:
            out.write(text + "\n")
            out.flush()
    print(f"# solo {a.flee} {a.deals}: {len(seeds) - len(bad)} of {len(seeds)} proven the fewest with the "
          f"main job's budget, the same line as with the 2 M cap; most line nodes {worst:,}; "
          f"not: {bad or 'none'}; {time.time() - t0:.0f} s", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
