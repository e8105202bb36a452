"""The Bottle Imp's endpoints of the HTTP service (solver/web/bottleimp.py, docs/service.md)
on a real uvicorn server on loopback: each answer is the one ``scoundrel-solve imp ... --json``
prints for the same input and validates against the shipped schema; bad input is 400 with the
CLI's one line; a Lopaka and a Glitzerhaus round are played to the end through /api/imp/game
and their scores are those of ``imp replay`` of the same line.
"""
import json

import pytest

httpx = pytest.importorskip("httpx", reason="the test extra installs httpx")
jsonschema = pytest.importorskip("jsonschema")
pytest.importorskip("starlette", reason="the test extra installs starlette")
pytest.importorskip("uvicorn", reason="the test extra installs uvicorn")

from click.testing import CliRunner  # noqa: E402
from clitools import without  # noqa: E402

from scoundrel_solver import schema  # noqa: E402
from scoundrel_solver.cli.main import cli  # noqa: E402
from scoundrel_solver.web.local import LocalServer  # noqa: E402

VALIDATOR = jsonschema.Draft202012Validator(schema())
VARY = {"seconds", "nodes", "time"}
LATE = "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8"
ROUND_42 = LATE + " | 33 11 14 | 35 16 27 | 36 6 15 | 10 13 5 | 3 4 1"


@pytest.fixture(scope="module")
def client():
    with LocalServer(["--workers", "1", "--max-budget", "20"]) as server:
        with httpx.Client(base_url=server.url, timeout=90) as c:
            yield c


def checked(response, status=200) -> dict:
    assert "Traceback" not in response.text
    obj = response.json()
    VALIDATOR.validate(obj)
    assert response.status_code == status, obj
    if obj["type"] == "error":
        assert obj["status"] == status and "\n" not in obj["error"]
    return obj


def cli_json(*argv) -> dict:
    result = CliRunner().invoke(cli, ["imp", *argv, "--json"], prog_name="scoundrel-solve")
    return json.loads(result.stdout)


def stable(obj):
    return without(obj, VARY)


def replay_line(variant, seed, line):
    """The line as imp replay reads it: a real first step, or none."""
    return cli_json("replay", "--variant", variant, "--seed", str(seed), "--line", line)


@pytest.mark.parametrize("path, params, argv", [
    ("/api/imp/deal", {"seed": "42"}, ["deal", "--seed", "42"]),
    ("/api/imp/deal", {"variant": "glitzerhaus", "seed": "0", "cards": "matagot"},
     ["deal", "--variant", "glitzerhaus", "--seed", "0", "--cards", "matagot"]),
    ("/api/imp/replay", {"seed": "42", "line": "pass 1 18 | 36 37 31"},
     ["replay", "--seed", "42", "--line", "pass 1 18 | 36 37 31"]),
    ("/api/imp/replay", {"variant": "glitzerhaus", "seed": "0", "line": "s1 3/17 33/6"},
     ["replay", "--variant", "glitzerhaus", "--seed", "0", "--line", "s1 3/17 33/6"]),
    ("/api/imp/solve", {"seed": "42", "moves": "pass 1 18 | 36"},
     ["solve", "--seed", "42", "--moves", "pass 1 18 | 36", "--timeout", "5"]),
    ("/api/imp/hint", {"seed": "42", "moves": LATE, "time": "10"},
     ["hint", "--seed", "42", "--moves", LATE, "--time", "10"]),
    ("/api/imp/explain", {"seed": "42", "moves": LATE, "card": "5", "time": "10"},
     ["hint", "--seed", "42", "--moves", LATE, "--explain", "5", "--time", "10"]),
    ("/api/imp/hint", {"seed": "42", "moves": LATE, "table": "true", "time": "10"},
     ["hint", "--table", "--seed", "42", "--moves", LATE, "--time", "10"]),
    ("/api/imp/hint", {"seed": "42", "table": "true", "seat": "B", "samples": "6"},
     ["hint", "--table", "--seed", "42", "--seat", "B", "--samples", "6"]),
    ("/api/imp/hint", {"variant": "glitzerhaus", "seed": "7", "moves": "s1 3/6 8/15 | s2 5/2 1/4", "table": "true",
                       "samples": "3", "opponent": "low-cards"},
     ["hint", "--table", "--variant", "glitzerhaus", "--seed", "7", "--moves", "s1 3/6 8/15 | s2 5/2 1/4",
      "--samples", "3", "--opponent", "low-cards"]),
    ("/api/imp/puzzle", {"tricks_left": "2", "seed": "3"}, ["puzzle", "--tricks-left", "2", "--seed", "3"]),
    ("/api/imp/daily", {"date": "2026-12-07", "reveal": "true"}, ["daily", "--date", "2026-12-07", "--reveal"]),
    ("/api/imp/game", {"seed": "42", "line": "pass 1 12", "move": "36"},
     ["play", "--seed", "42", "--moves", "pass 1 12", "--move", "36"]),
    ("/api/imp/match", {"seed": "42", "rounds": "3", "lines": ROUND_42},
     ["match", "--seed", "42", "--rounds", "3", "--lines", ROUND_42]),
    ("/api/imp/match", {"variant": "base", "players": "4", "seed": "9", "rounds": "5"},
     ["match", "--variant", "base", "--players", "4", "--seed", "9", "--rounds", "5"]),
    ("/api/imp/game", {"variant": "glitzerhaus", "seed": "0", "seat": "B", "bot": "random", "bot_seed": "3",
                       "move": "s1 33/6", "reveal": "true"},
     ["play", "--variant", "glitzerhaus", "--seed", "0", "--seat", "B", "--bot", "random", "--bot-seed", "3",
      "--move", "s1 33/6", "--reveal"]),
])
def test_answers_are_the_cli_answers(client, path, params, argv):
    got = checked(client.get(path, params=params))
    assert stable(got) == stable(cli_json(*argv))
    assert stable(checked(client.post(path, json=params))) == stable(got)


