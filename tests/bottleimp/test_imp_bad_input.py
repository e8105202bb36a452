"""The bad-input battery of the ``imp`` commands: every kind of bad input, one error line.

Each case must fail as docs promise: exit status 2, exactly one line ``error: ...`` on
stderr and nothing on stdout; with ``--json`` the one line is instead
``{"type": "error", ...}`` on stdout and stderr stays empty.  Never a traceback, never a
result.  ``says``: a word the message must contain (the option, card or rule it is about).
"""
import json
import os
import subprocess
import sys

import pytest

from clitools import one_error_line
from imp_games import runner
from scoundrel_solver.cli.main import cli

CASES = []


def case(name, *args, says=None, stdin=None, sub=False):
    CASES.append(pytest.param(tuple(args), says, stdin, sub, id=name))


DEAL42 = ("--seed", "42")
COMMANDS = {"deal": ("imp", "deal"), "replay": ("imp", "replay", "--line", ""), "play": ("imp", "play")}
FULL = " ".join(str(c) for c in range(1, 38) if c != 19)       # the 36 cards in one list
LOPAKA_BLOCKS = "1 2 3 4 5 6 7 8 9 10 11 / 12 13 14 15 16 17 18 20 21 22 23 / 24 25 26 27 28 29 30 31 32 33 34 / 35 36 37"

# -------------------------------------------------- options out of range
for cmd, base in COMMANDS.items():
    stdin = "quit\n" if cmd == "play" else None
    for value in ["bridge", "", "LOPAKA", "lopaka2", "base3"]:
        case(f"{cmd}-variant-{value or 'empty'}", *base, *DEAL42, "--variant", value, says="--variant", stdin=stdin)
    for value in ["2", "5", "0", "-1", "3.0", "abc", ""]:
        case(f"{cmd}-players-{value or 'empty'}", *base, *DEAL42, "--variant", "base", "--players", value,
             says="--players", stdin=stdin)
    for variant in ["lopaka", "glitzerhaus"]:
        case(f"{cmd}-players-with-{variant}", *base, *DEAL42, "--variant", variant, "--players", "3",
             says="player", stdin=stdin)
    for value in ["bambus", "", "Classic"]:
        case(f"{cmd}-cards-{value or 'empty'}", *base, *DEAL42, "--cards", value, says="--cards", stdin=stdin)
    for value in ["-1", str(2 ** 64), str(10 ** 30), "abc", "1.5", "", "1_000", "+5", "\u0663", "9" * 5000, " "]:
        case(f"{cmd}-seed-{value[:12].strip() or ('blank' if value else 'empty')}", *base, "--seed", value, says="seed", stdin=stdin)
    case(f"{cmd}-seed-and-deal", *base, *DEAL42, "--deal", FULL, says="--seed", stdin=stdin)
    case(f"{cmd}-neither-seed-nor-deal", *base, says="--seed", stdin=stdin)
    case(f"{cmd}-seed-missing-value", *base, "--seed", says="--seed", stdin=stdin)
    case(f"{cmd}-unknown-option", *base, *DEAL42, "--colour", "red", says="--colour", stdin=stdin)
    if cmd != "play":       # the game has no --json: that is its own case below
        case(f"{cmd}-json-bad-variant", *base, *DEAL42, "--variant", "bridge", "--json", says="--variant")
        case(f"{cmd}-json-bad-seed", *base, "--seed", "-1", "--json", says="seed")
        case(f"{cmd}-json-bad-players", *base, *DEAL42, "--variant", "base", "--players", "5", "--json",
             says="--players")
        case(f"{cmd}-json-bad-cards", *base, *DEAL42, "--cards", "x", "--json", says="--cards")
case("imp-unknown-command", "imp", "solver", *DEAL42, says="solver")
case("imp-unknown-command-json", "imp", "solver", *DEAL42, "--json", says="solver")
case("imp-options-before-command", "imp", "--seed", "1", "deal", says="--seed")

