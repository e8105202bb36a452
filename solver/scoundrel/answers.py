"""Scoundrel's answers: what ``scoundrel-solve COMMAND --json`` prints, one function each.

The command line (``--json``) and the HTTP service (solver/web/) both call these,
so the two give the same object for the same question: they take typed
arguments (a :class:`~.game.GameChoice` or :class:`~.game.Game`, a line, the
limits of the search) and return the object of the JSON schema (docs/json.md).
Where a command also prints text, the value behind the object comes first
(:func:`solved`, :func:`rated`, :func:`hint_of`, ...) and its ``*_json`` turns it
into the object; the text is the command line's own (cli/scoundrel/render.py).

Bad input raises the library's :class:`InputError` (an :class:`OptionError`
when the options themselves are wrong), with the command line's words.

>>> from scoundrel_solver.scoundrel.game import GameChoice
>>> deal_answer(GameChoice(deck="5D 3S 4H").game())["deck"]
['5D', '3S', '4H']
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Optional

from .. import jsonform
from ..errors import InputError, OptionError
from ..progress import ProgressLine
from .game import RULE_PARAMS, Game, GameChoice
from .notation import format_line, parse_action, parse_line, parse_room, replay, resolved_line, NotationError
from .result import Result
from .search import DEFAULT_TT_MB, default_threads, solve
from .state import PositionError, State


def _depth1_told(line: ProgressLine):
    """The real-table hint's depth-1 figure as it goes, on ``line`` (it may take minutes)."""
    t0 = time.perf_counter()

    def tell(done: int, actions: int, beliefs: int) -> None:
        line.show(f"hint: depth-1 figure, {done}/{actions} actions valued, {beliefs:,} next-room beliefs "
                  f"({time.perf_counter() - t0:.1f} s)")
    return tell


def _line(progress) -> ProgressLine:
    """The progress line a search tells, or a silent one (the service has no terminal)."""
    return progress if progress is not None else ProgressLine(enabled=False)


# --------------------------------------------------------------------- deal
def deal_answer(game: Game) -> dict:
    """``deal --json``: the dungeon, top card first."""
    return {"type": "deal", **game.as_dict(), "size": len(game.deck)}


# ------------------------------------------------------------------- replay
@dataclass(frozen=True)
class Replayed:
    """A line played from the start: its rooms, where it leads, and the line with every fight mode written."""

    game: Game
    start: State
    rooms: list
    final: State
    line: str


def replayed(game: Game, line: str) -> Replayed:
    start = game.start()
    rooms = parse_line(line)
    final = replay(start, rooms)[-1]
    return Replayed(game, start, rooms, final, format_line(resolved_line(start, rooms)))


def replay_json(r: Replayed) -> dict:
    return {"type": "replay", **r.game.as_dict(), "line": r.line, "position": r.final.as_dict()}


def replay_answer(game: Game, line: str) -> dict:
    """``replay --json``: the position a line leads to (a game of the service is its line)."""
    return replay_json(replayed(game, line))


def moved_line(game: Game, line: str, move: str) -> str:
    """``line`` with ``move`` (one action, or several of one room) played after it,
    a room separator put in where the last room was complete."""
    start = game.start()
    rooms = parse_line(line)
    state = replay(start, rooms)[-1]
    added = parse_room(move)
    if not added:
        raise NotationError("move: give a move, e.g. 5D, QSw, 4Sb, TD> or avoid")
    if rooms and state.taken == 0 and not state.finished:
        rooms.append(added)        # the last room is complete: these are the next room's
    elif rooms:
        rooms[-1] = rooms[-1] + added
    else:
        rooms = [added]
    return format_line(resolved_line(start, rooms))


def undone_line(game: Game, line: str, count: int) -> str:
    """``line`` without its last ``count`` moves."""
    start = game.start()
    rooms = resolved_line(start, parse_line(line))
    replay(start, rooms)
    flat = [(r, a) for r, room in enumerate(rooms) for a in room]
    if count > len(flat):
        raise NotationError(f"undo: {count} move(s) asked, the line has {len(flat)}")
    out = []
    for r, a in flat[:len(flat) - count]:
        while len(out) <= r:
            out.append([])
        out[r].append(a)
    return format_line([room for room in out if room])


