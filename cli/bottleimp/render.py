"""Text for people about the Bottle Imp: deals, positions, setup steps and tricks.

Pure functions from library values to lines of text; the ``imp`` commands only print them.
"""
from __future__ import annotations

from fractions import Fraction

from scoundrel_solver.bottleimp.state import BasePass, Discard, Pass, Play, Reveal, State, trick_winner

MINUS, ARROW = "\u2212", "\u2192"
VARIANT_TITLE = {"lopaka": "Lopaka", "glitzerhaus": "Glitzerhaus"}


def signed(n: int) -> str:
    return (MINUS + str(-n)) if n < 0 else (f"+{n}" if n > 0 else "0")


def num(n: int) -> str:
    return MINUS + str(-n) if n < 0 else str(n)


def cards(numbers, table=None, pretty: bool = False) -> str:
    if not numbers:
        return "(none)"
    return " ".join(table.pretty(n) if pretty and table is not None else str(n) for n in numbers)


def seat_name(rules, seat: str) -> str:
    if rules.variant == "lopaka" and seat == "L":
        return "Lopaka"
    return seat if rules.variant != "base" else f"seat {seat}"


def title(d) -> str:
    rules = d.rules
    game = VARIANT_TITLE.get(rules.variant) or f"Base game, {rules.players} players"
    which = f"deal {d.seed}" if d.seed is not None else "a deal given by hand"
    suits = ", ".join(f"{k} {v}" for k, v in rules.table.suit_names.items())
    return f"{game}, {which} ({rules.cards} cards: {suits})"


def position_title(rules) -> str:
    game = VARIANT_TITLE.get(rules.variant) or f"Base game, {rules.players} players"
    suits = ", ".join(f"{k} {v}" for k, v in rules.table.suit_names.items())
    return f"{game}, from a position ({rules.cards} cards: {suits})"


def deal_lines(d, pretty: bool = False) -> list:
    """The deal for people: each block sorted (``--json`` keeps the deal order)."""
    rules = d.rules
    table = rules.table
    labels = {"A": "A (leads)", "L": "Lopaka", "B": "B (deals)", "devil": "Devil's trick (face down)",
              "A1": "A stack 1", "A2": "A stack 2", "B1": "B stack 1", "B2": "B stack 2"}
    if rules.variant == "base":
        n = rules.players
        labels = {str(i): f"seat {i}" + (" (leads)" if i == 1 else " (deals)" if i == n else "")
                  for i in range(1, n + 1)}
    width = max(len(labels[name]) for name in d.blocks) + 1
    out = [title(d)]
    for name, block in d.blocks.items():
        out.append(f"  {(labels[name] + ':').ljust(width)} {cards(sorted(block), table, pretty)}")
    return out


def setup_text(rules, action, table, pretty: bool = False) -> str:
    def c(n):
        return table.pretty(n) if pretty else str(n)

    if isinstance(action, Pass):
        return f"A passes {c(action.a)} to B, B passes {c(action.b)} to A"
    if isinstance(action, Discard):
        return (f"stack {action.stack}: A lays {c(action.a_devil)} in the devil's trick and passes {c(action.a_pass)} "
                f"to B; B lays {c(action.b_devil)} and passes {c(action.b_pass)} to A")
    if isinstance(action, Reveal):
        return f"A lays stack {action.a} open, B stack {action.b}"
    if isinstance(action, BasePass):
        return "; ".join(f"seat {i + 1} passes {c(l)} left, {c(r)} right, lays {c(d)} down"
                         for i, (l, r, d) in enumerate(action.choices))
    raise TypeError(action)


def trick_text(before: State, after: State, last: int, pretty: bool = False) -> str:
    """A completed trick: who played what, who won, and the bottle."""
    table = before.rules.table
    played = before.trick + (last,)
    who = [before.seats[before.seat_of_card(k)] for k in range(len(played))]
    shown = ", ".join(f"{w} {table.pretty(c) if pretty else c}" for w, c in zip(who, played))
    at, bought = trick_winner(played, before.price)
    winner, won_with = who[at], played[at]
    coins = table.coins_of(played)
    total = table.coins_of(after.won[after.leader])
    worth = f"; {coins} coin{'s' if coins != 1 else ''}, {seat_name(before.rules, winner)} has won {total}"
    if bought is not None:
        return (f"trick {before.tricks_done + 1}: {shown} {ARROW} {seat_name(before.rules, winner)} wins with "
                f"{won_with} and buys the bottle at {bought}{worth}")
    holder = "nobody" if after.holder is None else seat_name(before.rules, after.seats[after.holder])
    return (f"trick {before.tricks_done + 1}: {shown} {ARROW} {seat_name(before.rules, winner)} wins with {won_with} "
            f"(the highest; none below the price); the bottle stays with {holder} at {after.price}{worth}")


