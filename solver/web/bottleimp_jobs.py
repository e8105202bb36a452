"""The Bottle Imp's jobs, as a solver process of the service runs them: parameters in, an answer out.

As solver/web/scoundrel_jobs.py for Scoundrel: each job takes the parameters of one
request (text as the ``scoundrel-solve imp`` options would get them, flags as booleans),
checks each as the CLI checks its option of the same name (solver/values.py), builds the
deal and calls the library's answer (solver/bottleimp/answers.py), the function the
command's ``--json`` prints.  Bad input is ``(400, error)`` with the CLI's own line; no
command line runs here.
"""
from __future__ import annotations

from ..errors import OptionError
from ..values import MAX_NODES, one_of, option_value, seconds, whole_number
from .worker import answers_as as answering
from .worker import check_options

PROGRAM = "scoundrel-solve imp"
WORKERS = 1        # a matrix game's solves stay in the solver process the pool gave the request


def _checks() -> dict:
    """Option name -> (check, its arguments): the CLI's types of the same options (cli/bottleimp/*.py)."""
    from ..bottleimp.bots import BOTS
    from ..bottleimp.match import MAX_ROUNDS
    from ..bottleimp.puzzle import METHODS
    from ..bottleimp.rules import CARD_TABLES, VARIANTS
    from ..bottleimp.setuphint import MAX_SAMPLES, OPPONENT_MODELS
    return {
        "variant": (one_of, VARIANTS), "players": (one_of, ("3", "4")), "cards": (one_of, CARD_TABLES),
        "max_nodes": (whole_number, 1, MAX_NODES, "the search counts nodes in 64 bits"),
        "timeout": (seconds,), "time": (seconds, True), "bot": (one_of, tuple(BOTS)), "against": (one_of, tuple(BOTS)),
        "bot_seed": (whole_number, 0, 2 ** 32 - 1), "tricks_left": (whole_number, 2, 11),
        "count": (whole_number, 1, 100), "method": (one_of, METHODS),
        "samples": (whole_number, 1, MAX_SAMPLES, "the setup hint draws at most that many deals"),
        "opponent": (one_of, OPPONENT_MODELS), "rounds": (whole_number, 1, MAX_ROUNDS),
    }


def checked(params: dict, only=None) -> dict:
    """``params`` with each value the CLI types checked, in the order given (the first bad one is named)."""
    return check_options(params, _checks(), only)


def answers_as(command: str):
    """The job answers as ``scoundrel-solve imp COMMAND --json`` would: its object (200) or its
    error line (400 for bad input; a usage error with its pointer to the command's help)."""
    return answering(f"{PROGRAM} {command}", "ask a smaller position")


def _usage(message: str):
    return OptionError(message)


def _deal(p: dict):
    """The checked deal of ``seed`` or ``deal`` (cli/bottleimp/options.py, ImpOptions.game)."""
    from ..bottleimp import Rules, deal, deal_from_text
    from ..shuffle import check_seed
    rules = Rules(p.get("variant", "lopaka"), int(p["players"]) if p.get("players") is not None else None,
                  p.get("cards", "classic"))
    if p.get("seed") is not None and p.get("deal") is not None:
        raise _usage("give either --seed or --deal, not both")
    if p.get("seed") is not None:
        return deal(check_seed(p["seed"]), rules)
    if p.get("deal") is not None:
        return deal_from_text(p["deal"], rules)
    raise _usage('give --seed N (a numbered deal) or --deal "CARDS" (hands given by hand)')


def _position(text: str):
    """A position sent with the request, read as the CLI reads ``--position -``."""
    from ..bottleimp.position import position_from_json
    return position_from_json(text, "--position standard input", answers=True)


def _start(p: dict, what: str = "moves"):
    """``(start, seed, blocks)`` of the deal, or of ``position`` (cli/bottleimp/solve.py ``_start``)."""
    from ..bottleimp.analysis import NoAnalysis
    if p.get("position") is not None:
        if p.get("seed") is not None or p.get("deal") is not None:
            raise _usage(f"--position is where the {what} start: drop --seed and --deal")
        out = _position(p["position"]), None, None
    else:
        d = _deal(p)
        out = d.start(), d.seed, {k: list(v) for k, v in d.blocks.items()}
    if not out[0].rules.two_player:
        raise NoAnalysis("the double-dummy value is defined for Lopaka and Glitzerhaus; the base game's is out of "
                         "scope (IMP-RULES §8)")
    return out


@answers_as("deal")
def deal(params: dict) -> dict:
    from ..bottleimp.answers import deal_answer
    return deal_answer(_deal(checked(params)))


@answers_as("replay")
def replay(params: dict) -> dict:
    from ..bottleimp.answers import replay_answer, replay_position_answer
    p = checked(params)
    if p.get("position") is not None:
        if p.get("seed") is not None or p.get("deal") is not None:
            raise _usage("--position is where the line starts: drop --seed and --deal")
        return replay_position_answer(_position(p["position"]), p.get("line", ""))
    return replay_answer(_deal(p), p.get("line", ""))


@answers_as("solve")
def solve(params: dict) -> dict:
    from ..bottleimp.answers import solve_answer
    p = checked(params)
    start, seed, blocks = _start(p)
    return solve_answer(start, p.get("moves", ""), seed, blocks, p.get("max_nodes") or 0, p.get("timeout"),
                        workers=WORKERS)


