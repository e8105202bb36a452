"""The ASGI app: routes, parameters, budgets and the two solver pools.

Each ``/api/...`` endpoint takes its parameters from the query string (GET)
or a JSON object (POST), named as the CLI's options without the dashes
(``deck_size`` for ``--deck-size``), turns them into that command line and
answers with the object the command prints with ``--json``.  Budgets are the
server's: every search gets a time limit (``timeout`` / ``time``) and a table
size (``tt_mb``) no larger than the server allows, so a request past its
budget answers with its honest partial result (``exact`` false).  Co-op,
real-table hints, ratings and dailies go to one pool of solver processes and
everything solo to another, so a slow co-op request never waits in front of
a solo hint.
"""
from __future__ import annotations

import asyncio
import datetime
import json
import math
import pathlib
import sys
from collections import OrderedDict
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .. import jsonform
from .pool import Busy, Overtime, SolverPool
from .worker import error

STATIC = pathlib.Path(__file__).with_name("static")
MAX_BODY = 64 * 1024


class BadRequest(Exception):
    """A parameter the server refuses before any solver sees it (HTTP 400)."""


@dataclass
class Limits:
    """What the server allows one request; ``scoundrel-solve serve`` sets them."""

    workers: int = 2               # solver processes for solo requests
    coop_workers: int = 1          # and for co-op, real-table hints, ratings and dailies
    queue: int = 16                # jobs that may wait for a pool before it answers busy
    queue_wait: float = 60.0       # and the longest one waits for a free solver
    budget: float = 5.0            # seconds of search a request gets when it asks none
    max_budget: float = 30.0       # the most a request may ask
    hint_time: float = 2.0         # an exact hint's --time when it asks none (the CLI's default)
    tt_mb: int = 64                # table memory of a search when it asks none
    max_tt_mb: int = 256           # the most a request may ask
    worker_mb: int = 2048          # address-space cap of each solver process
    grace: float = 5.0             # hard deadline = budget * 2 + grace, then the process is killed
    daily_wait: float = 10.0       # a daily not ready by then answers 503 and goes on being prepared
    daily_limit: float = 1800.0    # and is given up after this long

    def check(self) -> None:
        if self.workers < 1 or self.coop_workers < 1 or self.queue < 1 or self.budget <= 0 or self.max_budget < self.budget:
            raise ValueError("bad service limits")


# ------------------------------------------------------------------ parameters
STR, INT, NUM, BOOL, JSON = "text", "integer", "number", "boolean", "object"
RULES = {"mode": STR, "flee": STR, "durability": STR, "deck_size": STR}
GAME = {"seed": STR, "deck": STR, **RULES}
SEARCH = {"max_nodes": INT, "timeout": NUM, "tt_mb": INT}
TABLE = {"table": BOOL, "room": STR, "health": STR, "weapon": STR, "last_kill": STR, "leader": INT,
         "taken": INT, "potion_used": STR, "help_used": BOOL, "avoided": BOOL, "gone": STR, "unseen": STR,
         "bottom": STR, "position": JSON, "samples": INT, "rng_seed": INT}
DAILY = {"date": STR, "difficulty": STR, "method": STR}


@dataclass(frozen=True)
class Endpoint:
    path: str
    command: str           # the CLI command, or a game step
    params: dict
    summary: str
    answers: str           # the schema $defs entry of a success
    required: tuple = ()
    fields: dict = field(default_factory=dict)