# ---------------------------------------------------------- --deal by hand
BAD_DEALS = {
    "empty": ("", "empty"),
    "blank": ("   ", "empty"),
    "only-slashes": (" / / / ", "block A has 0"),
    "card-19": (FULL.replace("18", "19"), "19"),
    "card-38": (FULL.replace("37", "38"), "1-37"),
    "card-0": (FULL.replace(" 1 ", " 0 ", 1) if " 1 " in FULL else "0 " + FULL[2:], "1-37"),
    "card-x": (FULL.replace("37", "x"), "bad card"),
    "card-wrong-letter": (FULL.replace("24", "24r"), "blue"),
    "duplicate": (FULL.replace("37", "36"), "twice"),
    "35-cards": (FULL.rsplit(" ", 1)[0], "36"),
    "37-cards": (FULL + " 1", "36"),
    "short-block": (LOPAKA_BLOCKS.replace("11 /", "/ 11"), "block A has 10"),
    "five-blocks": (LOPAKA_BLOCKS + " / 1", "blocks"),
    "three-blocks": (LOPAKA_BLOCKS.rsplit("/", 1)[0], "blocks"),
    "negative": (FULL.replace("37", "-37"), "bad card"),
    "float": (FULL.replace("37", "37.0"), "bad card"),
}
for name, (text, says) in BAD_DEALS.items():
    case(f"deal-by-hand-{name}", "imp", "deal", "--deal", text, says=says)
case("deal-by-hand-glitz-blocks", "imp", "deal", "--variant", "glitzerhaus", "--deal", LOPAKA_BLOCKS, says="block")
case("deal-by-hand-base4-blocks", "imp", "deal", "--variant", "base", "--players", "4", "--deal", LOPAKA_BLOCKS,
     says="block")
case("deal-by-hand-json", "imp", "deal", "--deal", FULL.replace("37", "36"), "--json", says="twice")
case("replay-deal-by-hand-bad", "imp", "replay", "--deal", FULL.replace("37", "38"), "--line", "", says="1-37")

# ------------------------------------------------------------ lines
L42 = ("imp", "replay", "--variant", "lopaka", *DEAL42, "--line")
G0 = ("imp", "replay", "--variant", "glitzerhaus", "--seed", "0", "--line")
B3 = ("imp", "replay", "--variant", "base", "--seed", "3", "--line")
B4 = ("imp", "replay", "--variant", "base", "--players", "4", "--seed", "3", "--line")
LINES = {
    # unknown cards
    "card-19": (L42, "pass 1 19", "19"),
    "card-38": (L42, "pass 1 18 | 38", "1-37"),
    "card-0": (L42, "pass 0 18", "1-37"),
    "card-x": (L42, "pass 1 18 | x", "bad card"),
    "card-letter": (L42, "pass 1 18 | 36y 37 31", "red"),
    "card-wrong-letter": (L42, "pass 1 18 | 36b", "red"),
    "card-unicode-digit": (L42, "pass 1 18 | \u0663", "bad card"),
    # cards not in that hand or stack
    "pass-not-in-a": (L42, "pass 17 18", "A passes 17"),
    "pass-not-in-b": (L42, "pass 1 1", "B passes 1"),
    "lead-not-in-hand": (L42, "pass 1 18 | 37", "not in A's hand"),
    "passed-card-gone": (L42, "pass 1 18 | 1", "not in A's hand"),
    "b-card-not-in-hand": (L42, "pass 1 18 | 36 37 35", "not in B's hand"),
    "glitz-discard-not-in-stack": (G0, "s1 1/17 33/6", "not in A's stack 1"),
    "glitz-b-pass-not-in-stack": (G0, "s1 3/17 33/36", "not in B's stack 1"),
    "glitz-open-card-not-there": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | open 2 1 | 5", "not in A's open stack"),
    "glitz-hidden-card-not-there": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | open 2 1 | 35 14 24", "hidden hand"),
    "base-pass-not-in-hand": (B3, "pass 1/2/3 3/5/9 1/2/7", "seat 1"),
    # following suit
    "not-following-b": (L42, "pass 1 18 | 36 37 12", "does not follow suit"),
    "not-following-a": (L42, "pass 1 18 | 36 37 31 | 32 13 35", "does not follow suit"),
    "glitz-not-following": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | open 2 1 | 35 15", "does not follow suit"),
    "glitz-hidden-not-following": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | open 2 1 | 35 14 5", "does not follow suit"),
    # Lopaka's rule
    "lopaka-not-his-rule": (L42, "pass 1 18 | 36 32 31", "Lopaka plays 37"),
    "lopaka-lead-not-his-rule": (L42, "pass 1 18 | 36 37 31 | 26", "Lopaka plays 32"),
    "lopaka-low-card": (L42, "pass 1 18 | 36 4", "Lopaka plays 37"),
    # setup out of order or repeated
    "lopaka-pass-twice": (L42, "pass 1 18 | pass 18 1", "setup is over"),
    "lopaka-play-before-pass": (L42, "36 37 31", "setup comes first"),
    "lopaka-pass-mid-game": (L42, "pass 1 18 | 36 | pass 3 4", "not complete"),
    "lopaka-pass-after-trick": (L42, "pass 1 18 | 36 37 31 | pass 3 4", "setup is over"),
    "lopaka-pass-form": (L42, "pass 1", "pass X Y"),
    "lopaka-glitz-step": (L42, "s1 1/2 3/4", "Glitzerhaus"),
    "lopaka-base-pass": (L42, "pass 1/2/3 4/5/6 7/8/9", "pass X Y"),
    "glitz-s2-first": (G0, "s2 1/28 36/37", "out of order"),
    "glitz-open-first": (G0, "open 1 2", "out of order"),
    "glitz-open-after-s1": (G0, "s1 3/17 33/6 | open 1 2", "out of order"),
    "glitz-s1-twice": (G0, "s1 3/17 33/6 | s1 5/9 4/2", "done already"),
    "glitz-s2-twice": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | s2 7/13 8/10", "done already"),
    "glitz-open-twice": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | open 2 1 | open 1 1", "setup is over"),
    "glitz-play-before-open": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | 35", "setup comes first"),
    "glitz-discard-is-pass": (G0, "s1 3/3 33/6", "both discard and pass"),
    "glitz-open-3": (G0, "s1 3/17 33/6 | s2 1/28 36/37 | open 3 1", "open SA SB"),
    "glitz-lopaka-pass": (G0, "pass 3 33", "Glitzerhaus's setup"),
    "base-pass-twice": (B3, "pass 4/6/15 3/5/9 1/2/7 | pass 4/6/15 3/5/9 1/2/7", "setup is over"),
    "base-pass-too-few": (B3, "pass 4/6/15 3/5/9", "L/R/D"),
    "base-pass-repeated-card": (B3, "pass 4/4/15 3/5/9 1/2/7", "three different"),
    "base4-pass-three": (B4, "pass 4/6/15 3/5/9 1/2/7", "L/R/D"),
    "base-play-before-pass": (B3, "4", "setup comes first"),
    # segments
    "trick-not-complete": (L42, "pass 1 18 | 36 37 | 31", "not complete"),
    "trick-too-long": (L42, "pass 1 18 | 36 37 31 32", "a trick has 3"),
    "empty-segment": (L42, "pass 1 18 || 36", "empty segment"),
    "trailing-bar": (L42, "pass 1 18 |", "empty segment"),
    "huge-line": (L42, "1 " * 60000, "characters"),
}
for name, (base, line, says) in LINES.items():
    case(f"line-{name}", *base, line, says=says)
