"""The Bottle Imp's endpoints: ``/api/imp/deal``, ``/api/imp/solve``, ... and ``/api/imp/game``.

As solver/web/scoundrel.py for Scoundrel: each endpoint is the ``scoundrel-solve imp``
command it is named for (``= scoundrel-solve imp hint --json``), its parameters the
command's options without the dashes, its answer the object the command prints, made in
a solver process by the same library call (solver/web/bottleimp_jobs.py).  Here the
server's part: the parameters, the budgets it grants, which pool.  Real-table hints,
reviews, puzzles and dailies go to the heavy pool; a whole Lopaka deal's solve (121 solves) runs
within its ``timeout`` like any other.  A game is its deal and its line: no session.
"""
from __future__ import annotations

import datetime

from . import bottleimp_jobs as jobs
from .api import BOOL, INT, JSON, NUM, STR, Endpoint, in_order

GAME = {"variant": STR, "players": STR, "cards": STR, "seed": STR, "deal": STR}
PUZZLE = {"variant": STR, "cards": STR, "reveal": BOOL}

WARM_UP = jobs.WARM_UP


async def position(service, ep: Endpoint, params: dict) -> tuple:
    """``deal`` and ``replay``: no search."""
    job = (getattr(jobs, ep.command), (in_order(params, ep.params),))
    return await service.run(service.solo, job, service.deadline(service.limits.budget))


async def solve(service, ep: Endpoint, params: dict) -> tuple:
    seconds = service.seconds(params, "timeout", service.limits.budget)
    return await service.run(service.solo, (jobs.solve, (in_order(params, ep.params),)), service.deadline(seconds))


async def review(service, ep: Endpoint, params: dict) -> tuple:
    """A whole round's review is some 20-30 play-phase searches and a matrix game (3-10 s here):
    the heavy pool, within ``timeout`` (default the server's largest budget, so that a review
    asked without one comes back exact; a review stopped by it gives bounds, ``exact`` false)."""
    seconds = service.seconds(params, "timeout", service.limits.max_budget)
    job = (jobs.review, (in_order(params, ep.params),))
    return await service.run(service.heavy, job, service.deadline(seconds))


async def hint(service, ep: Endpoint, params: dict) -> tuple:
    """``hint`` (the deal known) and ``explain`` (``hint --explain CARD``); ``table=true`` the
    real-table hint, in the heavy pool.  Within ``time`` (default the CLI's 2 s)."""
    if "card" in params:
        params["explain"] = params.pop("card")
    seconds = service.seconds(params, "time", service.limits.hint_time)
    pool = service.heavy if params.get("table") else service.solo
    keys = [*GAME, "position", "moves", "explain", "table", "seat", "against", "samples", "opponent", "time"]
    return await service.run(pool, (jobs.hint, (in_order(params, keys),)), service.deadline(seconds))


async def puzzle(service, ep: Endpoint, params: dict) -> tuple:
    """Puzzles take no budget of their own: the server's largest."""
    job = (jobs.puzzle, (in_order(params, ep.params),))
    return await service.run(service.heavy, job, service.deadline(service.limits.max_budget))


def _today(params: dict) -> None:
    if "date" not in params or params["date"] == "today":
        params["date"] = datetime.datetime.now(datetime.timezone.utc).date().isoformat()


async def daily(service, ep: Endpoint, params: dict) -> tuple:
    """A daily never changes: each is kept once made (solver/web/app.py, ``prepared``)."""
    _today(params)
    asked = in_order(params, ep.params)
    return await service.prepared(
        ("imp-daily", *asked.items()), service.heavy, (jobs.daily, (asked,)),
        busy="too many dailies being prepared: try again shortly",
        still=f"the Bottle Imp's daily puzzle {params['date']} is still being prepared: ask again shortly")


