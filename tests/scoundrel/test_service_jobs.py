"""The service's answers are the library's, made without the command line.

A solver process of the service runs a job of solver/web/scoundrel_jobs.py: the
parameters checked as the CLI checks its options, then the library function the
CLI's ``--json`` prints (solver/scoundrel/answers.py).  Here the jobs are run in
this process and set against ``scoundrel-solve ... --json``: the same objects, and
for bad input the same line; and a process that runs them never loads click or the CLI.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from clitools import without

from scoundrel_solver.cli.main import cli
from scoundrel_solver.web import scoundrel_jobs as jobs
from scoundrel_solver.web.worker import run_job

DECK = "5D 3S 4H 9C 2D 7S"
POSITION = {"room": ["3C", "QC", "8D", "KC"], "heroes": [{"health": 6, "weapon": "7D", "last_kill": 12}],
            "gone": ["5D", "3H", "7C", "4H", "9H", "AC", "QS", "2C"]}
# measurements, not answers (with two threads a proof's node count varies from run to run)
VARY = {"seconds", "nodes_per_second", "nodes", "solves", "tt"}


def cli_json(*argv, stdin=None) -> dict:
    result = CliRunner().invoke(cli, [*argv, "--json"], input=stdin, prog_name="scoundrel-solve")
    return json.loads(result.stdout)


def stable(obj):
    return without(obj, VARY)


@pytest.mark.parametrize("job, params, argv", [
    (jobs.deal, {"seed": "42"}, ["deal", "--seed", "42"]),
    (jobs.deal, {"seed": "7", "mode": "coop", "deck_size": "54"}, ["deal", "--seed", "7", "--mode", "coop",
                                                                   "--deck-size", "54"]),
    (jobs.replay, {"seed": "42", "line": "3H 5D 5C | avoid"}, ["replay", "--seed", "42", "--line", "3H 5D 5C | avoid"]),
    (jobs.replay, {"seed": "42", "mode": "coop", "line": "8C> 4H AC"},
     ["replay", "--seed", "42", "--mode", "coop", "--line", "8C> 4H AC"]),
    (jobs.solve, {"seed": "42", "max_nodes": "2000", "tt_mb": "16"},
     ["solve", "--seed", "42", "--max-nodes", "2000", "--tt-mb", "16"]),
    (jobs.solve, {"deck": DECK, "durability": "lenient", "tt_mb": "16"},
     ["solve", "--deck", DECK, "--durability", "lenient", "--tt-mb", "16"]),
    (jobs.rate, {"deck": DECK, "tt_mb": "16"}, ["rate", "--deck", DECK, "--tt-mb", "16"]),
    (jobs.daily, {"date": "2026-01-01", "reveal": True}, ["daily", "--date", "2026-01-01", "--reveal"]),
    (jobs.hint, {"seed": "42", "moves": "3H 5D", "time": "0", "tt_mb": "64"},
     ["hint", "--seed", "42", "--moves", "3H 5D", "--time", "0", "--tt-mb", "64"]),
    (jobs.hint, {"deck": DECK, "moves": "5D", "max_nodes": "100000000", "timeout": "30", "tt_mb": "16"},
     ["hint", "--deck", DECK, "--moves", "5D", "--max-nodes", "100000000", "--timeout", "30", "--tt-mb", "16"]),
    (jobs.explain, {"seed": "42", "moves": "3H 5D 5Cw", "explain": "4H", "tt_mb": "64", "max_nodes": "100000000",
                    "timeout": 30.0},
     ["hint", "--seed", "42", "--moves", "3H 5D 5Cw", "--explain", "4H", "--tt-mb", "64", "--max-nodes",
      "100000000", "--timeout", "30"]),
])
def test_a_job_answers_as_the_cli(job, params, argv):
    status, got = job(params)
    assert status == 200, got
    assert stable(got) == stable(cli_json(*argv))


@pytest.mark.parametrize("job, params, argv", [
    (jobs.deal, {"seed": "XX"}, ["deal", "--seed", "XX"]),
    (jobs.deal, {}, ["deal"]),
    (jobs.deal, {"seed": "1", "deck": DECK}, ["deal", "--seed", "1", "--deck", DECK]),
    (jobs.deal, {"deck": "5D 5D 3S"}, ["deal", "--deck", "5D 5D 3S"]),
    (jobs.deal, {"seed": "1", "mode": "duo"}, ["deal", "--seed", "1", "--mode", "duo"]),
    (jobs.deal, {"seed": "1", "mode": "coop", "deck_size": "052"}, ["deal", "--seed", "1", "--mode", "coop",
                                                                    "--deck-size", "052"]),
    (jobs.deal, {"seed": "1", "flee": "Easy"}, ["deal", "--seed", "1", "--flee", "Easy"]),
    (jobs.deal, {"seed": "1", "durability": ""}, ["deal", "--seed", "1", "--durability", ""]),
    (jobs.replay, {"seed": "42", "line": "9S"}, ["replay", "--seed", "42", "--line", "9S"]),
    (jobs.solve, {"seed": "42", "max_nodes": "0", "tt_mb": "16"}, ["solve", "--seed", "42", "--max-nodes", "0"]),
    (jobs.solve, {"seed": "42", "max_nodes": "1e3", "tt_mb": "16"}, ["solve", "--seed", "42", "--max-nodes", "1e3"]),
    (jobs.solve, {"seed": "42", "max_nodes": "9" * 5000, "tt_mb": "16"},
     ["solve", "--seed", "42", "--max-nodes", "9" * 5000]),
    (jobs.solve, {"seed": "42", "timeout": "nan", "tt_mb": "16"}, ["solve", "--seed", "42", "--timeout", "nan"]),
    (jobs.solve, {"seed": "42", "tt_mb": "0"}, ["solve", "--seed", "42", "--tt-mb", "0"]),
    # the first bad option on the command line is the one named
    (jobs.solve, {"seed": "XX", "mode": "duo", "max_nodes": "abc", "tt_mb": "16"},
     ["solve", "--seed", "XX", "--mode", "duo", "--max-nodes", "abc"]),
    (jobs.rate, {"seed": "42", "max_nodes": "x", "tt_mb": "16"}, ["rate", "--seed", "42", "--max-nodes", "x"]),
    (jobs.daily, {"date": "2026-13-01"}, ["daily", "--date", "2026-13-01"]),
    (jobs.daily, {"date": "2026-01-01", "difficulty": "nope"}, ["daily", "--date", "2026-01-01", "--difficulty", "nope"]),
    (jobs.daily, {"date": "2026-01-01", "method": "v9"}, ["daily", "--date", "2026-01-01", "--method", "v9"]),
    (jobs.hint, {"seed": "42", "leader": "3", "tt_mb": "16"}, ["hint", "--seed", "42", "--leader", "3"]),
    (jobs.hint, {"seed": "42", "taken": "x", "tt_mb": "16"}, ["hint", "--seed", "42", "--taken", "x"]),
    (jobs.hint, {"seed": "42", "samples": "0", "tt_mb": "16"}, ["hint", "--seed", "42", "--samples", "0"]),
    (jobs.hint, {"seed": "42", "rng_seed": "-1", "tt_mb": "16"}, ["hint", "--seed", "42", "--rng-seed", "-1"]),
    (jobs.hint, {"seed": "42", "time": "-1", "tt_mb": "16"}, ["hint", "--seed", "42", "--time", "-1"]),
    (jobs.hint, {"seed": "42", "time": "1", "timeout": "3", "tt_mb": "16"},
     ["hint", "--seed", "42", "--time", "1", "--timeout", "3"]),
    (jobs.hint, {"seed": "42", "room": "3C", "tt_mb": "16"}, ["hint", "--seed", "42", "--room", "3C"]),
    (jobs.hint, {"room": "3C", "moves": "3H", "tt_mb": "16"}, ["hint", "--room", "3C", "--moves", "3H"]),
    (jobs.hint, {"seed": "42", "health": "5", "tt_mb": "16"}, ["hint", "--seed", "42", "--health", "5"]),
    (jobs.hint, {"seed": "42", "taken": "0", "tt_mb": "16"}, ["hint", "--seed", "42", "--taken", "0"]),
    (jobs.hint, {"room": "3C QC 8D KC", "health": "x", "tt_mb": "16"}, ["hint", "--room", "3C QC 8D KC", "--health", "x"]),
    (jobs.hint, {"room": "3C QC 8D KC", "health": "25", "tt_mb": "16"},
     ["hint", "--room", "3C QC 8D KC", "--health", "25"]),
    (jobs.hint, {"room": "3C QC 8D KC", "table": True, "tt_mb": "16"}, ["hint", "--room", "3C QC 8D KC", "--table"]),
    # the depth-1 figure's parameters (issue 62): the CLI's checks, the same lines
    (jobs.hint, {"seed": "42", "table": True, "lookahead": "depth2", "tt_mb": "16"},
     ["hint", "--seed", "42", "--table", "--lookahead", "depth2"]),
    (jobs.hint, {"seed": "42", "table": True, "lookahead": "depth1", "depth1_deals": "0", "tt_mb": "16"},
     ["hint", "--seed", "42", "--table", "--lookahead", "depth1", "--depth1-deals", "0"]),
    (jobs.hint, {"seed": "42", "table": True, "depth1_orders": "4", "tt_mb": "16"},
     ["hint", "--seed", "42", "--table", "--depth1-orders", "4"]),
    (jobs.hint, {"seed": "42", "lookahead": "depth1", "tt_mb": "16"},
     ["hint", "--seed", "42", "--lookahead", "depth1"]),
    (jobs.hint, {"seed": "42", "moves": "3H 5D 5C | avoid | 2D 7D 8D", "tt_mb": "16"},
     ["hint", "--seed", "42", "--moves", "3H 5D 5C | avoid | 2D 7D 8D"]),
    (jobs.explain, {"seed": "42", "moves": "3H 5D 5Cw", "explain": "9S", "tt_mb": "16", "max_nodes": None,
                    "timeout": 5.0}, ["hint", "--seed", "42", "--moves", "3H 5D 5Cw", "--explain", "9S", "--time", "5"]),
])
def test_bad_input_is_the_cli_line(job, params, argv):
    status, got = job(params)
    assert status == 400, got
    assert got["error"] == cli_json(*argv)["error"]


@pytest.mark.parametrize("position, flags", [
    ({"room": ["3C"], "heroes": [{"health": "6"}]}, []),
    (POSITION, ["--mode", "coop"]),
    ({**POSITION, "rules": {"mode": "solo"}}, ["--mode", "coop"]),
    ("{not json", []),
])
def test_a_bad_position_is_the_cli_line(position, flags):
    text = position if isinstance(position, str) else json.dumps(position)
    params = dict(zip([f[2:] for f in flags[::2]], flags[1::2]), position=text, tt_mb="16")
    status, got = jobs.hint(params)
    assert status == 400, got
    assert got["error"] == cli_json("hint", "--position", "-", *flags, stdin=text)["error"]


def test_game_steps():
    status, game = jobs.move({"seed": "42", "line": "3H 5D", "move": "5C"})
    assert status == 200 and game["line"] == "3H 5D 5Cw"
    status, game = jobs.move({"seed": "42", "line": game["line"], "move": "avoid"})
    assert game == cli_json("replay", "--seed", "42", "--line", "3H 5D 5Cw | avoid")
    status, undone = jobs.undo({"seed": "42", "line": game["line"], "count": 2})
    assert status == 200 and undone["line"] == "3H 5D"
    assert jobs.undo({"seed": "42", "line": "3H", "count": 2}) == (
        400, {"type": "error", "error": "undo: 2 move(s) asked, the line has 1", "status": 400})
    # a bad rule value is the library's line (the service answered 500 for a deck size that is no number)
    status, bad = jobs.move({"seed": "1", "mode": "coop", "deck_size": "abc", "line": "", "move": "8D"})
    assert (status, bad["error"]) == (400, "unknown deck size 'abc' (choose 52, 50 or 54)")


def test_the_warm_up_job_answers():
    assert run_job(jobs.WARM_UP)[0] == 200


def test_a_solver_process_needs_no_command_line():
    """The jobs run, and neither click nor the CLI is ever imported (the library does not depend
    on its command line; tests/common/test_imports.py checks the sources), nor the web framework: a
    solver process holds the library and its jobs alone."""
    code = "\n".join([
        "import sys",
        "from scoundrel_solver.web import scoundrel_jobs as jobs, worker",
        "for job, params in [(jobs.deal, {'seed': '42'}), (jobs.solve, {'seed': 'XX', 'tt_mb': '16'}),",
        "                    (jobs.hint, {'seed': '42', 'moves': '3H', 'time': '0.3', 'tt_mb': '16'}),",
        "                    (jobs.move, {'seed': '42', 'line': '', 'move': '3H'})]:",
        "    status, obj = worker.run_job((job, (params,)))",
        "    assert status in (200, 400) and obj['type'] != 'error' or status == 400, obj",
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('click', 'starlette')",
        "                or m.startswith('scoundrel_solver.cli'))",
        "assert not loaded, loaded",
        "print('ok')",
    ])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_the_library_and_the_service_never_import_click():
    root = Path(__file__).resolve().parents[2] / "solver"
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "__main__.py" and any(line.strip().startswith(("import click", "from click"))
                                                    for line in p.read_text().splitlines())]
    assert offenders == []
