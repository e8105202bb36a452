"""The bad-input battery (issue 24): every command, every kind of bad input.

Each case is a command line (with files, standard input or environment it
needs) that must fail in the way docs promise: exit status 2 (1 for an I/O
fault that is not the user's input), exactly one line in all, ``error: ...``
on stderr and nothing on stdout; with ``--json`` the one line is instead
``{"type": "error", ...}`` on stdout and stderr stays empty.  Never a
traceback, never a result.

Most cases run in-process (click's CliRunner: about a millisecond each); the
ones whose point is the real process (bytes in argv that are not UTF-8, a
pipe on stdin, /dev/full, the installed ``python -m scoundrel_solver``) run as
subprocesses, about 0.3 s each.  Cases whose fix belongs to another helper's
branch are strict xfails naming that helper: the lead removes the marks after
merging, and a mark left on a fixed case fails the suite.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass

import pytest

from clitools import one_error_line, runner
from scoundrel_solver.cli.main import cli

# --------------------------------------------------------------- the table
DIR = object()          # a file entry that is a directory
SMALL = "5D 3S 4H 9C 2D 7S"          # solo, room 1: 5D 3S 4H 9C
ROOM = "3C QC 8D KC"                  # a real-table room; with --unseen 5D it is solved in a millisecond
TABLE = ("hint", "--room", ROOM, "--unseen", "5D")
SOLO_RULES = {"mode": "solo", "durability": "strict", "flee": "classic"}
BIG = [str(2 ** 63), str(2 ** 64), str(10 ** 30)]
DIGITS_5000 = "9" * 5000
SOLO_DECK = ("4H 3H 5C 5D 5S TS 8S 7H 2D KC 7D 7C 3D TD 2S 5H 4C 6S 8H AC 3S 4D 2H 9H TH 9C KS 9S 9D "
             "6H TC 8C 6C 6D 7S 3C 8D AS 4S QC QS 2C JS JC")
COOP_54 = ("5D 5S AC 9S 6S AH 9H 4S 9D 5C JD 3D 9C 8C 6C QS 3S 7H JK 7C AS KD KS TH 8S 6H 3H 3C QD "
           "4C 2H TD 4H 7D TS KH 7S JK 6D QH JC TC 8H JH 5H KC JS 2D AD 2C 2S QC 4D 8D")
GOOD_RECORD = {"seed": 1, "rules": SOLO_RULES, "score": 30, "won": True, "exact": True, "limit": None,
               "nodes": 2774, "seconds": 0.04, "engine": "core", "line": "8D KCw 4H"}

JSON = "fixed by helper json: "
FILES = "fixed by helper files: "
DEFECTS = "fixed by helper defects: "


@dataclass(frozen=True)
class Case:
    args: tuple
    code: int = 2
    stdin: bytes = None
    files: tuple = ()          # (name, bytes or DIR) made in the case's own directory; "{d}" in args is it
    sub: bool = False          # run as a real process
    says: str = None           # the error must contain this (the option, key or file it is about)
    env: tuple = ()

    @property
    def json(self) -> bool:
        return "--json" in self.args


CASES = []


def case(name, *args, xfail=None, **kw):
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    CASES.append(pytest.param(Case(tuple(args), **kw), id=name, marks=marks))


def lines(*records) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in records)


# ------------------------------------------------ ranges of number options
# Every integer and float option, with what the code below it can take
# (cli/options.py): 0, -1, 2^63 (the core's C long long), 2^64, huge,
# 5000 digits, nan/inf, not numbers.
NOT_WHOLE = {"abc": "abc", "empty": "", "float": "1.5", "exp": "1e3", "hex": "0x10", "underscore": "1_000",
             "arabic-digit": "\u0663", "fullwidth": "\uff11", "space-inside": "1 2", "plus-minus": "+-1"}
SEARCH_JOBS = {
    "main": ("--seed", "1"),
    "solve": ("solve", "--seed", "1"),
    "hint": ("hint", "--seed", "1"),
    "hint-table": TABLE,
    "rate": ("rate", "--seed", "1"),
    "stats": ("stats", "--seeds", "1"),
    "play": ("play", "--seed", "1"),
}
for where, base in SEARCH_JOBS.items():
    for value in ["0", "-1", *BIG, DIGITS_5000]:
        case(f"max-nodes-{where}-{value[:12]}", *base, "--max-nodes", value, says="--max-nodes")
    for value in ["0", "-1", "-0.5", "nan", "NaN", "inf", "-inf", "Infinity", "1e400", "1e300", "1000000001",
                  "abc", "", DIGITS_5000]:
        case(f"timeout-{where}-{value[:12] or 'empty'}", *base, "--timeout", value, says="--timeout")
    for value in ["0", "-1", "65537", str(2 ** 63), "1.5", "abc"]:
        case(f"tt-mb-{where}-{value[:12]}", *base, "--tt-mb", value, says="--tt-mb")
for name, value in NOT_WHOLE.items():
    case(f"max-nodes-not-whole-{name}", "solve", "--seed", "1", "--max-nodes", value, says="--max-nodes")
case("max-nodes-missing-value", "solve", "--seed", "1", "--max-nodes", says="--max-nodes")
case("timeout-missing-value", "solve", "--seed", "1", "--timeout", says="--timeout")

for base in (TABLE, ("hint", "--seed", "1", "--table")):
    where = "table" if base is TABLE else "seed-table"
    for value in ["0", "-1", "1000001", str(2 ** 64), "abc", "1.5", DIGITS_5000]:
        case(f"samples-{where}-{value[:12]}", *base, "--samples", value, says="--samples")
    for value in ["-1", str(2 ** 64), str(10 ** 30), "abc", "1.5", DIGITS_5000]:
        case(f"rng-seed-{where}-{value[:12]}", *base, "--rng-seed", value, says="--rng-seed")
for value in ["0", "3", "-1", str(2 ** 64), "abc", "1.5"]:
    case(f"leader-{value[:12]}", "hint", "--mode", "coop", "--room", ROOM, "--unseen", "5D", "--leader", value,
         says="--leader")
for value in ["-1", "4", str(2 ** 64), "abc"]:
    case(f"taken-{value[:12]}", *TABLE, "--taken", value, says="--taken")

for command, base in {"stats": ("stats", "--seeds", "1"), "daily": ("daily", "--date", "2026-01-01"),
                      "generate": ("generate", "--count", "1", "--out", "{d}/c.jsonl")}.items():
    for value in ["0", "-1", "257", "100000000000", str(2 ** 64), "abc", "1.5", DIGITS_5000]:
        case(f"jobs-{command}-{value[:12]}", *base, "--jobs", value, says="--jobs")
for value in ["0", "-1", str(2 ** 64 + 1), str(10 ** 30), "abc", "1.5", "", DIGITS_5000]:
    case(f"count-{value[:12] or 'empty'}", "generate", "--count", value, "--out", "{d}/c.jsonl", says="--count")

# Deal numbers: 0 <= seed < 2^64, checked by the library (the message says "seed").
for command in ("deal", "solve", "replay", "hint", "rate", "play"):
    for value in ["-1", str(2 ** 64), DIGITS_5000, "abc", "", "1.5", "0x10"]:
        case(f"seed-{command}-{value[:12] or 'empty'}", command, "--seed", value, says="seed")
    # int() takes these; no deal number is written so (solver/scoundrel/deal.py check_seed)
    for name, value in {"underscore": "1_000", "plus": "+5", "arabic-digit": "\u0663", "fullwidth": "\uff17"}.items():
        case(f"seed-{command}-{name}", command, "--seed", value, says="seed")
for value in ["-1", str(2 ** 64), "abc", "", "1_000", "+5"]:
    case(f"start-seed-{value[:12] or 'empty'}", "generate", "--count", "1", "--out", "{d}/c.jsonl",
         "--start-seed", value, says="seed")
for name, value in {"empty": "", "letters": "abc", "negative": "-1", "reversed": "5-1",
                    "above-2^64": "1-18446744073709551616", "too-many": "0-18446744073709551615", "only-commas": ",,", "double-dash": "1--2",
                    "open-range": "5-", "float": "1.5", "5000-digits": DIGITS_5000}.items():
    case(f"seeds-{name}", "stats", "--seeds", value, says="seed")

# Dates.
for name, value in {"month-13": "2026-13-01", "feb-30": "2026-02-30", "letters": "tomorrow", "empty": "",
                    "year-5-digits": "99999-01-01", "slashes": "2026/01/01", "nul": "2026-01-01\x00"}.items():
    case(f"date-daily-{name}", "daily", "--date", value, says="date")
    if "\x00" not in value:
        case(f"date-play-{name}", "play", "--daily", "--date", value, says="date")
case("date-play-without-daily", "play", "--seed", "1", "--date", "2026-01-01", says="--date")

# Real-table hero values (checked by the library, named by what they are).
for value in ["0", "-1", "21", str(2 ** 64), DIGITS_5000, "abc", "1.5", "20,20"]:
    case(f"health-{value[:12]}", *TABLE, "--health", value, says="health")
case("health-coop-empty-entry", "hint", "--mode", "coop", "--room", ROOM, "--unseen", "5D", "--health", "14,,18",
     says="--health")
case("health-coop-three", "hint", "--mode", "coop", "--room", ROOM, "--unseen", "5D", "--health", "1,2,3",
     says="health")
for value in ["1", "15", str(2 ** 64)]:
    case(f"last-kill-{value[:12]}", *TABLE, "--weapon", "7D", "--last-kill", value, says="kill")
# a real-table hint takes --time (its whole budget) as an exact one does, and refuses a bad one;
# the belief search's own budget is refused on an exact hint, not ignored
case("table-hint-with-negative-time", *TABLE, "--time", "-1", says="--time")
case("seed-table-hint-with-nan-time", "hint", "--seed", "1", "--table", "--time", "nan", says="--time")
case("exact-hint-with-belief-seconds", "hint", "--seed", "1", "--belief-seconds", "2", says="--belief-seconds")
case("last-kill-abc", *TABLE, "--weapon", "7D", "--last-kill", "abc", says="kill")
# the real-table hint's opt-in depth-1 figure (issue 62): its name, its counts, and where it belongs
for value in ["depth2", "depth0", "", "DEPTH1 "]:
    case(f"lookahead-{value or 'empty'}", *TABLE, "--lookahead", value, says="--lookahead")
for flag in ("--depth1-deals", "--depth1-orders"):
    for value in ["0", "-1", "1000001", str(2 ** 64), "abc", "1.5", ""]:
        case(f"{flag[2:]}-{value[:12] or 'empty'}", *TABLE, "--lookahead", "depth1", flag, value, says=flag)
    case(f"{flag[2:]}-without-lookahead", *TABLE, flag, "4", says=flag)
case("lookahead-on-an-exact-hint", "hint", "--seed", "1", "--lookahead", "depth1", says="--lookahead")
case("depth1-deals-on-an-exact-hint", "hint", "--seed", "1", "--depth1-deals", "4", says="--depth1-deals")
case("lookahead-with-explain", *TABLE, "--lookahead", "depth1", "--explain", "3C", says="--lookahead")
case("weapon-abc", *TABLE, "--weapon", "abc", says="weapon")
case("last-kill-without-weapon", *TABLE, "--last-kill", "5", says="weapon")
for value in ["7S", "KH", "ZZ", "99", "0"]:
    case(f"weapon-{value}", *TABLE, "--weapon", value)
for value in ["3", "abc", "1,2"]:
    case(f"potion-used-{value}", *TABLE, "--potion-used", value)

# ------------------------------------------------------- cards and decks
DECKS = {
    "unknown": "ZZ 5D", "rank-1": "1D", "rank-11": "11D", "suit-x": "5X", "duplicate": "5D 5D",
    "duplicate-pretty": "5\u2666 5D", "red-face-solo": "KH 5D", "joker-solo": "JK", "empty": "",
    "blank": "   ", "commas": ",,,", "too-many-solo": SOLO_DECK + " 5D", "emoji": "\U0001F0A1",
    "fullwidth": "\uff15\uff24", "zero-width": "5D\u200b3S", "escape": "\x1b[31m5D",
    "very-long": "5D " * 40000, "nul": "5D\x003S", "surrogate": "5D \udcff",
}
for name, deck in DECKS.items():
    for command in ("deal", "solve", "replay", "rate", "play"):
        case(f"deck-{command}-{name}", command, "--deck", deck)
case("deck-main-unknown", "--deck", "ZZ")
case("deck-hint-duplicate", "hint", "--deck", "5D 5D")
case("deck-coop-55", "deal", "--mode", "coop", "--deck-size", "54", "--deck", COOP_54 + " 2H")
case("deck-coop-three-jokers", "deal", "--mode", "coop", "--deck-size", "54", "--deck", "JK JK JK")
case("seed-and-deck", "deal", "--seed", "1", "--deck", "5D", says="--seed")
case("neither-seed-nor-deck", "solve", says="--seed")
for command in ("deal", "replay", "rate", "play", "hint"):
    case(f"neither-{command}", command, says="--seed")

# ------------------------------------------------------- moves and lines
LINES = {
    "not-in-room": "7S", "weapon-without-weapon": "3Sw", "four-takes": "5D 3S 4H 9C",
    "avoid-twice": "avoid | avoid", "give-in-solo": "5D>", "bad-suffix": "3Sx", "unknown-token": "hello",
    "empty-room": "5D 3S 9C | | 4H", "room-not-complete": "5D | 4H", "after-the-end": "5D 3S 9C | 4H 2D 7S | 5D",
    "avoid-with-takes": "avoid 5D", "weapon-on-potion": "4Hw", "very-long": "5D " * 40000, "nul": "5D\x00",
    "surrogate": "5D \udcff", "pipes-only": "| | |",
}
for name, line in LINES.items():
    case(f"line-replay-{name}", "replay", "--deck", SMALL, "--line", line)
    case(f"moves-hint-{name}", "hint", "--deck", SMALL, "--moves", line)
case("moves-hint-table-illegal", "hint", "--deck", SMALL, "--moves", "7S", "--table")

# --------------------------------------------------- hint --explain ACTION
EXPLAIN = {"not-in-room": "7S", "unknown": "ZZ", "empty": "", "two-moves": "5D 3S", "weapon-without-weapon": "3Sw",
           "give-in-solo": "5D>", "fight-mode-on-potion": "4Hw", "long": "5D" * 5000, "nul": "5D\x00"}
for name, action in EXPLAIN.items():
    case(f"explain-{name}", "hint", "--deck", SMALL, "--explain", action, says="--explain")
    case(f"explain-json-{name}", "hint", "--deck", SMALL, "--explain", action, "--json", says="--explain")
case("explain-table-not-in-room", *TABLE, "--explain", "7S", says="--explain")
case("explain-seed-table-illegal", "hint", "--deck", SMALL, "--table", "--explain", "avoid avoid", says="--explain")
case("explain-avoid-after-take", "hint", "--deck", SMALL, "--moves", "5D", "--explain", "avoid", says="--explain")
case("explain-finished-game", "hint", "--deck", SMALL, "--moves", "5D 3S 9C | 4H 2D 7S", "--explain", "5D",
     says="over")
case("explain-finished-game-json", "hint", "--deck", SMALL, "--moves", "5D 3S 9C | 4H 2D 7S", "--explain", "5D",
     "--json", says="over")
case("explain-missing-value", "hint", "--deck", SMALL, "--explain", says="--explain")
case("line-coop-two-gives", "replay", "--seed", "42", "--mode", "coop", "--line", "8C> 4H>")

# ------------------------------------------ impossible real-table positions
POSITIONS = {
    "five-card-room": ("--room", "3C QC 8D KC 5D"), "empty-room": ("--room", ""),
    "room-and-gone": ("--room", ROOM, "--gone", "3C"),
    "gone-and-unseen": ("--room", ROOM, "--gone", "5D", "--unseen", "4D"),
    "room-twice": ("--room", "3C 3C"), "weapon-in-room": ("--room", ROOM, "--weapon", "8D"),
    "red-face-solo": ("--room", "KH 3C"), "bottom-in-room": ("--room", ROOM, "--bottom", "3C"),
    "leader-2-solo": ("--room", ROOM, "--leader", "2"), "help-used-solo": ("--room", ROOM, "--help-used"),
    "taken-3-of-1": ("--room", "3C", "--taken", "3"),
}
for name, flags in POSITIONS.items():
    case(f"table-{name}", "hint", *flags)
case("table-room-and-seed", "hint", "--seed", "1", "--room", ROOM, says="--room")
case("table-room-and-moves", "hint", "--room", ROOM, "--moves", "3C", says="--moves")
case("table-flag-without-room", "hint", "--health", "5", says="--room")
case("table-position-and-room", "hint", "--position", "{d}/p.json", "--room", ROOM,
     files=(("p.json", b'{"room": "3C"}'),), says="--room")

# ------------------------------------------------- --position JSON files
BASE = {"room": ["3C", "QC", "8D", "KC"], "unseen": ["5D"]}
BASE_COOP = {"room": ["3C", "QC", "8D", "KC"], "unseen": ["5D", "4D", "2D"]}


def position(name, content, *flags, xfail=None, says=None, **kw):
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    case(f"position-{name}", "hint", "--position", "{d}/p.json", *flags, files=(("p.json", data),),
         xfail=xfail, says=says, **kw)


position("not-json", b"{room: 3C}")
position("empty-file", b"")
position("truncated", b'{"room": ["3C", "QC"')
position("array", [1, 2])
position("string", "3C QC")
position("number", 42)
position("null", None)
position("room-missing", {"health": 5})
position("room-number", {"room": 5})
position("room-list-of-ints", {"room": [3, 12]})
position("room-unknown-card", {"room": ["ZZ"]})
position("unknown-key", {**BASE, "helth": 5}, says="helth")
position("leader-list", {**BASE, "leader": [1]}, says="leader")
position("leader-string", {**BASE, "leader": "1"}, says="leader")
position("leader-bool", {**BASE, "leader": True}, says="leader")
position("taken-float", {**BASE, "taken": 1.5}, says="taken")
position("taken-huge", b'{"room": ["3C"], "unseen": ["5D"], "taken": 1e400}', says="taken")
def hero(**fields):
    return {**BASE, "heroes": [fields]}


position("health-string", hero(health="20"), says="health")
position("health-bool", hero(health=True), says="health")
position("health-nested-list", hero(health=[[20]]), says="health")
position("health-list-of-string", hero(health=["6"]), says="health")
position("health-5000-digits", b'{"room": ["3C"], "unseen": ["5D"], "heroes": [{"health": ' + DIGITS_5000.encode()
         + b"}]}", says="health")
position("health-nan", b'{"room": ["3C"], "unseen": ["5D"], "heroes": [{"health": NaN}]}', says="NaN")
position("health-zero", hero(health=0), says="health")
position("heroes-not-list", {**BASE, "heroes": {"health": 5}}, says="heroes")
position("heroes-three", {**BASE, "heroes": [{}, {}, {}]}, says="hero")
position("hero-unknown-key", hero(helth=5), says="helth")
position("weapon-number", hero(weapon=7), says="weapon")
position("weapon-number-list", hero(weapon=[[7]]), says="weapon")
position("weapon-dict", hero(weapon={"card": "7D"}), says="weapon")
position("weapon-not-diamond", hero(weapon="7S"), says="weapon")
position("last-kill-string", hero(weapon="7D", last_kill="twelve"), says="last_kill")
position("last-kill-card", hero(weapon="7D", last_kill="QS"), says="last_kill")
position("potion-used-string", hero(potion_used="1"), says="potion_used")
position("potion-used-number", hero(potion_used=1), says="potion_used")
position("help-used-string-coop", {**BASE_COOP, "rules": {"mode": "coop"}, "help_used": "false"}, says="help_used")
position("avoided-string", {**BASE, "avoided": "no"}, says="avoided")
position("avoided-string-false", {**BASE, "avoided": "false"}, says="avoided")
position("avoided-number", {**BASE, "avoided": 2}, says="avoided")
position("avoided-list", {**BASE, "avoided": [True]}, says="avoided")
position("gone-number", {**BASE, "unseen": None, "gone": 5}, says="gone")
position("gone-and-unseen", {**BASE, "gone": ["4D"]})
position("cards-as-string", {**BASE, "room": "3C QC 8D KC"}, says="room")
# the old flat form is refused with a pointer to where each key went
position("old-flat-health", {**BASE, "health": 5}, says="health")
position("old-flat-weapon", {**BASE, "weapon": "7D"}, says="weapon")
position("old-flat-mode", {**BASE, "mode": "coop"}, says="mode")
# rules in the file are honoured, and a rule flag that contradicts them is refused
position("mode-conflicts-flag", {**BASE, "rules": {"mode": "coop"}}, "--mode", "solo", says="--mode")
position("flee-conflicts-flag", {**BASE, "rules": {"flee": "easy"}}, "--flee", "hard", says="--flee")
position("durability-conflicts-flag", {**BASE, "rules": {"durability": "lenient"}}, "--durability", "strict",
         says="--durability")
position("rules-not-object", {**BASE, "rules": "solo"}, says="rules")
position("mode-unknown", {**BASE, "rules": {"mode": "duo"}}, says="mode")
position("flee-in-coop", {**BASE_COOP, "rules": {"mode": "coop", "flee": "easy"}}, says="flee")
position("deck-size-string", {**BASE, "rules": {"mode": "coop", "deck_size": "54x"}}, says="deck_size")
position("rules-unknown-key", {**BASE, "rules": {"fle": "easy"}}, says="fle")
position("deep-nesting", b"[" * 100000 + b"]" * 100000)
position("deep-nesting-room", b'{"room": ' + b"[" * 50000 + b"]" * 50000 + b"}")
position("not-utf8", b'{"room": ["3C \xff"]}')
position("latin1", '{"room": ["3C"], "unseen": ["5D"], "gone": "caf\u00e9"}'.encode("latin-1"))
position("utf16", json.dumps(BASE).encode("utf-16"))
position("nul-byte", b'{"room": ["3C\x00"]}')
position("trailing-garbage", json.dumps(BASE).encode() + b" x")
position("two-objects", json.dumps(BASE).encode() + b"\n" + json.dumps(BASE).encode())
position("huge-room-string", {"room": "3C " * 100000})
position("with-seed", BASE, "--seed", "1", says="--seed")
case("position-missing-file", "hint", "--position", "{d}/none.json", says="none.json")
case("position-directory", "hint", "--position", "{d}/p.json", files=(("p.json", DIR),), says="p.json")
case("position-unreadable", "hint", "--position", "/proc/self/mem", says="mem")
case("position-endless", "hint", "--position", "/dev/zero", says="more than 1,000,000 bytes")
case("position-stdin-not-json", "hint", "--position", "-", stdin=b"not json")
case("position-stdin-empty", "hint", "--position", "-", stdin=b"")
case("position-stdin-not-utf8", "hint", "--position", "-", stdin=b'{"room": "\xff\xfe"}')

# --------------------------------------------------- results files (stats)
SUMMARY = {
    "missing": None, "directory": DIR, "empty": b"", "blank-lines": b"\n\n\n",
    "garbage": b"not json\nstill not\n", "not-utf8": b'{"seed": 1, "rules": \xff}\n',
    "nul-bytes": b"\x00" * 64, "truncated": json.dumps(GOOD_RECORD).encode()[:40],
    "seed-string": lines({**GOOD_RECORD, "seed": "1"}), "seed-list": lines({**GOOD_RECORD, "seed": [1]}),
    "score-string": lines({**GOOD_RECORD, "score": "30"}), "won-string": lines({**GOOD_RECORD, "won": "yes"}),
    "exact-string": lines({**GOOD_RECORD, "exact": "true"}),
    "nodes-string": lines({**GOOD_RECORD, "nodes": "many"}),
    "seconds-string": lines({**GOOD_RECORD, "seconds": "fast"}),
    "rules-string": lines({**GOOD_RECORD, "rules": "solo"}),
    "rules-unknown-mode": lines({**GOOD_RECORD, "rules": {"mode": "duo"}}),
    "seed-negative": lines({**GOOD_RECORD, "seed": -1}), "seed-huge": lines({**GOOD_RECORD, "seed": 2 ** 70}),
    "array-lines": lines([1, 2]), "two-rule-sets": lines(GOOD_RECORD, {**GOOD_RECORD, "seed": 2, "rules": {
        "mode": "solo", "durability": "strict", "flee": "easy"}}),
    "gzip-name-plain": None,
}
# Every line of these files is bad, so whether a reader skips bad lines or
# refuses them, nothing is left to summarise: one error line.
for name, content in SUMMARY.items():
    fname = "r.jsonl.gz" if name == "gzip-name-plain" else "r.jsonl"
    files = () if name == "missing" else ((fname, lines(GOOD_RECORD) if name == "gzip-name-plain" else content),)
    case(f"summary-{name}", "stats", "--summary", "{d}/" + fname, files=files, says="r.jsonl")
# The same bad files given to --resume (stats and generate): refused before anything is written.
for name in ("garbage", "not-utf8", "score-string", "seed-string", "seed-huge", "array-lines"):
    case(f"resume-stats-{name}", "stats", "--seeds", "1-2", "--flee", "hard", "--out", "{d}/r.jsonl", "--resume", "-q",
         files=(("r.jsonl", SUMMARY[name]),), says="r.jsonl")
CATALOGUE_BAD = {"garbage": b"not json\n", "not-utf8": b'{"seed": 1, "deck": \xff}\n',
                 "seed-string": lines({"seed": "1", "deck": ["5D"]}), "array": lines([1, 2]),
                 "deck-numbers": lines({"seed": 1, "deck": [1, 2, 3]})}
for name, content in CATALOGUE_BAD.items():
    case(f"resume-generate-{name}", "generate", "--count", "1", "--flee", "hard", "--out", "{d}/c.jsonl", "--resume",
         "--quiet", files=(("c.jsonl", content),), says="c.jsonl")
case("summary-with-jobs", "stats", "--summary", "{d}/r.jsonl", "--jobs", "2", files=(("r.jsonl", lines(GOOD_RECORD)),),
     says="--jobs")
case("summary-other-rules", "stats", "--summary", "{d}/r.jsonl", "--flee", "easy",
     files=(("r.jsonl", lines(GOOD_RECORD)),), says="r.jsonl")
case("summary-unreadable", "stats", "--summary", "/proc/self/mem", says="mem")
case("stats-no-seeds", "stats", says="--seeds")
case("stats-out-directory", "stats", "--seeds", "1", "--out", "{d}/o", files=(("o", DIR),), says="o")
case("stats-out-missing-dir", "stats", "--seeds", "1", "--out", "{d}/no/such/o.jsonl", says="o.jsonl")
case("stats-out-exists", "stats", "--seeds", "1", "--out", "{d}/o.jsonl", files=(("o.jsonl", lines(GOOD_RECORD)),),
     says="--resume")
case("stats-resume-without-out", "stats", "--seeds", "1", "--resume", says="--out")
case("stats-resume-and-overwrite", "stats", "--seeds", "1", "--out", "{d}/o.jsonl", "--resume", "--overwrite",
     says="--overwrite")
case("stats-resume-other-rules", "stats", "--seeds", "1", "--out", "{d}/o.jsonl", "--resume", "--flee", "easy",
     files=(("o.jsonl", lines(GOOD_RECORD)),), says="o.jsonl")
case("stats-backend-unknown", "stats", "--seeds", "1", "--backend", "spark", says="--backend")

# ------------------------------------------- catalogue files (generate)
GOOD_ENTRY = {"id": "solo-classic-strict-1", "seed": 1, "deck": SOLO_DECK.split(), "rules": SOLO_RULES,
              "rating": {"label": "medium"}, "score": 30, "won": True, "line": "8D KCw 4H"}
case("generate-no-out", "generate", "--count", "1", says="--out")
case("generate-no-count", "generate", "--out", "{d}/c.jsonl", says="--count")
case("generate-out-exists", "generate", "--count", "2", "--out", "{d}/c.jsonl", files=(("c.jsonl", lines(GOOD_ENTRY)),),
     says="--resume")
case("generate-out-directory", "generate", "--count", "1", "--out", "{d}/c", files=(("c", DIR),), says="c")
case("generate-out-directory-resume", "generate", "--count", "1", "--out", "{d}/c", "--resume", files=(("c", DIR),),
     says="c")
case("generate-out-missing-dir", "generate", "--count", "1", "--out", "{d}/no/such/c.jsonl", says="c.jsonl")
case("generate-difficulty-unknown", "generate", "--count", "1", "--out", "{d}/c.jsonl", "--difficulty", "trivial",
     says="--difficulty")
case("generate-resume-other-rules", "generate", "--count", "2", "--out", "{d}/c.jsonl", "--resume", "--flee", "easy",
     files=(("c.jsonl", lines(GOOD_ENTRY)),), says="c.jsonl")
case("generate-resume-other-label", "generate", "--count", "2", "--out", "{d}/c.jsonl", "--resume",
     "--difficulty", "hard", files=(("c.jsonl", lines(GOOD_ENTRY)),), says="c.jsonl")
case("generate-resume-rules-string", "generate", "--count", "2", "--out", "{d}/c.jsonl", "--resume",
     files=(("c.jsonl", lines({**GOOD_ENTRY, "rules": "solo"})),), says="c.jsonl")

# ----------------------------------------------------- usage, all commands
USAGE = {
    "unknown-command": ("bogus",),
    "unknown-option": ("--sed", "1"),
    "unknown-option-deal": ("deal", "--sed", "1"),
    "option-before-command": ("--seed", "1", "deal"),
    "mode-unknown": ("deal", "--seed", "1", "--mode", "duo"),
    "flee-unknown": ("deal", "--seed", "1", "--flee", "x"),
    "durability-unknown": ("deal", "--seed", "1", "--durability", "x"),
    "deck-size-53": ("deal", "--seed", "1", "--mode", "coop", "--deck-size", "53"),
    "seed-missing-value": ("deal", "--seed"), "difficulty-unknown": ("daily", "--difficulty", "trivial"),
    "method-unknown": ("daily", "--method", "v9"), "daily-extra-argument": ("daily", "extra"),
    "play-daily-and-seed": ("play", "--daily", "--seed", "1"),
    "hint-table-real": ("hint", "--table", "--room", ROOM),
    "rate-unknown-option": ("rate", "--seed", "1", "--pretty"),
    "stats-address-without-backend": ("stats", "--seeds", "1", "--addres", "x"),
}
for name, args in USAGE.items():
    case(f"usage-{name}", *args)

# ------------------------------------------------ notes never precede errors
# --flee in co-op and --deck-size in solo are noted (the flag is ignored);
# the note waits until the command has succeeded (cli/options.py).
NOTED = (("--mode", "coop", "--flee", "easy"), ("--deck-size", "54"))
for k, rule_flags in enumerate(NOTED):
    for name, args in {
        "main-bad-seed": ("--seed", "x"), "deal-both": ("deal", "--seed", "1", "--deck", "5D"),
        "replay-bad-line": ("replay", "--seed", "1", "--line", "ZZ"),
        "hint-bad-moves": ("hint", "--seed", "1", "--moves", "ZZ"),
        "hint-table-bad-room": ("hint", "--room", "ZZ"),
        "rate-no-deck": ("rate",),
        "play-bad-deck": ("play", "--deck", "ZZ"),
        "daily-bad-date": ("daily", "--date", "x"), "stats-bad-seeds": ("stats", "--seeds", "x"),
        "stats-summary-missing": ("stats", "--summary", "{d}/none.jsonl"),
        "generate-bad-start": ("generate", "--count", "1", "--out", "{d}/c.jsonl", "--start-seed", "x"),
        "generate-out-exists": ("generate", "--count", "2", "--out", "{d}/c.jsonl"),
        "max-nodes": ("solve", "--seed", "1", "--max-nodes", "0"),
    }.items():
        files = (("c.jsonl", lines(GOOD_ENTRY)),) if name == "generate-out-exists" else ()
        case(f"note-{k}-{name}", *args, *rule_flags, files=files)

# ------------------------------------------------------------ --json errors
# With --json the error is one JSON line on stdout and stderr stays empty.
JSON_CASES = {
    "deal-bad-seed": ("deal", "--seed", "x"),
    "main-bad-deck": ("--deck", "ZZ"),
    "solve-max-nodes": ("solve", "--seed", "1", "--max-nodes", "0"),
    "solve-timeout-nan": ("solve", "--seed", "1", "--timeout", "nan"),
    "replay-illegal": ("replay", "--deck", SMALL, "--line", "7S"),
    "hint-bad-moves": ("hint", "--deck", SMALL, "--moves", "7S"),
    "hint-table-impossible": ("hint", "--room", "3C 3C"),
    "rate-no-deck": ("rate",),
    "daily-bad-date": ("daily", "--date", "x"),
    "stats-bad-seeds": ("stats", "--seeds", "x"),
    "stats-summary-missing": ("stats", "--summary", "{d}/none.jsonl"),
    "mode-unknown": ("deal", "--seed", "1", "--mode", "duo"),
    "unknown-option": ("deal", "--seed", "1", "--sed", "1"),
    "deal-surrogate": ("deal", "--deck", "5D \udcff"),
    "jobs-range": ("daily", "--jobs", "0"),
    "notes-and-error": ("deal", "--mode", "coop", "--flee", "easy", "--seed", "x"),
}
for name, args in JSON_CASES.items():
    case(f"json-{name}", *args, "--json")
position("json-not-json", b"{", "--json")
position("json-wrong-type", {**BASE, "leader": "1"}, "--json", says="leader")

# ------------------------------------------- real processes (the installed CLI)
# Bytes in argv that are not UTF-8 reach Python as lone surrogates; the error
# line must still be written (stderr escapes them, --json output must too).
for name, args in {
    "deal-deck": ("deal", "--deck", b"5D \xff"), "solve-seed": ("solve", "--seed", b"\xff1"),
    "replay-line": ("replay", "--deck", SMALL, "--line", b"5D\xe9"),
    "hint-room": ("hint", "--room", b"3C \xc3"),
    "hint-position-name": ("hint", "--position", b"/nonexistent/\xff.json"),
    "daily-date": ("daily", "--date", b"2026-01-\xff"),
    "stats-seeds": ("stats", "--seeds", b"1-\xff"),
    "stats-summary-name": ("stats", "--summary", b"/nonexistent/\xff.jsonl"),
    "rate-deck": ("rate", "--deck", b"\xfe\xff"), "play-deck": ("play", "--deck", b"\xff"),
    "generate-start": ("generate", "--count", "1", "--out", "{d}/c.jsonl", "--start-seed", b"\xff"),
    "max-nodes": ("solve", "--seed", "1", "--max-nodes", b"1\xff"), "unknown-option": ("deal", b"--\xff"),
}.items():
    case(f"proc-bytes-{name}", *args, sub=True)
    if name in ("deal-deck", "replay-line", "hint-room", "stats-seeds", "unknown-option"):
        case(f"proc-bytes-json-{name}", *args, "--json", sub=True)
# One of each command as users run it, to prove the in-process runner is no kinder than the real one.
for name, args in {
    "main": ("--seed", "-1"), "solve": ("solve", "--seed", "1", "--max-nodes", str(2 ** 63)),
    "deal": ("deal", "--deck", "5D 5D"), "replay": ("replay", "--deck", SMALL, "--line", "7S"),
    "hint": ("hint", "--deck", SMALL, "--moves", "3Sw"), "hint-table": (*TABLE, "--samples", "0"),
    "rate": ("rate", "--seed", "1", "--timeout", "inf"), "daily": ("daily", "--date", "2026-02-30"),
    "stats": ("stats", "--seeds", "1", "--timeout", "nan"),
    "generate": ("generate", "--count", "0", "--out", "{d}/c.jsonl"),
    "play": ("play", "--deck", "ZZ"), "note-then-error": ("deal", "--deck-size", "54", "--seed", "x"),
    "deck-very-long": ("deal", "--deck", "5D " * 40000),
}.items():
    case(f"proc-{name}", *args, sub=True)
# Piped standard input.
case("proc-play-pipe-bad-deck", "play", "--deck", "ZZ", stdin=b"5D\nquit\n", sub=True)
case("proc-play-pipe-bad-option", "play", "--seed", "1", "--tt-mb", "0", stdin=b"hint\n", sub=True)
case("proc-play-pipe-daily-date", "play", "--daily", "--date", "2026-13-01", stdin=b"quit\n", sub=True)
case("proc-position-stdin-not-utf8", "hint", "--position", "-", stdin=b'{"room": "\xff"}', sub=True)
case("proc-position-stdin-deep", "hint", "--position", "-", stdin=b"[" * 100000, sub=True)
case("proc-position-stdin-nul", "hint", "--position", "-", stdin=b"\x00\x00", sub=True)
# A file that is not the user's input fails as an I/O fault: status 1, one line.
case("proc-stats-out-dev-full", "stats", "--seeds", "1", "--out", "/dev/full", "-q", code=1, sub=True,
     says="/dev/full")
case("proc-generate-out-dev-full", "generate", "--count", "1", "--out", "/dev/full", "-q", code=1, sub=True,
     says="/dev/full")


# ----------------------------------------------------------------- running
class Hung(BaseException):
    """A case ran past its time: bad input that was not refused (BaseException, so nothing catches it)."""


SECONDS = 20


def _make_files(case: Case, tmp_path):
    for name, content in case.files:
        path = tmp_path / name
        if content is DIR:
            path.mkdir()
        else:
            path.write_bytes(content)


def _arg(a, tmp_path):
    if isinstance(a, bytes):
        return a.replace(b"{d}", os.fsencode(tmp_path))
    return a.replace("{d}", str(tmp_path))


def _in_process(case: Case, tmp_path):
    def hung(*_):
        raise Hung(f"no answer in {SECONDS} s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(SECONDS)
    try:
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            result = runner().invoke(cli, [_arg(a, tmp_path) for a in case.args], input=case.stdin)
        finally:
            os.chdir(cwd)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    crash = result.exception if result.exception is not None and not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.stdout, result.stderr, crash


def _subprocess(case: Case, tmp_path):
    env = {**os.environ, **dict(case.env)}
    env.pop("SCOUNDREL_PURE", None)
    proc = subprocess.run([sys.executable, "-m", "scoundrel_solver", *[_arg(a, tmp_path) for a in case.args]],
                          input=case.stdin if case.stdin is not None else b"", capture_output=True, cwd=tmp_path,
                          env=env, timeout=SECONDS)
    return (proc.returncode, proc.stdout.decode("utf-8", "backslashreplace"),
            proc.stderr.decode("utf-8", "backslashreplace"), None)


@pytest.mark.parametrize("case", CASES)
def test_bad_input(case: Case, tmp_path):
    _make_files(case, tmp_path)
    ran = (_subprocess if case.sub else _in_process)(case, tmp_path)
    one_error_line(ran, *([case.says] if case.says else []), code=case.code, json_out=case.json)


def test_the_battery_is_big_enough():
    assert len(CASES) >= 300
    ids = [p.id for p in CASES]
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
