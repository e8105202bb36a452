"""A round against bots, one step at a time, as a player at a real table sees it.

The game is its deal and its line (nothing else is kept between steps): :func:`step`
replays the line, lets the bots (and Lopaka's rule) move up to the human seat's turn,
plays the human's ``move`` (a card, or their own part of a setup step), and lets the bots
move again up to the human's next turn or the end.  :func:`seat_view` is what that seat
sees: its own cards, Lopaka's open hand after the exchange (or both open stacks), the
cards played, what it passed, received and discarded, and the suits the opponent has
shown void in; never the opponent's hidden cards nor the devil's trick.

A bot's choice depends only on the game (its name, ``bot_seed`` and the actions so far),
so the same request always gets the same answer: the ``random`` bot is seeded anew for
each choice from ``bot_seed``, its seat and the number of actions played.

>>> from .deal import deal
>>> from .rules import Rules
>>> g = step(deal(42, Rules("lopaka")), "", "A", "lopaka-rule", 0, "pass 1")
>>> g.line_text, g.human_to_move, seat_view(g)["hands"]["L"][:3]
('pass 1 12', True, [4, 6, 9])
"""
from __future__ import annotations

from dataclasses import dataclass

from .bots import BOTS, BotError, make_bot, setup_choice
from .cards import parse_card
from .notation import format_line, line_of, parse_line, replay
from .state import Discard, IllegalMove, Pass, Play, Reveal, State
from .worlds import ViewError, view_of
from .tableview import view_dict

SEATS = {"lopaka": {"A": 0, "B": 2}, "glitzerhaus": {"A": 0, "B": 1}}
#: The steps of the setup as the notation names them, and the play phase.
TASKS = {"lopaka": ("pass",), "glitzerhaus": ("s1", "s2", "open")}


class GameError(ViewError):
    """A game that cannot be played: the base game, a seat that is not a player."""


def human_seat(rules, seat: str) -> int:
    """The index of the human's seat (``A`` or ``B``) in the variant."""
    if rules.variant not in SEATS:
        raise GameError("the game against bots is for Lopaka and Glitzerhaus (A or B against a bot)")
    name = str(seat).strip().upper()
    if name == "L" and rules.variant == "lopaka":
        raise GameError("seat: Lopaka is the dummy, who plays his rule; play A or B")
    if name not in SEATS[rules.variant]:
        raise GameError(f"seat: bad seat {str(seat)[:20]!r}: choose A or B")
    return SEATS[rules.variant][name]


def check_bot(name: str) -> str:
    if name not in BOTS:
        raise BotError(f"bad bot {str(name)[:40]!r}: choose one of {', '.join(BOTS)}")
    return name


def to_move(state: State, human: int) -> bool:
    if state.finished:
        return False
    if state.in_setup:
        return bool(state.setup_options(human))
    return state.turn == human


def task(state: State) -> str:
    """What is due: ``pass``, ``s1``, ``s2``, ``open`` (a setup step), ``play``, or ``over``."""
    if state.finished:
        return "over"
    if state.in_setup:
        return TASKS[state.rules.variant][state.step]
    return "play"


def own_setup_choice(state: State, human: int, text: str):
    """The human's own part of the setup step due, from its notation: Lopaka ``pass X`` (or
    ``X``), Glitzerhaus ``s1 D/P`` (or ``D/P``; D discarded, P passed), ``open 1|2`` (or ``1``)."""
    rules = state.rules
    due = task(state)
    words = str(text).replace(",", " ").split()
    if words and words[0].lower() in ("pass", "s1", "s2", "open"):
        if words[0].lower() != due:
            raise IllegalMove(f"{words[0]!r} is not the step due: the setup step due is {due!r}")
        words = words[1:]
    if due == "open":
        if len(words) != 1 or words[0] not in ("1", "2"):
            raise IllegalMove("write open 1 or open 2: the stack laid open")
        return int(words[0])
    if due == "pass":
        if len(words) != 1:
            raise IllegalMove("write pass X: the one card passed")
        choice = (parse_card(words[0], rules.table),)
        holding = state.hands[human]
    else:
        parts = words[0].split("/") if len(words) == 1 else words
        if len(parts) != 2:
            raise IllegalMove(f"write {due} D/P: the card discarded and the card passed")
        choice = tuple(parse_card(p, rules.table) for p in parts)
        if choice[0] == choice[1]:
            raise IllegalMove(f"{due} D/P: the card discarded and the card passed must differ")
        holding = state.hands[human * 2 + state.step]
    missing = [c for c in choice if c not in holding]
    if missing:
        where = "hand" if due == "pass" else f"stack {state.step + 1}"
        raise IllegalMove(f"{missing[0]} is not in your {where} ({' '.join(map(str, holding))})")
    return choice[0] if due == "pass" else choice


def _bot(name: str, bot_seed: int, seat: int, played: int):
    return make_bot(name, bot_seed * 1_000_003 + seat * 1_009 + played if name == "random" else bot_seed)


@dataclass(frozen=True)
class Step:
    """One step of a game: the states and actions from the deal, where the request's line
    ended (``before``), where the human's move was (``moved``, or None), and the human seat."""

    start: State
    actions: tuple
    states: tuple
    human: int
    before: int          # actions of the request's line
    moved: object        # index of the human's move in ``actions`` or None

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def line_text(self) -> str:
        return format_line(line_of(self.start, list(self.actions)))

    @property
    def human_to_move(self) -> bool:
        return to_move(self.state, self.human)


