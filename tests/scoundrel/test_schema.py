"""Every command's ``--json`` output validates against the shipped JSON Schema.

The schema is ``solver/data/scoundrel.schema.json`` (``scoundrel_solver.schema()``);
docs/json.md explains it.  Each object is checked against the ``$defs`` entry its
``type`` names and against the root (which accepts exactly one of them), in solo
and co-op, on small custom dungeons so the file stays fast; the lines of the files
``stats --out`` and ``generate --out`` write are checked too, and the library's
dicts (``Result``, ``Hint``, ``State``, ``TablePosition``) are the same objects.
"""
import gzip
import json
import os
from pathlib import Path

import jsonschema
import pytest

from clitools import invoke
from scoundrel_solver import AVOID, Rules, State, deal, parse_cards, schema, solve
from scoundrel_solver.scoundrel.exacthint import exact_hint
from scoundrel_solver.scoundrel.position import make_table_position
from scoundrel_solver.scoundrel.table import TablePosition
from scoundrel_solver.scoundrel.tablehint import table_hint
from scoundrel_solver.jsonform import FILE_LINES, TYPES

ROOT = Path(__file__).resolve().parents[2]
SMALL = "5D 3S 4H 9C 2D 7S"                 # solo, optimal 18
SEVEN = "5D 3S 4H 9C 2D 7S 6H 8S 2S"         # solo, three rooms
COOP = "TD 6H 4S KH QS 2D"                   # co-op, optimal 36
COOP_LONG = "TD 6H 4S KH QS 2D 5C 3H 8D JC 7S 2H"

SCHEMA = schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def check(obj, kind=None):
    """``obj`` is valid as ``$defs/<kind>`` (default: its ``type``) and, for a
    printed object, as the root."""
    kind = kind or obj["type"]
    jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": SCHEMA["$defs"]}).validate(obj)
    if kind in TYPES:
        VALIDATOR.validate(obj)
    return obj


def run_json(*args, code=0):
    result = invoke(args, code)
    assert result.stderr == "" or code == 0, result.stderr
    return json.loads(result.stdout)


def test_the_schema_is_a_valid_draft_2020_12_schema_with_every_type():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert set(TYPES) | set(FILE_LINES) <= set(SCHEMA["$defs"])
    assert SCHEMA["version"] == 1
    for kind in TYPES:
        assert SCHEMA["$defs"][kind]["properties"]["type"] == {"const": kind}


def test_the_schema_rejects_what_it_should():
    """The schema is not a rubber stamp: wrong types and unknown keys fail."""
    good = run_json("replay", "--deck", SMALL, "--line", "5D", "--json")
    check(good)
    bad = [
        {**good, "type": "replays"},
        {**good, "extra": 1},
        {**good, "position": {**good["position"], "avoided": "false"}},
        {**good, "position": {**good["position"], "unseen": []}},                   # dungeon and unseen
        {**good, "position": {**good["position"], "room": ["5X"]}},
        {**good, "position": {**good["position"], "heroes": [{"health": "20"}]}},
    ]
    for obj in bad:
        with pytest.raises(jsonschema.ValidationError):
            VALIDATOR.validate(obj)


# ------------------------------------------------------------------ commands
@pytest.mark.parametrize("args", [
    ["--deck", SMALL],
    ["solve", "--deck", SMALL, "--flee", "hard"],
    ["--deck", "KS QS JS TS 2D"],
    ["--deck", SEVEN, "--max-nodes", "3"],
    ["--mode", "coop", "--deck", COOP],
    ["solve", "--mode", "coop", "--deck-size", "54", "--deck", "JK 6H 4S KH QS 2D JK"],
])
def test_solve(args):
    out = check(run_json(*args, "--json"))
    assert out["type"] == "solve" and out["seed"] is None and "position" not in out


def test_solve_of_a_numbered_deal_names_its_seed():
    assert check(run_json("deal", "--seed", "42", "--json"))["seed"] == 42


@pytest.mark.parametrize("args", [
    ["--seed", "42"], ["--seed", "42", "--flee", "easy"], ["--deck", SMALL],
    ["--seed", "7", "--mode", "coop"], ["--seed", "7", "--mode", "coop", "--deck-size", "54"],
])
def test_deal(args):
    check(run_json("deal", *args, "--json"))


@pytest.mark.parametrize("args, line", [
    (["--deck", SMALL], ""),
    (["--deck", SMALL], "5D 3S"),
    (["--deck", SMALL], "5D 3S 9C | 4H 2D 7S"),          # won
    (["--deck", "KS QS JS TS 2D"], "KS QS"),               # lost: health below 1
    (["--deck", SEVEN], "avoid"),
    (["--seed", "42", "--flee", "easy"], "avoid | avoid"),
    (["--mode", "coop", "--deck", COOP_LONG], "TD> 6H"),
    (["--mode", "coop", "--deck", COOP], "TD KH 6H | QS> 2D 4S"),
])
def test_replay(args, line):
    out = check(run_json("replay", *args, "--line", line, "--json"))
    check(out["position"], "position")
    check(out["position"], "position_input")


