"""Every example the project shows runs: each ``--help``, the README and docs/*.md.

The examples are read from the texts themselves (tests/scoundrel/examples.py), so a new
or edited example is tested without touching this file.  Each runs in a
temporary directory (some write files); ``scoundrel-solve ...`` runs in-process
(click's runner), ``echo/printf ... | scoundrel-solve ...`` with the text the
shell prints as standard input, Python blocks in a subprocess.  An example
passes when it exits 0 and prints something, with no error line.

Examples that take minutes are marked ``slow`` (run with ``pytest -m slow`` or
SCOUNDREL_SLOW=1): :data:`SLOW` lists them with the time measured on the
project's 2-core machine.  Examples that cannot run here are in
:data:`NOT_RUN` with the reason; both lists must name examples that exist.
"""
import json
import os
import shlex
import subprocess
import sys

import pytest

import examples
from clitools import runner
from scoundrel_solver.cli.main import cli
from test_core import require_slow

# Examples (their command, as extracted) that take minutes; measured alone on the
# project's 2-core machine unless said otherwise.
SLOW = {
    "scoundrel-solve --seed 7 --mode coop --deck-size 54 --durability strict": "about 140 s (docs/solver.md)",
    "scoundrel-solve daily --mode coop": "co-op daily: 35 s",
    "scoundrel-solve daily --mode coop --difficulty hard --jobs 2": "co-op rated daily: about 100 s",
    "scoundrel-solve daily --mode coop --difficulty hard": "co-op rated daily: minutes",
    "scoundrel-solve rate --seed 7 --mode coop": "co-op rating: minutes",
    "scoundrel-solve generate --count 100 --out deals.jsonl": "100 rated deals: about 2 minutes",
    "scoundrel-solve generate --count 100 --out deals.jsonl --resume": "runs the line above first",
    "scoundrel-solve generate --count 20 --difficulty expert --out expert.jsonl": "about 4 minutes",
    "scoundrel-solve generate --count 20 --mode coop --jobs 2 --out coop.jsonl": "20 rated co-op deals: long",
    "scoundrel-solve generate --count 50 --flee hard --start-seed 1000000 --out hard-flee.jsonl": "about 40 s",
    "scoundrel-solve stats --seeds 1-1000": "1,000 solves: minutes",
    "scoundrel-solve stats --seeds 1-1000 --jobs 2 --out solo.jsonl": "1,000 solves: minutes",
    "scoundrel-solve stats --seeds 1-1000 --jobs 2 --out solo.jsonl --resume": "runs the line above first",
    "scoundrel-solve stats --summary solo.jsonl": "needs solo.jsonl: runs the lines above first",
    "scoundrel-solve stats --summary solo.jsonl --json": "needs solo.jsonl: runs the lines above first",
    "scoundrel-solve stats --summary solo.jsonl --seeds 1-200 --json": "needs solo.jsonl: runs the lines above first",
    "scoundrel-solve stats --seeds 1-100 --mode coop --timeout 600 --out coop.jsonl": "100 co-op solves: ~10 min",
    "scoundrel-solve stats --seeds 1-1000 --backend dask --jobs 2": "1,000 solves on a local Dask cluster",
    "scoundrel-solve hint --room \"3C QC 8D KC\" --health 6 --weapon 7D --last-kill 12 "
    "--gone \"5D 3H 7C 4H 9H AC QS 2C\"": "100 sampled orders of 32 cards: about 20 s",
    "scoundrel-solve hint --position pos.json": "the position above from a file: about 10 s",
}

# Examples not run by this test, and why.
NOT_RUN = {
    "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/scoundrel-solve --seed 42":
        "installs the package: .ci/run runs it in a fresh copy of the repository",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest -q":
        "installs the package and runs this suite: .ci/run runs it",
    "scoundrel-solve stats --seeds 1-1000 --mode coop --win-only --jobs 2 --out coop-52-win.jsonl --resume":
        "1,000 co-op deals: hours (benchmarks/README.md)",
}
NOT_RUN_PREFIXES = {
    "python benchmarks/calibrate_rating.py": "the calibration of 10,000 deals a mode: hours; "
                                             "tests/scoundrel/test_rating.py runs the script on 5 deals",
}

# Files an example reads that no example writes: made from the docs that define them.
def _given_files() -> dict:
    hints = examples.json_blocks(examples.REPO / "docs" / "hints.md")
    return {"pos.json": next(b for b in hints if '"room"' in b)}


def _not_run(command: str):
    if command in NOT_RUN:
        return NOT_RUN[command]
    return next((why for prefix, why in NOT_RUN_PREFIXES.items() if command.startswith(prefix)), None)


def _args(command: str) -> list:
    return shlex.split(_split_pipe(command)[1])


