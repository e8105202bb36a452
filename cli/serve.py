"""``scoundrel-solve serve``: the HTTP API and both games' web pages (solver/web/, docs/service.md)."""
from __future__ import annotations

import click

from .options import WholeNumber

SERVE_HELP = """Serve the HTTP JSON API and the web games: Scoundrel, and The Bottle Imp at /imp.

Open the URL it prints to play a numbered deal or today's daily, with hints.
Every /api answer is the object the matching command prints with --json
(docs/json.md); the API is described at /docs and /openapi.json.  It binds to
127.0.0.1 unless --host says otherwise.  Needs the extra: pip install
'scoundrel-solver[web]'.

\b
Examples:
  scoundrel-solve serve --help                    these options (serve itself runs until Ctrl-C)

It runs until Ctrl-C, for example on another port with more solver processes
(serve --port 8080 --workers 4), and answers e.g.
curl 'http://127.0.0.1:8000/api/hint?seed=42&moves=3H%205D'.
"""


@click.command("serve", help=SERVE_HELP, short_help="HTTP API and web games.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (0.0.0.0: every interface).")
@click.option("--port", type=WholeNumber(0, 65535), default=8000, show_default=True, help="TCP port (0: any free one).")
@click.option("--workers", type=WholeNumber(1, 64), default=2, show_default=True, metavar="N",
              help="Solver processes for solo requests.")
@click.option("--coop-workers", type=WholeNumber(1, 64), default=1, show_default=True, metavar="N",
              help="Solver processes for co-op requests, real-table hints, ratings and dailies: a pool of "
                   "their own, so they never hold up a solo hint.")
@click.option("--queue", type=WholeNumber(1, 10_000), default=16, show_default=True, metavar="N",
              help="Requests that may wait for a pool; past that the answer is 503 busy.")
@click.option("--budget", type=float, default=5.0, show_default=True, metavar="SECONDS",
              help="Search time of a request that asks none (solve, rate, explain).")
@click.option("--max-budget", type=float, default=30.0, show_default=True, metavar="SECONDS",
              help="The most search time a request may ask (timeout, time).")
@click.option("--max-tt-mb", type=WholeNumber(1, 65536), default=256, show_default=True, metavar="MB",
              help="The most table memory a request may ask (tt_mb; default 64).")
@click.option("--worker-mb", type=WholeNumber(256, 1 << 20), default=2048, show_default=True, metavar="MB",
              help="Address-space cap of each solver process: past it a request answers out of memory.")
@click.option("--grace", type=float, default=5.0, show_default=True, metavar="SECONDS",
              help="A job still running at twice its budget plus this is stopped (its process killed).")
@click.option("--log-level", type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              default="info", show_default=True)
def serve_command(host, port, workers, coop_workers, queue, budget, max_budget, max_tt_mb, worker_mb, grace, log_level):
    try:
        import uvicorn

        from scoundrel_solver.web.app import Limits, create_app
    except ImportError as exc:
        raise click.UsageError(f"serve needs the web extra: pip install 'scoundrel-solver[web]' ({exc})") from None
    if not 0 < budget <= max_budget:
        raise click.UsageError(f"--budget {budget:g}: more than 0 and at most --max-budget ({max_budget:g})")
    limits = Limits(workers=workers, coop_workers=coop_workers, queue=queue, budget=budget, max_budget=max_budget,
                    hint_time=min(2.0, max_budget), tt_mb=min(64, max_tt_mb), max_tt_mb=max_tt_mb,
                    worker_mb=worker_mb, grace=grace)
    app = create_app(limits)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"scoundrel-solve serve: the game at http://{shown}:{port}/ , the API at "
               f"http://{shown}:{port}/docs (Ctrl-C stops)", err=True)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=log_level == "debug")
