"""Move notation of RULES §7: takes, rooms and lines, parsed and printed exactly.

>>> line = parse_line("TD> 6H 4Sb | avoid | KHw")
>>> [[str(a) for a in room] for room in line]
[['TD>', '6H', '4Sb'], ['avoid'], ['KHw']]
>>> format_line(line)
'TD> 6H 4Sb | avoid | KHw'
"""
from __future__ import annotations

from ..errors import InputError

import re

from .cards import CardError, parse_card
from .state import AVOID, Avoid, IllegalMove, State, Take

_TAKE = re.compile(r"^(?P<card>.+?)(?P<mode>[wWbB])?(?P<help>>)?$")


class NotationError(InputError):
    """A token that is not valid move notation."""


def parse_action(token: str):
    """Parse ``avoid`` or a take such as ``QSw``, ``TD>``, ``10♦``, ``KHw>``."""
    text = token.strip()
    if text.lower() == "avoid":
        return AVOID
    m = _TAKE.match(text)
    if not m:
        raise NotationError(f"bad move {token!r}")
    card_text, mode, help_ = m.group("card"), m.group("mode"), m.group("help")
    try:
        card = parse_card(card_text)
    except CardError:
        # "JKb" style tokens parse above; a lone card like "4S" never reaches here with mode
        try:
            card = parse_card(card_text + (mode or ""))
            mode = None
        except CardError as exc:
            raise NotationError(f"bad move {token!r}: {exc}") from None
    mode = mode.lower() if mode else None
    if mode and not card.is_monster:
        raise NotationError(f"bad move {token!r}: a fight mode (w/b) only applies to monsters, {card} is a {card.kind}")
    return Take(card, mode, bool(help_))


def parse_room(text: str) -> list:
    """Parse one room: ``avoid`` or takes separated by spaces/commas."""
    tokens = [t for t in text.replace(",", " ").split() if t]
    actions = [parse_action(t) for t in tokens]
    if any(isinstance(a, Avoid) for a in actions) and len(actions) > 1:
        raise NotationError(f"bad room {text.strip()!r}: 'avoid' must stand alone in its room")
    return actions


def parse_line(text: str) -> list:
    """Parse a line: rooms separated by ``|``, first room first. Empty text is an empty line."""
    if not text.strip():
        return []
    rooms = text.split("|")
    parsed = []
    for i, room in enumerate(rooms, 1):
        actions = parse_room(room)
        if not actions:
            raise NotationError(f"bad line: room {i} is empty")
        parsed.append(actions)
    return parsed


def format_room(actions) -> str:
    return " ".join(str(a) for a in actions)


def format_line(rooms) -> str:
    return " | ".join(format_room(r) for r in rooms)


def replay(state: State, rooms) -> list:
    """Play ``rooms`` (parsed line) from ``state``; return every state passed, first included.

    Each ``|`` must fall exactly where a room ends; the last room may stop
    part-way.  Fight modes left out are filled in (weapon if usable).
    Raises :class:`IllegalMove` naming the move, the room and the reason.
    """
    states = [state]
    for r, room in enumerate(rooms):
        start_room = state.rooms_done
        for action in room:
            if state.rooms_done != start_room and not state.finished:
                raise IllegalMove(f"{action}: room {start_room + 1} was already complete "
                                  f"(write ' | ' before the next room's moves)")
            state = state.play(action)
            states.append(state)
        if r < len(rooms) - 1 and state.rooms_done == start_room and not state.finished:
            raise IllegalMove(f"room {start_room + 1} ({' '.join(map(str, state.room))}) is not complete: "
                              f"{state.to_take} more card(s) to take before ' | '")
    return states


def resolved_line(state: State, rooms) -> list:
    """The same line with every fight mode written out (canonical output form)."""
    out = []
    for room in rooms:
        done = []
        for action in room:
            action = state.resolve(action)
            done.append(action)
            state = state.play(action)
        out.append(done)
    return out
