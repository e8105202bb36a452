"""The ASGI app: the house of the games' endpoints, with the server's limits and solver pools.

The generic service lives here: the limits a request gets (every search a
time limit and a table size no larger than the server allows, so a request
past its budget answers with its honest partial result, ``exact`` false), the
two pools of solver processes (solver/web/pool.py; heavy requests go to one and
quick ones to the other, so a slow co-op request never waits in front of a solo
hint), the cache of answers that never change, JSON answers and errors, the
static files (the Scoundrel page at ``/``, the Bottle Imp's at ``/imp``) and the OpenAPI
description.  Each game brings its endpoints in a
module of its own (solver/web/scoundrel.py: ``ENDPOINTS``, each with its
handler, and ``WARM_UP``), whose answers its solver processes make by calling
the game's library (solver/web/scoundrel_jobs.py).
"""
from __future__ import annotations

import asyncio
import json
import math
import pathlib
import sys
from collections import OrderedDict
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Route

from ..errors import shown
from . import bottleimp, scoundrel
from .api import BOOL, INT, JSON, NUM, STR, BadRequest, Endpoint, error, int_or, number, read_params
from .pool import Busy, Overtime, SolverPool

STATIC = pathlib.Path(__file__).with_name("static")
GAMES = (scoundrel, bottleimp)     # each game's module of endpoints


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


class Service:
    """The state of one server: its limits, its pools, its answers kept."""

    def __init__(self, limits: Limits, games=GAMES):
        limits.check()
        self.limits = limits
        warm_up = tuple(g.WARM_UP for g in games if getattr(g, "WARM_UP", None))
        self.solo = SolverPool("solo", limits.workers, limits.queue, limits.worker_mb, warm_up=warm_up)
        self.heavy = SolverPool("co-op", limits.coop_workers, limits.queue, limits.worker_mb, nice=10,
                                warm_up=warm_up)
        self.kept = OrderedDict()          # key -> (status, object) of an answer that never changes
        self.preparing = {}                # key -> task still making it

    def start(self) -> None:
        self.solo.start()
        self.heavy.start()

    def close(self) -> None:
        for task in self.preparing.values():
            task.cancel()
        self.solo.close()
        self.heavy.close()

    # ---- budgets
    def seconds(self, params: dict, key: str, default: float) -> float:
        """The seconds of search ``params[key]`` asks (set to ``default`` if not asked), within the server's."""
        if key not in params:
            params[key] = f"{default:g}"
            return default
        t = number(params[key])
        if t is None or not math.isfinite(t) or t <= 0:
            raise BadRequest(f"{key}: {shown(params[key])} is not a number of seconds more than 0 "
                             f"(0, no limit, is not served)")
        if t > self.limits.max_budget:
            raise BadRequest(f"{key}: at most {self.limits.max_budget:g} seconds on this server (asked {t:g})")
        return t

    def table_mb(self, params: dict) -> None:
        """``params["tt_mb"]`` within the server's (set to its default if not asked)."""
        if "tt_mb" not in params:
            params["tt_mb"] = str(self.limits.tt_mb)
            return
        mb = int_or(params["tt_mb"], "tt_mb")
        if not 1 <= mb <= self.limits.max_tt_mb:
            raise BadRequest(f"tt_mb: from 1 to {self.limits.max_tt_mb} MB on this server (asked {shown(mb)})")

    def search_budget(self, params: dict) -> float:
        """The table and the ``timeout`` of one search."""
        self.table_mb(params)
        return self.seconds(params, "timeout", self.limits.budget)

    def deadline(self, seconds: float) -> float:
        """The hard deadline of a job of ``seconds``: past it its process is killed."""
        return 2 * seconds + self.limits.grace

    # ---- jobs
    async def run(self, pool: SolverPool, job: tuple, deadline: float) -> tuple:
        """``(http_status, object)`` of ``job`` (``(function, arguments)``, solver/web/worker.py) in ``pool``."""
        try:
            return await pool.run(job, deadline, self.limits.queue_wait)
        except Busy:
            return 503, error(f"the {pool.name} solvers are busy (at most {pool.queue} requests wait, "
                              f"for at most {self.limits.queue_wait:g} s): try again shortly", 503)
        except Overtime as exc:
            return 503, error(f"{exc}: ask with a smaller budget", 503)

    async def prepared(self, key, pool: SolverPool, job: tuple, busy: str, still: str) -> tuple:
        """The answer of a job that always gives the same (a daily challenge): kept once made
        (an answer or bad input, not a fault).  One not ready within ``daily_wait`` answers
        503 ``still`` and goes on being made, up to ``daily_limit``."""
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        task = self.preparing.get(key)
        if task is None:
            if len(self.preparing) >= self.limits.queue:
                return 503, error(busy, 503)
            task = asyncio.ensure_future(self.run(pool, job, self.limits.daily_limit))
            self.preparing[key] = task
            task.add_done_callback(lambda t, key=key: self._prepared(key, t))
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.limits.daily_wait)
        except asyncio.TimeoutError:
            return 503, error(still, 503)

    def _prepared(self, key, task) -> None:
        self.preparing.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        status, obj = task.result()
        if status in (200, 400):            # an answer, not a fault: keep it
            self.kept[key] = (status, obj)
            while len(self.kept) > 256:
                self.kept.popitem(last=False)