def narrate(states, actions, pretty: bool = False) -> list:
    """The line step by step: each setup step, each completed trick, and the cards of an
    unfinished last trick."""
    out = []
    for before, action, after in zip(states, actions, states[1:]):
        if not isinstance(action, Play):
            out.append("  setup: " + setup_text(before.rules, action, before.rules.table, pretty))
        elif not after.trick:
            out.append("  " + trick_text(before, after, action.card, pretty))
    final = states[-1]
    if final.trick:
        out.append(f"  trick {final.tricks_done + 1} so far: {cards(final.trick, final.rules.table, pretty)}")
    return out


def position_lines(state: State, pretty: bool = False, hide=None, notes=None, devil_note: str = "") -> list:
    """The position: price and bottle, each seat's cards and won coins, the devil's trick,
    whose turn.  ``hide``: seats whose hidden cards are not shown (the play command);
    ``notes``: text to add after a hidden holding, by seat; ``devil_note``: after the devil's trick."""
    rules = state.rules
    table = rules.table
    hide = hide or set()
    notes = notes or {}
    out = []
    if state.in_setup:
        due = state._setup_due()
        out.append(f"Setup: {due}.")
    else:
        holder = "nobody" if state.holder is None else seat_name(rules, state.seats[state.holder])
        out.append(f"Price {state.price}, bottle with {holder}.")
    for i, seat in enumerate(state.seats):
        name = seat_name(rules, seat)
        if rules.variant == "glitzerhaus":
            if state.in_setup:
                parts = [f"stack 1: {cards(state.hands[i * 2], table, pretty)}",
                         f"stack 2: {cards(state.hands[i * 2 + 1], table, pretty)}"]
                if seat in hide:
                    parts = ["stacks face down"]
            else:
                hidden = f"{len(state.hands[i * 2 + 1])} hidden" if seat in hide else cards(state.hands[i * 2 + 1], table, pretty)
                parts = [f"open: {cards(state.hands[i * 2], table, pretty)}", f"hand: {hidden}{notes.get(seat, '')}"]
        else:
            hand = f"{len(state.hands[i])} cards" if seat in hide else cards(state.hands[i], table, pretty)
            parts = [f"hand: {hand}{notes.get(seat, '')}"]
        if not state.in_setup:
            pile = state.won[i]
            parts.append(f"won {len(pile) // rules.trick_size} trick{'s' if len(pile) // rules.trick_size != 1 else ''}, "
                         f"{table.coins_of(pile)} coins")
        out.append(f"  {name}: " + "; ".join(parts))
    if state.devil or rules.variant == "lopaka":
        shown = f"{len(state.devil)} cards face down" if hide else (
            f"{cards(state.devil, table, pretty)} ({table.coins_of(state.devil)} coins)")
        out.append(f"  Devil's trick: {shown}{devil_note}")
    if state.finished:
        scores = state.scores()
        text = ", ".join(f"{seat_name(rules, s)} {num(v)}" for s, v in scores.items())
        out.append(f"Round over. Scores: {text}.")
        if rules.two_player:
            out.append(f"Margin A {MINUS} B: {signed(state.value())}.")
    elif not state.in_setup:
        to_play = seat_name(rules, state.turn_name)
        where = ""
        if rules.variant == "glitzerhaus":
            where = " from the open stack" if len(state.trick) < 2 else " from the hand"
        if state.trick:
            out.append(f"Trick {state.tricks_done + 1}: {cards(state.trick, table, pretty)} on the table; "
                       f"{to_play} to play{where}.")
        else:
            out.append(f"Trick {state.tricks_done + 1}: {to_play} to lead{where}.")
    return out


# ------------------------------------------------------- solve and hint
def bound(v) -> str:
    """A proven bound or value of a margin: ``+12``, ``−3``, ``0``, ``?``."""
    return "?" if v is None else signed(v)


def fraction(x) -> str:
    """A matrix game's figure: ``+32`` when whole, else ``1319/19 (+69.42)``."""
    from fractions import Fraction
    x = Fraction(x)
    if x.denominator == 1:
        return signed(x.numerator)
    return f"{num(x.numerator)}/{x.denominator} ({MINUS if x < 0 else '+'}{abs(float(x)):.2f})"


def probability(p) -> str:
    return str(p) if p.denominator != 1 else ("1" if p == 1 else "0")


def _value_line(lower, upper, exact: bool, what: str) -> str:
    if lower == upper:
        return f"{what}: {fraction(lower)}" + ("" if exact else " (under the method above, NOT exact)")
    return f"{what}: NOT PROVEN, between {fraction(lower)} and {fraction(upper)} (a limit stopped the search)"


def _option(game, o, table, pretty) -> str:
    if game.kind == "exchange":
        return cards([o], table, pretty)
    return f"stack {o}"


