"""Text for people about the Bottle Imp: deals, positions, setup steps and tricks.

Pure functions from library values to lines of text; the ``imp`` commands only print them.
"""
from __future__ import annotations

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


def position_lines(state: State, pretty: bool = False, hide=None) -> list:
    """The position: price and bottle, each seat's cards and won coins, the devil's trick,
    whose turn.  ``hide``: seats whose hidden cards are not shown (the play command)."""
    rules = state.rules
    table = rules.table
    hide = hide or set()
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
                parts = [f"open: {cards(state.hands[i * 2], table, pretty)}", f"hand: {hidden}"]
        else:
            hand = f"{len(state.hands[i])} cards" if seat in hide else cards(state.hands[i], table, pretty)
            parts = [f"hand: {hand}"]
        if not state.in_setup:
            pile = state.won[i]
            parts.append(f"won {len(pile) // rules.trick_size} trick{'s' if len(pile) // rules.trick_size != 1 else ''}, "
                         f"{table.coins_of(pile)} coins")
        out.append(f"  {name}: " + "; ".join(parts))
    if state.devil or rules.variant == "lopaka":
        shown = f"{len(state.devil)} cards face down" if hide else (
            f"{cards(state.devil, table, pretty)} ({table.coins_of(state.devil)} coins)")
        out.append(f"  Devil's trick: {shown}")
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