# ------------------------------------------------------------------ the app
def json_response(status: int, obj: dict, headers=None) -> JSONResponse:
    return JSONResponse(obj, status_code=status, headers=headers)


def create_app(limits: Limits = None, games=GAMES) -> Starlette:
    """The app of ``games`` (modules of endpoints, as solver/web/scoundrel.py) under ``limits``."""
    service = Service(limits or Limits(), games)
    endpoints = [ep for game in games for ep in game.ENDPOINTS]

    def handler(ep: Endpoint):
        async def endpoint(request: Request):
            try:
                params = await read_params(request, ep)
                status, obj = await ep.handler(service, ep, params)
            except BadRequest as exc:
                status, obj = 400, error(str(exc), 400)
            headers = {"Retry-After": "5"} if status == 503 else None
            return json_response(status, obj, headers)
        endpoint.__name__ = ep.command
        return endpoint

    statics = {p.name: p for p in STATIC.iterdir() if p.is_file()}   # fixed at start: nothing else is served

    async def index(request: Request):
        return FileResponse(statics["index.html"], media_type="text/html; charset=utf-8")

    async def imp_page(request: Request):
        return FileResponse(statics["imp.html"], media_type="text/html; charset=utf-8")

    async def static(request: Request):
        path = statics.get(request.path_params["name"])
        if path is None:
            raise HTTPException(404)
        return FileResponse(path)

    async def schema(request: Request):
        from scoundrel_solver import schema as load_schema
        return JSONResponse(load_schema())

    async def openapi_json(request: Request):
        return JSONResponse(openapi(service.limits, endpoints))

    async def docs(request: Request):
        return HTMLResponse(docs_page(openapi(service.limits, endpoints)))

    async def health(request: Request):
        return JSONResponse({"ok": True, "solvers": {"solo": service.solo.pids(), "co-op": service.heavy.pids()}})

    routes = [Route(ep.path, handler(ep), methods=["GET", "POST"]) for ep in endpoints]
    routes += [Route("/", index), Route("/imp", imp_page), Route("/static/{name}", static), Route("/api/schema", schema),
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
    # A path with a slash too many (/api/imp/deal/) is unknown like any other: the JSON 404, not
    # Starlette's empty 307 to the path without it.
    app.router.redirect_slashes = False
    app.state.service = service
    return app


# ------------------------------------------------------------------ OpenAPI
def openapi(limits: Limits, endpoints=None) -> dict:
    """The OpenAPI 3.1 description of ``endpoints`` (default: every game's), the answers' schemas
    being the shipped JSON schema's."""
    from scoundrel_solver import __version__, schema as load_schema
    shipped = load_schema()
    kinds = {STR: "string", INT: "integer", NUM: "number", BOOL: "boolean", JSON: "object"}
    if endpoints is None:
        endpoints = [ep for game in GAMES for ep in game.ENDPOINTS]
    paths = {}
    for ep in endpoints:
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
                 "description": "Exact solver and hints for Scoundrel (solo and co-op) and The Bottle Imp (/api/imp/...). Every answer is the object "
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