def _advance(start: State, actions: list, states: list, human: int, bot: str, bot_seed: int) -> None:
    """The bots (and Lopaka) move until it is the human's turn or the round is over."""
    while not states[-1].finished and not to_move(states[-1], human):
        state = states[-1]
        if state.lopaka_to_play:
            card = state.legal_cards()[0]
        else:
            b = _bot(bot, bot_seed, state.turn, len(actions))
            if getattr(b, "needs_history", False):
                card = b.choose_card(state, start, list(actions))
            else:
                card = b.choose_card(state)
        actions.append(Play(card))
        states.append(state.apply(Play(card)))


def step(d, line_text: str, seat: str, bot: str, bot_seed: int = 0, move: str = None) -> Step:
    """The game of deal ``d`` after ``line_text``, the bots' moves up to the human's turn,
    the human's ``move`` (if given) and the bots' moves after it (see the module's doc)."""
    rules = d.rules
    human = human_seat(rules, seat)
    check_bot(bot)
    start = d.start()
    segments = parse_line(line_text, rules)
    states = replay(start, segments)
    actions = [a for s in segments for a in s]
    before = len(actions)
    _advance(start, actions, states, human, bot, bot_seed)
    moved = None
    if move is not None:
        state = states[-1]
        if state.finished:
            raise IllegalMove("the round is over: no move to play")
        if state.in_setup:
            choices = {i: setup_choice(_bot(bot, bot_seed, i, len(actions)), state, i, start, actions)
                       for i in range(len(state.seats)) if i != human and state.setup_options(i)}
            choices[human] = own_setup_choice(state, human, move)
            action = state.joint_action(choices)
        else:
            words = str(move).split()
            if words and words[0].lower() in ("pass", "s1", "s2", "open"):
                raise IllegalMove("the setup is over: play a card")
            if len(words) != 1:
                raise IllegalMove("play one card at a time: its number, e.g. 24")
            action = Play(parse_card(words[0], rules.table))
        state.check(action)
        moved = len(actions)
        actions.append(action)
        states.append(state.apply(action))
        _advance(start, actions, states, human, bot, bot_seed)
    return Step(start, tuple(actions), tuple(states), human, before, moved)


def setup_seen(rules, action, human: int) -> dict:
    """A setup step as the human saw it: their choice and what they received; nothing the
    opponent laid face down."""
    me = rules.seats[human]
    if isinstance(action, Pass):
        mine, theirs = (action.a, action.b) if me == "A" else (action.b, action.a)
        return {"step": "pass", "passed": mine, "received": theirs}
    if isinstance(action, Discard):
        if me == "A":
            down, given, got = action.a_devil, action.a_pass, action.b_pass
        else:
            down, given, got = action.b_devil, action.b_pass, action.a_pass
        return {"step": f"s{action.stack}", "discarded": down, "passed": given, "received": got}
    if isinstance(action, Reveal):
        mine, theirs = (action.a, action.b) if me == "A" else (action.b, action.a)
        return {"step": "open", "open": mine, "opponent_open": theirs}
    raise GameError("the base game's setup is not played here")   # pragma: no cover


def seen_segment(start: State, segment, human: int) -> str:
    """One segment of the line as the human saw it: the opponent's discards written ``?``."""
    action = segment[0]
    if isinstance(action, Discard):
        a = [action.a_devil, action.a_pass]
        b = [action.b_devil, action.b_pass]
        (b if human == 0 else a)[0] = "?"
        return f"s{action.stack} {a[0]}/{a[1]} {b[0]}/{b[1]}"
    return format_line([segment])


def seen_line(step_: Step) -> str:
    """The line with what the human cannot know (the opponent's discards) written ``?``."""
    return " | ".join(seen_segment(step_.start, s, step_.human) for s in line_of(step_.start, list(step_.actions)))


def seat_view(step_: Step) -> dict:
    """What the human seat sees now: in the play phase the ``imp-table-view`` of
    :func:`.worlds.view_of`; in the setup its own cards (Glitzerhaus: stack 2 stays face down
    until stack 1's step is done, IMP-RULES §4.5), what it discarded, passed and received."""
    if not step_.state.in_setup:
        return view_dict(view_of(step_.start, list(step_.actions), step_.human))
    return setup_view_dict(step_.state, step_.actions, step_.human)


def setup_view_dict(state: State, actions, seat: int) -> dict:
    """The ``imp-setup-view`` of ``seat`` at the setup step due in ``state`` (after the setup
    ``actions``): its own cards (Glitzerhaus: stack 2 face down, null, until stack 1's step is
    done), and each step as it saw it (what it laid down, passed and received)."""
    rules = state.rules
    out = {"type": "imp-setup-view", "variant": rules.variant, "cards": rules.cards, "seat": rules.seats[seat],
           "step": task(state)}
    if rules.variant == "lopaka":
        out["hand"] = list(state.hands[seat])
    else:
        out["stacks"] = {"1": list(state.hands[seat * 2])}
        out["stacks"]["2"] = list(state.hands[seat * 2 + 1]) if state.step >= 1 else None
        out["stack_2_size"] = len(state.hands[seat * 2 + 1])
    out["setup"] = [setup_seen(rules, a, seat) for a in actions if not isinstance(a, Play)]
    return out


def options(step_: Step) -> list:
    """The human's choices now: legal cards, or the cards of the holding a setup step takes
    from (``open``: the stacks 1 and 2); empty when it is not their move."""
    state, human = step_.state, step_.human
    if not step_.human_to_move:
        return []
    if not state.in_setup:
        return list(state.legal_cards())
    if task(state) == "open":
        return [1, 2]
    if state.rules.variant == "lopaka":
        return list(state.hands[human])
    return list(state.hands[human * 2 + state.step])


__all__ = ["GameError", "Step", "check_bot", "human_seat", "options", "own_setup_choice", "seat_view", "seen_line", "seen_segment",
           "setup_seen", "setup_view_dict", "step", "task", "to_move"]
