"""``scoundrel-solve hint``: the best next action, for a numbered deal or a real table."""
from __future__ import annotations

import json

import click

from scoundrel_solver import PositionError, State, jsonform, parse_action, parse_cards, parse_line, replay
from scoundrel_solver.scoundrel.explain import Explanation, explain_exact, explain_table
from scoundrel_solver.scoundrel.hints import (DEFAULT_BELIEF_SECONDS, DEFAULT_RNG_SEED, DEFAULT_SAMPLES, Hint, TablePosition, exact_hint,
                                    known_bottom_of_line, make_table_position, position_from_json, table_hint)
from scoundrel_solver.scoundrel.notation import resolved_line
from scoundrel_solver.progress import ProgressLine

from . import render
from .options import (RULE_PARAMS, table_budget, GameOptions, game_options, hint_budget, json_option, pretty_option,
                      progress_option, search_options, threads_option, time_option, typed, usage_error)
from .options import default_threads
from .options import MAX_RNG_SEED, MAX_SAMPLES, WholeNumber

HINT_HELP = """The best next action, and what every legal action is worth.

\b
Numbered deal or written-out deck (the order is known, the hint is exact):
  scoundrel-solve hint --seed 42
  scoundrel-solve hint --seed 42 --moves "3H 5D 5Cw | avoid | 2D 7D"
  scoundrel-solve hint --mode coop --deck "2H 3D 8S 8D 5S TS TD QS 4H 6H 7D AD 4S AH" \\
      --moves "8D> 2H"
Every legal action is listed with its exact optimal score, the ones that keep
the win are marked, and the rest of the optimal plan for the room is shown.
It answers within --time SECONDS (default 2; 0: until every score is exact):
verdicts first, then scores; what is not finished shows proven bounds.
--table hides the order: the hint a player at a real table would get there.

\b
Real table (the order of the face-down cards is unknown):
  scoundrel-solve hint --room "3C QC 8D KC" --health 6 --weapon 7D --last-kill 12 \\
      --gone "5D 3H 7C 4H 9H AC QS 2C"
  scoundrel-solve hint --mode coop --room "5S 9D 2H" --health 14,18 --leader 2 \\
      --weapon none,4D --unseen "KC 3S 7H 2C JS 8H"
  scoundrel-solve hint --position pos.json       (pos.json: as in docs/hints.md; docs/json.md)
Each action gets up to three figures, named for what they are.  Order unseen:
the win chance and mean score of the best play for a player who cannot see
the order (a belief search; exact when it finishes within --belief-seconds,
else an upper bound from a search that treats later deals as if seen, else
not given).  Clairvoyant bound: each order solved as if it were known (all
distinct orders when few, else --samples random orders drawn with
--rng-seed, with 95% intervals).  When the belief figure is not exact, the
recommended action also gets an achievable figure: the hint's own rule, which
cannot see the order, played to the end over --samples orders (a lower bound
estimate with 95% intervals and its number of games; in the last 3/8 of
--time, and --samples games with --time 0).
Cards of the room are in row order (a carried card first).  Give the cards
already gone (discarded, slain, drunk; the equipped weapon may be listed or
not) with --gone, or the face-down cards with --unseen; cards known to lie
under the dungeon in order (avoided rooms) with --bottom.  Co-op values are
"hero 1,hero 2".

\b
Why is this move worse? --explain ACTION (move notation, e.g. 5D, 8Cb, avoid):
  scoundrel-solve hint --seed 42 --moves "3H 5D 5Cw" --explain 4H
  scoundrel-solve hint --room "5C 9S 3H TC" --health 9 --weapon 8D --last-kill 10 \\
      --unseen "2S 6H 7S 4D 3S 9C" --explain avoid
With the order known: the best line after ACTION, room by room, next to the
best action's line, up to the room where it loses or falls behind (dead, less
health or a lower score), and the final score of both; proven, or marked
not proven with the bounds proven when --time (or --max-nodes/--timeout)
stops a search.  At a real table: the typical outcome, the hint's own rule
played to the end after ACTION and after the recommended action over the
same orders of the unseen cards, with win rates and mean scores (95%
intervals) and one representative game; the playouts stop after twice
--belief-seconds.
"""


def _split(text, what):
    if text is None:
        return ()
    parts = [p.strip() for p in text.split(",")]
    if any(p == "" for p in parts):
        raise usage_error(f"{what}: write one value per hero separated by a comma, e.g. 14,18")
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
            raise usage_error(f"{what}: {p!r} is not a whole number") from None
    return tuple(out)


