"""What every game's endpoints are made of: their parameters, read and typed, and the error object.

An endpoint takes its parameters from the query string (GET) or a JSON object
(POST), named as the CLI's options without the dashes (``deck_size`` for
``--deck-size``).  They are typed here only as far as the transport goes (text,
a flag, a JSON object); what a value means is checked by the game's library in a
solver process, which answers a bad one with the CLI's own line.  A game lists
its endpoints (:class:`Endpoint`, with the coroutine that answers each) in a
module of its own beside this one (solver/web/scoundrel.py).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

from .. import jsonform
from ..errors import shown

MAX_BODY = 64 * 1024
STR, INT, NUM, BOOL, JSON = "text", "integer", "number", "boolean", "object"


class BadRequest(Exception):
    """A parameter the server refuses before any solver sees it (HTTP 400)."""


def error(message: str, status: int) -> dict:
    """The error object of the schema: one line, and the HTTP status."""
    return {"type": "error", "error": " ".join(str(message).split()), "status": status}


@dataclass(frozen=True)
class Endpoint:
    path: str
    command: str           # the CLI command it answers as, or a game step
    params: dict           # name -> kind (STR, INT, NUM, BOOL, JSON), in the order they are checked
    summary: str
    answers: str           # the schema $defs entry of a success
    required: tuple = ()
    handler: Callable = None   # async (service, endpoint, params) -> (http_status, object)
    fields: dict = field(default_factory=dict)


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


async def read_params(request, ep: Endpoint) -> dict:
    """The request's parameters for ``ep``: known, each given once, typed for transport."""
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
            raise BadRequest(f"unknown parameter {shown(key)} for {ep.path} (known: {', '.join(ep.params)})")
    for key in ep.required:
        if key not in params:
            raise BadRequest(f"{key}: required by {ep.path}")
    return {k: typed(k, v, ep.params[k]) for k, v in params.items()}


def typed(key, value, kind):
    """A parameter as the CLI would read it (a string), a bool for a flag, JSON text for an object."""
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


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None         # not a number: the CLI names it in its own message


def int_or(value, key):
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):   # int() refuses 4,300 digits and more with its own error
        why = "has too many digits" if str(value).strip().lstrip("+-").isdigit() else "is not a whole number"
        raise BadRequest(f"{key}: {shown(value)} {why}") from None


def in_order(params: dict, keys) -> dict:
    """``params`` in the order of ``keys`` (the order the CLI would meet them on its command line)."""
    return {k: params[k] for k in keys if k in params}