ENDPOINTS = [
    Endpoint("/api/solve", "solve", {**GAME, **SEARCH}, "Solve a dungeon: the optimal score, proven, and a line "
             "(= scoundrel-solve solve --json).", "solve"),
    Endpoint("/api/hint", "hint", {**GAME, "moves": STR, **TABLE, "time": NUM, **SEARCH},
             "The best next action and every action's value: exact for a numbered deal, real-table with "
             "table=true, room=... or position={...} (= scoundrel-solve hint --json).", "hint"),
    Endpoint("/api/explain", "explain", {**GAME, "moves": STR, "move": STR, **SEARCH},
             "Why (not) this move: its best line next to the best move's, room by room, up to where it falls "
             "behind (= scoundrel-solve hint --explain MOVE --json).", "explain",
             ("move",)),
    Endpoint("/api/replay", "replay", {**GAME, "line": STR},
             "Play a line from the start, show the position (= scoundrel-solve replay --json).", "replay"),
    Endpoint("/api/deal", "deal", dict(GAME), "The dungeon of a deal (= scoundrel-solve deal --json).", "deal"),
    Endpoint("/api/rate", "rate", {**GAME, **SEARCH}, "How hard a deal is (= scoundrel-solve rate --json).",
             "rate"),
    Endpoint("/api/daily", "daily", {**DAILY, **RULES, "reveal": BOOL},
             "The daily challenge of a date, today (UTC) by default (= scoundrel-solve daily --json).", "daily"),
    Endpoint("/api/game/new", "new", {**GAME, **DAILY},
             "Start a game: a numbered deal, a deck, or the daily of a date (date=today for today's).", "replay"),
    Endpoint("/api/game/move", "move", {**GAME, "line": STR, "move": STR},
             "Play a move (or several of one room) after the line; the game is its line.", "replay", ("move",)),
    Endpoint("/api/game/undo", "undo", {**GAME, "line": STR, "count": INT},
             "Take back the last move (or count moves) of the line.", "replay"),
    Endpoint("/api/game/hint", "hint", {**GAME, "line": STR, "table": BOOL, "samples": INT, "rng_seed": INT,
                                        "time": NUM, **SEARCH},
             "The hint of the game's position (the line played so far).", "hint"),
]


def _merge(query, body) -> dict:
    out = {}
    for key in query.keys():
        values = query.getlist(key)
        if len(values) > 1:
            raise BadRequest(f"{key}: given {len(values)} times")
        out[key] = values[0]
    for key, value in body.items():
        if key in out:
            raise BadRequest(f"{key}: given both in the query and in the body")
        out[key] = value
    return out


async def _params(request: Request, ep: Endpoint) -> dict:
    body = {}
    if request.method == "POST":
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise BadRequest(f"the request body is over {MAX_BODY // 1024} KB")
        if raw.strip():
            try:   # the CLI's strict reader: no NaN, no key twice, deep nesting refused (not a 500)
                body = jsonform.loads(raw.decode("utf-8"), "the request body")
            except UnicodeDecodeError:
                raise BadRequest("the request body is not UTF-8 text") from None
            except jsonform.JSONInputError as exc:
                raise BadRequest(str(exc)) from None
            if not isinstance(body, dict):
                raise BadRequest("the request body must be a JSON object of parameters")
    params = _merge(request.query_params, body)
    for key in params:
        if key not in ep.params:
            raise BadRequest(f"unknown parameter {key!r} for {ep.path} (known: {', '.join(ep.params)})")
    for key in ep.required:
        if key not in params:
            raise BadRequest(f"{key}: required by {ep.path}")
    return {k: _typed(k, v, ep.params[k]) for k, v in params.items()}


def _typed(key, value, kind):
    """A parameter as the CLI will read it (a string), or a bool for a flag."""
    if kind == BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "1", "yes", ""):
            return True
        if isinstance(value, str) and value.lower() in ("false", "0", "no"):
            return False
        raise BadRequest(f"{key}: expected true or false, got {json.dumps(value)[:40]}")
    if kind == JSON:
        if isinstance(value, str):
            return value
        if isinstance(value, dict):
            return json.dumps(value)
        raise BadRequest(f"{key}: expected a JSON object (a position, docs/json.md)")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise BadRequest(f"{key}: expected a {kind}, got {json.dumps(value)[:40]}")
    if kind == INT and isinstance(value, float):
        raise BadRequest(f"{key}: expected a whole number, got {value!r}")
    return str(value)


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None         # not a number: the CLI names it in its own message


def _option(key: str) -> str:
    return "--" + key.replace("_", "-")


def _argv(params: dict, keys) -> list:
    out = []
    for key in keys:
        if key not in params:
            continue
        value = params[key]
        if value is True:
            out.append(_option(key))
        elif value is not False:
            out += [_option(key), value]
    return out