def _outputs(command: str) -> set:
    args = _args(command)
    return {args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--out", ">")}


def _inputs(command: str) -> set:
    args = _args(command)
    return {args[i + 1] for i, a in enumerate(args[:-1]) if a in ("--summary", "--position")}


def _prerequisites(example, every) -> list:
    """The examples of the same block, shown before it, that write a file it reads
    (``stats --summary solo.jsonl`` needs ``stats ... --out solo.jsonl``)."""
    block = [e for e in every if e.block == example.block]
    before = block[:block.index(example)]
    wanted = _inputs(example.command) | ({f for f in _outputs(example.command)} if "--resume" in example.command
                                         else set())
    return [e for e in before if _outputs(e.command) & wanted and e.command != example.command]


EVERY = examples.all_examples()


def _params():
    seen, out = set(), []
    for e in EVERY:
        if e.command in seen:     # the same line in two places runs once
            continue
        seen.add(e.command)
        slow = e.command in SLOW or any(p.command in SLOW for p in _prerequisites(e, EVERY))
        marks = [pytest.mark.slow] if slow else []
        if _not_run(e.command):
            continue
        out.append(pytest.param(e, marks=marks, id=e.command[len("scoundrel-solve "):][:70]))
    return out


def _split_pipe(command: str):
    """``printf 'a\\nb\\n' | scoundrel-solve play ...``: (the producer, the command)."""
    quote = None
    for i, ch in enumerate(command):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "|":
            return command[:i].strip(), command[i + 1:].strip()
    return None, command


def run_example(command: str, cwd) -> tuple:
    """Run one example line in ``cwd``: (exit status, stdout, stderr)."""
    producer, consumer = _split_pipe(command)
    stdin = None
    if producer is not None:
        assert shlex.split(producer)[0] in ("echo", "printf"), f"a pipe from {producer!r}"
        stdin = subprocess.run(["bash", "-c", producer], capture_output=True, text=True, check=True).stdout
    args = shlex.split(consumer)
    assert args[0] == examples.PROG, f"not a {examples.PROG} command: {command}"
    target = None
    if ">" in args:     # `... --json > pos.json`: standard output into a file
        assert args.index(">") == len(args) - 2, f"one redirection, last: {command}"
        args, target = args[:-2], args[-1]
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = runner().invoke(cli, args[1:], input=stdin)
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    if target is not None:
        (cwd / target).write_text(result.stdout)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("example", _params())
def test_example_runs(example, tmp_path, request):
    if example.command in SLOW or any(p.command in SLOW for p in _prerequisites(example, EVERY)):
        require_slow(request)
    if "--backend dask" in example.command:
        pytest.importorskip("dask.distributed")
    for name, text in _given_files().items():
        if name in _inputs(example.command) and not _outputs(example.command) & {name}:
            (tmp_path / name).write_text(text)
    for before in _prerequisites(example, EVERY):
        code, _, err = run_example(before.command, tmp_path)
        assert code == 0, (str(before), err)
    code, out, err = run_example(example.command, tmp_path)
    assert code == 0, (str(example), code, err)
    assert out.strip(), f"{example}: printed nothing"
    assert "error:" not in err and "Traceback" not in err, (str(example), err)
    if "--json" in example.command.split():
        json.loads(out)


@pytest.mark.parametrize("example", [e for e in examples.python_examples()], ids=lambda e: e.source)
def test_python_example_runs(example, tmp_path, request):
    """Python blocks run as written, in a fresh interpreter (files land in a temp dir)."""
    if "batch.run(" in example.command:
        require_slow(request)      # solves deals 1-1000
    done = subprocess.run([sys.executable, "-c", example.command], cwd=tmp_path, capture_output=True, text=True,
                          timeout=1200)
    assert done.returncode == 0, (example.source, done.stderr[-2000:])
    assert done.stdout.strip(), example.source


def test_the_readme_python_example_runs_inside_the_clone():
    """From the repository root the folders solver/ and cli/ must not shadow the
    installed package (issue 24): the README's example, as a user would paste it."""
    [block] = [e for e in examples.python_examples() if e.source.startswith("README.md")]
    done = subprocess.run([sys.executable, "-c", block.command], cwd=examples.REPO, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    score, exact, line = done.stdout.split(" ", 2)
    assert (score, exact) == ("30", "True") and line.strip()


# ------------------------------------------------------------ the extraction itself
def test_every_help_has_examples_and_they_are_all_collected():
    texts = examples.help_texts()
    found = examples.help_examples(texts)
    for where in texts:
        if where == "--help":
            continue
        assert any(e.source.endswith(where) for e in found), f"'{where}' shows no example"
    # a two-line example is joined, its description cut off
    assert ('scoundrel-solve hint --room "3C QC 8D KC" --health 6 --weapon 7D --last-kill 12 '
            '--gone "5D 3H 7C 4H 9H AC QS 2C"') in {e.command for e in found}
    assert 'echo "3H 5D 5C" | scoundrel-solve play --seed 42' in {e.command for e in found}


def test_the_lists_of_slow_and_unrun_examples_name_real_examples():
    commands = {e.command for e in EVERY}
    assert not set(SLOW) - commands, set(SLOW) - commands
    assert not set(NOT_RUN) - commands, set(NOT_RUN) - commands
    for prefix in NOT_RUN_PREFIXES:
        assert any(c.startswith(prefix) for c in commands), prefix


def test_a_broken_example_fails(tmp_path):
    """The runner reports what a user would see: a bad move is exit status 2."""
    code, out, err = run_example('scoundrel-solve hint --seed 42 --moves "5D 5C 4H | 3C 2C"', tmp_path)
    assert code == 2 and out == "" and err.startswith("error: 3C is illegal in room 2")
    code, out, err = run_example('echo "3H 5D 5C" | scoundrel-solve play --seed 42', tmp_path)
    assert code == 0 and "> 3H 5D 5C\n" in out


# --------------------------------------------------- every printed line replays
def _replays(seed, rules, text, score=None, prefix=""):
    """``prefix`` then ``text`` (notation) replays from deal ``seed``; the end scores ``score``."""
    from scoundrel_solver import State, deal, parse_line, replay
    start = State.new(deal(seed, rules), rules)
    end = replay(start, parse_line(prefix))[-1]
    end = replay(end, parse_line(text))[-1] if text else end
    if score is not None:
        assert end.finished and end.score == score, (text, end.score, score)
    return end


def _line_after(out: str, label: str) -> str:
    return next(l[len(label):] for l in out.splitlines() if l.startswith(label))


@pytest.mark.parametrize("flee", ["classic", "easy"])
def test_lines_printed_by_solve_replay_to_their_score(flee, tmp_path):
    from scoundrel_solver import Rules
    rules = Rules(flee=flee)
    code, out, _ = run_example(f"scoundrel-solve --seed 42 --flee {flee}", tmp_path)
    score = int(out.split("proven optimal score ")[1].split()[0])
    _replays(42, rules, _line_after(out, "Line: "), score)
    code, out, _ = run_example(f"scoundrel-solve --seed 42 --flee {flee} --json", tmp_path)
    d = json.loads(out)
    _replays(42, rules, d["line"], d["score"])


def test_lines_printed_by_rate_replay_to_their_score(tmp_path):
    from scoundrel_solver import Rules
    for seed in (42, 14):
        code, out, _ = run_example(f"scoundrel-solve rate --seed {seed} --json", tmp_path)
        d = json.loads(out)
        _replays(seed, Rules(), d["line"], d["score"])
        if d["won"]:
            _replays(seed, Rules(), d["canonical_line"], d["score"])


def test_lines_printed_by_daily_replay_to_their_score(tmp_path):
    from scoundrel_solver import Rules
    code, out, _ = run_example("scoundrel-solve daily --date 2026-03-14 --reveal --json", tmp_path)
    d = json.loads(out)
    _replays(d["seed"], Rules(), d["line"], d["score"])
    code, out, _ = run_example("scoundrel-solve daily --date 2026-03-14 --reveal", tmp_path)
    _replays(d["seed"], Rules(), _line_after(out, "Line: "), d["score"])


def test_hint_plans_replay_from_the_hint_position(tmp_path):
    from scoundrel_solver import Rules
    moves = "3H 5D 5Cw | avoid | 2D"
    code, out, _ = run_example(f'scoundrel-solve hint --seed 42 --moves "{moves}"', tmp_path)
    plan = _line_after(out, "Plan for this room: ")
    end = _replays(42, Rules(), plan, prefix=moves)
    assert end.taken == 0, "the plan ends the room"
    code, out, _ = run_example(f'scoundrel-solve hint --seed 42 --moves "{moves}" --json', tmp_path)
    d = json.loads(out)
    assert d["plan"] == plan
    _replays(42, Rules(), d["plan"], prefix=moves)


def test_lines_printed_by_play_replay(tmp_path):
    from scoundrel_solver import Rules
    code, out, _ = run_example("printf '3H 5D 5C\\navoid\\nmoves\\n' | scoundrel-solve play --seed 42", tmp_path)
    assert code == 0
    so_far = _line_after(out, "Line so far: ")
    assert so_far == "3H 5D 5Cw | avoid"
    _replays(42, Rules(), so_far)
    assert _line_after(out.split("End of input")[1], "Line so far: ") == so_far