@pytest.mark.parametrize("args", [
    ["--deck", SMALL],
    ["--deck", SEVEN, "--moves", "5D 3S"],
    ["--deck", SEVEN, "--max-nodes", "2"],
    ["--seed", "42", "--moves", "avoid"],
    ["--mode", "coop", "--deck", COOP_LONG, "--moves", "TD>"],
    ["--flee", "easy", "--deck", "4C 6S TC 7D 6H JC 5S 9C 8D KC", "--time", "0"],   # a tie by rooms
])
def test_hint_exact(args):
    out = check(run_json("hint", *args, "--json"))
    assert out["kind"] == "exact" and "dungeon" in out["position"]


@pytest.mark.parametrize("args", [
    ["--deck", SEVEN, "--table"],
    ["--deck", SEVEN, "--moves", "avoid", "--table"],
    ["--seed", "42", "--moves", "avoid", "--table", "--samples", "3"],
    ["--mode", "coop", "--deck", COOP_LONG, "--moves", "TD>", "--table"],
])
def test_hint_table_of_a_deal(args):
    out = check(run_json("hint", *args, "--json"))
    assert out["kind"] == "belief" and out["clairvoyant"] in ("enumerated", "sampled") and "unseen" in out["position"]


@pytest.mark.parametrize("args", [
    ["--room", "3C QC 8D KC", "--health", "6", "--weapon", "7D", "--last-kill", "12",
     "--gone", "5D 3H 7C 4H 9H AC QS 2C", "--samples", "3"],
    ["--room", "5D 3S 4H 9C", "--unseen", "2D 7S 6H 8S", "--durability", "lenient"],
    ["--mode", "coop", "--room", "5S 9D 2H KH", "--health", "14,18", "--weapon", "none,4D",
     "--last-kill", "-,3", "--leader", "2", "--unseen", "6S 7H QC"],
])
def test_hint_real_table(args):
    check(run_json("hint", *args, "--json"))


@pytest.mark.parametrize("source", [
    ["replay", "--deck", SEVEN, "--line", "5D"],
    ["replay", "--mode", "coop", "--deck", COOP_LONG, "--line", "TD> 6H"],
    ["hint", "--deck", SEVEN, "--moves", "avoid", "--table"],
    ["hint", "--mode", "coop", "--room", "5S 9D 2H KH", "--unseen", "6S 7H QC", "--leader", "2"],
])
def test_hint_position(source, tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(run_json(*source, "--json")["position"]))
    check(run_json("hint", "--position", str(path), "--json"))


@pytest.mark.parametrize("args", [
    ["--deck", SMALL], ["--deck", "KS QS JS TS 2D"], ["--mode", "coop", "--deck", COOP],
])
def test_rate(args):
    check(run_json("rate", *args, "--json"))


@pytest.mark.parametrize("args", [["--date", "2026-03-14"], ["--date", "2027-03-14", "--reveal"]])
def test_daily(args):
    check(run_json("daily", *args, "--json"))


def _slow_enabled(config) -> bool:
    expr = config.getoption("-m") or ""
    return os.environ.get("SCOUNDREL_SLOW", "") not in ("", "0") or "slow" in expr.replace("not slow", "")


@pytest.mark.slow
def test_daily_coop(request):
    if not _slow_enabled(request.config):
        pytest.skip("slow (a co-op daily solves whole 52-card deals): run with `pytest -m slow`")
    check(run_json("daily", "--date", "2026-03-14", "--mode", "coop", "--json"))


def test_stats_summary_and_results_file_lines(tmp_path):
    out = tmp_path / "solo.jsonl"
    summary = check(run_json("stats", "--seeds", "1-3", "--out", str(out), "-q", "--json"))
    assert summary["seeds"]["requested"] == 3
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    assert len(lines) == 3
    for line in lines:
        check(line, "stats_result")
    check(run_json("stats", "--summary", str(out), "--json"))
    # a limit leaves a deal unproven: listed under not_exact
    limited = tmp_path / "limited.jsonl"
    summary = check(run_json("stats", "--seeds", "4-5", "--max-nodes", "10", "--out", str(limited), "-q", "--json"))
    assert summary["not_exact"]
    for text in limited.read_text().splitlines():
        check(json.loads(text), "stats_result")


def test_stats_coop_win_only(tmp_path):
    out = tmp_path / "coop.jsonl"
    check(run_json("stats", "--seeds", "1", "--mode", "coop", "--deck-size", "50", "--win-only", "--out", str(out),
                   "-q", "--json"))
    for text in out.read_text().splitlines():
        line = check(json.loads(text), "stats_result")
        assert line["question"] == "win" and line["score"] is None


def test_the_results_files_we_keep_are_stats_result_lines():
    """The results of benchmarks/results/stats (written before the schema) are described by it."""
    files = sorted((ROOT / "benchmarks" / "results" / "stats").glob("*.jsonl.gz"))
    if not files:
        pytest.skip("no results files in this checkout")
    for path in files:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for _, text in zip(range(50), f):
                check(json.loads(text), "stats_result")