def _position_file(ctx, game: GameOptions, o: dict):
    """The position in ``--position FILE``: a :class:`TablePosition`, or a
    :class:`State` when the file gives the dungeon in order.

    A file with ``rules`` is solved under them (missing keys: the mode's
    defaults), whatever the flags: a rule flag typed on the command line must
    then say the same, or it is an error naming both.  A file without rules
    is read under the rule flags.
    """
    others = [k for k in TABLE_FLAGS if k != "position" and o[k] not in (None, False, ())]
    if others:
        raise usage_error(f"--position FILE holds the whole position; drop --{others[0].replace('_', '-')}")
    handle = o["position"]
    name = "standard input" if handle.name in ("-", "<stdin>") else handle.name
    try:
        text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise usage_error(f"cannot read the position file {name}: {exc}") from None
    data = jsonform.loads(text, f"the position file {name}")
    own_rules = isinstance(data, dict) and "rules" in data
    try:
        position = position_from_json(data, None if own_rules else game.rules())
    except PositionError as exc:
        raise PositionError(f"{name}: {exc}") from None
    if own_rules:
        for key in RULE_PARAMS:
            if not typed(ctx, key):
                continue
            value = getattr(game, key)
            if str(getattr(position.rules, key)) != str(value):
                raise usage_error(f"--{key.replace('_', '-')} {value} contradicts the rules of the position file "
                                  f"{name} ({position.rules.describe()}): drop the flag or change the file")
    return position


def _table_position(ctx, game: GameOptions, o: dict):
    if o["position"] is not None:
        return _position_file(ctx, game, o)
    rules = game.rules()
    if o["room"] is None:
        raise usage_error("a real-table hint needs --room \"CARDS\" (or --position FILE)")
    potion = o["potion_used"]
    if potion is None:
        used = ()
    elif potion == "leader":
        used = (o["leader"] or 1,)
    else:
        used = _ints(potion, "--potion-used")
    return make_table_position(
        rules, parse_cards(o["room"]), health=_ints(o["health"], "--health"),
        weapon=_split(o["weapon"], "--weapon"), last_kill=_split(o["last_kill"], "--last-kill"),
        leader=o["leader"] or 1, taken=o["taken"], potion_used=used, help_used=o["help_used"],
        avoided=o["avoided"], gone=None if o["gone"] is None else parse_cards(o["gone"]),
        unseen=None if o["unseen"] is None else parse_cards(o["unseen"]),
        bottom=parse_cards(o["bottom"]) if o["bottom"] else ())


TABLE_FLAGS = ("room", "health", "weapon", "last_kill", "leader", "taken", "potion_used", "help_used",
               "avoided", "gone", "unseen", "bottom", "position")


