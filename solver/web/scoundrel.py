"""Scoundrel's endpoints: ``/api/solve``, ``/api/hint``, ... and the game steps ``/api/game/...``.

Each endpoint is the CLI command it is named for (``= scoundrel-solve hint
--json``): its parameters are the command's options without the dashes, and
its answer the object the command prints, made in a solver process by the same
library call (solver/web/scoundrel_jobs.py).  Here the server's part: the
parameters, the budgets the server grants (solver/web/app.py, :class:`Service`),
and which pool a request goes to (co-op, real-table hints, ratings and co-op
dailies to the heavy one).  A game is its deal and its line: the server keeps
no session.
"""
from __future__ import annotations

import datetime
import json

from . import scoundrel_jobs as jobs
from .api import BOOL, INT, JSON, NUM, STR, BadRequest, Endpoint, in_order, int_or

RULES = {"mode": STR, "flee": STR, "durability": STR, "deck_size": STR}
GAME = {"seed": STR, "deck": STR, **RULES}
SEARCH = {"max_nodes": INT, "timeout": NUM, "tt_mb": INT}
TABLE = {"table": BOOL, "room": STR, "health": STR, "weapon": STR, "last_kill": STR, "leader": INT,
         "taken": INT, "potion_used": STR, "help_used": BOOL, "avoided": BOOL, "gone": STR, "unseen": STR,
         "bottom": STR, "position": JSON, "samples": INT, "rng_seed": INT}
# the real-table hint's opt-in depth-1 figure (hint --lookahead depth1 [--depth1-deals N] [--depth1-orders M])
LOOKAHEAD = {"lookahead": STR, "depth1_deals": INT, "depth1_orders": INT}
DAILY = {"date": STR, "difficulty": STR, "method": STR}

WARM_UP = jobs.WARM_UP


def _heavy(params: dict) -> bool:
    if params.get("mode") == "coop":
        return True
    position = params.get("position")
    if position is not None:
        try:
            return json.loads(position).get("rules", {}).get("mode") == "coop"
        except (ValueError, AttributeError):
            return False
    return False


def _pool(service, params: dict):
    return service.heavy if _heavy(params) else service.solo


async def hint(service, ep: Endpoint, params: dict) -> tuple:
    pool = _pool(service, params)
    if "line" in params:
        params["moves"] = params.pop("line")
    real_table = params.get("table") or "room" in params or "position" in params
    service.table_mb(params)
    if real_table:
        # the whole hint within its time (the library leaves out the orders it
        # cannot solve in time and says so), by default a hint's (the CLI's default)
        pool = service.heavy
        seconds = service.seconds(params, "time", service.limits.hint_time)
    elif "timeout" in params or "max_nodes" in params:
        seconds = service.seconds(params, "timeout", service.limits.budget)
    else:
        seconds = service.seconds(params, "time", service.limits.hint_time)
    keys = ["moves" if k == "line" else k for k in ep.params]      # /api/game/hint: the game's line
    return await service.run(pool, (jobs.hint, (in_order(params, keys),)), service.deadline(seconds))


async def search(service, ep: Endpoint, params: dict) -> tuple:
    """``solve`` and ``rate``: within the server's time and table."""
    seconds = service.search_budget(params)
    pool = service.heavy if ep.command == "rate" else _pool(service, params)
    job = (getattr(jobs, ep.command), (in_order(params, ep.params),))
    return await service.run(pool, job, service.deadline(seconds))


async def position(service, ep: Endpoint, params: dict) -> tuple:
    """``replay`` and ``deal``: no search."""
    job = (getattr(jobs, ep.command), (in_order(params, ep.params),))
    return await service.run(_pool(service, params), job, service.deadline(service.limits.budget))


async def explain(service, ep: Endpoint, params: dict) -> tuple:
    seconds = service.search_budget(params)
    max_nodes = int_or(params.get("max_nodes"), "max_nodes")
    asked = {**in_order(params, GAME), "moves": params.get("moves", ""), "explain": params["move"],
             "tt_mb": str(int_or(params["tt_mb"], "tt_mb")),
             "max_nodes": None if max_nodes is None else str(max_nodes), "timeout": float(params["timeout"])}
    return await service.run(_pool(service, params), (jobs.explain, (asked,)), service.deadline(seconds))