for name in ("card-19", "lopaka-not-his-rule", "glitz-s2-first", "not-following-b", "trick-not-complete"):
    base, line, says = LINES[name]
    case(f"line-json-{name}", *base, line, "--json", says=says)
case("line-missing-value", *L42, says="--line")

# -------------------------------------------------------------- play
PLAY = ("imp", "play", *DEAL42)
for seat, says in [("L", "Lopaka is the dummy"), ("C", "--as"), ("1", "--as"), ("", "--as"), ("AB", "--as")]:
    case(f"play-as-{seat or 'empty'}", *PLAY, "--as", seat, says=says, stdin="quit\n")
for seat in ("0", "4", "A", "L"):
    case(f"play-base3-as-{seat}", "imp", "play", "--variant", "base", *DEAL42, "--as", seat, says="--as",
         stdin="quit\n")
case("play-glitz-as-L", "imp", "play", "--variant", "glitzerhaus", *DEAL42, "--as", "L", says="--as", stdin="quit\n")
for bot in ("smart", "", "Greedy", "engine"):
    case(f"play-bot-{bot or 'empty'}", *PLAY, "--bot", bot, says="--bot", stdin="quit\n")
for value in ("-1", str(2 ** 32), "abc", "1.5", "9" * 5000):
    case(f"play-bot-seed-{value[:10]}", *PLAY, "--bot-seed", value, says="--bot-seed", stdin="quit\n")
case("play-move-without-json", *PLAY, "--move", "1", says="--move", stdin="quit\n")   # --json plays one step; --move goes with it