@answers_as("review")
def review(params: dict) -> dict:
    """``imp review --json``: the double-dummy review of ``line`` played from the deal."""
    from ..bottleimp.answers import review_answer
    p = checked(params)
    d = _deal(p)
    return review_answer(d.start(), p.get("line", ""), d.seed, {k: list(v) for k, v in d.blocks.items()},
                         p.get("max_nodes") or 0, p.get("timeout"), workers=WORKERS, stacks=bool(p.get("stacks")))


def _seat(p: dict):
    seat = p.get("seat")
    if seat is None:
        return None
    seat = seat.strip().upper()
    if seat not in ("A", "B"):
        raise _usage(f"--seat: bad seat {seat[:20]!r}: choose A or B")
    return seat


@answers_as("hint")
def hint(params: dict) -> dict:
    """``imp hint --json``, with ``table`` the real-table hint (``imp hint --table --json``)."""
    from ..bottleimp.answers import hint_answer, table_hint_answer
    p = checked(params)
    if p.get("table"):
        if p.get("position") is not None:
            raise _usage("--table takes a deal and --moves (what the player saw happen) or a table view FILE; "
                         "a --position has no history of what the player saw")
        seat = _seat(p)
        d = _deal(p)
        return table_hint_answer(d.start(), p.get("moves", ""), seat, d.seed, p["time"], workers=WORKERS,
                                 explain_card=p.get("explain"), against=p.get("against"),
                                 samples=p.get("samples") or 0, opponent=p.get("opponent"))
    for key in ("seat", "against", "samples", "opponent"):
        if p.get(key) is not None:
            raise _usage(f"--{key} goes with --table (the real-table hint); the hint with the deal known is for "
                         f"the player to move and needs no opponent")
    start, seed, blocks = _start(p)
    return hint_answer(start, p.get("moves", ""), seed, blocks, p["time"], explain_card=p.get("explain"),
                       workers=WORKERS)


@answers_as("match")
def match(params: dict) -> dict:
    """``imp match --json``: the match's rounds and the running score after ``lines``."""
    from ..bottleimp import Rules
    from ..bottleimp.answers import match_answer
    from ..bottleimp.match import match_of
    p = checked(params)
    rules = Rules(p.get("variant", "lopaka"), int(p["players"]) if p.get("players") is not None else None,
                  p.get("cards", "classic"))
    return match_answer(match_of(rules, p.get("seed"), p["rounds"], p.get("deal") is not None), p.get("lines", ""))


@answers_as("puzzle")
def puzzle(params: dict) -> dict:
    from ..bottleimp import Rules
    from ..bottleimp.answers import puzzles_answer
    from ..bottleimp.puzzle import find_puzzles
    from ..shuffle import check_seed
    p = checked(params)
    one_of_variant = option_value("--variant", one_of, p.get("variant", "lopaka"), ("lopaka", "glitzerhaus"))
    rules = Rules(one_of_variant, None, p.get("cards", "classic"))
    first = check_seed(p.get("seed", "1"), "--seed")
    tricks_left, count = p.get("tricks_left", 3), p.get("count", 1)
    return puzzles_answer(find_puzzles(rules, tricks_left, first, count), rules, tricks_left, first, count,
                          p.get("reveal", False))


def _daily_puzzle(p: dict):
    from ..bottleimp import Rules
    from ..bottleimp.puzzle import PuzzleError, daily_puzzle
    from ..values import calendar_date
    variant = option_value("--variant", one_of, p.get("variant", "lopaka"), ("lopaka", "glitzerhaus"))
    rules = Rules(variant, None, p.get("cards", "classic"))
    date = calendar_date(p["date"], PuzzleError)
    return daily_puzzle(date, rules, p.get("method")), date


@answers_as("daily")
def daily(params: dict) -> dict:
    from ..bottleimp.answers import daily_answer
    p = checked(params)
    puzzle_, date = _daily_puzzle(p)
    return daily_answer(puzzle_, date, p.get("reveal", False))


@answers_as("play")
def game(params: dict) -> dict:
    """``imp play --json`` (one step): with ``date`` the daily puzzle's deal, the game starting
    at the puzzle's position (its line), the seat by default the one the puzzle asks."""
    from ..bottleimp import deal as deal_of
    from ..bottleimp.answers import game_answer
    from ..bottleimp.notation import format_line, line_of
    from ..shuffle import check_seed
    p = checked(params)
    line, seat = p.get("line", ""), p.get("seat")
    if p.get("date") is not None:
        if p.get("seed") is not None or p.get("deal") is not None:
            raise _usage("date: a daily game takes no seed or deal")
        puzzle_, _ = _daily_puzzle(p)
        d = deal_of(puzzle_.seed, puzzle_.rules)
        if not line:
            line = format_line(line_of(puzzle_.start, list(puzzle_.actions)))
        seat = seat or puzzle_.to_play
    else:
        d = _deal(p)
    check_seed(p.get("bot_seed", 0), "--bot-seed")
    return game_answer(d, line, seat or "A", p.get("bot", "lopaka-rule"), p.get("bot_seed", 0), p.get("move"),
                       p.get("reveal", False))


# Before the first request: the imports and the engine's core loaded.
WARM_UP = (hint, ({"seed": "42", "moves": "pass 1 12", "time": "0.2"},))
