"""The line notation of IMP-RULES §6: parsed and printed back exactly.

A line is segments separated by `` | ``: setup steps first (each whole), then tricks,
each the cards in the order played.  The last segment may stop inside a trick.

>>> rules = Rules("lopaka")
>>> line = parse_line("pass 7 30 | 24 32 20 | 5", rules)
>>> line
[[Pass(a=7, b=30)], [Play(card=24), Play(card=32), Play(card=20)], [Play(card=5)]]
>>> format_line(line)
'pass 7 30 | 24 32 20 | 5'
>>> format_line(line, rules.table, pretty=True)
'pass 7y 30b | 24b 32b 20b | 5y'
>>> format_line(parse_line("s1 3/17 33/6 | s2 1/28 36/37 | open 2 1", Rules("glitzerhaus")))
's1 3/17 33/6 | s2 1/28 36/37 | open 2 1'
"""
from __future__ import annotations

from ..errors import InputError
from .cards import CardError, parse_card
from .rules import Rules
from .state import BasePass, Discard, IllegalMove, Pass, Play, Reveal, State

SEPARATOR = " | "
MAX_LINE = 100_000       # characters: a whole round is under 200


class NotationError(InputError):
    """Text that is not a line (or segment) of the notation."""


def _shown(text: str, limit: int = 40) -> str:
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text):,} characters)"


def _card(token: str, rules: Rules, segment: str) -> int:
    try:
        return parse_card(token, rules.table)
    except CardError as exc:
        raise CardError(f"{exc} (in {_shown(segment)})") from None


def _slashed(token: str, count: int, rules: Rules, segment: str, form: str) -> tuple:
    parts = token.split("/")
    if len(parts) != count or not all(parts):
        raise NotationError(f"bad setup step {_shown(segment)}: {_shown(token)} is not {form}")
    return tuple(_card(p, rules, segment) for p in parts)


def parse_segment(text: str, rules: Rules) -> list:
    """One segment: a setup step (as a one-action list) or the cards of a trick (Plays)."""
    words = text.replace(",", " ").split()
    if not words:
        raise NotationError("an empty segment: write moves between the ' | ' separators")
    head = words[0].lower()
    variant = rules.variant
    segment = " ".join(words)
    if head == "pass":
        args = words[1:]
        if variant == "lopaka":
            if len(args) != 2 or any("/" in a for a in args):
                raise NotationError(f"bad setup step {_shown(segment)}: Lopaka's exchange is 'pass X Y' "
                                    f"(A passes X to B, B passes Y to A)")
            return [Pass(_card(args[0], rules, segment), _card(args[1], rules, segment))]
        if variant == "base":
            n = rules.players
            if len(args) != n:
                raise NotationError(f"bad setup step {_shown(segment)}: the pass of {n} players is "
                                    f"'pass {' '.join(['L/R/D'] * n)}' (one triple a seat, seat 1 first)")
            return [BasePass(tuple(_slashed(a, 3, rules, segment, "L/R/D (left, right, devil)") for a in args))]
        raise NotationError(f"bad setup step {_shown(segment)}: Glitzerhaus's setup is 's1 DA/PA DB/PB', "
                            f"'s2 DA/PA DB/PB', then 'open SA SB'")
    if head in ("s1", "s2", "open"):
        if variant != "glitzerhaus":
            form = "'pass X Y'" if variant == "lopaka" else "'pass L/R/D ...' (one triple a seat)"
            raise NotationError(f"bad setup step {_shown(segment)}: '{head}' is Glitzerhaus's; "
                                f"the setup of {variant} is {form}")
        args = words[1:]
        if head == "open":
            if len(args) != 2 or any(a not in ("1", "2") for a in args):
                raise NotationError(f"bad setup step {_shown(segment)}: write 'open SA SB', each player's "
                                    f"open stack 1 or 2")
            return [Reveal(int(args[0]), int(args[1]))]
        if len(args) != 2:
            raise NotationError(f"bad setup step {_shown(segment)}: write '{head} DA/PA DB/PB' (A discards DA and "
                                f"passes PA, B discards DB and passes PB)")
        a = _slashed(args[0], 2, rules, segment, "D/P (discard, pass)")
        b = _slashed(args[1], 2, rules, segment, "D/P (discard, pass)")
        return [Discard(int(head[1]), *a, *b)]
    if len(words) > rules.trick_size:
        raise NotationError(f"bad trick {_shown(segment)}: {len(words)} cards, a trick has {rules.trick_size}; "
                            f"separate tricks with ' | '")
    return [Play(_card(w, rules, segment)) for w in words]


def parse_line(text: str, rules: Rules) -> list:
    """A line: its segments, each a list of actions.  Empty text is the empty line.

    Only the form is checked here; :func:`replay` checks the moves against a state.
    """
    if not isinstance(text, str):
        raise NotationError(f"a line is text, not {type(text).__name__}")
    if len(text) > MAX_LINE:
        raise NotationError(f"a line of {len(text):,} characters: a whole round is under 300")
    if not text.strip():
        return []
    return [parse_segment(part, rules) for part in text.split("|")]


def format_segment(segment, table=None, pretty: bool = False) -> str:
    def card(n):
        return table.pretty(n) if pretty and table is not None else str(n)

    out = []
    for action in segment:
        if isinstance(action, Play):
            out.append(card(action.card))
        elif isinstance(action, Pass):
            out.append(f"pass {card(action.a)} {card(action.b)}")
        elif isinstance(action, Discard):
            out.append(f"s{action.stack} {card(action.a_devil)}/{card(action.a_pass)} "
                       f"{card(action.b_devil)}/{card(action.b_pass)}")
        elif isinstance(action, Reveal):
            out.append(str(action))
        else:
            out.append("pass " + " ".join("/".join(card(c) for c in t) for t in action.choices))
    return " ".join(out)


def format_line(segments, table=None, pretty: bool = False) -> str:
    """The text of a line (``pretty`` with a table: cards with their suit letters, ``24b``)."""
    return SEPARATOR.join(format_segment(s, table, pretty) for s in segments)


def replay(start: State, segments) -> list:
    """The states a line passes through: ``[start, after the first action, ...]``.

    Checks every action (:class:`IllegalMove`) and the segments: a setup step stands
    alone, and every trick segment but the last ends exactly where its trick does.
    """
    states = [start]
    state = start
    last = len(segments) - 1
    for i, segment in enumerate(segments):
        text = format_segment(segment)
        for j, action in enumerate(segment):
            if isinstance(action, Play) and j > 0 and not state.trick and not state.in_setup:
                raise IllegalMove(f"'{text}': trick {state.tricks_done} was complete before {action.card}; "
                                  f"separate tricks with ' | '")
            try:
                state = state.apply(action)
            except IllegalMove as exc:
                raise IllegalMove(f"{exc} (segment {i + 1}: '{text}')") from None
            states.append(state)
        if i < last and state.trick:
            raise IllegalMove(f"'{text}': trick {state.tricks_done + 1} is not complete "
                              f"({len(state.trick)} of {state.rules.trick_size} cards) before ' | '")
    return states


def line_of(start: State, actions) -> list:
    """The segments of ``actions`` played from ``start``: each setup step alone, the cards
    grouped trick by trick (the first group completes the trick ``start`` is in)."""
    segments = []
    state = start
    current = None
    for action in actions:
        if isinstance(action, Play):
            if current is None:
                current = []
                segments.append(current)
            current.append(action)
            state = state.apply(action)
            if not state.trick:
                current = None
        else:
            segments.append([action])
            current = None
            state = state.apply(action)
    return segments