# -------------------------------------------------------------- value
VALUE = ("imp", "value", *DEAL42)
GOOD_POSITION = json.dumps({"type": "imp-position", "variant": "lopaka", "cards": "classic",
                            "hands": {"A": [3, 24], "L": [12, 36], "B": [5, 33]}, "devil": [2, 17, 29], "price": 14,
                            "holder": "B", "won": {"A": [1, 4, 6, 7, 8, 9, 10, 11, 13, 15, 16, 18, 20, 21, 22],
                                                   "L": [23, 25, 26, 27, 28, 30], "B": [14, 31, 32, 34, 35, 37]},
                            "leader": "A", "trick": []})
case("value-too-big", *VALUE, "--line", "pass 1 18", says="33 cards")
case("value-too-big-json", *VALUE, "--line", "pass 1 18", "--json", says="reference")
case("value-setup", *VALUE, "--line", "", says="play-phase")
case("value-base-game", "imp", "value", "--variant", "base", *DEAL42, "--line", "", says="base game")
case("value-bad-line", *VALUE, "--line", "pass 1 18 | 36 32", says="Lopaka plays 37")
case("value-position-and-seed", *VALUE, "--position", "-", says="--position", stdin=GOOD_POSITION)
case("value-position-and-line", "imp", "value", "--position", "-", "--line", "3", says="--position",
     stdin=GOOD_POSITION)
case("value-position-missing-file", "imp", "value", "--position", "/no/such/file.json", says="file.json")
case("value-position-directory", "imp", "value", "--position", "/", says="--position")
case("value-position-endless", "imp", "value", "--position", "/dev/zero", says="more than 1,000,000 bytes")
case("table-view-endless", "imp", "hint", "--table", "/dev/zero", says="--table /dev/zero: more than 1,000,000")
case("table-view-missing-file", "imp", "hint", "--table", "/no/such/view.json", says="view.json")
for name, text, says in [("empty", "", "JSON"), ("not-json", "not json", "JSON"), ("list", "[]", "object"),
                         ("duplicate-key", '{"type": 1, "type": 2}', "twice"), ("deep", "[" * 100000, "deep"),
                         ("not-utf8", b"\xff\xfe".decode("latin-1"), None),
                         ("bad-price", GOOD_POSITION.replace('"price": 14', '"price": 13'), "price"),
                         ("card-19", GOOD_POSITION.replace("[3, 24]", "[19, 24]"), "19"),
                         ("lopaka-not-his-rule", GOOD_POSITION.replace('"trick": []', '"trick": [3, 36]').replace(
                             "[3, 24]", "[24]").replace("[12, 36]", "[12]"), "following"),
                         ("lopaka-lead-not-his-rule", GOOD_POSITION.replace('"trick": []', '"trick": [12]').replace(
                             '"leader": "A"', '"leader": "L"').replace("[3, 24]", "[3, 24]").replace(
                             "[12, 36]", "[36]").replace("[5, 33]", "[5, 33]"), None),
                         ("json-flag", GOOD_POSITION.replace('"price": 14', '"price": "14"'), "price")]:
    case(f"value-position-{name}", "imp", "value", "--position", "-", *(["--json"] if name == "json-flag" else []),
         says=says, stdin=text)

case("replay-position-and-seed", "imp", "replay", "--position", "-", *DEAL42, says="--position", stdin=GOOD_POSITION)
case("replay-position-and-deal", "imp", "replay", "--position", "-", "--deal", FULL, says="--position",
     stdin=GOOD_POSITION)
case("replay-position-bad-continuation", "imp", "replay", "--position", "-", "--line", "5", says="not in A's hand",
     stdin=GOOD_POSITION)
case("replay-position-lopaka-rule", "imp", "replay", "--position", "-", "--line", "3 36", says="Lopaka plays 12",
     stdin=GOOD_POSITION)
case("replay-position-answer-without-position", "imp", "replay", "--position", "-", says="position",
     stdin='{"type": "imp-replay"}')
case("replay-position-json-not-json", "imp", "replay", "--position", "-", "--json", says="JSON", stdin="{")
case("replay-position-setup-after-play", "imp", "replay", "--position", "-", "--line", "pass 1 2", says="setup is over",
     stdin=GOOD_POSITION)

