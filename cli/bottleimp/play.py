"""``scoundrel-solve imp play``: a round of the Bottle Imp in the terminal, against bots.

The session reads one line at a time, from a person or from a pipe (each line read
is then echoed after the prompt, so the output reads as a transcript): a card to
play, the player's own part of a setup step, or a command (``hint``, ``explain``,
``moves``, ``look``, ``undo``, ``help``, ``quit``).  A bad line is told in one line and
the game goes on.  The hint is the real-table hint (what the player knows); the hint
with the deal known is ``hint dd``, named for what it sees.
"""
from __future__ import annotations

import shlex
from typing import Callable

import click

from scoundrel_solver.bottleimp import (BasePass, Discard, IllegalMove, InputError, Pass, Play, Reveal, parse_card,
                                        parse_line, replay)
from scoundrel_solver.bottleimp.analysis import DEFAULT_HINT_TIME
from scoundrel_solver.bottleimp.bots import BOTS, make_bot, setup_choice
from scoundrel_solver.bottleimp.match import MAX_ROUNDS, match_of
from scoundrel_solver.bottleimp.notation import format_line, line_of
from scoundrel_solver.progress import ProgressLine
from scoundrel_solver.shuffle import check_seed

from ..options import OneOf, Seconds, WholeNumber, json_option, usage_error
from ..output import print_json
from ..terminal import Commands, Terminal, run_session
from . import render
from .options import imp_options, pretty_option
from .progress import deals_reporter, search_reporter, worlds_reporter
from .render import seat_name


PLAY_HELP = """Play a round of the Bottle Imp in the terminal against bots.

You play A (who leads the first trick) or B (the dealer) in Lopaka and Glitzerhaus,
or one seat of the base game; the other seats are bots (--bot), and Lopaka plays
his rule.  At the end the round's scores and the margin A - B are printed with the
line you played, ready for 'scoundrel-solve imp replay'.

\b
At the prompt:
  24               play the card 24 (24b with its suit letter works too)
  pass 7           Lopaka: the card you pass (or just 7)
  s1 5/7  s2 5/7   Glitzerhaus: discard 5, pass 7 from that stack (or just 5/7)
  open 2           Glitzerhaus: the stack you lay open (or just 2)
  pass 3/8/12      base game: to the left / to the right / into the devil's trick
  hint             the real-table hint: each card's double-dummy margin averaged
                   over the deals of the cards you cannot see (NOT what the card
                   achieves: each deal is solved as if everyone saw every card)
  hint dd          the hint with the deal known: it SEES EVERY CARD, your
                   opponent's and the devil's trick too (the exchange and the
                   open stacks as matrix games)
  explain CARD     CARD beside the hint's card, deal by deal (explain dd CARD: the
                   lines with every card known, to where they part)
  moves            the line so far
  look             the position again (also an empty line)
  undo [N]         take back your last move (or N moves) and what followed
  help             this list
  quit             leave (also Ctrl-D)

\b
Bots: random (any legal card), lopaka-rule (the dummy's rule as a player),
greedy (takes a trick it can win without buying the bottle, else sheds its
highest card that loses; docs/bottleimp.md), table (the real-table hint's card
over what its seat knows), double-dummy (the exact engine, which SEES EVERY CARD,
yours too: the best card of each position, the lowest of equals; Lopaka and
Glitzerhaus only).  Every bot but random makes its setup choices by the low-cards
policy (pass the lowest card, discard the next lowest, keep stack 1 open).

--rounds N plays a match: N rounds agreed before, the deal passing each round (in
Lopaka and Glitzerhaus you are A and B in turn; Lopaka moves to the new dealer's
right), round k on deal --seed + k - 1, the running score after each round.  --as
is your seat in round 1.

--moves LINE starts the round after a line (setup steps and tricks, as imp replay
takes it); --time is the hints' budget.  --json plays one step instead of a session:
the bots move to your turn after --moves, then your --move (if given) and the bots
after it, printed as one imp-game object (what /api/imp/game answers; --reveal adds
every hidden card).

\b
Examples:
  scoundrel-solve imp play --variant lopaka --seed 42
  scoundrel-solve imp play --seed 42 --moves "pass 1 12 | 21 37 31 | 32 30 34" --bot table
  scoundrel-solve imp play --variant glitzerhaus --seed 7 --as B --bot random
  scoundrel-solve imp play --variant base --players 4 --seed 3 --as 2
  scoundrel-solve imp play --variant glitzerhaus --seed 0 --bot double-dummy
  scoundrel-solve imp play --variant lopaka --seed 42 --rounds 4 --bot table
  scoundrel-solve imp play --seed 42 --moves "pass 1 12" --move 36 --json
  printf 'pass 1\\nlook\\nquit\\n' | scoundrel-solve imp play --seed 42     (from a pipe)
"""

