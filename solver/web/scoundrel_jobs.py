"""Scoundrel's jobs, as a solver process of the service runs them: parameters in, an answer out.

Each job takes the parameters of one request (text as the CLI's options would
get them, flags as booleans), checks each as the CLI checks its option of the
same name (solver/values.py), builds the game (solver/scoundrel/game.py) and
calls the library's answer (solver/scoundrel/answers.py), the function the CLI's
``--json`` prints: so the service and the command line cannot differ, and no
command line runs here.  Bad input is ``(400, error)`` with the CLI's own line
(a usage error with its pointer to the command's help, as the CLI prints it).
"""
from __future__ import annotations

import io

from ..errors import InputError
from ..values import MAX_NODES, MAX_RNG_SEED, MAX_SAMPLES, MAX_TT_MB, one_of, seconds, whole_number
from .api import error
from .worker import answers_as as answering
from .worker import check_options

PROGRAM = "scoundrel-solve"


def _checks() -> dict:
    """Option name -> (check, its arguments): the CLI's types of the same options (cli/options.py,
    cli/scoundrel/options.py, cli/scoundrel/hint.py, cli/scoundrel/daily.py; tests/scoundrel/test_service.py
    holds the two to the same words)."""
    from ..scoundrel.daily import METHODS
    from ..scoundrel.rating import LABEL_NAMES
    from ..scoundrel.rules import DECK_SIZES, DURABILITIES, FLEES, MODES
    from ..scoundrel.tablehint import LOOKAHEADS
    return {
        "mode": (one_of, MODES), "flee": (one_of, FLEES), "durability": (one_of, DURABILITIES),
        "deck_size": (one_of, tuple(str(n) for n in DECK_SIZES)),
        "max_nodes": (whole_number, 1, MAX_NODES, "the search counts nodes in 64 bits"),
        "timeout": (seconds,), "tt_mb": (whole_number, 1, MAX_TT_MB), "time": (seconds, True),
        "leader": (whole_number, 1, 2), "taken": (whole_number, 0, 3),
        "samples": (whole_number, 1, MAX_SAMPLES), "rng_seed": (whole_number, 0, MAX_RNG_SEED),
        "difficulty": (one_of, LABEL_NAMES[:-1]), "method": (one_of, METHODS),
        "lookahead": (one_of, LOOKAHEADS), "depth1_deals": (whole_number, 1, MAX_SAMPLES),
        "depth1_orders": (whole_number, 1, MAX_SAMPLES),
    }


def checked(params: dict) -> dict:
    """``params`` with each value the CLI types checked and typed (the first bad one named)."""
    return check_options(params, _checks())


def _choice(p: dict):
    from ..scoundrel.game import DECK_PARAMS, RULE_PARAMS, GameChoice
    return GameChoice(**{k: p[k] for k in RULE_PARAMS + DECK_PARAMS if k in p},
                      given=frozenset(k for k in RULE_PARAMS if k in p))


def _search(p: dict) -> dict:
    return {"max_nodes": p.get("max_nodes"), "timeout": p.get("timeout"), "tt_mb": p["tt_mb"]}


def _core_missing() -> tuple:
    from ..scoundrel.search import CoreMissingError
    return ((CoreMissingError, 500),)


def answers_as(command: str):
    """The job answers as ``scoundrel-solve COMMAND --json`` would: its object (200), or its
    error line (400 for bad input, 503 out of memory, 500 when the search core is missing)."""
    return answering(f"{PROGRAM} {command}", "try a smaller --tt-mb", _core_missing)


@answers_as("solve")
def solve(params: dict) -> dict:
    from ..scoundrel.answers import solve_answer
    p = checked(params)
    return solve_answer(_choice(p).game(), **_search(p))


@answers_as("rate")
def rate(params: dict) -> dict:
    from ..scoundrel.answers import rate_answer
    p = checked(params)
    return rate_answer(_choice(p).game(), **_search(p))


@answers_as("deal")
def deal(params: dict) -> dict:
    from ..scoundrel.answers import deal_answer
    return deal_answer(_choice(checked(params)).game())


@answers_as("replay")
def replay(params: dict) -> dict:
    from ..scoundrel.answers import replay_answer
    p = checked(params)
    return replay_answer(_choice(p).game(), p.get("line", ""))


@answers_as("daily")
def daily(params: dict) -> dict:
    from ..scoundrel.answers import daily_answer
    from ..scoundrel.daily import parse_date
    p = checked(params)
    date = parse_date(p["date"])
    return daily_answer(date, _choice(p).rules(), p.get("difficulty"), p.get("method"), p.get("reveal", False))


class _Text(io.StringIO):
    """A position sent with the request, read as the CLI reads ``--position -``."""

    name = "-"


@answers_as("hint")
def hint(params: dict) -> dict:
    from ..scoundrel.answers import TABLE_FLAGS, TableFlags, hint_answer
    p = checked(params)
    flags = {k: p[k] for k in TABLE_FLAGS if k in p}
    if "position" in flags:
        flags["position"] = _Text(flags["position"])
    return hint_answer(_choice(p), p.get("moves", ""), p.get("explain"), p.get("table", False), TableFlags(**flags),
                       samples=p.get("samples"), rng_seed=p.get("rng_seed"), budget=p.get("time"),
                       lookahead=p.get("lookahead"), depth1_deals=p.get("depth1_deals"),
                       depth1_orders=p.get("depth1_orders"), **_search(p))


def explain(params: dict) -> tuple:
    """``hint --explain MOVE --json``: ``timeout`` is the budget of the whole explanation
    (``--time``), or with ``max_nodes`` the limit of each of its searches."""
    p = dict(params)
    t = float(f"{p.pop('timeout'):g}")
    if p.get("max_nodes") is not None:
        p["timeout"] = t
    else:
        p.pop("max_nodes", None)
        p["time"] = t
    return hint(p)


def _step(params: dict, new_line) -> tuple:
    """A game step: the line after it (its errors are the library's, as a line of ``play``),
    then the game there as ``replay`` answers it."""
    from ..scoundrel.game import DECK_PARAMS, RULE_PARAMS
    try:
        line = new_line(_choice(params).game())
    except InputError as exc:
        return 400, error(str(exc), 400)
    game = {k: params[k] for k in DECK_PARAMS + RULE_PARAMS if k in params}
    return replay({**game, "line": line})


def move(params: dict) -> tuple:
    """The game after one more move (or several of one room) played after ``line``."""
    from ..scoundrel.answers import moved_line
    return _step(params, lambda game: moved_line(game, params.get("line", ""), params["move"]))


def undo(params: dict) -> tuple:
    """The game without the last ``count`` moves of ``line``."""
    from ..scoundrel.answers import undone_line
    return _step(params, lambda game: undone_line(game, params.get("line", ""), params["count"]))


# Before the first request: the imports, and the helper processes that an exact hint within a
# time budget starts (solver/scoundrel/budget.py), so the first player's hint does not wait for them.
WARM_UP = (hint, ({"deck": "5D 3S 4H 9C 2D 7S", "time": "0.2", "tt_mb": "256"},))