def test_the_table_hint_when_complete_is_the_cli_answer(client):
    got = checked(client.get("/api/imp/hint", params={"seed": "42", "moves": LATE, "table": "true", "time": "10"}))
    assert got["type"] == "imp-table-hint" and got["complete"]


@pytest.mark.parametrize("path, params, argv", [
    ("/api/imp/deal", {"seed": "XX"}, ["deal", "--seed", "XX"]),
    ("/api/imp/deal", {"variant": "bridge", "seed": "1"}, ["deal", "--variant", "bridge", "--seed", "1"]),
    ("/api/imp/replay", {"seed": "42", "line": "pass 1 99"}, ["replay", "--seed", "42", "--line", "pass 1 99"]),
    ("/api/imp/replay", {"seed": "42", "line": "pass 2 18"}, ["replay", "--seed", "42", "--line", "pass 2 18"]),
    ("/api/imp/hint", {"seed": "42", "moves": "pass 1 18", "explain": "99"},
     ["hint", "--seed", "42", "--moves", "pass 1 18", "--explain", "99"]),
    ("/api/imp/daily", {"variant": "base"}, ["daily", "--variant", "base"]),
    ("/api/imp/solve", {"variant": "base", "seed": "3"}, ["solve", "--variant", "base", "--seed", "3"]),
    ("/api/imp/game", {"seed": "42", "line": "pass 1 12", "move": "99"},
     ["play", "--seed", "42", "--moves", "pass 1 12", "--move", "99"]),
    ("/api/imp/game", {"seed": "42", "line": "pass 1 12", "move": "37"},
     ["play", "--seed", "42", "--moves", "pass 1 12", "--move", "37"]),
    ("/api/imp/game", {"seed": "42", "seat": "L"}, ["play", "--seed", "42", "--seat", "L"]),
    ("/api/imp/game", {"seed": "42", "bot": "oracle"}, ["play", "--seed", "42", "--bot", "oracle"]),
    ("/api/imp/match", {"seed": "42", "rounds": "0"}, ["match", "--seed", "42", "--rounds", "0"]),
    ("/api/imp/match", {"deal": "1 2", "rounds": "2"}, ["match", "--deal", "1 2", "--rounds", "2"]),
    ("/api/imp/match", {"seed": "42", "rounds": "1", "lines": ROUND_42 + " || " + ROUND_42},
     ["match", "--seed", "42", "--rounds", "1", "--lines", ROUND_42 + " || " + ROUND_42]),
    ("/api/imp/hint", {"variant": "glitzerhaus", "seed": "1", "table": "true", "samples": "2",
                       "opponent": "equilibrium"},
     ["hint", "--table", "--variant", "glitzerhaus", "--seed", "1", "--samples", "2", "--opponent", "equilibrium"]),
])
def test_bad_input_is_400_with_the_cli_line(client, path, params, argv):
    got = checked(client.get(path, params=params), 400)
    assert got["error"] == cli_json(*argv)["error"]