def test_generate_lines(tmp_path):
    out = tmp_path / "deals.jsonl"
    invoke(["generate", "--count", "2", "--out", str(out), "-q"])
    lines = [json.loads(t) for t in out.read_text().splitlines()]
    assert len(lines) == 2
    for line in lines:
        check(line, "catalogue_entry")


# -------------------------------------------------------------------- errors
@pytest.mark.parametrize("args, status", [
    (["--pretty", "--json"], 2),                                        # neither --seed nor --deck
    (["--deck", "5D 5D", "--json"], 2),                               # the library's InputError
    (["--seed", "1", "--mode", "duo", "--json"], 2),                  # click: a bad choice
    (["--sed", "1", "--json"], 2),                                    # click: an unknown option, before parsing ends
    (["bogus", "--json"], 2),                                         # click: an unknown command
    (["replay", "--seed", "42", "--line", "KCw", "--json"], 2),       # an illegal move
    (["hint", "--room", "3C QC 8D KC", "--health", "25", "--json"], 2),
    (["hint", "--mode", "coop", "--room", "3C QC 8D KC", "--health", "x", "--json"], 2),
    (["rate", "--deck", "QH", "--json"], 2),
    (["daily", "--date", "2026-02-30", "--json"], 2),
    (["stats", "--seeds", "5-1", "--json"], 2),
    (["stats", "--summary", "/nonexistent/x.jsonl", "--json"], 2),
])
def test_errors_with_json_are_one_json_line_on_stdout(args, status):
    result = invoke(args, status)
    assert result.stderr == ""
    assert result.stdout.count("\n") == 1
    out = check(json.loads(result.stdout))
    assert out["type"] == "error" and out["status"] == status
    # the same message as the text form, without the "error: " in front
    text = invoke([a for a in args if a != "--json"], status)
    assert text.stdout == "" and text.stderr == f"error: {out['error']}\n"


def test_error_json_after_double_dash_is_not_a_flag():
    """``--`` ends the options: a later ``--json`` is an argument, not the flag."""
    result = invoke(["deal", "--", "--json"], 2)
    assert result.stdout == "" and result.stderr.startswith("error: ")


# ------------------------------------------------------------------- library
def test_library_dicts_are_the_printed_objects():
    rules = Rules()
    deck = parse_cards(SEVEN)
    check(solve(deck=deck, rules=rules).as_dict())
    r = solve(deck=deck, rules=rules, shortest=True, line_budget="proof")      # as the main job asks
    check(r.as_dict())
    printed = run_json("--deck", SEVEN, "--json")
    # (the library solves on one thread unless told, the CLI on the cores)
    skip = {"nodes", "line_nodes", "seconds", "nodes_per_second", "tt", "threads"}
    assert {k: v for k, v in r.as_dict().items() if k not in skip} == \
        {k: v for k, v in printed.items() if k not in skip}
    from scoundrel_solver.cli.scoundrel.options import default_threads
    assert r.as_dict()["threads"] == 1 and printed["threads"] == default_threads()
    assert solve(seed=42).as_dict()["seed"] == 42
    # a search from a position has no deck: its position is given instead
    state = State.new(deck, rules).play(AVOID)
    from_state = check(solve(state=state).as_dict())
    assert from_state["deck"] == [] and from_state["position"] == state.as_dict()
    hint = exact_hint(state)
    lib = check(hint.as_dict())
    cli = run_json("hint", "--deck", SEVEN, "--moves", "avoid", "--json")
    skip = {"nodes", "solves", "seconds", "seed", "moves"}
    assert {k: v for k, v in lib.items() if k not in skip} == {k: v for k, v in cli.items() if k not in skip}


def test_positions_of_the_library():
    rules = Rules(mode="coop")
    start = State.new(tuple(parse_cards(COOP_LONG)), rules)
    for state in (start, start.play(start.legal_actions()[3])):
        check(state.as_dict(), "position")
    pos = make_table_position(rules, parse_cards("5S 9D 2H KH"), health=(14, 18), weapon=("none", "4D"),
                              last_kill=("-", 3), leader=2, unseen=parse_cards("6S 7H QC"))
    check(pos.as_dict(), "position")
    check(table_hint(pos, samples=3).as_dict())
    check(TablePosition.from_state(State.new(deal(42), Rules()), 0).as_dict(), "position")


def test_a_table_hint_whose_searches_all_stopped_prints_null_not_nan():
    """Every order stopped by the node limit before a line: no mean score.  It is
    null (NaN is not JSON, and json.loads would let it through the schema)."""
    from scoundrel_solver.cli.output import json_text
    from scoundrel_solver.scoundrel.valuer import SolveCache
    pos = make_table_position(Rules(), parse_cards("3C QC 8D KC"))
    hint = table_hint(pos, samples=2, max_nodes=1, engine="reference", cache=SolveCache())
    out = check(hint.as_dict())
    first = out["actions"][0]
    assert first["clairvoyant_mean_score"] is None and first["clairvoyant_mean_ci95"] == [None, None]
    # the belief search cannot prove a leaf either: no achievable figure is claimed
    assert out["achievable"] == "none" and first["win_chance"] is None and first["mean_score"] is None
    assert json.loads(json_text(out)) == out