IN_GAME_HELP = """\
Play a card: its number (24) or with its suit letter (24b).  Setup: Lopaka 'pass 7';
Glitzerhaus 's1 5/7' (discard 5, pass 7), 's2 5/7', 'open 1' or 'open 2'; base game
'pass L/R/D' (left, right, devil's trick).  Commands: hint (the real-table hint: double-
dummy means over the deals you cannot rule out, not what a card achieves), hint dd (the
deal known: it sees every card), explain CARD, explain dd CARD, moves, look, undo [N],
help, quit."""


class Session(Commands):
    """One round: the states passed and the actions taken; ``mine`` marks the indexes of
    the actions that were the human's decisions (undo goes back to one of them)."""

    def __init__(self, d, human: int, bot: str, bot_seed: int, echo: Callable[[str], None], pretty: bool = False,
                 moves=(), hint_time: float = DEFAULT_HINT_TIME, workers: int = None):
        self.deal = d
        self.rules = d.rules
        self.human = human
        self.bot_name = bot
        self.bot_seed = bot_seed
        self.bots = {i: make_bot(bot, bot_seed + i) for i in range(len(self.rules.seats)) if i != human}
        self.echo = echo
        self.pretty = pretty
        self.states = [d.start()]
        self.actions = []
        for action in moves:            # --moves: where the round starts (not the human's to undo)
            self.states.append(self.states[-1].apply(action))
            self.actions.append(action)
        self.mine = []
        self.undos = 0
        self.hint_time = hint_time
        self.workers = workers
        self._table = None              # (actions so far, view, hint): the last real-table hint

    @property
    def state(self):
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.state.finished

    help_text = IN_GAME_HELP

    @property
    def me(self) -> str:
        return self.rules.seats[self.human]

    def prompt(self) -> str:
        return f"{self.me}> "

    def card(self, n: int) -> str:
        return self.rules.table.pretty(n) if self.pretty else str(n)

    def cards(self, numbers) -> str:
        return render.cards(numbers, self.rules.table, self.pretty)

    # ------------------------------------------------------------- views
    def start(self) -> None:
        self.echo(render.title(self.deal))
        others = ", ".join(f"{seat_name(self.rules, s)} {self.bot_name}" for i, s in enumerate(self.rules.seats)
                           if i != self.human and not (self.rules.variant == "lopaka" and s == "L"))
        if self.bot_name == "double-dummy":
            others += " (it sees every card)"
        elif self.bot_name == "table":
            others += " (it sees what its seat sees)"
        dummy = "; Lopaka plays his rule" if self.rules.variant == "lopaka" else ""
        self.echo(f"You are {seat_name(self.rules, self.me)}; bots: {others}{dummy}.  Type help for the commands.")
        self.echo("")
        self.advance()
        if not self.state.finished:
            self.look()

    def hidden_seats(self) -> set:
        state = self.state
        hide = {s for i, s in enumerate(self.rules.seats) if i != self.human}
        if self.rules.variant == "lopaka" and not state.in_setup:
            hide.discard("L")          # laid open after the exchange
        return hide

    def look(self) -> None:
        state = self.state
        lines = render.position_lines(state, self.pretty, hide=self.hidden_seats())
        if self.rules.variant == "glitzerhaus" and state.in_setup and state.step == 0:
            # the first stack is chosen before the second is looked at (IMP-RULES §4.5)
            mine = f"  {self.me}: stack 1:"
            lines = [t if not t.startswith(mine) else t.split("; stack 2:")[0] + "; stack 2: face down" for t in lines]
        for text in lines:
            self.echo(text)
        self.echo("  " + self.task())

    def task(self) -> str:
        state = self.state
        if state.in_setup:
            if self.rules.variant == "lopaka":
                return "Your move: pass one card to your opponent (pass X)."
            if self.rules.variant == "glitzerhaus":
                if state.step == 2:
                    return "Your move: choose the stack you lay open (open 1 or open 2)."
                return (f"Your move: from stack {state.step + 1} discard one card and pass one "
                        f"(s{state.step + 1} D/P).")
            return "Your move: pass a card left, one right, and lay one in the devil's trick (pass L/R/D)."
        legal = state.legal_cards()
        return f"Your move: play one of {self.cards(legal)}."

    def line_text(self, pretty: bool = False) -> str:
        return format_line(line_of(self.states[0], self.actions), self.rules.table, pretty)

    # ------------------------------------------------------------ moving
    def human_to_move(self) -> bool:
        state = self.state
        if state.finished:
            return False
        if state.in_setup:
            return bool(state.setup_options(self.human))
        return state.turn == self.human

    def push(self, action) -> None:
        before = self.state
        after = before.apply(action)
        self.states.append(after)
        self.actions.append(action)
        if not isinstance(action, Play):
            self.echo("  setup: " + self.setup_seen(action))
        elif not after.trick:
            self.echo("  " + render.trick_text(before, after, action.card, self.pretty))

    def setup_seen(self, action) -> str:
        """A setup step as the human sees it: what they chose, what they were passed, and
        nothing of what the others laid face down or passed to each other."""
        c = self.card
        if isinstance(action, Pass):
            mine, theirs = (action.a, action.b) if self.me == "A" else (action.b, action.a)
            return f"you pass {c(mine)}; you receive {c(theirs)}"
        if isinstance(action, Discard):
            if self.me == "A":
                down, given, got = action.a_devil, action.a_pass, action.b_pass
            else:
                down, given, got = action.b_devil, action.b_pass, action.a_pass
            return (f"stack {action.stack}: you lay {c(down)} face down and pass {c(given)}; "
                    f"you receive {c(got)}; your opponent laid a card face down")
        if isinstance(action, Reveal):
            return render.setup_text(self.rules, action, self.rules.table, self.pretty)
        n = len(self.rules.seats)
        left, right, down = action.choices[self.human]
        from_right = action.choices[(self.human - 1) % n][0]
        from_left = action.choices[(self.human + 1) % n][1]
        return (f"you pass {c(left)} left and {c(right)} right and lay {c(down)} face down; you receive "
                f"{c(from_right)} from seat {(self.human - 1) % n + 1} and {c(from_left)} from seat "
                f"{(self.human + 1) % n + 1}")

    def seen_line(self) -> str:
        """The line so far with what the human cannot know written as ``?``."""
        start = self.states[0]
        segments = line_of(start, self.actions)
        table, pretty = self.rules.table, self.pretty
        out = []
        for segment in segments:
            action = segment[0]
            if isinstance(action, Discard):
                a = (action.a_devil, action.a_pass)
                b = (action.b_devil, action.b_pass)
                if self.me == "A":
                    b = ("?", b[1])
                else:
                    a = ("?", a[1])
                shown = [str(x) if x == "?" or not pretty else table.pretty(x) for x in a + b]
                out.append(f"s{action.stack} {shown[0]}/{shown[1]} {shown[2]}/{shown[3]}")
            elif isinstance(action, BasePass):
                n = len(self.rules.seats)
                parts = []
                for i, (l, r, d) in enumerate(action.choices):
                    known = [l if i == self.human or (i + 1) % n == self.human else "?",
                             r if i == self.human or (i - 1) % n == self.human else "?",
                             d if i == self.human else "?"]
                    parts.append("/".join(str(x) if x == "?" or not pretty else table.pretty(x) for x in known))
                out.append("pass " + " ".join(parts))
            else:
                out.append(format_line([segment], table, pretty))
        return " | ".join(out)

    def advance(self) -> None:
        """Bots (and Lopaka) play until it is the human's turn or the round is over."""
        while not self.state.finished and not self.human_to_move():
            state = self.state
            if state.in_setup:     # cannot happen: every setup step has the human's part
                raise RuntimeError("a setup step without the human's part")
            if state.lopaka_to_play:
                card = state.legal_cards()[0]
            elif getattr(self.bots[state.turn], "needs_history", False):     # the table bot: what it has seen
                with ProgressLine() as line:
                    card = self.bots[state.turn].choose_card(
                        state, self.states[0], self.actions,
                        progress=worlds_reporter(line, f"{seat_name(self.rules, state.turn_name)} (table bot) thinking"))
            else:
                card = self.bots[state.turn].choose_card(state)
            if len(state.trick) + 1 < self.rules.trick_size:     # a completed trick is told whole by push
                self.echo(f"  {seat_name(self.rules, state.turn_name)} plays {self.card(card)}")
            self.push(Play(card))

    def my_setup_choice(self, text: str):
        """The human's own part of the setup step, from their words."""
        state = self.state
        words = text.replace(",", " ").split()
        table = self.rules.table
        variant = self.rules.variant
        keyword = {"lopaka": "pass", "base": "pass"}.get(variant) or (
            "open" if state.step == 2 else f"s{state.step + 1}")
        if words and words[0].lower() in ("pass", "s1", "s2", "open"):
            if words[0].lower() != keyword:
                raise IllegalMove(f"'{words[0]}' is not the step due: {self.task()[len('Your move: '):]}")
            words = words[1:]
        if variant == "glitzerhaus" and state.step == 2:
            if len(words) != 1 or words[0] not in ("1", "2"):
                raise IllegalMove("write open 1 or open 2")
            return int(words[0])
        if variant == "lopaka":
            if len(words) != 1:
                raise IllegalMove("write pass X: the one card you pass")
            choice = parse_card(words[0], table)
            holding = state.hands[self.human]
        else:
            parts = words[0].split("/") if len(words) == 1 else words
            size = 2 if variant == "glitzerhaus" else 3
            form = "D/P (discard, pass)" if size == 2 else "L/R/D (left, right, devil's trick)"
            if len(parts) != size:
                raise IllegalMove(f"write {keyword} {form}")
            choice = tuple(parse_card(p, table) for p in parts)
            if len(set(choice)) != size:
                raise IllegalMove(f"{form.split(' ')[0]} must be {size} different cards")
            holding = state.hands[self.human * 2 + state.step] if variant == "glitzerhaus" else state.hands[self.human]
        missing = [c for c in ((choice,) if isinstance(choice, int) else choice) if c not in holding]
        if missing:
            raise IllegalMove(f"{missing[0]} is not in your {'stack' if variant == 'glitzerhaus' else 'hand'} "
                              f"({self.cards(holding)})")
        return choice

    def play(self, text: str) -> None:
        state = self.state
        try:
            if state.in_setup:
                mine = self.my_setup_choice(text)
                choices = {}
                for i, bot in self.bots.items():
                    if state.setup_options(i):
                        with ProgressLine() as line:
                            choices[i] = setup_choice(bot, state, i, self.states[0], self.actions, progress=deals_reporter(
                                line, f"{seat_name(self.rules, self.rules.seats[i])} ({bot.name} bot) choosing"))
                choices[self.human] = mine
                action = state.joint_action(choices)
            else:
                words = text.split()
                if words and words[0].lower() in ("pass", "s1", "s2", "open"):
                    raise IllegalMove("the setup is over: play a card")
                if len(words) != 1:
                    raise IllegalMove("play one card at a time: its number, e.g. 24")
                action = Play(parse_card(words[0], self.rules.table))
            state.check(action)
        except IllegalMove as exc:
            self.echo(f"illegal: {exc}")
            return
        except InputError as exc:
            self.echo(f"{exc} (type help for the notation and the commands)")
            return
        self.mine.append(len(self.actions))
        self.push(action)
        self.advance()
        if not self.state.finished:
            self.echo("  " + self.status())

    def status(self) -> str:
        state = self.state
        if state.in_setup:
            return self.task()
        where = ""
        if self.rules.variant == "glitzerhaus":
            where = " (open stack)" if len(state.trick) < 2 else " (hand)"
        table = f"{self.cards(state.trick)} on the table" if state.trick else "you lead"
        holder = "nobody" if state.holder is None else seat_name(self.rules, state.seats[state.holder])
        return (f"Trick {state.tricks_done + 1}{where}: {table}; price {state.price} ({holder}). "
                f"Play one of {self.cards(state.legal_cards())}.")

    def undo(self, args) -> None:
        if len(args) > 1 or (args and not (args[0].isascii() and args[0].isdigit())) or (args and int(args[0]) < 1):
            self.echo("bad command: write undo, or undo N to take back your last N moves")
            return
        if not self.mine:
            self.echo("nothing to undo: you have not moved yet")
            return
        n = min(int(args[0]) if args else 1, len(self.mine))
        at = self.mine[-n]
        undone = self.actions[at:]
        del self.mine[-n:]
        del self.actions[at:]
        del self.states[at + 1:]
        self.undos += 1
        self.echo(f"undone: {len(undone)} action{'s' if len(undone) != 1 else ''} (your last "
                  f"{'move' if n == 1 else f'{n} moves'} and what followed)")
        self.echo("")
        self.look()

    def show_line(self) -> None:
        seen = self.seen_line()
        note = "  (? = cards you have not seen)" if "?" in seen else ""
        self.echo("Line so far: " + (seen or "(no moves)") + note)

    # ------------------------------------------------------------- hints
    def _no_hint(self) -> str:
        """Why there is no hint here, or ''."""
        if not self.rules.two_player:
            return "no hints in the base game: its double-dummy value is out of scope (IMP-RULES §8)"
        if not self.human_to_move():
            return "no hint: it is not your move"
        return ""

    def table_hint(self):
        """``(view, hint)`` of the real-table hint of the human's move (kept until the next move)."""
        from scoundrel_solver.bottleimp.tablehint import table_hint
        from scoundrel_solver.bottleimp.worlds import view_of
        key = tuple(self.actions)
        if self._table is None or self._table[0] != key:
            view = view_of(self.states[0], self.actions, self.human)
            with ProgressLine() as line:
                self._table = (key, view, table_hint(view, self.hint_time, self.workers, worlds_reporter(line)))
        return self._table[1], self._table[2]

    def setup_hint_lines(self) -> list:
        """The setup hint of the human's seat at the setup step due (within --time, or the setup
        hint's default for the step when --time is the play phase's default)."""
        from scoundrel_solver.bottleimp.answers import setup_hint_answer
        seconds = self.hint_time if self.hint_time and self.hint_time != DEFAULT_HINT_TIME else None   # the step's
        moves = format_line(line_of(self.states[0], self.actions))
        with ProgressLine() as line:
            answer = setup_hint_answer(self.states[0], moves, self.rules.seats[self.human], None, 0, seconds,
                                       workers=self.workers, progress=deals_reporter(line))
        return render.setup_hint_lines(answer, "", self.rules, self.pretty)[2:]

    def hint(self, args) -> None:
        """``hint`` (what the human knows) or ``hint dd`` (the deal known)."""
        from scoundrel_solver.bottleimp.analysis import hint as dd_hint
        if len(args) > 1 or (args and args[0].lower() not in ("dd", "double-dummy")):
            self.echo("bad command: write hint (the real-table hint) or hint dd (the deal known)")
            return
        why = self._no_hint()
        if why:
            self.echo(why)
            return
        def lines():
            if not args and self.state.in_setup:
                return self.setup_hint_lines()
            if args:
                with ProgressLine() as line:
                    h = dd_hint(self.state, self.hint_time, 0, search_reporter(line), self.workers)
                return ["Double-dummy hint: it sees every card, your opponent's and the devil's trick too, as no "
                        "player can.", *render.hint_body_lines(h, self.pretty)]
            view, h = self.table_hint()
            return render.table_figures_lines(h, view, self.pretty, self.hint_time)
        self._echo_lines("hint", lines)

    def explain(self, args) -> None:
        """``explain CARD`` (beside the real-table hint's card) or ``explain dd CARD`` (the deal known)."""
        from scoundrel_solver.bottleimp.analysis import explain as dd_explain
        from scoundrel_solver.bottleimp.tablehint import explain_table
        dd = bool(args) and args[0].lower() in ("dd", "double-dummy")
        rest = args[1:] if dd else args
        if len(rest) != 1:
            self.echo("bad command: write explain CARD (beside the real-table hint's card) or explain dd CARD")
            return
        why = self._no_hint()
        if why:
            self.echo(why.replace("hint", "explanation", 1))
            return
        if self.state.in_setup:
            self.echo("explain takes a card of the play phase")
            return
        def lines():
            card = parse_card(rest[0], self.rules.table)
            if card not in self.state.legal_cards():
                raise IllegalMove(f"{card} is not a card you can play here (legal: "
                                  f"{self.cards(self.state.legal_cards())})")
            if dd:
                return ["Double dummy (it sees every card: the lines show cards you have not seen):",
                        *render.explain_lines(dd_explain(self.state, card), self.pretty)]
            view, h = self.table_hint()
            return render.table_explain_lines(explain_table(view, h, card), view, self.pretty)
        self._echo_lines("explanation", lines)

    def _echo_lines(self, what: str, make) -> None:
        """Echo the lines ``make()`` gives; an interrupt (Ctrl-C) or bad input is said in a line and
        the game goes on."""
        try:
            lines = make()
        except KeyboardInterrupt:
            self.echo(f"{what} interrupted; the game goes on")
            return
        except InputError as exc:
            self.echo(str(exc))
            return
        for text in lines:
            self.echo(text)

    # ------------------------------------------------------------- ends
    def replay_command(self) -> str:
        args = ["--variant", self.rules.variant]
        if self.rules.variant == "base":
            args += ["--players", str(self.rules.players)]
        if self.rules.cards != "classic":
            args += ["--cards", self.rules.cards]
        args += self.deal.args()
        return "scoundrel-solve imp replay " + " ".join(shlex.quote(a) for a in args) + \
            f" --line {shlex.quote(self.line_text())} --steps"

    def finish(self) -> None:
        state = self.state
        self.echo("")
        for text in render.position_lines(state, self.pretty):
            self.echo(text)
        scores = state.scores()
        mine = scores[self.me]
        if self.rules.two_player:
            margin = state.value() * (1 if self.me == "A" else -1)
            verdict = "won" if margin > 0 else "lost" if margin < 0 else "drew"
            self.echo(f"You ({self.me}) {verdict}: {render.num(mine)} points, "
                      f"margin {render.signed(margin)} for you.")
        else:
            best = max(scores.values())
            place = 1 + sum(1 for v in scores.values() if v > mine)
            self.echo(f"You (seat {self.me}) scored {render.num(mine)}: place {place} of {len(scores)}"
                      + (" (top score)" if mine == best else "") + ".")
        self.echo(f"Your line: {self.line_text()}")
        self.echo(f"Replay it: {self.replay_command()}")
        self.echo(f"Undos: {self.undos}." if self.undos else "No undos.")

    def leave(self, why: str) -> None:
        self.echo(f"{why}: you leave the round at trick {self.state.tricks_done + 1}.")
        self.echo("Line so far: " + (self.seen_line() or "(no moves)"))


