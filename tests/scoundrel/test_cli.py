"""The ``scoundrel-solve`` command: output contracts, bad input, and the main job.

Searches run on the pure-Python reference (SCOUNDREL_PURE=1) over small custom
dungeons, so the whole file stays fast and does not need the compiled core.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import scoundrel_solver.scoundrel.search
from clitools import invoke
from scoundrel_solver import CoreMissingError

SOLO_42 = ("4H 3H 5C 5D 5S TS 8S 7H 2D KC 7D 7C 3D TD 2S 5H 4C 6S 8H AC 3S 4D 2H 9H TH 9C KS 9S 9D "
           "6H TC 8C 6C 6D 7S 3C 8D AS 4S QC QS 2C JS JC")
SOLO_0 = ("TC 4H 9H 5D AS AC 8D 7S 3S 7D 9D 2C 6H KS 2D 8C TD 2H 8H 3C TH 4C 3D 4D JC 6C 4S QS QC 6D "
          "9C JS 2S 5S 7C 6S 9S 5H 5C 7H TS 8S KC 3H")
COOP_52_42 = ("8C 4H AC 2S 3S 2C 2H AD JD 6C 9S QH 3H 5S 7H 6D 3D 6S 7D 2D 8D 3C 9H 9C 5D 8H AS JS 5H "
              "4D JH QS 5C 7S 8S 4S 9D KD TS AH 6H 7C KS TD QD KC 4C TH KH TC QC JC")
COOP_54_42 = ("5D 5S AC 9S 6S AH 9H 4S 9D 5C JD 3D 9C 8C 6C QS 3S 7H JK 7C AS KD KS TH 8S 6H 3H 3C QD "
              "4C 2H TD 4H 7D TS KH 7S JK 6D QH JC TC 8H JH 5H KC JS 2D AD 2C 2S QC 4D 8D")

ROOT = Path(__file__).resolve().parents[2]
SMALL = "5D 3S 4H 9C 2D 7S"  # solo, optimal 18: 5D 9Cw 4H | 7Sw 3Sw 2D




def run(*args, code=0):
    return invoke(args, code)


@pytest.fixture
def pure(monkeypatch):
    """Force the pure-Python reference solver."""
    pytest.importorskip("scoundrel_solver.scoundrel.reference")
    monkeypatch.setenv("SCOUNDREL_PURE", "1")


# --------------------------------------------------------------------- deal
@pytest.mark.parametrize("args, expected", [
    (["--seed", "42"], SOLO_42),
    (["--seed", "0"], SOLO_0),
    (["--seed", "42", "--mode", "coop"], COOP_52_42),
    (["--seed", "42", "--mode", "coop", "--deck-size", "54"], COOP_54_42),
])
def test_deal_json_matches_rules_test_vectors(args, expected):
    out = json.loads(run("deal", *args, "--json").stdout)
    assert out["deck"] == expected.split()
    assert out["seed"] == int(args[1])
    assert out["rules"]["mode"] == (args[3] if len(args) > 2 else "solo")


def test_deal_text_is_one_line_of_tokens():
    assert run("deal", "--seed", "42").stdout == SOLO_42 + "\n"


def test_deal_pretty_prints_tens_and_suit_symbols():
    assert run("deal", "--seed", "42", "--pretty").stdout.split()[:6] == ["4♥", "3♥", "5♣", "5♦", "5♠", "10♠"]


def test_deal_50_cards_has_no_red_aces():
    out = json.loads(run("deal", "--seed", "42", "--mode", "coop", "--deck-size", "50", "--json").stdout)
    assert len(out["deck"]) == 50 == out["size"]
    assert "AH" not in out["deck"] and "AD" not in out["deck"]
    assert out["rules"] == {"mode": "coop", "durability": "lenient", "deck_size": 50}


def test_deal_deck_normalises_a_custom_dungeon():
    assert run("deal", "--deck", "10♦, qs 2h").stdout == "TD QS 2H\n"


# ------------------------------------------------------------------- replay
def test_replay_short_line_gives_the_position():
    out = json.loads(run("replay", "--seed", "42", "--line", "5D 5C 4H", "--json").stdout)
    assert out["line"] == "5D 5Cw 4H"
    pos = out["position"]
    assert (pos["finished"], pos["won"], pos["score"]) == (False, None, None)
    assert pos["room"] == ["3H", "5S", "TS", "8S"] and pos["room_number"] == 2
    assert pos["heroes"] == [{"health": 20, "weapon": "5D", "last_kill": 5, "potion_used": False}]
    assert pos["dungeon_left"] == 37 and pos["dungeon"] == SOLO_42.split()[7:]
    assert out["deck"] == SOLO_42.split()


def test_replay_text_shows_room_and_hero():
    text = run("replay", "--seed", "42", "--line", "5D 5C 4H").stdout
    assert "Line: 5D 5Cw 4H" in text
    assert "Room 2: 3H 5S TS 8S" in text
    assert "health 20, weapon 5 (last kill 5)" in text


def test_replay_full_custom_deck_gives_the_final_score():
    out = json.loads(run("replay", "--deck", SMALL, "--line", "5D 3S 9C | 4H 2D 7S", "--json").stdout)
    assert out["line"] == "5D 3Sw 9Cb | 4H 2D 7Sw"
    pos = out["position"]
    assert (pos["finished"], pos["won"], pos["score"]) == (True, True, 10)


def test_replay_steps_tells_each_take_in_words():
    text = run("replay", "--deck", SMALL, "--line", "5D 3S 9C | 4H 2D 7S", "--steps").stdout
    for phrase in ["Room 1: 5D 3S 4H 9C", "take 5D (equip weapon 5)", "fight 3S with weapon 5 (−0 → 20)",
                   "fight 9C bare-handed (−9 → 11)", "Final room 2: 4H 2D 7S", "drink 4H (+4 → 15)",
                   "take 2D (equip weapon 2, discarding weapon 5)", "WON, score 10"]:
        assert phrase in text


def test_replay_loss_scores_health_minus_monsters_left():
    pos = json.loads(run("replay", "--deck", "KS QS JS TS 2D", "--line", "KS QS", "--json").stdout)["position"]
    assert (pos["finished"], pos["won"], pos["score"]) == (True, False, -5 - 21)


def test_replay_coop_help_card_and_leader():
    out = json.loads(run("replay", "--seed", "42", "--mode", "coop", "--line", "8C> 4H AC", "--json").stdout)
    assert out["line"] == "8Cb> 4H ACb"
    assert out["position"]["leader"] == 2
    assert [h["health"] for h in out["position"]["heroes"]] == [6, 12]
    text = run("replay", "--seed", "42", "--mode", "coop", "--line", "8C> 4H AC", "--steps").stdout
    assert "Room 1, hero 1 leads: 8C 4H AC 2S" in text
    assert "give 8C to hero 2, who fights it bare-handed (−8 → 12)" in text


# ---------------------------------------------------------------- bad input
BAD_INPUT = {
    "unknown card": ["--deck", "XX 5D"],
    "unknown card in deal": ["deal", "--deck", "5D 1S"],
    "duplicate card": ["--deck", "5D 5D"],
    "red face card in solo": ["--deck", "QH 5D"],
    "three jokers": ["deal", "--mode", "coop", "--deck", "JK JK JK"],
    "empty deck": ["--deck", ""],
    "negative seed": ["--seed", "-1"],
    "seed too large": ["deal", "--seed", str(2 ** 64)],
    "seed not a number": ["--seed", "forty-two"],
    "unknown mode": ["--seed", "1", "--mode", "duo"],
    "unknown flee": ["deal", "--seed", "1", "--flee", "sometimes"],
    "unknown durability": ["--seed", "1", "--durability", "soft"],
    "unknown deck size": ["deal", "--seed", "1", "--mode", "coop", "--deck-size", "53"],
    "both seed and deck": ["--seed", "1", "--deck", "5D"],
    "neither seed nor deck": ["--pretty"],
    "neither in a command": ["deal"],
    "unknown option": ["--sed", "1"],
    "unknown command": ["bogus"],
    "bad limit": ["--seed", "1", "--max-nodes", "0"],
    "group option before command": ["--seed", "1", "deal"],
    "illegal move": ["replay", "--seed", "42", "--line", "KCw"],
    "weapon mode without weapon": ["replay", "--seed", "42", "--line", "5Cw"],
    "move after room end": ["replay", "--seed", "42", "--line", "5D 5C 4H 3H"],
    "room not complete": ["replay", "--seed", "42", "--line", "5D 5C | 4H"],
    "illegal avoid": ["replay", "--seed", "42", "--line", "avoid | avoid"],
    "help card in solo": ["replay", "--seed", "42", "--line", "4H> 3H"],
    "move after the game ended": ["replay", "--deck", "5D 3S", "--line", "5D 3S 4H"],
    "bad notation": ["replay", "--seed", "42", "--line", "5Dw"],
    "avoid with takes": ["replay", "--seed", "42", "--line", "avoid 5D"],
    "empty room": ["replay", "--seed", "42", "--line", "5D 5C 4H | | 3H"],
}


@pytest.mark.parametrize("args", BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_is_one_line_and_exit_2(args):
    result = run(*args, code=2)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args, words", [
    (["--deck", "5D 5D"], "duplicate card 5D"),
    (["replay", "--seed", "42", "--line", "KCw"], "KCw is illegal in room 1 (4H 3H 5C 5D): KC is not in the room"),
    (["replay", "--seed", "42", "--line", "5D 5S"], "5S is illegal in room 1"),
    (["--seed", "-1"], "bad seed '-1'"),
    (["--seed", "1", "deal"], "after the command name"),
])
def test_bad_input_message_names_the_problem(args, words):
    assert words in run(*args, code=2).stderr


# --------------------------------------------------------------------- help
def test_no_arguments_prints_help():
    result = run()
    assert "Usage:" in result.stdout and "Examples:" in result.stdout


@pytest.mark.parametrize("command", [[], ["solve"], ["deal"], ["replay"]])
def test_help_shows_examples_and_rule_flags(command):
    text = run(*command, "--help").stdout
    assert "Examples:" in text
    for flag in ["--seed", "--deck", "--mode", "--flee", "--durability", "--deck-size"]:
        assert flag in text


# ----------------------------------------------------------------- main job
def test_main_job_text_prints_deal_verdict_rooms_and_statistics(pure):
    text = run("--deck", SMALL).stdout
    assert "Dungeon (top first): 5D 3S 4H 9C 2D 7S" in text
    assert "WIN, proven optimal score 18" in text
    assert "Room 1: 5D 3S 4H 9C" in text and "Final room 2:" in text
    assert "WON, score 18" in text
    assert "nodes" in text and "engine reference" in text


def test_solve_command_equals_main_job(pure):
    main_job = json.loads(run("--deck", SMALL, "--json").stdout)
    command = json.loads(run("solve", "--deck", SMALL, "--json").stdout)
    for key in ["deck", "rules", "won", "score", "exact", "line"]:
        assert main_job[key] == command[key]


def test_main_job_json_keys(pure):
    out = json.loads(run("--deck", SMALL, "--json").stdout)
    assert {"deck", "rules", "won", "score", "exact", "line", "nodes", "seconds", "seed"} <= set(out)
    assert out["deck"] == SMALL.split() and out["seed"] is None
    assert (out["won"], out["score"], out["exact"]) == (True, 18, True)
    assert out["rules"] == {"mode": "solo", "flee": "classic", "durability": "strict"}


@pytest.mark.parametrize("args", [
    ["--deck", SMALL],
    ["--deck", SMALL, "--flee", "hard", "--durability", "lenient"],
    ["--deck", "KS QS JS TS 2D"],  # lost whatever you do
    ["--deck", "5H 9H"],  # the last potion at full health scores its value on top
    ["--mode", "coop", "--deck", "TD 6H 4S KH QS 2D"],
])
def test_main_job_line_replays_to_the_same_score(pure, args):
    solved = json.loads(run(*args, "--json").stdout)
    assert solved["exact"]
    replayed = json.loads(run("replay", *args, "--line", solved["line"], "--json").stdout)
    end = replayed["position"]
    assert end["finished"] and end["score"] == solved["score"]
    assert end["won"] == solved["won"] and replayed["line"] == solved["line"]


def test_main_job_text_line_replays(pure):
    text = run("--deck", SMALL).stdout
    line = next(t for t in text.splitlines() if t.startswith("Line: "))[len("Line: "):]
    out = json.loads(run("replay", "--deck", SMALL, "--line", line, "--json").stdout)
    assert out["position"]["score"] == 18


def test_main_job_proven_loss(pure):
    text = run("--deck", "KS QS JS TS 2D").stdout
    assert "LOSS, proven" in text and "LOST, score" in text


def test_main_job_node_limit_is_not_proven(pure):
    result = run("--deck", SMALL, "--max-nodes", "3")
    assert "NOT PROVEN: node limit reached" in result.stdout
    out = json.loads(run("--deck", SMALL, "--max-nodes", "3", "--json").stdout)
    assert out["exact"] is False and out["limit"] == "nodes"


def test_missing_core_is_one_line_and_exit_3(monkeypatch):
    monkeypatch.delenv("SCOUNDREL_PURE", raising=False)

    def missing():
        raise CoreMissingError("the compiled search core (scoundrel_solver.scoundrel._core) is missing")

    monkeypatch.setattr(scoundrel_solver.scoundrel.search, "load_core", missing)
    result = run("--deck", SMALL, code=3)
    assert result.stderr == "error: the compiled search core (scoundrel_solver.scoundrel._core) is missing\n"
    assert "Traceback" not in result.stderr
    # with --json the same message is one JSON line on stdout (docs/json.md)
    result = run("--deck", SMALL, "--json", code=3)
    assert (result.stdout, result.stderr) == (json.dumps({"type": "error", "error": "the compiled search core "
                                                          "(scoundrel_solver.scoundrel._core) is missing", "status": 3}) + "\n", "")


def test_console_entry_point_runs_without_traceback():
    """``python -m scoundrel_solver`` goes through main(), as the installed script does."""
    ok = subprocess.run([sys.executable, "-m", "scoundrel_solver", "deal", "--seed", "42"],
                        capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert (ok.returncode, ok.stdout) == (0, SOLO_42 + "\n")
    bad = subprocess.run([sys.executable, "-m", "scoundrel_solver", "deal", "--deck", "5D 5D"],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert (bad.returncode, bad.stderr) == (2, "error: duplicate card 5D\n")


@pytest.mark.parametrize("args, note", [
    (["deal", "--seed", "1", "--mode", "coop", "--flee", "easy", "--json"], "--flee applies to solo only"),
    (["deal", "--seed", "1", "--deck-size", "54", "--json"], "--deck-size applies to co-op only"),
])
def test_option_of_the_other_mode_is_ignored_with_a_note(args, note):
    result = run(*args)
    assert note in result.stderr
    plain = run(*[a for a in args if a not in ("--flee", "easy", "--deck-size", "54")])
    assert json.loads(result.stdout)["deck"] == json.loads(plain.stdout)["deck"]


@pytest.mark.parametrize("json_flag", [(), ("--json",)], ids=["text", "json"])
def test_ctrl_c_in_a_long_solve_is_one_line(json_flag):
    """Ctrl-C during a solve: exit 130 and one line, no blank line from click before it."""
    import signal
    import time
    env = {k: v for k, v in os.environ.items() if k != "SCOUNDREL_PURE"}
    proc = subprocess.Popen([sys.executable, "-m", "scoundrel_solver", "--seed", "7", "--mode", "coop",
                             "--deck-size", "54", "--durability", "strict", *json_flag],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.5)   # start-up and the first seconds of a solve that takes minutes
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    if json_flag:
        assert err == b"" and json.loads(out) == {"type": "error", "error": "interrupted", "status": 130}
    else:
        assert err == b"error: interrupted\n"
        assert b"Traceback" not in out