def _table_options(f):
    decorators = [
        click.option("--table", "hide_order", is_flag=True,
                     help="With --seed/--deck (or a --position with its dungeon): hide the order, give the "
                          "real-table hint for that position."),
        click.option("--room", metavar="CARDS", default=None, help="Real table: the face-up cards, in row order."),
        click.option("--health", metavar="N[,N]", default=None, help="Health of each hero [default: 20]."),
        click.option("--weapon", metavar="CARD[,CARD]", default=None,
                     help="Equipped weapon of each hero: 7D, 7 or none [default: none]."),
        click.option("--last-kill", metavar="V[,V]", default=None,
                     help="Value of the last monster slain with that weapon, or - for a fresh weapon."),
        click.option("--leader", type=WholeNumber(1, 2), default=None, help="Co-op: the hero who leads this room."),
        click.option("--taken", type=WholeNumber(0, 3), default=None,
                     help="Cards already taken from this room [default: worked out from the room]."),
        click.option("--potion-used", metavar="HEROES", default=None, is_flag=False, flag_value="leader",
                     help="A potion already healed in this room (alone: the leader; co-op: 1, 2 or 1,2)."),
        click.option("--help-used", is_flag=True, help="Co-op: the help card of this room was already given."),
        click.option("--avoided", is_flag=True, help="This room was dealt right after an avoid."),
        click.option("--gone", metavar="CARDS", default=None, help="Cards out of play (discard pile)."),
        click.option("--unseen", metavar="CARDS", default=None, help="Or: the face-down cards, order unknown."),
        click.option("--bottom", metavar="CARDS", default=None,
                     help="Face-down cards known to lie at the bottom, first to come back first."),
        click.option("--position", type=click.File("r", encoding="utf-8"), default=None, metavar="FILE",
                     help="A position as JSON (- for stdin), as hint/replay --json print it: with its "
                          "dungeon an exact hint, with unseen cards a real-table one; see docs/json.md."),
        click.option("--samples", type=WholeNumber(1, MAX_SAMPLES), default=DEFAULT_SAMPLES,
                     show_default=True, help="Real table: random orders to solve when they cannot all be."),
        click.option("--belief-seconds", type=click.FloatRange(0, 3600), default=DEFAULT_BELIEF_SECONDS,
                     show_default=True, help="Real table: time for each belief-search attempt (0: none)."),
        click.option("--rng-seed", type=WholeNumber(0, MAX_RNG_SEED), default=DEFAULT_RNG_SEED, show_default=True,
                     help="Real table: seed of the random orders (the same seed, the same hint)."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


@click.command("hint", help=HINT_HELP)
@game_options
@click.option("--moves", default="", metavar="LINE",
              help='Moves played so far, rooms separated by " | "; may stop part-way through a room.')
@click.option("--explain", "explain", default=None, metavar="ACTION",
              help="Why is ACTION (e.g. 5D, 8Cb, avoid) worse: its line next to the best action's.")
@_table_options
@json_option
@pretty_option
@time_option
@search_options
@threads_option
@progress_option
@click.pass_context
def hint_command(ctx, game: GameOptions, moves, explain, hide_order, samples, rng_seed, belief_seconds, as_json,
                 pretty, budget, max_nodes, timeout, tt_mb, threads, progress, **table):
    real_table = table["room"] is not None or table["position"] is not None
    if real_table:
        if game.has_deck:
            raise usage_error("--room/--position describe a real table; --seed/--deck a known deal: pick one")
        if moves:
            raise usage_error("--moves goes with --seed/--deck, not with a position")
        if hide_order and table["position"] is None:
            raise usage_error("--table goes with --seed/--deck or a --position file that gives the dungeon")
        position = _table_position(ctx, game, table)
        if isinstance(position, State):   # the file gives the dungeon in order
            if not hide_order:
                _one_budget(ctx, table=False)
                if explain is not None:
                    why = explain_exact_within(position, explain, budget, max_nodes, timeout, tt_mb,
                                               progress=progress, threads=threads)
                    _show_explain(why, None, as_json, pretty)
                    return
                hint = exact_hint_within(position, budget, max_nodes, timeout, tt_mb, progress, threads)
                _show(hint, None, as_json, pretty, None)
                return
            position = TablePosition.from_state(position)
        elif hide_order:
            raise usage_error("--table hides the order of the dungeon, and this position file gives none "
                              "(it has unseen cards, not a dungeon)")
        _one_budget(ctx, table=True)
        if explain is not None:
            why = explain_table_hint(position, explain, samples, rng_seed, belief_seconds, max_nodes, timeout, tt_mb)
            _show_explain(why, None, as_json, pretty)
            return
        hint = table_hint(position, samples=samples, rng_seed=rng_seed, max_nodes=max_nodes, timeout=timeout,
                          tt_mb=min(tt_mb, 256), belief_seconds=belief_seconds,
                          time_budget=table_budget(budget, max_nodes, timeout) or None, achievable_games=samples)
        _show(hint, None, as_json, pretty, position)
        return
    set_flags = [k for k in TABLE_FLAGS if typed(ctx, k)]
    if set_flags:
        raise usage_error(f"--{set_flags[0].replace('_', '-')} describes a real table: give --room too "
                          f"(or use --seed/--deck with --moves)")
    chosen = game.game()
    start = chosen.start()
    rooms = parse_line(moves)
    states = replay(start, rooms)
    state = states[-1]
    flat = [a for room in resolved_line(start, rooms) for a in room]
    if hide_order:
        position = TablePosition.from_state(state, known_bottom_of_line(start, flat))
        _one_budget(ctx, table=True)
        if explain is not None:
            why = explain_table_hint(position, explain, samples, rng_seed, belief_seconds, max_nodes, timeout, tt_mb)
            _show_explain(why, chosen, as_json, pretty, moves=len(flat))
            return
        hint = table_hint(position, samples=samples, rng_seed=rng_seed, max_nodes=max_nodes, timeout=timeout,
                          tt_mb=min(tt_mb, 256), belief_seconds=belief_seconds,
                          time_budget=table_budget(budget, max_nodes, timeout) or None, achievable_games=samples)
        _show(hint, chosen, as_json, pretty, position, moves=len(flat))
        return
    _one_budget(ctx, table=False)
    if explain is not None:
        why = explain_exact_within(state, explain, budget, max_nodes, timeout, tt_mb, progress=progress,
                                   threads=threads)
        _show_explain(why, chosen, as_json, pretty, moves=len(flat))
        return
    hint = exact_hint_within(state, budget, max_nodes, timeout, tt_mb, progress, threads)
    _show(hint, chosen, as_json, pretty, None, moves=len(flat))


def _one_budget(ctx, table: bool) -> None:
    """Each kind of hint has its own budget: refuse the other one rather than take it silently."""
    if not table and typed(ctx, "belief_seconds"):
        raise usage_error("--belief-seconds is for a real-table hint (--room, --position with unseen "
                          "cards, or --table); an exact hint takes --time")
    if table and typed(ctx, "threads"):
        raise usage_error("--threads is for an exact hint (the order known); a real-table hint runs "
                          "its searches one at a time")


def exact_hint_within(state, budget, max_nodes, timeout, tt_mb, progress=None, threads=None) -> Hint:
    """The exact hint within ``--time`` (a progress line on stderr while it waits, if
    ``progress``; None: on a terminal); ``hint`` and ``play`` both ask it here, so
    they answer alike.  ``threads``: within a budget, that many actions are solved
    at once (worker processes; None: the cores, at most ``pools.DEFAULT_WORKERS``);
    with ``--time 0`` each action's search runs on that many threads sharing one
    table (None: the cores)."""
    budget = hint_budget(budget, max_nodes, timeout)
    with ProgressLine(enabled=progress) as line:
        if budget == 0:
            return exact_hint(state, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb,
                              search_progress=line.search, threads=default_threads() if threads is None else threads)
        return exact_hint(state, tt_mb=tt_mb, budget=budget, progress=line, workers=threads)


def _explained_action(state, text: str, what: str = "--explain"):
    """ACTION of ``--explain``, parsed and checked against the position (an error names ``what``)."""
    from scoundrel_solver.errors import InputError
    from scoundrel_solver.scoundrel.hints import _check_playing
    _check_playing(state)       # a finished game: "the game is over", as the hint says it
    try:
        return state.resolve(parse_action(text))
    except InputError as exc:
        raise type(exc)(f"{what}: {exc}") from None


def explain_exact_within(state, text, budget, max_nodes, timeout, tt_mb, what="--explain",
                         progress=None, threads=None) -> Explanation:
    """``--explain`` with the order known, within ``--time`` as the hint (``hint`` and ``play`` ask it
    here); a progress line on stderr while it waits, if ``progress`` (None: on a terminal).
    ``threads``: the worker processes of a budgeted explanation (None: as the hint's); with
    ``--time 0`` the threads of each search (None: the cores), as the hint's."""
    action = _explained_action(state, text, what)
    budget = hint_budget(budget, max_nodes, timeout)
    with ProgressLine(enabled=progress) as line:
        if budget == 0:
            return explain_exact(state, action, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb,
                                 threads=default_threads() if threads is None else threads,
                                 search_progress=line.search)
        return explain_exact(state, action, tt_mb=tt_mb, budget=budget, progress=line, workers=threads)


def explain_table_hint(position, text, samples, rng_seed, belief_seconds, max_nodes, timeout, tt_mb,
                       what="--explain") -> Explanation:
    """``--explain`` at a real table, with the settings of the real-table hint."""
    action = _explained_action(position.state(position.unseen), text, what)
    return explain_table(position, action, samples=samples, rng_seed=rng_seed, belief_seconds=belief_seconds,
                         max_nodes=max_nodes, timeout=timeout, tt_mb=min(tt_mb, 256))


def _json_answer(kind: str, answer, chosen, moves: int) -> None:
    """The answer as one JSON object of the schema: its type, the deal and the
    moves played (with --seed/--deck), then the library's dict."""
    out = {"type": kind}
    if chosen is not None:
        out.update(seed=chosen.seed, moves=moves)
    out.update(answer.as_dict())
    click.echo(render.json_text(out))


def _heading(kind: str, state, chosen, pretty, table, moves: int) -> None:
    """What a hint or an explanation is about: the deal (and the moves played) or
    the position, then the position drawn."""
    if chosen is not None:
        click.echo(render.deal_title(chosen) + (f", after {moves} move{'s' if moves != 1 else ''}" if moves else ""))
    elif kind == "exact":
        click.echo(f"Position with the order of the dungeon known ({state.rules.describe()})")
    else:
        click.echo(f"Real table ({state.rules.describe()})")
    for text in render.hint_position(state, pretty, table):
        click.echo(text)
    click.echo()


def _show_explain(why: Explanation, chosen, as_json, pretty, moves=0):
    if as_json:
        _json_answer("explain", why, chosen, moves)
        return
    _heading(why.kind, why.state, chosen, pretty, why.table, moves)
    for text in render.explain_lines(why, pretty):
        click.echo(text)
    click.echo()
    click.echo(f"Solved in {why.seconds:.3f} s ({render.count(why.nodes, 'node')}).")


def _show(hint: Hint, chosen, as_json, pretty, position, moves=0):
    if as_json:
        _json_answer("hint", hint, chosen, moves)
        return
    _heading(hint.kind, hint.state, chosen, pretty, position, moves)
    for text in render.hint_lines(hint, pretty):
        click.echo(text)