# -------------------------------------------------------------------- solve
def shorter_result(result: Result) -> Result:
    """``result`` of ``solve(shortest=True)`` as shown: when its search for the
    fewest rooms stopped at its limit, the proof's line with its loops cut."""
    if result.shortest is False and result.line:
        from .lines import displayed_line
        cut = displayed_line(result.start, result.line, False)
        if len(cut) < len(result.line):
            return dataclasses.replace(result, line=cut)
    return result


def solved(game: Game, *, max_nodes=None, timeout=None, tt_mb: int = DEFAULT_TT_MB, threads=None,
           progress: ProgressLine = None) -> Result:
    """The optimal score, proven (or the best found within the limits), and a line of fewest rooms
    where that search pays (the main job's budget, :func:`.engine.line_budget`; the result says
    what was done)."""
    result = solve(deck=game.deck, rules=game.rules, seed=game.seed, max_nodes=max_nodes, timeout=timeout,
                   tt_mb=tt_mb, shortest=True, progress=_line(progress).search("solving"),
                   threads=default_threads() if threads is None else threads, line_budget="proof")
    return shorter_result(result)


def solve_answer(game: Game, **limits) -> dict:
    """``solve --json`` (``limits``: those of :func:`solved`)."""
    return solved(game, **limits).as_dict()


# --------------------------------------------------------------------- rate
def rated(game: Game, *, max_nodes=None, timeout=None, tt_mb: int = DEFAULT_TT_MB, threads=None,
          progress: ProgressLine = None):
    """The :class:`~.rating.Rating` of the deal."""
    from .rating import rate
    return rate(game.deck, game.rules, game.seed, tt_mb=tt_mb, max_nodes=max_nodes, timeout=timeout,
                search_progress=_line(progress).search, threads=default_threads() if threads is None else threads)


def rate_json(rating) -> dict:
    out = {"type": "rate", **rating.as_dict()}
    if rating.exact and rating.line and not rating.rules.coop:
        # the line shown is an optimal line of fewest rooms (lines.py, proven unless its
        # search stops at its limit); the rating itself, measured on canonical_line,
        # does not depend on it
        from .lines import shortest_line
        out["line"] = format_line(shortest_line(State.new(rating.deck, rating.rules), rating.line,
                                                rating.score).line)
    return out


def rate_answer(game: Game, **limits) -> dict:
    """``rate --json`` (``limits``: those of :func:`rated`)."""
    return rate_json(rated(game, **limits))


# -------------------------------------------------------------------- daily
def daily_json(challenge, reveal: bool = False) -> dict:
    return {"type": "daily", **challenge.as_dict(reveal)}


def daily_answer(date, rules, difficulty: Optional[str] = None, method: Optional[str] = None,
                 reveal: bool = False, jobs: int = 1) -> dict:
    """``daily --json``: the daily challenge of ``date`` (a date or YYYY-MM-DD)."""
    from .daily import daily_challenge, parse_date
    challenge = daily_challenge(parse_date(date), rules, difficulty, method=method, jobs=jobs)
    return daily_json(challenge, reveal)


# -------------------------------------------------------------- hint budgets
def hint_budget(budget, max_nodes, timeout) -> float:
    """The budget of an exact hint: ``--time`` if given, else the default,
    except that --max-nodes/--timeout (limits of the unbounded hint) mean 0."""
    from .budget import DEFAULT_TIME
    limited = max_nodes is not None or timeout is not None
    if budget is None:
        return 0.0 if limited else DEFAULT_TIME
    if budget > 0 and limited:
        raise OptionError("--time and --max-nodes/--timeout are two ways to stop a hint: give one "
                          "(or --time 0 with them)")
    return budget


def table_budget(budget, max_nodes, timeout) -> float:
    """The time budget of a real-table hint: ``--time`` if given, else the exact
    hint's default unless --max-nodes/--timeout (limits of each of its searches)
    are given, which keep the hint unbounded as before; 0: no limit."""
    from .budget import DEFAULT_TIME
    if budget is not None:
        return budget
    return 0.0 if (max_nodes is not None or timeout is not None) else DEFAULT_TIME