# ------------------------------------------------------- solve and hint
SOLVE = ("imp", "solve", *DEAL42)
HINT = ("imp", "hint", *DEAL42)
for cmd, base in (("solve", SOLVE), ("hint", HINT)):
    case(f"{cmd}-bad-card", *base, "--moves", "pass 1 19", says="19")
    case(f"{cmd}-card-38", *base, "--moves", "pass 1 18 | 38", says="1-37")
    case(f"{cmd}-illegal-move", *base, "--moves", "pass 1 18 | 36 32", says="Lopaka plays 37")
    case(f"{cmd}-not-following", *base, "--moves", "pass 1 18 | 36 37 12", says="does not follow suit")
    case(f"{cmd}-not-in-hand", *base, "--moves", "pass 17 18", says="A passes 17")
    case(f"{cmd}-bad-form", *base, "--moves", "pass 1", says="pass X Y")
    case(f"{cmd}-json-illegal-move", *base, "--moves", "pass 1 18 | 37", "--json", says="not in A's hand")
    case(f"{cmd}-base-game", "imp", cmd, "--variant", "base", *DEAL42, "--moves", "pass 4/6/15 3/5/9 1/2/7",
         says="base game")
    case(f"{cmd}-base-game-setup", "imp", cmd, "--variant", "base", *DEAL42, says="base game")
    case(f"{cmd}-no-deal", "imp", cmd, says="--seed")
    case(f"{cmd}-seed-and-deal", *base, "--deal", FULL, says="--seed")
    case(f"{cmd}-position-and-seed", *base, "--position", "-", says="--position", stdin=GOOD_POSITION)
    case(f"{cmd}-position-missing-file", "imp", cmd, "--position", "/no/such/file.json", says="file.json")
    case(f"{cmd}-position-not-json", "imp", cmd, "--position", "-", says="JSON", stdin="{")
    case(f"{cmd}-position-impossible", "imp", cmd, "--position", "-", says="price",
         stdin=GOOD_POSITION.replace('"price": 14', '"price": 13'))
    case(f"{cmd}-position-bad-continuation", "imp", cmd, "--position", "-", "--moves", "5", says="not in A's hand",
         stdin=GOOD_POSITION)
    for value in ("0", "-1", "x", "65"):
        case(f"{cmd}-workers-{value}", *base, "--workers", value, says="--workers")
    case(f"{cmd}-unknown-option", *base, "--depth", "3", says="--depth")
    case(f"{cmd}-json-unknown-option", *base, "--depth", "3", "--json", says="--depth")
for value in ("0", "-5", "x", "1.5", str(2 ** 64)):
    case(f"solve-max-nodes-{value[:8]}", *SOLVE, "--max-nodes", value, says="--max-nodes")
for value in ("0", "-1", "nan", "inf", "x"):
    case(f"solve-timeout-{value}", *SOLVE, "--timeout", value, says="--timeout")
for value in ("-1", "nan", "inf", "x", ""):
    case(f"hint-time-{value or 'empty'}", *HINT, "--time", value, says="--time")
case("hint-time-on-solve", *SOLVE, "--time", "1", says="--time")
case("solve-explain-option", *SOLVE, "--explain", "3", says="--explain")
for card, says in (("99", "1-37"), ("19", "19"), ("x", "bad card"), ("36b", "red")):
    case(f"hint-explain-{card}", *HINT, "--moves", "pass 1 18", "--explain", card, says="--explain")
case("hint-explain-not-in-hand", *HINT, "--moves", "pass 1 18", "--explain", "37", says="not in A's hand")

# ---------------------------------------------------------------- review
REVIEW = ("imp", "review", *DEAL42)
case("review-bad-card", *REVIEW, "--line", "pass 1 19", says="19")
case("review-card-38", *REVIEW, "--line", "pass 1 18 | 38", says="1-37")
case("review-illegal-card", *REVIEW, "--line", "pass 1 18 | 36 32", says="Lopaka plays 37")
case("review-not-following", *REVIEW, "--line", "pass 1 18 | 36 37 12", says="does not follow suit")
case("review-bad-line", *REVIEW, "--line", "pass 1", says="pass X Y")
case("review-trick-not-complete", *REVIEW, "--line", "pass 1 18 | 36 37 | 31", says="not complete")
case("review-glitzerhaus-step-in-lopaka", *REVIEW, "--line", "s1 3/17 33/6", says="Glitzerhaus")
case("review-glitzerhaus-out-of-order", "imp", "review", "--variant", "glitzerhaus", *DEAL42, "--line", "open 1 1",
     says="out of order")