def game_lines(game, table, pretty: bool = False) -> list:
    """A matrix game: its cells (bounds ``lo..hi`` where unfinished), its value, the
    equilibrium, the pure maximin and minimax."""
    exchange = game.kind == "exchange"
    what = "The exchange" if exchange else "The open stacks"
    choice = "passes" if exchange else "open stack"
    out = [f"{what} as a matrix game (both choose at once; margin A {MINUS} B after each pair, double dummy; "
           f"rows: A's {choice}, columns: B's):"]

    def cell(i, j):
        lo, hi = game.lower[i][j], game.upper[i][j]
        return num(lo) if lo == hi else f"{num(lo)}..{num(hi)}"
    labels_r = [cards([o], table, pretty) for o in game.rows]
    labels_c = [cards([o], table, pretty) for o in game.columns]
    texts = [[cell(i, j) for j in range(len(game.columns))] for i in range(len(game.rows))]
    width = max([len(t) for row in texts for t in row] + [len(c) for c in labels_c]) + 1
    left = max(len(x) for x in labels_r + ["A\\B"]) + 2
    out.append(" " * 2 + "A\\B".ljust(left) + "".join(c.rjust(width) for c in labels_c))
    for label, row in zip(labels_r, texts):
        out.append(" " * 2 + label.ljust(left) + "".join(t.rjust(width) for t in row))
    if game.lazy is not None:
        out.append(f"Lazily: {game.lazy.exact_cells} of {game.lazy.cells} cells known exactly ({game.lazy.exact_solves} of "
                   f"them solved, any others narrowed to a point; {game.lazy.tests} null-window tests in all), the rest "
                   f"to the bounds shown; the value and the equilibrium are those of the full matrix.")
    lo, hi = game.value_bounds
    out.append(_value_line(lo, hi, True, "Value of the game (mixed equilibrium)"))
    mixes = game.mixes
    if mixes is not None:
        parts = [f"{seat} {'passes' if exchange else 'opens'} " +
                 ", ".join(f"{_option(game, o, table, pretty)} ({probability(p)})" for o, p in mixes[seat])
                 for seat in ("A", "B")]
        out.append("Equilibrium: " + "; ".join(parts) + ".")
    for seat, name in (("A", "maximin (A's best guaranteed"), ("B", "minimax (B's best guaranteed")):
        option, lo, hi = game.pure_best(seat)
        pick = "pass" if exchange else "stack"
        figure = signed(lo) if lo == hi else f"between {signed(lo)} and {signed(hi)}"
        shown = "" if option is None else f"{_option(game, option, table, pretty)}, "
        out.append(f"Pure {name} {pick}): {shown}{figure}")
    return out


def _end_lines(analysis, pretty: bool) -> list:
    final = analysis.final
    rules = analysis.state.rules
    out = []
    if final is None:
        out.append("Line: not known (the value is not proven)")
        return out
    scores = analysis.scores
    holder = seat_name(rules, analysis.holder)
    out.append(f"At the end of the line: A {num(scores['A'])}, B {num(scores['B'])} (margin "
               f"{signed(final.value())}); the bottle ends with {holder}.")
    line = analysis.line
    from scoundrel_solver.bottleimp.notation import format_line, line_of
    out.append("Line: " + (format_line(line_of(analysis.state, line), rules.table, pretty) or "(the round is over)"))
    return out


def solve_lines(analysis, title_text: str, moves: str, pretty: bool = False) -> list:
    """``imp solve`` for people: the value (margin A − B), the matrix game if any, the
    scores and holder at the end of the principal line, the line, the search's figures."""
    state = analysis.state
    table = state.rules.table
    out = [title_text, "Moves: " + (moves or "(none)")]
    out += position_lines(state, pretty)
    out.append("")
    if analysis.game is not None or len(analysis.parts) > 1:
        out.append(f"Method: {analysis.method}" + ("" if analysis.exact else " (NOT exact)") + ":")
        for p in analysis.parts:
            out.append(f"  {p.part}: {p.method} [{'exact' if p.exact else 'not exact'}]")
    if analysis.setup:
        from scoundrel_solver.bottleimp.notation import format_line, line_of
        out.append("Setup by the policy: " + format_line(line_of(state, analysis.setup), table, pretty))
    if analysis.game is not None:
        out += game_lines(analysis.game, table, pretty)
        if analysis.choice is not None:
            a, b, p = analysis.game.pair
            out.append(f"Most likely pair: {analysis.choice} (probability {probability(p)}); the line follows it.")
    else:
        out.append(_value_line(analysis.lower, analysis.upper, analysis.exact,
                               f"Value (margin A {MINUS} B, double dummy)"))
    out += _end_lines(analysis, pretty)
    out.append(f"Search: {analysis.nodes:,} nodes, {analysis.seconds:.2f} s.")
    return out


def hint_lines(h, title_text: str, moves: str, pretty: bool = False, explained=None) -> list:
    """``imp hint`` for people: every card (or setup choice), best first, and ``--explain``."""
    out = [title_text, "Moves: " + (moves or "(none)")]
    out += position_lines(h.state, pretty)
    out.append("")
    out += hint_body_lines(h, pretty)
    if explained is not None:
        out.append("")
        out += explain_lines(explained, pretty)
    return out