class MatchSession(Commands):
    """A match (``--rounds N``): one :class:`Session` a round, the deal of round k and the human's
    seat in it from :class:`~scoundrel_solver.bottleimp.match.Match` (the seats swap with the
    deal, IMP-RULES §2.8), the running score told between rounds.  The commands act on the round
    being played; undo stays within it (a finished round is the match's)."""

    help_text = IN_GAME_HELP

    def __init__(self, match, you: int, bot: str, bot_seed: int, echo: Callable[[str], None], pretty: bool = False,
                 hint_time: float = DEFAULT_HINT_TIME, workers: int = None):
        self.match = match
        self.you = you
        self.echo = echo
        self.results = []
        self._args = (bot, bot_seed, echo, pretty, (), hint_time, workers)
        self.number = 1
        self.round = self._session(1)

    def _session(self, k: int) -> Session:
        d = self.match.deal(k)
        return Session(d, d.rules.seats.index(self.match.seat(self.you, k)), *self._args)

    @property
    def over(self) -> bool:
        return self.round.over and self.number == self.match.rounds

    def prompt(self) -> str:
        return f"[{self.number}/{self.match.rounds}] {self.round.prompt()}"

    def start(self) -> None:
        m = self.match
        self.echo(f"A match of {m.rounds} round{'s' if m.rounds != 1 else ''}, numbered {m.seed}: you are player "
                  f"{self.you}; the deal passes each round, so your seat changes (docs/bottleimp.md, \"Matches\").")
        self._begin()

    def _begin(self) -> None:
        self.echo(render.match_round_line(self.match, self.number, self.you))
        self.round.start()

    def _record(self) -> None:
        state = self.round.state
        self.results.append(self.match.result(self.number, state, self.round.line_text()))

    def _next(self) -> None:
        self.round.finish()
        self._record()
        self.echo("")
        for text in render.match_score_lines(self.match, self.results, self.you):
            self.echo(text)
        self.echo("")
        self.number += 1
        self.round = self._session(self.number)
        self._begin()

    # the commands: the round's
    def look(self) -> None:
        self.round.look()

    def show_line(self) -> None:
        self.round.show_line()

    def undo(self, args) -> None:
        self.round.undo(args)

    def hint(self, args) -> None:
        self.round.hint(args)

    def explain(self, args) -> None:
        self.round.explain(args)

    def play(self, text: str) -> None:
        self.round.play(text)
        if self.round.over and not self.over:
            self._next()

    def finish(self) -> None:
        self.round.finish()
        self._record()
        self.echo("")
        for text in render.match_score_lines(self.match, self.results, self.you):
            self.echo(text)

    def leave(self, why: str) -> None:
        self.round.leave(why)
        self.echo(f"The match stops in round {self.number} of {self.match.rounds}.")
        if self.results:
            for text in render.match_score_lines(self.match, self.results, self.you):
                self.echo(text)