case("review-json-illegal-card", *REVIEW, "--line", "pass 1 18 | 37", "--json", says="not in A's hand")
case("review-variant-bridge", "imp", "review", "--variant", "bridge", *DEAL42, "--line", "", says="--variant")
case("review-json-variant-bridge", "imp", "review", "--variant", "bridge", *DEAL42, "--json", says="--variant")
case("review-base-game", "imp", "review", "--variant", "base", *DEAL42, "--line", "", says="base game")
case("review-no-deal", "imp", "review", "--line", "pass 1 18", says="--seed")
case("review-seed-and-deal", *REVIEW, "--deal", FULL, says="--seed")
for value in ("0", "-1", "nan", "x"):
    case(f"review-timeout-{value}", *REVIEW, "--timeout", value, says="--timeout")
for value in ("0", "x"):
    case(f"review-max-nodes-{value}", *REVIEW, "--max-nodes", value, says="--max-nodes")
    case(f"review-workers-{value}", *REVIEW, "--workers", value, says="--workers")
case("review-moves-option", *REVIEW, "--moves", "pass 1 18", says="--moves")
case("hint-explain-not-following", *HINT, "--moves", "pass 1 18 | 36 37", "--explain", "36", says="not in B's hand")
case("hint-explain-not-following-suit", *HINT, "--moves", "pass 1 18 | 36 37", "--explain", "12",
     says="does not follow suit")
case("hint-explain-setup", *HINT, "--explain", "1", says="play phase")
case("hint-explain-json", *HINT, "--moves", "pass 1 18", "--explain", "37", "--json", says="not in A's hand")
case("hint-glitz-discard-step", "imp", "hint", "--variant", "glitzerhaus", "--seed", "0", says="s1")
case("hint-glitz-discard-step-2", "imp", "hint", "--variant", "glitzerhaus", "--seed", "0", "--moves",
     "s1 3/17 33/6", says="s2")
case("play-double-dummy-base", "imp", "play", "--variant", "base", *DEAL42, "--bot", "double-dummy",
     says="double-dummy", stdin="quit\n")

# ------------------------------------------------- the real-table hint
LATE = "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | 17 20 8"
TABLE = ("imp", "hint", "--table", *DEAL42)
GOOD_VIEW = {"type": "imp-table-view", "variant": "lopaka", "cards": "classic", "seat": "A",
             "hands": {"A": [3, 5, 33, 35, 36], "L": [4, 6, 10, 11, 16]},
             "opponent_hand": {"size": 5, "known": [1], "voids": []}, "devil_known": [], "price": 8, "holder": "A",
             "won": {"A": [8, 17, 20, 23, 26, 29, 30, 32, 34], "L": [9, 12, 18, 21, 22, 24, 25, 31, 37], "B": []},
             "leader": "A", "trick": []}


def view_text(**changes):
    out = json.loads(json.dumps(GOOD_VIEW))
    for key, value in changes.items():
        where, path = out, key.split("__")
        for k in path[:-1]:
            where = where[k]
        where[path[-1]] = value
    return json.dumps(out)


case("table-setup-explain", *TABLE, "--explain", "5", says="play phase")
case("table-setup-samples-in-play", *TABLE, "--moves", "pass 1 18", "--samples", "4", says="setup hint")
case("table-glitz-setup-equilibrium", "imp", "hint", "--table", "--variant", "glitzerhaus", "--seed", "0", "--moves",
     "s1 3/17 33/6", "--opponent", "equilibrium", says="not offered at s2")
case("table-setup-seat", *TABLE, "--seat", "L", "--samples", "2", says="--seat")
case("table-lopaka-to-play", *TABLE, "--moves", "pass 1 18 | 36", says="Lopaka is to play")
case("table-finished", *TABLE, "--moves", "pass 1 12 | 21 37 31 | 32 30 34 | 25 9 22 | 26 23 29 | 12 24 18 | "
     "17 20 8 | 33 11 14 | 35 16 27 | 36 6 15 | 10 13 5 | 3 4 1", says="over")
