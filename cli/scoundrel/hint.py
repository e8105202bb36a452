"""``scoundrel-solve hint``: the best next action, for a numbered deal or a real table."""
from __future__ import annotations

import click

from scoundrel_solver.progress import ProgressLine
from scoundrel_solver.scoundrel import answers
from scoundrel_solver.scoundrel.answers import HintAnswer, TableFlags
from scoundrel_solver.scoundrel.explain import Explanation
from scoundrel_solver.scoundrel.hints import Hint
from scoundrel_solver.scoundrel.table import DEFAULT_RNG_SEED, DEFAULT_SAMPLES
from scoundrel_solver.scoundrel.lookahead import DEFAULT_DEALS, DEFAULT_ORDERS
from scoundrel_solver.scoundrel.tablehint import DEFAULT_BELIEF_SECONDS, LOOKAHEADS

from ..options import MAX_RNG_SEED, MAX_SAMPLES, OneOf, WholeNumber, json_option, progress_option, typed
from ..output import print_json
from . import render
from .options import GameChoice, game_options, pretty_option, search_options, threads_option, time_option

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
--lookahead depth1 (opt-in) adds, where the belief figure is not exact, the
depth-1 belief value: this room and the next decided without seeing the
order, the order seen after, over --depth1-deals next deals and
--depth1-orders orders (sampled from --rng-seed): an estimated upper bound,
not achievable, tighter than the depth-0 one; it then ranks the actions.
Bounded by those counts only (the same answer on every machine), not cut by
--time; at most 33 unseen cards (beyond: not given, with the reason).
  scoundrel-solve hint --room "3C QC 8D KC" --health 6 --weapon 7D --last-kill 12 \\
      --gone "5D 3H 7C 4H 9H AC QS 2C" --lookahead depth1 --depth1-deals 4 --depth1-orders 4
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
        click.option("--position", type=click.File("rb"), default=None, metavar="FILE",
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
@click.option("--lookahead", type=OneOf(LOOKAHEADS), default=None,
              help="Real table: add the depth-1 belief value (an estimated upper bound; counts only, not cut "
                   "by --time) and rank by it.")
@click.option("--depth1-deals", type=WholeNumber(1, MAX_SAMPLES), default=None,
              help=f"With --lookahead depth1: next deals it is valued over [default: {DEFAULT_DEALS}].")
@click.option("--depth1-orders", type=WholeNumber(1, MAX_SAMPLES), default=None,
              help=f"With --lookahead depth1: orders per deal after the next room [default: {DEFAULT_ORDERS}].")
@json_option
@pretty_option
@time_option
@search_options
@threads_option
@progress_option
@click.pass_context
def hint_command(ctx, game: GameChoice, moves, explain, hide_order, samples, rng_seed, belief_seconds, lookahead,
                 depth1_deals, depth1_orders, as_json, pretty, budget, max_nodes, timeout, tt_mb, threads, progress,
                 **table):
    table = TableFlags(**table)
    with ProgressLine(enabled=progress) as line:
        answer = answers.hint_of(
            game, moves, explain, hide_order, table, samples=samples, rng_seed=rng_seed,
            belief_seconds=belief_seconds if typed(ctx, "belief_seconds") else None, budget=budget,
            max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb, threads=threads if typed(ctx, "threads") else None,
            progress=line, lookahead=lookahead, depth1_deals=depth1_deals, depth1_orders=depth1_orders)
    if as_json:
        print_json(answer.as_dict())
    elif answer.kind == "explain":
        _show_explain(answer, pretty)
    else:
        _show(answer, pretty)


def exact_hint_within(state, budget, max_nodes, timeout, tt_mb, progress=None, threads=None) -> Hint:
    """The exact hint within ``--time``, with a progress line on stderr while it waits
    if ``progress`` (None: on a terminal); ``play`` asks it here, as ``hint`` does."""
    with ProgressLine(enabled=progress) as line:
        return answers.exact_hint_within(state, budget, max_nodes, timeout, tt_mb, line, threads)


def explain_exact_within(state, text, budget, max_nodes, timeout, tt_mb, what="--explain",
                         progress=None, threads=None) -> Explanation:
    """``--explain`` with the order known, within ``--time`` as the hint, with a progress
    line on stderr while it waits if ``progress`` (None: on a terminal)."""
    with ProgressLine(enabled=progress) as line:
        return answers.explain_exact_within(state, text, budget, max_nodes, timeout, tt_mb, what, line, threads)


explain_table_hint = answers.explain_table_hint


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


def _show_explain(answer: HintAnswer, pretty: bool = False):
    why = answer.value
    _heading(why.kind, why.state, answer.game, pretty, why.table, answer.moves)
    for text in render.explain_lines(why, pretty):
        click.echo(text)
    click.echo()
    click.echo(f"Solved in {why.seconds:.3f} s ({render.count(why.nodes, 'node')}).")


def _show(answer: HintAnswer, pretty: bool = False):
    hint = answer.value
    _heading(hint.kind, hint.state, answer.game, pretty, answer.table, answer.moves)
    for text in render.hint_lines(hint, pretty):
        click.echo(text)