def exact_hint_within(state: State, budget, max_nodes, timeout, tt_mb, progress: ProgressLine = None,
                      threads=None):
    """The exact hint within ``--time`` (``hint`` and ``play`` both ask it here, so they
    answer alike).  ``threads``: within a budget, that many actions are solved at once
    (worker processes; None: the cores, at most ``pools.DEFAULT_WORKERS``); with
    ``--time 0`` each action's search runs on that many threads sharing one table
    (None: the cores)."""
    from .exacthint import exact_hint
    budget = hint_budget(budget, max_nodes, timeout)
    line = _line(progress)
    if budget == 0:
        return exact_hint(state, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, search_progress=line.search,
                          threads=default_threads() if threads is None else threads)
    return exact_hint(state, tt_mb=tt_mb, budget=budget, progress=line, workers=threads)


def explained_action(state: State, text: str, what: str = "--explain"):
    """ACTION of ``--explain``, parsed and checked against the position (an error names ``what``)."""
    from .table import _check_playing
    _check_playing(state)       # a finished game: "the game is over", as the hint says it
    try:
        return state.resolve(parse_action(text))
    except InputError as exc:
        raise type(exc)(f"{what}: {exc}") from None


def explain_exact_within(state: State, text: str, budget, max_nodes, timeout, tt_mb, what: str = "--explain",
                         progress: ProgressLine = None, threads=None):
    """``--explain`` with the order known, within ``--time`` as the hint (``hint`` and ``play``
    ask it here).  ``threads``: the worker processes of a budgeted explanation (None: as
    the hint's); with ``--time 0`` the threads of each search (None: the cores), as the hint's."""
    from .explain import explain_exact
    action = explained_action(state, text, what)
    budget = hint_budget(budget, max_nodes, timeout)
    line = _line(progress)
    if budget == 0:
        return explain_exact(state, action, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb,
                             threads=default_threads() if threads is None else threads, search_progress=line.search)
    return explain_exact(state, action, tt_mb=tt_mb, budget=budget, progress=line, workers=threads)


def explain_table_hint(position, text: str, samples, rng_seed, belief_seconds, max_nodes, timeout, tt_mb,
                       what: str = "--explain"):
    """``--explain`` at a real table, with the settings of the real-table hint."""
    from .explain import explain_table
    action = explained_action(position.state(position.unseen), text, what)
    return explain_table(position, action, samples=samples, rng_seed=rng_seed, belief_seconds=belief_seconds,
                         max_nodes=max_nodes, timeout=timeout, tt_mb=min(tt_mb, 256))


# --------------------------------------------------------------------- hint
TABLE_FLAGS = ("room", "health", "weapon", "last_kill", "leader", "taken", "potion_used", "help_used",
               "avoided", "gone", "unseen", "bottom", "position")


@dataclass(frozen=True)
class TableFlags:
    """A real table as typed on the command line (``hint --room ...``), or a position file.

    Co-op values are "hero 1,hero 2"; ``position`` is an open text file (named
    ``-`` or ``<stdin>``: standard input) holding a position as JSON (docs/json.md).
    """

    room: Optional[str] = None
    health: Optional[str] = None
    weapon: Optional[str] = None
    last_kill: Optional[str] = None
    leader: Optional[int] = None
    taken: Optional[int] = None
    potion_used: Optional[str] = None
    help_used: bool = False
    avoided: bool = False
    gone: Optional[str] = None
    unseen: Optional[str] = None
    bottom: Optional[str] = None
    position: object = None


@dataclass(frozen=True)
class HintAnswer:
    """A hint or an explanation (``kind`` "hint" or "explain"), and what it is about:
    the deal and the number of moves played (``game``; None for a position), and the
    real table (``table``; None when the order is known)."""

    kind: str
    value: object
    game: Optional[Game] = None
    moves: int = 0
    table: object = None

    def as_dict(self) -> dict:
        """The answer as one object of the schema: its type, the deal and the moves
        played (with a deal), then the library's dict."""
        out = {"type": self.kind}
        if self.game is not None:
            out.update(seed=self.game.seed, moves=self.moves)
        out.update(self.value.as_dict())
        return out


def _split(text, what):
    if text is None:
        return ()
    parts = [p.strip() for p in text.split(",")]
    if any(p == "" for p in parts):
        raise OptionError(f"{what}: write one value per hero separated by a comma, e.g. 14,18")
    return tuple(parts)