case("table-seat-not-to-move", *TABLE, "--moves", LATE, "--seat", "B", says="A's turn")
case("table-seat-bad", *TABLE, "--moves", LATE, "--seat", "L", says="--seat")
case("table-seat-json", *TABLE, "--moves", LATE, "--seat", "B", "--json", says="A's turn")
case("seat-without-table", *HINT, "--moves", LATE, "--seat", "A", says="--table")
case("against-without-table", *HINT, "--moves", LATE, "--against", "greedy", says="--table")
case("table-against-unknown-bot", *TABLE, "--moves", LATE, "--against", "smart", says="--against")
case("table-base-game", "imp", "hint", "--table", "--variant", "base", *DEAL42, says="Lopaka and Glitzerhaus")
case("table-bad-moves", *TABLE, "--moves", "pass 1 18 | 36 32", says="Lopaka plays 37")
case("table-with-position", "imp", "hint", "--table", "--position", "-", says="--position", stdin=GOOD_POSITION)
case("table-file-and-seed", "imp", "hint", "--table", "-", *DEAL42, says="--table FILE", stdin=view_text())
case("table-file-and-moves", "imp", "hint", "--table", "-", "--moves", "5", says="--table FILE", stdin=view_text())
case("table-file-seat", "imp", "hint", "--table", "-", "--seat", "B", says="A's", stdin=view_text())
case("table-file-variant", "imp", "hint", "--table", "-", "--variant", "glitzerhaus", says="--variant",
     stdin=view_text())
case("table-file-cards", "imp", "hint", "--table", "-", "--cards", "matagot", says="--cards", stdin=view_text())
case("table-file-missing", "imp", "hint", "--table", "/no/such/view.json", says="view.json")
case("table-file-directory", "imp", "hint", "--table", "/", says="--table")
case("table-explain-bad-card", *TABLE, "--moves", LATE, "--explain", "19", says="--explain")
case("table-explain-not-legal", *TABLE, "--moves", LATE, "--explain", "4", says="--explain 4")
case("table-explain-json", *TABLE, "--moves", LATE, "--explain", "x", "--json", says="--explain")
for value in ("-1", "x", "nan", "inf"):
    case(f"table-time-{value}", *TABLE, "--moves", LATE, "--time", value, says="--time")
case("table-workers-0", *TABLE, "--moves", LATE, "--workers", "0", says="--workers")
for name, text, says in [
        ("empty", "", "JSON"), ("not-json", "{", "JSON"), ("list", "[]", "JSON object"),
        ("position", GOOD_POSITION, "'type'"),
        ("answer-without-view", '{"type": "imp-table-hint"}', "no 'view'"),
        ("unknown-key", view_text(extra=1), "'extra'"),
        ("base-variant", view_text(variant="base"), "players"),
        ("glitz-with-hands", view_text(variant="glitzerhaus"), "'hands'"),
        ("seat-L", view_text(seat="L"), "'seat'"),
        ("opponent-hand-shown", view_text(hands__B=[1, 2, 7, 13, 14]), "cannot see"),
        ("card-19", view_text(hands__A=[3, 5, 19, 35, 36]), "19"),
        ("card-twice", view_text(trick=[33]), "two places"),
        ("hand-size", view_text(hands__A=[3, 5, 33, 35]), "hand A holds 4"),
        ("opponent-size", view_text(opponent_hand__size=4), "opponent_hand.size"),
        ("opponent-size-negative", view_text(opponent_hand__size=-1), "whole number"),
        ("known-in-void", view_text(opponent_hand__voids=["y"]), "void"),
        ("void-letter", view_text(opponent_hand__voids=["g"]), "no suit"),
        ("no-deal-fits", view_text(opponent_hand__known=[], opponent_hand__voids=["y"]), "no deal fits"),
        ("price", view_text(price=9), "price"),
        ("holder-none-price", view_text(holder=None), "price"),
        ("leader", view_text(leader="X"), "leader"),
        ("trick-lopaka-rule", view_text(trick=[3, 4], hands__A=[5, 33, 35, 36], hands__L=[6, 10, 11, 16],
                                        opponent_hand__size=5), "Lopaka"),
        ("not-to-move", view_text(trick=[3, 6], hands__A=[5, 33, 35, 36], hands__L=[4, 10, 11, 16]), "B's turn"),
        ("json-flag", view_text(price="8"), "price")]:
    case(f"table-view-{name}", "imp", "hint", "--table", "-", *(["--json"] if name == "json-flag" else []),
         says=says, stdin=text)

# ------------------------------------------------------ puzzle and daily
PUZZLE = ("imp", "puzzle")
DAILY = ("imp", "daily")
for value in ("1", "12", "0", "-3", "x", ""):
    case(f"puzzle-tricks-left-{value or 'empty'}", *PUZZLE, "--tricks-left", value, says="--tricks-left")