async def game(service, ep: Endpoint, params: dict) -> tuple:
    """One step of a game against a bot; the table and double-dummy bots search, so a step
    gets the server's largest budget."""
    if params.get("date") == "today":
        _today(params)
    pool = service.heavy if params.get("bot") in ("table", "double-dummy") else service.solo
    job = (jobs.game, (in_order(params, ep.params),))
    return await service.run(pool, job, service.deadline(service.limits.max_budget))


ENDPOINTS = [
    Endpoint("/api/imp/deal", "deal", dict(GAME), "The Bottle Imp: the hands of a deal (= scoundrel-solve imp deal "
             "--json).", "imp-deal", handler=position),
    Endpoint("/api/imp/replay", "replay", {**GAME, "line": STR, "position": JSON},
             "The Bottle Imp: play a line from the deal (or a position), the tricks and the position after it "
             "(= scoundrel-solve imp replay --json).", "imp-replay", handler=position),
    Endpoint("/api/imp/solve", "solve", {**GAME, "position": JSON, "moves": STR, "max_nodes": INT, "timeout": NUM},
             "The Bottle Imp: the double-dummy value of a deal or a position after moves (= scoundrel-solve imp "
             "solve --json).", "imp-solve", handler=solve),
    Endpoint("/api/imp/review", "review", {**GAME, "line": STR, "max_nodes": INT, "timeout": NUM, "stacks": BOOL},
             "The Bottle Imp: where did each player lose it, the double-dummy review of a round: every card's value "
             "before and after and its loss, the exchange or the open stacks against the other player's actual "
             "choice (= scoundrel-solve imp review --json).", "imp-review", handler=review),
    Endpoint("/api/imp/match", "match", {**GAME, "rounds": INT, "lines": STR},
             "The Bottle Imp: a match of several rounds, their number agreed before: each round's deal number, "
             "dealer and seats, and the running score after the rounds played (= scoundrel-solve imp match --json).",
             "imp-match", ("rounds",), handler=position),
    Endpoint("/api/imp/hint", "hint", {**GAME, "position": JSON, "moves": STR, "explain": STR, "table": BOOL,
                                       "seat": STR, "against": STR, "samples": INT, "opponent": STR, "time": NUM},
             "The Bottle Imp: every legal card's double-dummy margin (the deal known), or with table=true the "
             "real-table hint from what the player to move knows, and at a setup step the setup hint of seat "
             "(A or B) over samples drawn deals or within time (= scoundrel-solve imp hint [--table] --json).",
             "imp-hint", handler=hint),
    Endpoint("/api/imp/explain", "explain", {**GAME, "position": JSON, "moves": STR, "card": STR, "table": BOOL,
                                             "seat": STR, "time": NUM},
             "The Bottle Imp: why (not) this card: its line beside the best card's (= scoundrel-solve imp hint "
             "--explain CARD [--table] --json).", "imp-hint", ("card",), handler=hint),
    Endpoint("/api/imp/puzzle", "puzzle", {**PUZZLE, "tricks_left": INT, "seed": STR, "count": INT},
             "The Bottle Imp: double-dummy puzzles (= scoundrel-solve imp puzzle --json).", "imp-puzzles",
             handler=puzzle),
    Endpoint("/api/imp/daily", "daily", {**PUZZLE, "date": STR, "method": STR},
             "The Bottle Imp: the daily puzzle of a date, today (UTC) by default (= scoundrel-solve imp daily "
             "--json).", "imp-daily", handler=daily),
    Endpoint("/api/imp/game", "game", {**GAME, "date": STR, "method": STR, "seat": STR, "bot": STR, "bot_seed": INT,
                                       "line": STR, "move": STR, "reveal": BOOL},
             "The Bottle Imp against a bot, one step: the game after the line, your move (a card or your part of "
             "a setup step) and the bots' cards to your next turn, as your seat sees it (= scoundrel-solve imp "
             "play --moves LINE --move MOVE --json).", "imp-game", handler=game),
]