def hint_body_lines(h, pretty: bool = False) -> list:
    """The figures of a hint with the deal known: every card best first, or the matrix game of
    a setup step and each player's choices."""
    state = h.state
    rules = state.rules
    table = rules.table
    out = []
    if hasattr(h, "cards"):
        if not h.cards:
            out.append("The round is over: nothing to play.")
        else:
            who = seat_name(rules, h.to_play)
            aim = "his rule" if state.lopaka_to_play else (
                "aims for the highest margin" if h.to_play == "A" else "aims for the lowest margin")
            out.append(f"{who} to play ({aim}); margin A {MINUS} B after each card, best first:")
            for f in h.cards:
                figure = signed(f.lower) if f.exact else f"{signed(f.lower)}..{signed(f.upper)} (not finished)"
                mark = "  best" if f.card == h.best else ""
                out.append(f"  {cards([f.card], table, pretty):>4}  {figure}{mark}")
            if h.exact:
                out.append(f"Every card exact ({h.nodes:,} nodes, {h.seconds:.2f} s).")
            else:
                out.append(f"Not every card finished within {h.time:g} s: bounds shown ({h.nodes:,} nodes); "
                           f"--time 0 for no limit.")
    else:
        game = h.game
        out += game_lines(game, table, pretty)
        for seat in ("A", "B"):
            other = "B" if seat == "A" else "A"
            pick = "pass" if game.kind == "exchange" else "open"
            out.append(f"{seat}'s {'passes' if pick == 'pass' else 'open stacks'}, best first for {seat} "
                       f"(margin A {MINUS} B):")
            out.append(f"  {pick:>6}  {'against ' + other + chr(39) + 's mix':>18}  {'guaranteed':>10}  probability")
            for f in h.options[seat]:
                against = "?" if f.against_mix is None else fraction(f.against_mix)
                worst = signed(f.guaranteed_lower) if f.guaranteed_lower == f.guaranteed_upper else \
                    f"{signed(f.guaranteed_lower)}..{signed(f.guaranteed_upper)}"
                prob = "?" if f.probability is None else probability(f.probability)
                label = cards([f.option], table, pretty) if game.kind == "exchange" else str(f.option)
                out.append(f"  {label:>6}  {against:>18}  {worst:>10}  {prob}")
        if not h.exact:
            out.append(f"The matrix is not finished within {h.time:g} s: cells shown as bounds, no equilibrium; "
                       f"--time 0 for no limit.")
    return out


def explain_lines(e, pretty: bool = False) -> list:
    """``--explain CARD``: both lines trick by trick to where they part, and the values."""
    state = e.state
    rules = state.rules
    table = rules.table
    who = seat_name(rules, state.turn_name)
    c = cards([e.card], table, pretty)
    b = cards([e.best], table, pretty)
    if e.card == e.best or e.cost == 0:
        head = (f"{c} is the best card" if e.card == e.best else f"{c} is as good as the best card {b}") + \
            f": margin {signed(e.card_value)}."
    else:
        head = f"{who} plays {c}: margin {signed(e.card_value)}, against {signed(e.best_value)} after the best card " \
               f"{b}; {c} costs {who} {e.cost}."
    out = [f"Explain {c}. " + head]
    if e.card != e.best:
        width = max([len(cards(t.best_cards, table, pretty)) for t in e.tricks] + [12]) + 2
        out.append(f"  trick  {('after ' + b).ljust(width)} margin so far   {('after ' + c).ljust(width)} margin so far")
        for t in e.tricks:
            out.append(f"  {t.number:>5}  {cards(t.best_cards, table, pretty).ljust(width)} {signed(t.best_margin):>13}"
                       f"   {cards(t.card_cards, table, pretty).ljust(width)} {signed(t.card_margin):>13}")
        if e.diverges_at is not None:
            out.append(f"The margins part after trick {e.diverges_at}.")
        else:
            out.append("The margins never part: the two lines are worth the same.")
    from scoundrel_solver.bottleimp.notation import format_line, line_of
    out.append(f"Line after {b}: " + format_line(line_of(state, e.best_line), table, pretty))
    if e.card != e.best:
        out.append(f"Line after {c}: " + format_line(line_of(state, e.card_line), table, pretty))
    return out


# ------------------------------------------------------- at a real table
def percent(x) -> str:
    return f"{float(x) * 100:.0f}%"


def mean(x) -> str:
    """A mean margin for people: ``+61.43`` (the exact fraction is in the JSON)."""
    return ("+" if x > 0 else MINUS if x < 0 else "") + f"{abs(float(x)):.2f}"


def view_lines(view, pretty: bool = False) -> list:
    """What the player of ``view`` knows, as :func:`position_lines` shows a position: the unseen
    hand's size, the cards known in it and its voids; the devil's trick face down but for the
    player's own discards."""
    from scoundrel_solver.bottleimp.worlds import worlds
    rules = view.rules
    table = rules.table
    world = next(worlds(view))
    opponent = rules.seats[2 - view.seat if rules.variant == "lopaka" else 1 - view.seat]
    notes = []
    if view.hidden_known:
        notes.append(f"known: {cards(view.hidden_known, table, pretty)}")
    if view.voids:
        notes.append("void in " + ", ".join(table.suit_names[v] for v in view.voids))
    unseen = (" unseen" if rules.variant == "lopaka" else "") + (f" ({'; '.join(notes)})" if notes else "")
    devil = f" (yours: {cards(view.devil_known, table, pretty)})" if view.devil_known else ""
    return position_lines(world, pretty, hide={opponent}, notes={opponent: unseen}, devil_note=devil)