class Service:
    """The state of one server: its limits, its pools, its cache of dailies."""

    def __init__(self, limits: Limits):
        limits.check()
        self.limits = limits
        self.solo = SolverPool("solo", limits.workers, limits.queue, limits.worker_mb)
        self.heavy = SolverPool("co-op", limits.coop_workers, limits.queue, limits.worker_mb, nice=10)
        self.dailies = OrderedDict()       # argv -> (status, object): deterministic, so kept
        self.preparing = {}                # argv -> task still solving it

    def start(self) -> None:
        self.solo.start()
        self.heavy.start()

    def close(self) -> None:
        for task in self.preparing.values():
            task.cancel()
        self.solo.close()
        self.heavy.close()

    # ---- budgets
    def _seconds(self, params: dict, key: str, default: float) -> float:
        if key not in params:
            params[key] = f"{default:g}"
            return default
        t = _number(params[key])
        if t is None or not math.isfinite(t) or t <= 0:
            raise BadRequest(f"{key}: {params[key]!r} is not a number of seconds more than 0 "
                             f"(0, no limit, is not served)")
        if t > self.limits.max_budget:
            raise BadRequest(f"{key}: at most {self.limits.max_budget:g} seconds on this server (asked {t:g})")
        return t

    def _table_mb(self, params: dict) -> None:
        if "tt_mb" not in params:
            params["tt_mb"] = str(self.limits.tt_mb)
            return
        mb = _int_or(params["tt_mb"], "tt_mb")
        if not 1 <= mb <= self.limits.max_tt_mb:
            raise BadRequest(f"tt_mb: from 1 to {self.limits.max_tt_mb} MB on this server (asked {mb})")

    def _search_budget(self, params: dict) -> float:
        self._table_mb(params)
        return self._seconds(params, "timeout", self.limits.budget)

    def _deadline(self, seconds: float) -> float:
        return 2 * seconds + self.limits.grace

    # ---- jobs
    @staticmethod
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

    def _rules_argv(self, params: dict) -> list:
        return _argv(params, GAME)

    async def answer(self, ep: Endpoint, params: dict) -> tuple:
        cmd = ep.command
        pool = self.heavy if self._heavy(params) else self.solo
        if cmd == "hint":
            if "line" in params:
                params["moves"] = params.pop("line")
            real_table = params.get("table") or "room" in params or "position" in params
            self._table_mb(params)
            if real_table:
                # the whole hint within its time (the library leaves out the orders it
                # cannot solve in time and says so), by default a hint's (the CLI's default)
                pool = self.heavy
                seconds = self._seconds(params, "time", self.limits.hint_time)
            elif "timeout" in params or "max_nodes" in params:
                seconds = self._seconds(params, "timeout", self.limits.budget)
            else:
                seconds = self._seconds(params, "time", self.limits.hint_time)
            stdin = None
            if "position" in params:
                stdin = params.pop("position")
                params["position"] = "-"
            argv = ["hint", *_argv(params, ep.params.keys() | {"moves"}), "--json"]
            return await self._run(pool, ("cli", argv, stdin), self._deadline(seconds))
        if cmd in ("solve", "rate"):
            seconds = self._search_budget(params)
            if cmd == "rate":
                pool = self.heavy
            argv = [cmd, *_argv(params, ep.params), "--json"]
            return await self._run(pool, ("cli", argv, None), self._deadline(seconds))
        if cmd in ("replay", "deal"):
            return await self._run(pool, ("cli", [cmd, *_argv(params, ep.params), "--json"], None),
                                   self._deadline(self.limits.budget))
        if cmd == "explain":
            seconds = self._search_budget(params)
            limits = {"timeout": float(params["timeout"]), "tt_mb": _int_or(params["tt_mb"], "tt_mb"),
                      "max_nodes": _int_or(params.get("max_nodes"), "max_nodes")}
            job = ("explain", self._rules_argv(params), params.get("moves", ""), params["move"], limits)
            return await self._run(pool, job, self._deadline(seconds))
        if cmd == "daily":
            return await self.daily(params)
        if cmd == "new":
            return await self.new_game(ep, params, pool)
        if cmd == "move":
            job = ("move", self._rules_argv(params), params.get("line", ""), params["move"])
            return await self._run(pool, job, self._deadline(self.limits.budget))
        if cmd == "undo":
            count = _int_or(params.get("count", "1"), "count")
            if count < 1:
                raise BadRequest("count: at least 1")
            job = ("undo", self._rules_argv(params), params.get("line", ""), count)
            return await self._run(pool, job, self._deadline(self.limits.budget))
        raise RuntimeError(f"no handler for {cmd}")

    async def _run(self, pool: SolverPool, job: tuple, deadline: float) -> tuple:
        try:
            return await pool.run(job, deadline, self.limits.queue_wait)
        except Busy:
            return 503, error(f"the {pool.name} solvers are busy (at most {pool.queue} requests wait, "
                              f"for at most {self.limits.queue_wait:g} s): try again shortly", 503)
        except Overtime as exc:
            return 503, error(f"{exc}: ask with a smaller budget", 503)

    async def daily(self, params: dict) -> tuple:
        if "date" not in params or params["date"] == "today":
            params["date"] = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
        argv = ("daily", *_argv(params, ["date", *RULES, "difficulty", "method", "reveal"]), "--json")
        if argv in self.dailies:
            self.dailies.move_to_end(argv)
            return self.dailies[argv]
        task = self.preparing.get(argv)
        if task is None:
            if len(self.preparing) >= self.limits.queue:
                return 503, error("too many dailies being prepared: try again shortly", 503)
            pool = self.heavy if self._heavy(params) else self.solo    # a solo daily is a second's work
            task = asyncio.ensure_future(self._run(pool, ("cli", list(argv), None), self.limits.daily_limit))
            self.preparing[argv] = task
            task.add_done_callback(lambda t, key=argv: self._prepared(key, t))
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.limits.daily_wait)
        except asyncio.TimeoutError:
            return 503, error(f"the daily challenge {params['date']} is still being prepared (a co-op daily "
                              f"can take minutes): ask again shortly", 503)

    def _prepared(self, key, task) -> None:
        self.preparing.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        status, obj = task.result()
        if status in (200, 400):            # an answer, not a fault: keep it
            self.dailies[key] = (status, obj)
            while len(self.dailies) > 256:
                self.dailies.popitem(last=False)

    async def new_game(self, ep: Endpoint, params: dict, pool: SolverPool) -> tuple:
        daily_keys = [k for k in DAILY if k in params]
        if daily_keys:
            if "seed" in params or "deck" in params:
                raise BadRequest(f"{daily_keys[0]}: a daily game takes no seed or deck")
            if "date" not in params:
                raise BadRequest(f"{daily_keys[0]}: goes with date (date=today for today's daily)")
            status, obj = await self.daily({k: v for k, v in params.items()})
            if status != 200:
                return status, obj
            params = {k: v for k, v in params.items() if k in RULES}
            params["seed"] = str(obj["seed"])
        argv = ["replay", *_argv(params, GAME), "--json"]
        return await self._run(pool, ("cli", argv, None), self._deadline(self.limits.budget))