def _ints(text, what):
    out = []
    for p in _split(text, what):
        if p.lower() in ("-",):
            out.append(None)
            continue
        try:
            out.append(int(p))
        except ValueError:
            raise OptionError(f"{what}: {p!r} is not a whole number") from None
    return tuple(out)


def _position_file(choice: GameChoice, o: TableFlags):
    """The position of ``o.position``: a :class:`TablePosition`, or a :class:`State`
    when the file gives the dungeon in order.

    A file with ``rules`` is solved under them (missing keys: the mode's
    defaults), whatever the flags: a rule flag typed must then say the same, or
    it is an error naming both.  A file without rules is read under the rule flags.
    """
    from .position import position_from_json
    others = [k for k in TABLE_FLAGS if k != "position" and getattr(o, k) not in (None, False, ())]
    if others:
        raise OptionError(f"--position FILE holds the whole position; drop --{others[0].replace('_', '-')}")
    name = jsonform.file_name(o.position)
    what = f"the position file {name}"
    data = jsonform.loads(jsonform.read_document(o.position, what), what)
    own_rules = isinstance(data, dict) and "rules" in data
    try:
        position = position_from_json(data, None if own_rules else choice.rules())
    except PositionError as exc:
        raise PositionError(f"{name}: {exc}") from None
    if own_rules:
        for key in RULE_PARAMS:
            if key not in choice.given:
                continue
            value = getattr(choice, key)
            if str(getattr(position.rules, key)) != str(value):
                raise OptionError(f"--{key.replace('_', '-')} {value} contradicts the rules of the position file "
                                  f"{name} ({position.rules.describe()}): drop the flag or change the file")
    return position


def table_position(choice: GameChoice, o: TableFlags):
    """The real table of ``o`` under the rule flags of ``choice`` (or of the position file)."""
    from .cards import parse_cards
    from .position import make_table_position
    if o.position is not None:
        return _position_file(choice, o)
    rules = choice.rules()
    if o.room is None:
        raise OptionError("a real-table hint needs --room \"CARDS\" (or --position FILE)")
    potion = o.potion_used
    if potion is None:
        used = ()
    elif potion == "leader":
        used = (o.leader or 1,)
    else:
        used = _ints(potion, "--potion-used")
    return make_table_position(
        rules, parse_cards(o.room), health=_ints(o.health, "--health"),
        weapon=_split(o.weapon, "--weapon"), last_kill=_split(o.last_kill, "--last-kill"),
        leader=o.leader or 1, taken=o.taken, potion_used=used, help_used=o.help_used,
        avoided=o.avoided, gone=None if o.gone is None else parse_cards(o.gone),
        unseen=None if o.unseen is None else parse_cards(o.unseen),
        bottom=parse_cards(o.bottom) if o.bottom else ())


def _one_budget(table: bool, belief_seconds, threads) -> None:
    """Each kind of hint has its own budget: refuse the other one rather than take it silently."""
    if not table and belief_seconds is not None:
        raise OptionError("--belief-seconds is for a real-table hint (--room, --position with unseen "
                          "cards, or --table); an exact hint takes --time")
    if table and threads is not None:
        raise OptionError("--threads is for an exact hint (the order known); a real-table hint runs "
                          "its searches one at a time")


