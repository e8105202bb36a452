"""``scoundrel-solve imp stats``: analyse a range of Bottle Imp deals and summarise them.

The work is :mod:`scoundrel_solver.bottleimp.stats` on the shared batch runner
(:mod:`scoundrel_solver.batch`: results file, lock, resume, Dask/Ray backends); the
progress bar and the results-file notes are the shared runner's (cli/batch.py), as Scoundrel's ``stats``.
"""
from __future__ import annotations

import json

import click

from scoundrel_solver import batch
from scoundrel_solver.bottleimp import stats
from scoundrel_solver.bottleimp.rules import CARD_TABLES, Rules

from ..batch import run_batch, warn_unreadable
from ..options import MAX_JOBS, WholeNumber, json_option, typed, usage_error

STATS_HELP = """Analyse every deal of a seed range double dummy and summarise them.

Lopaka: each whole deal's exchange, the 11 x 11 matrix game of exact play-phase values
(every card known after the exchange), solved for its equilibrium: the deal's double-dummy
value.  Glitzerhaus: the discard-and-pass steps by the low-cards setup policy (a named
policy, not optimal play), then the exact open-stack game.  Prints the mean value (margin
A - B) with its 95 % interval and its distribution, how often A and B are ahead, how often
each seat ends with the bottle along the equilibrium's principal lines, and what the
exchange (the open-stack choice) is worth to each player against a fixed simple one.
These are double-dummy figures: no player sees every card.  docs/statistics.md has the
published figures and their method.

With --out every deal's record is appended to FILE.jsonl as it is made: after Ctrl-C
--resume analyses only the seeds missing there, and the summary is the same.

\b
Examples:
  scoundrel-solve imp stats --variant glitzerhaus --seeds 1-20
  scoundrel-solve imp stats --variant lopaka --seeds 1-10000 --jobs 2 --out lopaka.jsonl --resume
  scoundrel-solve imp stats --summary lopaka.jsonl --json

\b
Exit status: 0 done; 1 a worker died, --out could not be written or every deal failed;
2 bad input; 130 interrupted.
"""


@click.command("stats", help=STATS_HELP)
@click.option("--variant", type=click.Choice(["lopaka", "glitzerhaus"]), default="lopaka", show_default=True,
              help="The two-player variant.")
@click.option("--cards", type=click.Choice(CARD_TABLES), default="classic", show_default=True, help="Card table.")
@click.option("--seeds", metavar="A-B", default=None, help="Deals: A-B, N, or a comma list such as 1-100,250-300.")
@click.option("--jobs", type=WholeNumber(1, MAX_JOBS), default=1, show_default=True, metavar="K",
              help="Worker processes (or the workers of a local Dask/Ray cluster).")
@click.option("--backend", type=click.Choice(batch.BACKENDS), default="local", show_default=True,
              help="Where the deals run: processes on this machine, or a Dask or Ray cluster.")
@click.option("--address", metavar="ADDRESS", default=None, help="With --backend dask/ray: join this cluster.")
@click.option("--out", metavar="FILE.jsonl", default=None, help="Append each deal's record to this file.")
@click.option("--resume", is_flag=True, help="Keep the records in --out and analyse only the seeds missing there.")
@click.option("--overwrite", is_flag=True, help="Empty --out first.")
@click.option("--summary", "summary_of", metavar="FILE.jsonl", default=None,
              help="Analyse nothing: summarise the records in this file (of --seeds only, if given).")
@json_option
@click.option("-q", "--quiet", is_flag=True, help="No header and no progress bar on stderr.")
@click.pass_context
def imp_stats_command(ctx, variant, cards, seeds, jobs, backend, address, out, resume, overwrite, summary_of,
                      as_json, quiet):
    if summary_of is not None:
        given = [name for name in ("out", "resume", "overwrite", "jobs", "backend", "address") if typed(ctx, name)]
        if given:
            raise usage_error(f"--summary analyses nothing: leave out --{given[0]}")
        rules = Rules(variant, cards=cards) if typed(ctx, "variant") or typed(ctx, "cards") else None
        wanted = batch.parse_seeds(seeds) if seeds is not None else None
        summary, torn = stats.summarise_file(summary_of, rules, wanted)
        warn_unreadable(summary_of, torn)
        _print(summary, as_json)
        return
    if seeds is None:
        raise usage_error("give the deals with --seeds A-B (or --summary FILE.jsonl to read records)")
    wanted = batch.parse_seeds(seeds)
    rules = Rules(variant, cards=cards)
    summary = run_batch(wanted, rules, stats.Settings(rules), stats.ResultsFile, stats.summarise,
                        backend=backend, jobs=jobs, address=address, out=out, resume=resume,
                        overwrite=overwrite, quiet=quiet, verb="analyse")
    _print(summary, as_json)


def _ci(figure) -> str:
    ci = figure.get("ci95")
    return f"{figure['mean']:+.2f}" + (f" (95 % interval {ci[0]:+.2f} to {ci[1]:+.2f})" if ci else "")


def _print(summary: dict, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"type": "imp-stats", **summary}, indent=1))
        return
    rules = Rules(**summary["rules"])
    lopaka = rules.variant == "lopaka"
    click.echo(f"{rules.describe()}: {summary['deals']:,} deals ({summary['seeds']})")
    for key, what in (("failed", "failed (rerun with --resume)"), ("missing", "not analysed yet")):
        if summary.get(key):
            click.echo(f"  {what}: {summary[key]}")
    if not summary["deals"]:
        return
    v = summary["value"]
    whole = "whole-deal value (the exchange's equilibrium)" if lopaka else \
        "play-phase value (low-cards setup policy, exact open-stack game)"
    click.echo(f"Double-dummy {whole}, margin A - B: mean {_ci(v)}")
    click.echo(f"  median {v['median']:+.1f}, 10 % {v['p10']:+.1f}, 90 % {v['p90']:+.1f}, "
               f"range {v['min']:+.1f} to {v['max']:+.1f}")
    for key, who in (("a_ahead", "A ahead"), ("b_ahead", "B ahead")):
        f = summary[key]
        click.echo(f"  {who}: {f['fraction']:.1%} of deals (95 % interval {f['ci95'][0]:.1%} to {f['ci95'][1]:.1%})")
    click.echo("Ends with the bottle (equilibrium, principal lines): " + ", ".join(
        f"{'Lopaka' if s == 'L' else s} {f['mean']:.1%}" for s, f in summary["holder"].items()))
    step = "exchange" if lopaka else "open-stack choice"
    simple = "both pass their lowest card" if lopaka else "both open stack 1"
    click.echo(f"Pure choices: A's best guarantees {summary['maximin']['mean']:+.2f}, B's best "
               f"{summary['minimax']['mean']:+.2f}; {summary['mixed']:,} deals need a mixed {step} "
               f"(no pure equilibrium: A or B must mix)")
    click.echo(f"The {step} played well, against the simple one ({simple}: {summary['fixed']['mean']:+.2f}): "
               f"worth {_ci(summary['worth']['A'])} to A, {_ci(summary['worth']['B'])} to B")
    click.echo("Distribution (value, deals): " + ", ".join(f"{k}s {n}" for k, n in summary["histogram"].items()))
    if "time" in summary:
        t = summary["time"]
        click.echo(f"Time per deal: median {t['median_seconds']:.2f} s, 90 % {t['p90_seconds']:.2f} s, "
                   f"max {t['max_seconds']:.2f} s")