def _int_or(value, key):
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadRequest(f"{key}: {value!r} is not a whole number") from None


# ------------------------------------------------------------------ the app
def json_response(status: int, obj: dict, headers=None) -> JSONResponse:
    return JSONResponse(obj, status_code=status, headers=headers)


def create_app(limits: Limits = None) -> Starlette:
    service = Service(limits or Limits())

    def handler(ep: Endpoint):
        async def endpoint(request: Request):
            try:
                params = await _params(request, ep)
                status, obj = await service.answer(ep, params)
            except BadRequest as exc:
                status, obj = 400, error(str(exc), 400)
            headers = {"Retry-After": "5"} if status == 503 else None
            return json_response(status, obj, headers)
        endpoint.__name__ = ep.command
        return endpoint

    statics = {p.name: p for p in STATIC.iterdir() if p.is_file()}   # fixed at start: nothing else is served

    async def index(request: Request):
        return FileResponse(statics["index.html"], media_type="text/html; charset=utf-8")

    async def static(request: Request):
        path = statics.get(request.path_params["name"])
        if path is None:
            raise HTTPException(404)
        return FileResponse(path)

    async def schema(request: Request):
        from scoundrel_solver import schema as load_schema
        return JSONResponse(load_schema())

    async def openapi_json(request: Request):
        return JSONResponse(openapi(service.limits))

    async def docs(request: Request):
        return HTMLResponse(docs_page(openapi(service.limits)))

    async def health(request: Request):
        return JSONResponse({"ok": True, "solvers": {"solo": service.solo.pids(), "co-op": service.heavy.pids()}})

    routes = [Route(ep.path, handler(ep), methods=["GET", "POST"]) for ep in ENDPOINTS]
    routes += [Route("/", index), Route("/static/{name}", static), Route("/api/schema", schema),
               Route("/openapi.json", openapi_json), Route("/docs", docs), Route("/api/health", health)]

    async def http_error(request: Request, exc: HTTPException):
        text = {404: f"no such path: {request.url.path}", 405: f"{request.method} is not allowed on "
                f"{request.url.path}"}.get(exc.status_code, exc.detail)
        return json_response(exc.status_code, error(text, exc.status_code))

    async def internal_error(request: Request, exc: Exception):
        import traceback
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        return json_response(500, error("internal error (logged on the server)", 500))

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app):
        service.start()
        try:
            yield
        finally:
            service.close()

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: internal_error})
    app.state.service = service
    return app