def hint_of(choice: GameChoice, moves: str = "", explain: Optional[str] = None, hide_order: bool = False,
            table: TableFlags = TableFlags(), *, samples: int = None, rng_seed: int = None,
            belief_seconds: Optional[float] = None, budget: Optional[float] = None, max_nodes=None, timeout=None,
            tt_mb: int = DEFAULT_TT_MB, threads=None, progress: ProgressLine = None, lookahead: Optional[str] = None,
            depth1_deals: Optional[int] = None, depth1_orders: Optional[int] = None) -> HintAnswer:
    """``hint`` (``explain``: ``hint --explain ACTION``): the best next action of a deal after
    ``moves`` (exact; ``hide_order``: at a real table) or of a real table (``table``).

    The arguments are the command's options; None is an option not given (``budget``:
    ``--time``; ``belief_seconds`` and ``threads`` belong to one kind of hint each, and
    giving one to the other is an error).  ``progress``: the line an exact hint tells
    while it waits (and a real-table hint while its depth-1 figure is valued).  ``lookahead`` ("depth1") and its counts ``depth1_deals``/``depth1_orders``:
    the real-table hint's opt-in depth-1 figure (:func:`.tablehint.table_hint`); refused on an
    exact hint and with ``explain``.
    """
    from .table import DEFAULT_RNG_SEED, DEFAULT_SAMPLES, TablePosition, known_bottom_of_line
    from .tablehint import DEFAULT_BELIEF_SECONDS, check_lookahead, table_hint
    check_lookahead(lookahead, depth1_deals, depth1_orders)
    samples = DEFAULT_SAMPLES if samples is None else samples
    rng_seed = DEFAULT_RNG_SEED if rng_seed is None else rng_seed
    beliefs = DEFAULT_BELIEF_SECONDS if belief_seconds is None else belief_seconds

    def table_answer(position, game=None, played=0) -> HintAnswer:
        _one_budget(True, belief_seconds, threads)
        if explain is not None:
            if lookahead is not None:
                raise OptionError("--lookahead is for the hint, not for --explain")
            why = explain_table_hint(position, explain, samples, rng_seed, beliefs, max_nodes, timeout, tt_mb)
            return HintAnswer("explain", why, game, played)
        hint = table_hint(position, samples=samples, rng_seed=rng_seed, max_nodes=max_nodes, timeout=timeout,
                          tt_mb=min(tt_mb, 256), belief_seconds=beliefs,
                          time_budget=table_budget(budget, max_nodes, timeout) or None, achievable_games=samples,
                          lookahead=lookahead, depth1_deals=depth1_deals, depth1_orders=depth1_orders,
                          depth1_progress=None if progress is None else _depth1_told(progress))
        return HintAnswer("hint", hint, game, played, position)

    def exact_answer(state, game=None, played=0) -> HintAnswer:
        _one_budget(False, belief_seconds, threads)
        if lookahead is not None:
            raise OptionError("--lookahead is for a real-table hint (--room, --position with unseen cards, "
                              "or --table); an exact hint is exact already")
        if explain is not None:
            why = explain_exact_within(state, explain, budget, max_nodes, timeout, tt_mb, progress=progress,
                                       threads=threads)
            return HintAnswer("explain", why, game, played)
        return HintAnswer("hint", exact_hint_within(state, budget, max_nodes, timeout, tt_mb, progress, threads),
                          game, played)

    if table.room is not None or table.position is not None:
        if choice.has_deck:
            raise OptionError("--room/--position describe a real table; --seed/--deck a known deal: pick one")
        if moves:
            raise OptionError("--moves goes with --seed/--deck, not with a position")
        if hide_order and table.position is None:
            raise OptionError("--table goes with --seed/--deck or a --position file that gives the dungeon")
        position = table_position(choice, table)
        if isinstance(position, State):   # the file gives the dungeon in order
            if not hide_order:
                return exact_answer(position)
            position = TablePosition.from_state(position)
        elif hide_order:
            raise OptionError("--table hides the order of the dungeon, and this position file gives none "
                              "(it has unseen cards, not a dungeon)")
        return table_answer(position)
    typed = [k for k in TABLE_FLAGS if getattr(table, k) is not None and getattr(table, k) is not False]
    if typed:
        raise OptionError(f"--{typed[0].replace('_', '-')} describes a real table: give --room too "
                          f"(or use --seed/--deck with --moves)")
    game = choice.game()
    start = game.start()
    rooms = parse_line(moves)
    state = replay(start, rooms)[-1]
    flat = [a for room in resolved_line(start, rooms) for a in room]
    if hide_order:
        return table_answer(TablePosition.from_state(state, known_bottom_of_line(start, flat)), game, len(flat))
    return exact_answer(state, game, len(flat))


def hint_answer(choice: GameChoice, moves: str = "", explain: Optional[str] = None, hide_order: bool = False,
                table: TableFlags = TableFlags(), **settings) -> dict:
    """``hint --json`` (with ``explain``: ``hint --explain ACTION --json``); the arguments are :func:`hint_of`'s."""
    return hint_of(choice, moves, explain, hide_order, table, **settings).as_dict()