def table_figures_lines(h, view, pretty: bool = False, seconds: float = None) -> list:
    """The real-table hint's figures: every card, recommended first, with its mean double-dummy
    margin, the share of worlds where it is best and its range; the caveat; how many worlds."""
    from scoundrel_solver.bottleimp.tablehint import NAMED
    rules = view.rules
    table = rules.table
    who = seat_name(rules, h.seat)
    aim = "aims for the highest margin" if h.seat == "A" else "aims for the lowest margin"
    worlds = "world" if h.worlds_total == 1 else "worlds"
    out = [f"{who} to play ({aim}). Over the {h.worlds_total} {worlds} {who} cannot rule out (the deals of the "
           f"unseen cards), margin A {MINUS} B:"]
    if not h.cards:
        out.append(f"  no world solved within {seconds:g} s: --time 0 solves them all")
    else:
        g = getattr(h, "guarantee", None)
        width = max(len(cards([f.card], table, pretty)) for f in h.cards) + 2
        floor_head = f"  {'floor':>8}" if g is not None else ""
        out.append(f"  {'card'.rjust(width)}  {'mean':>8}{floor_head}  {'best in':>14}  range")
        for f in h.cards:
            share = f"{percent(f.best_share)} ({f.best_share * h.worlds_solved}/{h.worlds_solved})"
            marks = ["recommended"] if f.card == h.recommended else []
            if g is not None and f.card == g.best:
                marks.append("best floor")
            floor = f"  {mean(g.floor_of(f.card)):>8}" if g is not None else ""
            out.append(f"  {cards([f.card], table, pretty).rjust(width)}  {mean(f.mean):>8}{floor}  {share:>14}  "
                       f"{signed(f.low)}..{signed(f.high)}" + "".join("  " + m for m in marks))
    out.append(NAMED[0].upper() + NAMED[1:] + ".")
    if getattr(h, "guarantee", None) is not None:
        out.append("Floor: you play each later card from what you see, the opponent sees every card and answers "
                   "each world at its best; the mean over the worlds of what that reaches (at least this against "
                   f"any opponent; {h.guarantee.nodes:,} positions searched).")
    if h.complete:
        out.append(f"All {h.worlds_total} {worlds} solved ({h.seconds:.2f} s"
                   f"{', the play-outs below included' if getattr(h, 'achieved', None) else ''}).")
    else:
        out.append(f"{h.worlds_solved} of {h.worlds_total} worlds solved within {seconds:g} s (a fixed shuffled "
                   f"sample of them; the figures are over these): --time 0 solves them all.")
    return out


def table_explain_lines(e, view, pretty: bool = False) -> list:
    """``explain CARD`` at a real table: CARD beside the recommended card, world by world."""
    rules = view.rules
    table = rules.table
    c = cards([e.card], table, pretty)
    r = cards([e.recommended], table, pretty)
    who = seat_name(rules, rules.seats[view.seat])
    if e.card == e.recommended:
        return [f"Explain {c}: it is the recommended card (the best mean over the worlds solved)."]
    out = [f"Explain {c} beside the recommended {r}, world by world ({e.worlds} worlds solved; double-dummy margins):",
           f"  as good in {e.same}, worse in {e.worse}, better in {e.better}; on average {c} "
           f"{'costs' if e.mean_cost >= 0 else 'gains'} {who} {abs(float(e.mean_cost)):.2f} coins of margin."]
    for what, w in (("costs the most", e.costliest), ("gains the most", e.best_for_card)):
        if w is not None:
            cost, hidden, devil = w
            out.append(f"  {c} {what} ({abs(cost)}) where the unseen hand is {cards(hidden, table, pretty)} and the "
                       f"devil's trick {cards(devil, table, pretty)}.")
    return out


def achieved_lines(h, view, against: str, pretty: bool = False) -> list:
    """What the recommended card achieved against ``against``, played out over the worlds, or why
    it was not played out."""
    rules = view.rules
    who = seat_name(rules, h.seat)
    other = seat_name(rules, "B" if h.seat == "A" else "A")
    a = h.achieved
    if a is None:
        return [f"What the recommended card achieves against {against}: not played out (every world must be solved "
                f"first, then at least 5 play-outs within the time; --time 0 plays out every world)."]
    c = cards([a.card], rules.table, pretty)
    ci = "" if a.ci95 is None else f", 95% interval {mean(a.ci95[0])}..{mean(a.ci95[1])}"
    lopaka = ", Lopaka by his rule" if rules.variant == "lopaka" else ""
    return [f"What {c} achieves, played out over {len(a.margins)} of the {h.worlds_total} worlds ({who} by the "
            f"{a.player}, {other} by {a.opponent}{lopaka}): mean margin {mean(a.mean)}{ci}.",
            f"That is a margin {who} can reach against {a.opponent}; it is only as good as the policies named."]