@click.command("play", help=PLAY_HELP)
@imp_options
@click.option("--as", "--seat", "seat", default=None, metavar="SEAT",
              help="Your seat: A or B in the variants [default: A], 1-4 in the base game [default: 1].")
@click.option("--bot", type=OneOf(list(BOTS)), default="lopaka-rule", show_default=True,
              help="The bots' way of playing (lopaka-rule is the strongest of the simple three; table plays "
                   "the real-table hint; double-dummy is the exact engine, which sees every card).")
@click.option("--bot-seed", type=WholeNumber(0, 2 ** 32 - 1), default=0, show_default=True, metavar="N",
              help="Seed of the random bot (the same seed, the same game).")
@click.option("--moves", default="", metavar="LINE",
              help='Start the round after these moves: setup steps and tricks, " | " between them.')
@click.option("--time", "hint_time", type=Seconds(zero=True), default=DEFAULT_HINT_TIME, show_default=True,
              metavar="SECONDS", help="The hints' budget (0: until every figure is exact).")
@click.option("--workers", type=WholeNumber(1, 64), default=None, metavar="N",
              help="Processes for the hints [default: 2, or the cores if fewer]; 1: this one.")
@click.option("--move", default=None, metavar="MOVE",
              help="With --json: the one step of the game the service's /api/imp/game answers: your MOVE after "
                   "--moves (and the bots' moves to your turn), printed as an imp-game object.")