case("puzzle-glitz-tricks-left-9", *PUZZLE, "--variant", "glitzerhaus", "--tricks-left", "9", says="tricks left")
for value in ("-1", str(2 ** 64), "x", "1.5", ""):
    case(f"puzzle-seed-{value or 'empty'}", *PUZZLE, "--seed", value, says="--seed")
for value in ("0", "101", "x"):
    case(f"puzzle-count-{value}", *PUZZLE, "--count", value, says="--count")
for cmd, base in (("puzzle", PUZZLE), ("daily", DAILY)):
    case(f"{cmd}-variant-base", *base, "--variant", "base", says="--variant")
    case(f"{cmd}-variant-bad", *base, "--variant", "bridge", says="--variant")
    case(f"{cmd}-cards-bad", *base, "--cards", "bambus", says="--cards")
    case(f"{cmd}-json-bad-variant", *base, "--variant", "base", "--json", says="--variant")
    case(f"{cmd}-players", *base, "--players", "3", says="--players")
    case(f"{cmd}-deal-option", *base, "--deal", FULL, says="--deal")
case("puzzle-date-option", *PUZZLE, "--date", "2026-12-07", says="--date")
case("daily-seed-option", *DAILY, "--seed", "3", says="--seed")
for value in ("2026-13-01", "2026-02-30", "yesterday", "", "2026-12-7"):
    case(f"daily-date-{value or 'empty'}", *DAILY, "--date", value, says="date")
case("daily-date-json", *DAILY, "--date", "x", "--json", says="date")
for value in ("v9", "V1", ""):
    case(f"daily-method-{value or 'empty'}", *DAILY, "--date", "2026-12-07", "--method", value, says="--method")

# -------------------------------------------------- play: moves and hints
case("play-moves-illegal", *PLAY, "--moves", "pass 1 18 | 36 32", says="Lopaka plays 37", stdin="quit\n")
case("play-moves-bad-card", *PLAY, "--moves", "pass 1 19", says="19", stdin="quit\n")
case("play-moves-other-variant", *PLAY, "--moves", "s1 1/2 3/4", says="Glitzerhaus", stdin="quit\n")
for value in ("-1", "x", "inf"):
    case(f"play-time-{value}", *PLAY, "--time", value, says="--time", stdin="quit\n")
case("play-workers-0", *PLAY, "--workers", "0", says="--workers", stdin="quit\n")
case("play-table-base", "imp", "play", "--variant", "base", *DEAL42, "--bot", "table", says="table", stdin="quit\n")

# ---------------------------------------------------------- real processes
case("proc-deal-bad-seed", "imp", "deal", "--seed", "-1", sub=True, says="seed")
case("proc-replay-bad-line", *L42, "pass 1 18 | 36 32 31", sub=True, says="Lopaka")
case("proc-replay-bad-line-json", *L42, "pass 1 19", "--json", sub=True, says="19")
case("proc-play-pipe-bad-deal", "imp", "play", "--deal", "1 2 3", stdin="quit\n", sub=True, says="36")
case("proc-value-position-not-utf8", "imp", "value", "--position", "-", stdin="\udcff", sub=True, says="UTF-8")
case("proc-play-pipe-bad-seat", *PLAY, "--as", "L", stdin="pass 1\n", sub=True, says="Lopaka")
case("proc-table-view-not-utf8", "imp", "hint", "--table", "-", stdin="\udcff", sub=True, says="UTF-8")
case("proc-daily-bad-date", "imp", "daily", "--date", "2026-02-30", sub=True, says="date")


# ------------------------------------------------------------------ running
def _run(args, stdin, sub):
    if sub:
        env = {k: v for k, v in os.environ.items() if k != "SCOUNDREL_PURE"}
        data = (stdin or "").encode("utf-8", "surrogateescape")
        proc = subprocess.run([sys.executable, "-m", "scoundrel_solver", *args], input=data,
                              capture_output=True, env=env, timeout=60)
        return proc.returncode, proc.stdout.decode(), proc.stderr.decode(), None
    result = runner().invoke(cli, list(args), input=stdin)
    crash = result.exception if result.exception is not None and not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.stdout, result.stderr, crash


@pytest.mark.parametrize("args, says, stdin, sub", CASES)
def test_imp_bad_input(args, says, stdin, sub):
    one_error_line(_run(args, stdin, sub), *([says] if says else []), json_out="--json" in args)


def test_the_battery_is_big_enough():
    assert len(CASES) >= 150
    ids = [p.id for p in CASES]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