async def daily(service, ep: Endpoint, params: dict) -> tuple:
    """A daily never changes: each is kept once made; one not ready in time answers 503
    and goes on being prepared (a co-op daily can take minutes)."""
    if "date" not in params or params["date"] == "today":
        params["date"] = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    asked = in_order(params, ["date", *RULES, "difficulty", "method", "reveal"])
    pool = _pool(service, params)    # a solo daily is a second's work
    return await service.prepared(
        ("daily", *asked.items()), pool, (jobs.daily, (asked,)),
        busy="too many dailies being prepared: try again shortly",
        still=f"the daily challenge {params['date']} is still being prepared (a co-op daily can take minutes): "
              f"ask again shortly")


async def new_game(service, ep: Endpoint, params: dict) -> tuple:
    daily_keys = [k for k in DAILY if k in params]
    if daily_keys:
        if "seed" in params or "deck" in params:
            raise BadRequest(f"{daily_keys[0]}: a daily game takes no seed or deck")
        if "date" not in params:
            raise BadRequest(f"{daily_keys[0]}: goes with date (date=today for today's daily)")
        status, obj = await daily(service, ep, dict(params))
        if status != 200:
            return status, obj
        params = {k: v for k, v in params.items() if k in RULES}
        params["seed"] = str(obj["seed"])
    job = (jobs.replay, (in_order(params, GAME),))
    return await service.run(_pool(service, params), job, service.deadline(service.limits.budget))


async def move(service, ep: Endpoint, params: dict) -> tuple:
    asked = {**in_order(params, GAME), "line": params.get("line", ""), "move": params["move"]}
    return await service.run(_pool(service, params), (jobs.move, (asked,)), service.deadline(service.limits.budget))


async def undo(service, ep: Endpoint, params: dict) -> tuple:
    count = int_or(params.get("count", "1"), "count")
    if count < 1:
        raise BadRequest("count: at least 1")
    asked = {**in_order(params, GAME), "line": params.get("line", ""), "count": count}
    return await service.run(_pool(service, params), (jobs.undo, (asked,)), service.deadline(service.limits.budget))


ENDPOINTS = [
    Endpoint("/api/solve", "solve", {**GAME, **SEARCH}, "Solve a dungeon: the optimal score, proven, and a line "
             "(= scoundrel-solve solve --json).", "solve", handler=search),
    Endpoint("/api/hint", "hint", {**GAME, "moves": STR, **TABLE, **LOOKAHEAD, "time": NUM, **SEARCH},
             "The best next action and every action's value: exact for a numbered deal, real-table with "
             "table=true, room=... or position={...} (= scoundrel-solve hint --json).", "hint", handler=hint),
    Endpoint("/api/explain", "explain", {**GAME, "moves": STR, "move": STR, **SEARCH},
             "Why (not) this move: its best line next to the best move's, room by room, up to where it falls "
             "behind (= scoundrel-solve hint --explain MOVE --json).", "explain",
             ("move",), handler=explain),
    Endpoint("/api/replay", "replay", {**GAME, "line": STR},
             "Play a line from the start, show the position (= scoundrel-solve replay --json).", "replay",
             handler=position),
    Endpoint("/api/deal", "deal", dict(GAME), "The dungeon of a deal (= scoundrel-solve deal --json).", "deal",
             handler=position),
    Endpoint("/api/rate", "rate", {**GAME, **SEARCH}, "How hard a deal is (= scoundrel-solve rate --json).",
             "rate", handler=search),
    Endpoint("/api/daily", "daily", {**DAILY, **RULES, "reveal": BOOL},
             "The daily challenge of a date, today (UTC) by default (= scoundrel-solve daily --json).", "daily",
             handler=daily),
    Endpoint("/api/game/new", "new", {**GAME, **DAILY},
             "Start a game: a numbered deal, a deck, or the daily of a date (date=today for today's).", "replay",
             handler=new_game),
    Endpoint("/api/game/move", "move", {**GAME, "line": STR, "move": STR},
             "Play a move (or several of one room) after the line; the game is its line.", "replay", ("move",),
             handler=move),
    Endpoint("/api/game/undo", "undo", {**GAME, "line": STR, "count": INT},
             "Take back the last move (or count moves) of the line.", "replay", handler=undo),
    Endpoint("/api/game/hint", "hint", {**GAME, "line": STR, "table": BOOL, "samples": INT, "rng_seed": INT,
                                        **LOOKAHEAD, "time": NUM, **SEARCH},
             "The hint of the game's position (the line played so far).", "hint", handler=hint),
]