@click.option("--reveal", is_flag=True, help="With --json: also the whole position (every hidden card).")
@click.option("--rounds", type=WholeNumber(1, MAX_ROUNDS), default=None, metavar="N",
              help="Play a match of N rounds (the deal passing each round, your seat with it; round k plays deal "
                   "--seed + k - 1), with the running score between rounds.")
@json_option
@pretty_option
def play_command(game, seat, bot, bot_seed, moves, hint_time, workers, move, reveal, rounds, as_json, pretty):
    if rounds is not None:
        if as_json or move is not None or reveal:
            raise usage_error("--rounds plays a match in the terminal; --json (--move, --reveal) is one step of one "
                              "round (imp match --json tells a match's deals and score)")
        if moves:
            raise usage_error("--rounds plays every round of the match from its deal: drop --moves")
    chosen = game.game() if rounds is None else match_of(game.rules(), game.seed, rounds, game.deal is not None).deal(1)
    if as_json:
        from scoundrel_solver.bottleimp.answers import game_answer
        check_seed(bot_seed, "--bot-seed")
        print_json(game_answer(chosen, moves, seat or "A", bot, bot_seed, move, reveal))
        return
    if move is not None or reveal:
        raise usage_error(f"{'--move' if move is not None else '--reveal'} goes with --json (one step of the game)")
    rules = chosen.rules
    seats = rules.seats
    if seat is None:
        seat = seats[0]
    seat = seat.strip().upper()
    if rules.variant == "lopaka" and seat == "L":
        raise usage_error("--as: Lopaka is the dummy, who plays his rule; play A or B")
    if seat not in seats:
        choices = "A or B" if rules.two_player else f"1 to {len(seats)}"
        raise usage_error(f"--as: bad seat {seat[:20]!r}: choose {choices}")
    check_seed(bot_seed, "--bot-seed")
    if bot in ("double-dummy", "table") and not rules.two_player:
        raise usage_error(f"--bot {bot} plays Lopaka and Glitzerhaus: the base game has no double-dummy "
                          f"value here (IMP-RULES §8)")
    segments = parse_line(moves, rules)
    replay(chosen.start(), segments)            # every move checked before the round starts
    actions = [a for segment in segments for a in segment]
    if rounds is not None:
        match = match_of(rules, chosen.seed, rounds)
        session = MatchSession(match, match.player_at(seat, 1), bot, bot_seed, click.echo, pretty, hint_time, workers)
    else:
        session = Session(chosen, seats.index(seat), bot, bot_seed, click.echo, pretty, actions, hint_time, workers)
    run_session(session, Terminal())