def table_hint_lines(h, view, title_text: str, moves, seconds: float, pretty: bool = False, explained=None,
                     against: str = None) -> list:
    """``imp hint --table`` for people: what the player knows, the figures, the caveat."""
    out = [title_text]
    if moves is not None:
        out.append("Moves: " + (moves or "(none)"))
    who = seat_name(view.rules, view.rules.seats[view.seat])
    out.append(f"What {who} knows:")
    out += view_lines(view, pretty)
    out.append("")
    out += table_figures_lines(h, view, pretty, seconds)
    if against is not None:
        out += achieved_lines(h, view, against, pretty)
    if explained is not None:
        out.append("")
        out += table_explain_lines(explained, view, pretty)
    return out


#: the choices dropped by the race that the text shows (the JSON has them all)
DROPPED_SHOWN = 8
STEP_TITLE = {"pass": "the exchange", "s1": "stack 1 (s1)", "s2": "stack 2 (s2)", "open": "the open choice"}


def _choice(item: dict, step: str, table, pretty: bool) -> str:
    if step in ("s1", "s2"):
        return f"{cards([item['devil']], table, pretty)}/{cards([item['pass']], table, pretty)}"
    if step == "open":
        return f"stack {item['choice']}"
    return cards([int(item["choice"])], table, pretty)


def setup_view_lines(view: dict, table, pretty: bool = False) -> list:
    """What the seat of an ``imp-setup-view`` knows: its cards and the setup steps as it saw them."""
    who = view["seat"]
    if view["variant"] == "lopaka":
        out = [f"{who} holds {cards(view['hand'], table, pretty)} (Lopaka's hand is laid open after the exchange)."]
    else:
        out = [f"{who}'s stack 1: {cards(view['stacks']['1'], table, pretty)}"]
        two = view["stacks"]["2"]
        out.append(f"{who}'s stack 2: " + (cards(two, table, pretty) if two is not None else
                                            f"{view['stack_2_size']} cards face down (seen after stack 1's step)"))
    for step in view["setup"]:
        if "discarded" in step:
            out.append(f"  {step['step']}: laid {cards([step['discarded']], table, pretty)} down, passed "
                       f"{cards([step['passed']], table, pretty)}, received {cards([step['received']], table, pretty)}")
    return out


def setup_hint_lines(a: dict, title_text: str, rules, pretty: bool = False, seat_given: bool = True) -> list:
    """``imp hint --table`` at a setup step, for people (from its JSON answer, :func:`answers.setup_hint_json`)."""
    table = rules.table
    step = a["step"]
    out = [title_text, "Moves: " + (a["moves"] or "(none)")]
    other = "B" if a["seat"] == "A" else "A"
    whose = f"{a['seat']}'s view" + ("" if seat_given else f" (--seat {other} for {other}'s)")
    out.append(f"The setup hint at {STEP_TITLE[step]}, {whose}; "
               f"{a['seat']} aims for the {'highest' if a['seat'] == 'A' else 'lowest'} margin A {MINUS} B.")
    out += setup_view_lines(a["view"], table, pretty)
    out.append(f"Opponent: {a['model']['opponent_text']}.")
    if a["model"]["later"]:
        out.append(f"Later steps: {a['model']['later']}.")
    out.append("")
    head = {"pass": "pass", "s1": "down/pass", "s2": "down/pass", "open": "open"}[step]
    texts = [_choice(c, step, table, pretty) for c in a["candidates"]]
    width = max(len(head), *(len(t) for t in texts))
    finalists = a["deals"]
    out.append(f"  {head.rjust(width)}      mean   95 % interval      best in  deals")
    dropped_told, shown = False, 0
    dropped = sum(1 for c in a["candidates"] if c["deals"] < finalists)
    for c, text in zip(a["candidates"], texts):
        if c["deals"] < finalists:
            if not dropped_told:
                out.append("  dropped by the race (figures over their own deals; the last dropped first):")
                dropped_told = True
            if shown == DROPPED_SHOWN and dropped > DROPPED_SHOWN + 1:
                out.append(f"  ... and {dropped - shown} more dropped earlier (--json lists every choice)")
                break
            shown += 1
        ci = c["ci95"]
        interval = f"{mean(ci[0])}..{mean(ci[1])}" if ci else "(one deal)"
        marks = []
        if text == texts[0]:
            marks.append("recommended")
        if c["same_as"]:
            marks.append("same as " + ", ".join(c["same_as"]))
        out.append(f"  {text.rjust(width)}  {mean(Fraction(c['mean']['fraction'])):>8}  {interval:>16}  "
                   f"{percent(Fraction(c['best_share']['fraction'])):>11}  {c['deals']:>5}"
                   + "".join("  " + m for m in marks))
    if a["runner_up"] is not None and a["difference"] is not None:
        d = a["difference"]
        ci = d["ci95"]
        said = f"{mean(d['mean'])} a round" + (f", 95 % {mean(ci[0])}..{mean(ci[1])}" if ci else "")
        verdict = "clear of" if a["clear"] else "not clear of"
        out.append(f"Recommended: {texts[0]}, {verdict} the runner-up {texts[1]} (difference {said}, "
                   f"deal by deal on the same deals).")
    else:
        out.append(f"Recommended: {texts[0]}.")
    out.append(a["named"][0].upper() + a["named"][1:] + ".")
    budget = f"--samples {a['samples']}" if a["samples"] else f"within --time {a['time']:g} s"
    out.append(f"{a['deals']} deals drawn ({budget}), {a['choices']} choices"
               + (f" ({a['choices'] - len(a['candidates'])} merged with an equivalent one)"
                  if len(a["candidates"]) < a["choices"] else "") + f", {a['seconds']:.1f} s.")
    return out