# ------------------------------------------------------------------ OpenAPI
def openapi(limits: Limits) -> dict:
    from scoundrel_solver import __version__, schema as load_schema
    shipped = load_schema()
    kinds = {STR: "string", INT: "integer", NUM: "number", BOOL: "boolean", JSON: "object"}
    paths = {}
    for ep in ENDPOINTS:
        props = {k: {"type": kinds[v]} for k, v in ep.params.items()}
        query = [{"name": k, "in": "query", "required": k in ep.required,
                  "schema": {"type": "string" if v == JSON else kinds[v]}} for k, v in ep.params.items()]
        answers = {
            "200": {"description": f"a {ep.answers} object", "content": {"application/json": {
                "schema": {"$ref": f"#/components/schemas/{ep.answers}"}}}},
            "400": {"description": "bad input: the CLI's one-line message",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/error"}}}},
            "503": {"description": "busy, or past the hard deadline (Retry-After)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/error"}}}},
        }
        paths[ep.path] = {
            "get": {"summary": ep.summary, "operationId": "get_" + ep.path[5:].replace("/", "_"),
                    "parameters": query, "responses": answers},
            "post": {"summary": ep.summary, "operationId": "post_" + ep.path[5:].replace("/", "_"),
                     "requestBody": {"content": {"application/json": {"schema": {
                         "type": "object", "properties": props, "required": list(ep.required),
                         "additionalProperties": False}}}},
                     "responses": answers},
        }
    defs = json.loads(json.dumps(shipped["$defs"]).replace('"#/$defs/', '"#/components/schemas/'))
    return {
        "openapi": "3.1.0",
        "info": {"title": "scoundrel-solver", "version": __version__,
                 "description": "Exact solver and hints for Scoundrel, solo and co-op. Every answer is the object "
                                "the CLI prints with --json (the shipped JSON schema, version "
                                f"{shipped['version']}). Budgets: timeout/time default {limits.budget:g} s "
                                f"(hints {limits.hint_time:g} s), at most {limits.max_budget:g} s; tt_mb default "
                                f"{limits.tt_mb}, at most {limits.max_tt_mb}."},
        "paths": paths,
        "components": {"schemas": defs},
    }


def docs_page(spec: dict) -> str:
    import html
    rows = []
    for path, ops in spec["paths"].items():
        get = ops["get"]
        params = ", ".join(p["name"] + ("*" if p["required"] else "") for p in get["parameters"])
        answer = get["responses"]["200"]["description"]
        rows.append(f"<tr><td><code>GET/POST {html.escape(path)}</code></td><td>{html.escape(get['summary'])}"
                    f"</td><td>{html.escape(params)}</td><td>{html.escape(answer)}</td></tr>")
    return ("<!doctype html><html><head><meta charset='utf-8'><title>scoundrel-solver API</title>"
            "<link rel='stylesheet' href='/static/style.css'></head><body class='docs'>"
            f"<h1>scoundrel-solver API {html.escape(spec['info']['version'])}</h1>"
            f"<p>{html.escape(spec['info']['description'])}</p>"
            "<p>The machine-readable description: <a href='/openapi.json'>/openapi.json</a> (OpenAPI 3.1); "
            "the answers' schema: <a href='/api/schema'>/api/schema</a>. * = required.</p>"
            "<table><tr><th>endpoint</th><th>what</th><th>parameters</th><th>answer</th></tr>"
            + "".join(rows) + "</table><p><a href='/'>Play</a></p></body></html>")
