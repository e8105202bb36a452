"""The JSON answers of the ``imp`` commands, built from library calls only.

The command line and (later) the HTTP service both call these and print or send the
dict; neither builds an answer itself.  Every dict validates against the project's
schema (``$defs/imp-deal``, ``imp-replay``, ``imp-position``, ``imp-value``).

>>> from .rules import Rules
>>> answer = replay_answer(deal(42, Rules("lopaka")), "pass 1 18 | 36 37 31")
>>> answer["type"], answer["line"], answer["position"]["leader"], answer["tricks"][0]["winner"]
('imp-replay', 'pass 1 18 | 36 37 31', 'L', 'L')
"""
from __future__ import annotations

from .deal import Deal, deal  # noqa: F401  (deal: used by the example above)
from .notation import format_line, line_of, parse_line, replay
from .position import position_dict
from .reference import NoValueError, solve_reference
from .state import State


def deal_answer(d: Deal) -> dict:
    """``imp deal --json``: the deal object of IMP-RULES §5."""
    return d.as_dict()


def trick_records(states) -> list:
    """One record a trick completed along ``states`` (a replay): its number, who led, its
    cards in order and their coins, who won it, whether that bought the bottle, and the price
    and holder after."""
    records = []
    for before, after in zip(states, states[1:]):
        if before.in_setup or len(before.trick) != before.rules.trick_size - 1:
            continue
        last = next(c for h0, h1 in zip(before.hands, after.hands) for c in h0 if c not in h1)
        records.append({
            "number": before.tricks_done + 1,
            "leader": before.seats[before.leader],
            "cards": list(before.trick) + [last],
            "coins": before.rules.table.coins_of(before.trick + (last,)),
            "winner": after.seats[after.leader],
            "bought": after.price != before.price,
            "price": after.price,
            "holder": None if after.holder is None else after.seats[after.holder],
        })
    return records


def replay_answer(d: Deal, line_text: str) -> dict:
    """``imp replay --json``: the line in canonical notation, every completed trick, and the
    position after the line (§7; ``finished``, ``scores`` and ``value`` once the round is over)."""
    return _replayed(d.start(), line_text, d.seed, {name: list(cards) for name, cards in d.blocks.items()})


def replay_position_answer(start: State, line_text: str) -> dict:
    """``imp replay --position FILE --json``: as :func:`replay_answer`, from a position (the
    line continues it: a position inside a trick is continued with the rest of that trick);
    ``seed`` and ``deal`` are null and ``start`` is the position the line starts from."""
    return _replayed(start, line_text, None, None)


def _replayed(start: State, line_text: str, seed, blocks) -> dict:
    rules = start.rules
    segments = parse_line(line_text, rules)
    states = replay(start, segments)
    out = {"type": "imp-replay", "variant": rules.variant}
    if rules.variant == "base":
        out["players"] = rules.players
    out.update({"cards": rules.cards, "seed": seed, "deal": blocks})
    if blocks is None:
        out["start"] = position_dict(start)
    out.update({"line": format_line(line_of(start, [a for s in segments for a in s])),
                "tricks": trick_records(states),
                "position": position_dict(states[-1])})
    return out


#: The most cards in hand the pure-Python reference is asked to value from a command: 6 tricks of
#: Lopaka take it about 5 s, 7 tricks over a minute (4 tricks of Glitzerhaus: about 3 s).
MAX_REFERENCE_CARDS = 18


class TooBigError(NoValueError):
    """A position too big for the pure-Python reference solver."""


def value_answer(state: State, max_cards: int = MAX_REFERENCE_CARDS) -> dict:
    """The reference solver's answer for a play-phase position: its value, every legal card's
    value and an optimal line to the end (refused above ``max_cards`` cards in hand)."""
    if state.rules.two_player and not state.in_setup:
        left = sum(len(h) for h in state.hands)
        if left > max_cards:
            raise TooBigError(f"{left} cards are still in hand: the pure-Python reference values endgames of at "
                              f"most {max_cards} (6 tricks of Lopaka, 4 of Glitzerhaus); play further with --line")
    solved = solve_reference(state)
    return {"type": "imp-value", "value": solved["value"],
            "to_play": state.turn_name,
            "actions": [{"card": a.card, "value": v} for a, v in solved["actions"]],
            "line": format_line(line_of(state, solved["line"])),
            "positions": solved["positions"],
            "position": position_dict(state)}


__all__ = ["deal_answer", "replay_answer", "trick_records", "value_answer"]