# ------------------------------------------------------------- review
def margin(m) -> str:
    """A reviewed margin: ``+12``, or its proven bounds ``−3..+40``."""
    return signed(m.lower) if m.exact else f"{signed(m.lower)}..{signed(m.upper)}"


def loss_mark(m) -> str:
    """A card's loss as the review marks it: nothing for 0, ``−3``, or bounds ``−0..12``."""
    if m.exact:
        return "" if m.lower == 0 else f"{MINUS}{m.lower}"
    return f"{MINUS}{m.lower}..{m.upper}"


def _choices_text(options, game, table, pretty) -> str:
    if not options:
        return "not proven"
    return " or ".join(_option(game, o, table, pretty) for o in options)


def review_game_lines(g, table, pretty: bool = False) -> list:
    """A setup step of the review: its matrix game, the pair played and each player's choice
    against the other's actual one."""
    game = g.game
    exchange = game.kind == "exchange"
    out = game_lines(game, table, pretty)
    out.append(f"Played: {g.action}, worth {margin(g.played_value)} (the play phase after it, double dummy).")
    for c in g.choices:
        other = g.seat("B" if c.seat == "A" else "A")
        did = f"passed {cards([c.choice], table, pretty)}" if exchange else f"opened stack {c.choice}"
        against = (f"B's actual pass {cards([other.choice], table, pretty)}" if exchange and c.seat == "A" else
                   f"A's actual pass {cards([other.choice], table, pretty)}" if exchange else
                   f"{other.seat}'s actual stack {other.choice}")
        lost = "nothing" if c.loss.exact and c.loss.lower == 0 else (
            f"{c.loss.lower}" if c.loss.exact else f"{c.loss.lower}..{c.loss.upper}")
        out.append(f"  {c.seat} {did}: against {against}, the best is {_choices_text(c.best, game, table, pretty)} "
                   f"({margin(c.best_value)}); {c.seat} lost {lost} there.")
    return out


def amount(x) -> str:
    """A loss or a value of coins: ``7``, or ``18.50`` where an open-stack game's value makes a fraction."""
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}"


def _margin_figure(m) -> str:
    """A margin that may be a fraction: ``+12``, ``+18.50``, or its bounds."""
    def one(x):
        x = Fraction(x)
        return signed(x.numerator) if x.denominator == 1 else mean(x)
    return one(m.lower) if m.exact else f"{one(m.lower)}..{one(m.upper)}"


def review_stack_lines(st, table, pretty: bool = False) -> list:
    """A Glitzerhaus stack step of the review: each player's pair against the other's actual one,
    its value, the best pairs and the loss."""
    from scoundrel_solver.bottleimp.review import STACK_METHOD

    def pair(p):
        return f"{cards([p[0]], table, pretty)}/{cards([p[1]], table, pretty)}"
    out = [f"Stack {st.stack} ({st.action}), in hindsight: {STACK_METHOD[st.stack]}."]
    for c in st.choices:
        other = st.seat("B" if c.seat == "A" else "A")
        best = " or ".join(pair(b) for b in c.best[:6]) + (f" (and {len(c.best) - 6} more)" if len(c.best) > 6 else "")
        lost = "nothing" if c.loss.exact and c.loss.lower == 0 else amount(c.loss.lower) if c.loss.exact else (
            f"{amount(c.loss.lower)}..{amount(c.loss.upper)}")
        out.append(f"  {c.seat} laid down/passed {pair(c.choice)}: against {other.seat}'s actual {pair(other.choice)} "
                   f"worth {_margin_figure(c.value)}; the best is {best or 'not proven'} "
                   f"({_margin_figure(c.best_value)}); {c.seat} lost {lost} there.")
    return out