@pytest.mark.parametrize("path, body", [
    ("/api/imp/deal", {"seed": 42, "variant": ["lopaka"]}),
    ("/api/imp/game", {"seed": 42, "reveal": "maybe"}),
    ("/api/imp/game", {"seed": 42, "bot_seed": 1.5}),
    ("/api/imp/replay", {"seed": 42, "position": [1, 2]}),
    ("/api/imp/deal", {"seed": 42, "colour": "red"}),
])
def test_wrong_json_types_are_400(client, path, body):
    checked(client.post(path, json=body), 400)


def play_round(client, variant, seat, bot, choose):
    params = {"variant": variant, "seed": "7", "seat": seat, "bot": bot}
    g = checked(client.post("/api/imp/game", json=params))
    steps = 0
    while not g["finished"]:
        assert g["to_move"] and g["options"]
        assert g["position"] is None           # reveal=false: no hidden card leaks
        view = json.dumps(g["view"])
        move = choose(g)
        g = checked(client.post("/api/imp/game", json={**params, "line": g["line"], "move": move}))
        steps += 1
        assert view
    want = replay_line(variant, 7, g["line"])["position"]
    assert want["finished"] and g["scores"] == want["scores"] and g["value"] == want["value"]
    assert g["position"] == want
    return steps


def _lowest(g):
    task = g["task"]
    o = g["options"]
    if task == "pass":
        return f"pass {o[0]}"
    if task in ("s1", "s2"):
        return f"{task} {o[1]}/{o[0]}"
    if task == "open":
        return "open 2"
    return str(o[-1])


def test_a_lopaka_round_through_the_api(client):
    assert play_round(client, "lopaka", "B", "greedy", _lowest) >= 11


def test_a_glitzerhaus_round_through_the_api(client):
    assert play_round(client, "glitzerhaus", "A", "lopaka-rule", _lowest) >= 3 + 16


def test_the_game_shows_only_the_seats_view(client):
    g = checked(client.get("/api/imp/game", params={"seed": "42", "seat": "A"}))
    assert g["view"]["type"] == "imp-setup-view" and "L" not in json.dumps(g["view"].get("hand"))
    dealt = cli_json("deal", "--seed", "42")["deal"]
    assert sorted(g["view"]["hand"]) == sorted(dealt["A"]) and g["position"] is None
    g = checked(client.get("/api/imp/game", params={"seed": "42", "seat": "A", "move": "pass 1"}))
    view = g["view"]
    assert set(view["hands"]) == {"A", "L"} and view["opponent_hand"]["known"] == [1]
    glitz = checked(client.get("/api/imp/game", params={"variant": "glitzerhaus", "seed": "0", "seat": "A",
                                                         "move": "s1 5/3"}))
    assert "?" in glitz["seen_line"] and glitz["move"].startswith("s1 5/3 ?/")
    assert glitz["view"]["stacks"]["2"] is not None
    first = checked(client.get("/api/imp/game", params={"variant": "glitzerhaus", "seed": "0"}))
    assert first["view"]["stacks"]["2"] is None


def test_a_daily_game_starts_at_the_puzzle(client):
    daily = checked(client.get("/api/imp/daily", params={"date": "2026-12-07"}))
    g = checked(client.get("/api/imp/game", params={"date": "2026-12-07"}))
    assert g["seed"] == daily["seed"] and g["line"].startswith(daily["line"]) and g["seat"] == daily["to_play"]