def review_lines(r, title_text: str, pretty: bool = False) -> list:
    """``imp review`` for people: the setup's figures, then trick by trick every card with its
    value before → after and its loss, who won; the end; each player's total loss (last)."""
    from scoundrel_solver.bottleimp.notation import format_line, line_of
    from scoundrel_solver.bottleimp.review import NAMED
    start = r.start
    rules = start.rules
    table = rules.table
    out = [title_text, "Line: " + (format_line(line_of(start, r.actions), table, pretty) or "(no moves)"),
           f"Review, {NAMED}.",
           f"Values are the margin A {MINUS} B (A aims high, B low); {MINUS}N marks a card that lost its player N "
           f"coins of margin."]
    if r.setup:
        out.append("")
        out.append("Setup:")
        for s in r.setup:
            what = s.method if s.analysed else s.reason
            out.append(f"  {format_line([[s.action]], table, pretty)}: {what}")
    for st in r.stacks:
        out.append("")
        out += review_stack_lines(st, table, pretty)
    for g in (r.exchange, r.open_stacks):
        if g is not None:
            out.append("")
            out += review_game_lines(g, table, pretty)
    if r.play_value is not None:
        out.append("")
        out.append(f"Play: the value at its start {margin(r.play_value)}.")
    width = max([len(cards([c.card], table, pretty)) for c in r.cards] + [2])
    for number, trick in r.tricks:
        first = r.states[trick[0].index]
        where = "" if not first.trick else f" (after {cards(first.trick, table, pretty)})"
        out.append(f"Trick {number}, {seat_name(rules, first.seats[first.leader])} leads{where}:")
        for c in trick:
            name = seat_name(rules, c.seat)
            if rules.variant == "glitzerhaus":        # the first two cards come from the open stacks
                name += " open" if len(r.states[c.index].trick) < 2 else " hand"
            name = name.ljust(6)
            shown = cards([c.card], table, pretty).rjust(width)
            if c.by_rule:
                out.append(f"  {name} {shown}  his rule")
                continue
            text = f"  {name} {shown}  {margin(c.before)} {ARROW} {margin(c.after)}"
            mark = loss_mark(c.loss)
            if mark:
                text += f"  {mark}  (best: {cards(c.best, table, pretty) if c.best else 'not proven'})"
            elif c.forced:
                text += "  (forced)"
            out.append(text)
        last = trick[-1]
        before, after = r.states[last.index], r.states[last.index + 1]
        if not after.trick:
            out.append("  " + ARROW + trick_text(before, after, last.card, pretty).split(ARROW, 1)[1])
        else:
            out.append("  (the line stops inside this trick)")
    out.append("")
    final = r.final
    if r.finished:
        scores = r.scores
        out.append(f"Round over: A {num(scores['A'])}, B {num(scores['B'])} (margin {signed(r.margin)}); the bottle "
                   f"ends with {seat_name(rules, r.holder)}.")
    elif final.in_setup:
        out.append(f"The line stops in the setup ({final._setup_due()}).")
    else:
        holder = "nobody" if r.holder is None else seat_name(rules, r.holder)
        out.append(f"The line stops in trick {final.tricks_done + 1}: value now {margin(r.end_value)}; the bottle "
                   f"with {holder} at {final.price}.")
    if not r.exact:
        out.append("NOT exact: a limit stopped some searches; their figures are the bounds proven.")
    out.append(f"Search: {r.nodes:,} nodes, {r.seconds:.2f} s.")

    def lost(m):
        return amount(m.lower) if m.exact else f"{amount(m.lower)}..{amount(m.upper)}"
    setup = "".join(f"; in {'the exchange' if g.game.kind == 'exchange' else 'the open stacks'} A "
                    f"{lost(g.seat('A').loss)}, B {lost(g.seat('B').loss)}" for g in r.setup_games)
    setup += "".join(f"; in stack {st.stack} A {lost(st.seat('A').loss)}, B {lost(st.seat('B').loss)}"
                     for st in r.stacks)
    out.append(f"Total loss (double dummy): in the play A {lost(r.total_loss('A'))}, B {lost(r.total_loss('B'))}"
               f"{setup}.")
    return out


def match_player(match, player: int, you: int = None) -> str:
    """``player 1`` (``you`` marks the human's player in ``imp play --rounds``)."""
    return "you" if player == you else f"player {player}"


def match_round_line(match, k: int, you: int = None) -> str:
    """Round ``k``'s deal and seats: ``Round 2 of 4: deal 43; player 1 deals; you are B ...``."""
    rules = match.rules
    seats = ", ".join(f"{match_player(match, p, you)} {seat_name(rules, s)}" for p, s in match.seats(k).items())
    dealer = match_player(match, match.dealer(k), you)
    return (f"Round {k} of {match.rounds}: deal {match.round_seed(k)}; {dealer} "
            f"{'deal' if dealer == 'you' else 'deals'}; seats: {seats}.")


def match_score_lines(match, results, you: int = None) -> list:
    """The running score after ``results`` (the rounds played): each round's scores, the totals."""
    from scoundrel_solver.bottleimp.match import leaders, margin, totals
    out = []
    for r in results:
        scores = ", ".join(f"{match_player(match, p, you)} ({r.seats[p]}) {num(v)}" for p, v in r.scores.items())
        out.append(f"  round {r.number} (deal {r.seed}): {scores}")
    t = totals(match, results)
    text = ", ".join(f"{match_player(match, p, you)} {num(v)}" for p, v in t.items())
    done = len(results)
    where = "final score" if done == match.rounds else f"score after {done} of {match.rounds} rounds"
    if match.rules.two_player and done:
        m = margin(match, results)
        text += f" (player 1 {MINUS} player 2: {signed(m)})"
    out.append(f"Match {where}: {text}.")
    if done == match.rounds:
        top = leaders(match, results)
        if len(top) > 1:
            out.append("The match is drawn: " + " and ".join(match_player(match, p, you) for p in top) + " tie.")
        else:
            who = match_player(match, top[0], you)
            out.append("You win the match." if who == "you" else f"{who[0].upper() + who[1:]} wins the match.")
    return out
