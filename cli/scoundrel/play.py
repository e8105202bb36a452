"""``scoundrel-solve play``: an interactive game in the terminal.

The session reads one line at a time, from a person at a terminal or from a
pipe (the tests drive it that way): moves in RULES §7 notation, or a command
(``hint``, ``undo``, ``moves``, ...).  A bad line is reported in one line and
the game goes on; nothing of a line with an illegal move is played.  At the
end the score is set against the optimal score of the deal.
"""
from __future__ import annotations

import datetime
import shlex
from typing import Callable, Optional

import click

from scoundrel_solver import AVOID, Avoid, IllegalMove, InputError, State, format_line, parse_line, replay, solve
from scoundrel_solver.scoundrel.table import DEFAULT_RNG_SEED, DEFAULT_SAMPLES, TablePosition, known_bottom_of_line
from scoundrel_solver.scoundrel.tablehint import table_hint
from scoundrel_solver.progress import ProgressLine

from scoundrel_solver.scoundrel.answers import hint_budget, table_budget
from scoundrel_solver.scoundrel.game import Game, GameChoice
from scoundrel_solver.scoundrel.search import default_threads

from ..options import progress_option, usage_error
from ..terminal import Commands, Terminal, run_session
from . import render
from .hint import exact_hint_within, explain_exact_within, explain_table_hint
from .options import game_options, pretty_option, search_options, threads_option, time_option

TABLE_SAMPLES = DEFAULT_SAMPLES   # as `hint`: the same position gets the same figures
MAX_TABLE_SAMPLES = 100_000
TABLE_TT_MB = 256           # as the hint command: table hints need no bigger table

PLAY_HELP = """Play a dungeon in the terminal, with hints and undo.

Each turn shows the room (in row order), each hero's health, weapon and last
kill, and the cards left in the dungeon.  Type a move in the notation of
docs/rules.md, or several moves of the room at once; a line with an illegal
move is refused whole, with the reason, and the game goes on.  At the end the
score is set against the optimal score of the deal, and the line you played
is printed, ready for 'scoundrel-solve replay'.

\b
At the prompt:
  5D  QSw  4Sb  TD>  avoid   moves (several at once: 5D 5C 4H)
  hint                       exact hint: every action and its optimal score,
                             within --time seconds (as the hint command)
  hint table [N]             what a player who cannot see the order should do
                             (N random orders, default {samples})
  explain ACTION             why ACTION (e.g. 4H, 8Cb, avoid) is worse: its best
                             line next to the best action's, room by room
  explain table ACTION       the same at a real table: the typical outcome
  undo [N]                   take back the last move (or N moves); also
                             offered after a fatal move, before the game ends
  moves                      the line so far
  look                       the position again (also an empty line)
  help                       this list
  quit                       leave (also Ctrl-D)

\b
Examples:
  scoundrel-solve play --seed 42
  scoundrel-solve play --seed 7 --mode coop --pretty
  scoundrel-solve play --deck "5D 3S 4H 9C 2D 7S"
  scoundrel-solve play --daily
  echo "3H 5D 5C" | scoundrel-solve play --seed 42     (from a pipe)

It also runs from piped standard input: each line read is echoed after the
prompt, so the output reads as a transcript.
"""

IN_GAME_HELP = """\
Moves: 5D take a card; QSw / 4Sb fight a monster with the weapon / bare-handed
  (no letter: the weapon if it may be used, else bare-handed); TD> give the card
  to your partner (co-op, one per room); avoid.  Several moves of this room on
  one line: 5D 5C 4H (all are played or none).  Rooms may be joined with ' | '.
Commands: hint, hint table [N], undo [N], moves, look, help, quit (or Ctrl-D);
  explain ACTION (explain table ACTION at a real table): why ACTION is worse than the best move."""


# ------------------------------------------------------------------ session

class Session(Commands):
    """One game: the states passed, the actions taken, and what was asked.

    ``states[i + 1]`` is ``states[i]`` after ``actions[i]`` (fight modes
    written out); undo drops from the end of both.
    """

    def __init__(self, game: Game, echo: Callable[[str], None], pretty: bool = False,
                 max_nodes=None, timeout=None, tt_mb: int = 256, title: Optional[str] = None, budget=None,
                 progress=None, threads=None):
        self.game = game
        self.echo = echo
        self.pretty = pretty
        self.search = dict(max_nodes=max_nodes, timeout=timeout)
        self.tt_mb = tt_mb
        self.budget = budget            # --time of the exact hints, as `hint` takes it
        self.progress = progress        # --progress/--no-progress (None: on a terminal's stderr)
        self.threads = threads          # --threads of the exact hints and the final solve (None: as `hint`)
        self.title = title or render.deal_title(game)
        self.states = [game.start()]
        self.actions = []
        self.exact_hints = 0
        self.table_hints = 0
        self.explains = 0
        self.undos = 0

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def over(self) -> bool:
        return self.state.finished

    help_text = IN_GAME_HELP

    def prompt(self) -> str:
        return f"hero {self.state.leader + 1}> " if self.state.rules.coop else "> "

    # ------------------------------------------------------------- views
    def start(self) -> None:
        self.echo(self.title)
        self.echo("Type moves (5D, QSw, 4Sb, TD>, avoid), hint, undo, help or quit.")
        self.echo("")
        self.look()

    def look(self) -> None:
        """The whole position: room, what to take, heroes, cards left."""
        state = self.state
        self.echo(render.room_header(state, self.pretty))
        self.echo("  " + self._task(state))
        if state.rules.coop:
            for i, hero in enumerate(state.heroes):
                self.echo(f"  hero {i + 1}: {hero.describe()}")
        else:
            self.echo(f"  you: {state.heroes[0].describe()}")
        left = len(state.dungeon)
        self.echo(f"  {left} card{'s' if left != 1 else ''} left in the dungeon")

    def _task(self, state: State) -> str:
        n = state.to_take
        if state.final_room:
            parts = [f"take all {n} (final room, no avoiding)" if state.taken == 0 else f"{n} more to take"]
        elif state.taken == 0:
            parts = [f"take 3 of {len(state.room)}, the last stays for the next room"]
            try:
                state.resolve(AVOID)
                parts.append("avoid allowed")
            except IllegalMove as exc:  # its reason follows the room: "... (CARDS): why"
                parts.append("no avoiding: " + str(exc).split(": ", 1)[-1])
        else:
            parts = [f"{n} more to take"]
        if state.rules.coop:
            if state.help_used:
                parts.append("help card already given")
            else:
                parts.append(f"one card may go to hero {state.partner + 1} (write it with >, e.g. {state.room[0]}>)")
        return "; ".join(parts)

    def _room_rest(self) -> str:
        state = self.state
        return (f"  Room {state.rooms_done + 1} now: {render.cards_text(state.room, self.pretty)}"
                f"  ({self._task(state)})")

    def line_text(self, pretty: bool = False) -> str:
        """The line so far in notation (with --pretty, its cards as 10♦)."""
        rooms, current = [], None
        for before, action in zip(self.states, self.actions):
            if before.rooms_done != current:
                rooms.append([])
                current = before.rooms_done
            rooms[-1].append(action)
        return render.line_text(rooms, pretty) if pretty else format_line(rooms)

    def replay_command(self) -> str:
        rules = self.game.rules
        if self.game.seed is not None:
            args = ["--seed", str(self.game.seed)]
        else:
            args = ["--deck", " ".join(map(str, self.game.deck))]
        if rules.coop:
            args += ["--mode", "coop"]
            if rules.deck_size != 52:
                args += ["--deck-size", str(rules.deck_size)]
        elif rules.flee != "classic":
            args += ["--flee", rules.flee]
        if rules.durability != ("lenient" if rules.coop else "strict"):
            args += ["--durability", rules.durability]
        return "scoundrel-solve replay " + " ".join(shlex.quote(a) for a in args) + \
            f" --line {shlex.quote(self.line_text())} --steps"

    # --------------------------------------------------------- one line
    def show_line(self) -> None:
        self.echo("Line so far: " + (self.line_text(self.pretty) or "(no moves)"))

    def play(self, text: str) -> None:
        state = self.state
        try:
            rooms = parse_line(text)
            states = replay(state, rooms)
        except IllegalMove as exc:
            self.echo(f"illegal: {exc}{self._nothing_played(text)}")
            return
        except InputError as exc:  # not notation at all
            message = str(exc) if str(exc).startswith("bad ") else f"bad move: {exc}"
            where = f"room {state.rooms_done + 1}: {render.cards_text(state.room, self.pretty)}"
            self.echo(f"{message} ({where}; type help for the notation and the commands)")
            return
        flat = [a for room in rooms for a in room]
        for i, action in enumerate(flat):
            before, after = states[i], states[i + 1]
            action = before.resolve(action)
            self.states.append(after)
            self.actions.append(action)
            if isinstance(action, Avoid):
                self.echo("  avoid the room (its cards go under the dungeon)")
            else:
                self.echo("  " + render.describe_take(before, action, after, self.pretty))
            room_over = after.rooms_done != before.rooms_done or after.finished
            if room_over and not isinstance(action, Avoid):
                self.echo(f"  {render.ARROW} {render.after_room_text(after)}")
            if room_over and not after.finished:
                if i == len(flat) - 1:
                    self.echo("")
                    self.look()
                else:
                    self.echo(render.room_header(after, self.pretty))
        if not self.over and flat and self.state.rooms_done == states[-2].rooms_done:
            self.echo(self._room_rest())

    @staticmethod
    def _nothing_played(text: str) -> str:
        moves = len(text.replace("|", " ").replace(",", " ").split())
        return f" (nothing of your {moves} moves was played)" if moves > 1 else ""

    def undo(self, args) -> None:
        if len(args) > 1 or (args and not args[0].isdigit()) or (args and int(args[0]) < 1):
            self.echo("bad command: write undo, or undo N to take back N moves")
            return
        n = int(args[0]) if args else 1
        if not self.actions:
            self.echo("nothing to undo: no move played yet")
            return
        n = min(n, len(self.actions))
        undone = self.actions[-n:]
        del self.actions[-n:]
        del self.states[-n:]
        self.undos += 1
        self.echo(f"undone: {' '.join(render.action_text(a, self.pretty) for a in undone)}")
        self.echo("")
        self.look()

    def hint(self, args) -> None:
        kind = args[0].lower() if args else "exact"
        table = kind in ("table", "t")
        samples = args[1] if len(args) == 2 else str(TABLE_SAMPLES)
        if kind not in ("exact", "table", "t") or len(args) > (2 if table else 1) \
                or not (samples.isdigit() and 1 <= int(samples) <= MAX_TABLE_SAMPLES):
            self.echo(f"bad command: write hint, or hint table [N] with 1 <= N <= {MAX_TABLE_SAMPLES:,} "
                      f"random orders (default {TABLE_SAMPLES})")
            return
        state = self.state
        try:
            if table:
                position = TablePosition.from_state(state, known_bottom_of_line(self.states[0], self.actions))
                hint = table_hint(position, samples=int(samples), rng_seed=DEFAULT_RNG_SEED,
                                  tt_mb=min(self.tt_mb, TABLE_TT_MB), time_budget=table_budget(self.budget, self.search.get("max_nodes"),
                                                           self.search.get("timeout")) or None,
                                  achievable_games=int(samples), **self.search)
                self.table_hints += 1
                face_down = render.hint_position(state, self.pretty, position)[-1]
            else:
                hint = exact_hint_within(state, self.budget, self.search.get("max_nodes"),
                                         self.search.get("timeout"), self.tt_mb, self.progress, self.threads)
                self.exact_hints += 1
                face_down = None
        except KeyboardInterrupt:
            self.echo("")
            self.echo("hint interrupted; the game goes on")
            return
        if face_down:
            self.echo(face_down)
        lines = render.hint_lines(hint, self.pretty)
        # The last line tells time and cache hits: it would make a transcript
        # differ from run to run, so the game leaves it out.
        if lines[-1].startswith("Solved "):
            lines = lines[:-2]
        for text in lines:
            self.echo(text)

    def explain(self, args) -> None:
        """``explain ACTION`` (order known, as ``hint --explain``) or ``explain table ACTION``."""
        table = bool(args) and args[0].lower() in ("table", "t")
        if table:
            args = args[1:]
        if len(args) != 1:
            self.echo("bad command: write explain ACTION (e.g. explain 4H), or explain table ACTION")
            return
        state = self.state
        try:
            if table:
                position = TablePosition.from_state(state, known_bottom_of_line(self.states[0], self.actions))
                why = explain_table_hint(position, args[0], TABLE_SAMPLES, DEFAULT_RNG_SEED, None,
                                         self.search.get("max_nodes"), self.search.get("timeout"),
                                         min(self.tt_mb, TABLE_TT_MB), what="explain")
            else:
                why = explain_exact_within(state, args[0], self.budget, self.search.get("max_nodes"),
                                           self.search.get("timeout"), self.tt_mb, what="explain",
                                           progress=self.progress, threads=self.threads)
        except InputError as exc:       # an illegal or unknown action: one line, the game goes on
            self.echo(str(exc))
            return
        except KeyboardInterrupt:
            self.echo("")
            self.echo("explain interrupted; the game goes on")
            return
        self.explains += 1
        for text in render.explain_lines(why, self.pretty):
            self.echo(text)

    # ------------------------------------------------------------ ends
    def take_back(self, read: Callable[[str], Optional[str]]) -> bool:
        """A hero just died: offer to undo the fatal moves before the game ends.

        Returns True when moves were taken back and the game goes on.
        """
        self.echo("")
        self.echo("That was fatal. Type undo (or undo N) to take it back; "
                  "anything else (or an empty line, Ctrl-D) ends the game.")
        while True:
            line = read("undo? ")
            words = (line or "").split()
            if not words or words[0].lower() not in ("undo", "u"):
                return False
            before = len(self.actions)
            self.undo(words[1:])
            if len(self.actions) < before:
                return True

    def finish(self) -> None:
        """The game is over: the verdict, the optimal score of the deal, the line."""
        state = self.state
        self.echo("")
        verdict = "WON" if state.won else "LOST"
        self.echo(f"Game over: {verdict}, score {render.signed(state.score)}.")
        self.echo(self._optimal_text(state.score))
        self._tell_line("Your line")
        used = []
        if self.exact_hints or self.table_hints:
            kinds = [f"{n} {k}" for n, k in ((self.exact_hints, "exact"), (self.table_hints, "table")) if n]
            used.append(f"hints used: {self.exact_hints + self.table_hints} ({', '.join(kinds)})")
        else:
            used.append("no hints")
        used.append(f"undos: {self.undos}" if self.undos else "no undos")
        text = ", ".join(used)
        self.echo(text[0].upper() + text[1:] + ".")

    def _optimal_text(self, score: int) -> str:
        start = self.states[0]
        if start.rules.coop and start.cards_left() > 24:
            self.echo("Working out the optimal score of this deal (Ctrl-C skips it)...")
        try:
            with ProgressLine(enabled=self.progress) as line:
                result = solve(state=start, tt_mb=self.tt_mb, progress=line.search("solving the deal"),
                               threads=default_threads() if self.threads is None else self.threads, **self.search)
        except KeyboardInterrupt:
            self.echo("")
            return "Optimal for this deal: not worked out (interrupted)."
        if result.score is None:
            return f"Optimal for this deal: unknown ({render.verdict(result)})."
        best = render.score_text(result.score)
        if not result.exact:
            return f"Optimal for this deal: at least {best} (NOT PROVEN: a search limit was reached)."
        text = f"Optimal for this deal: {best} (proven)"
        if not result.won:
            text += ": this deal cannot be won"
        if score == result.score:
            return text + ". You played it perfectly."
        return text + f"{';' if not result.won else ','} {result.score - score} more than you."

    def _tell_line(self, what: str) -> None:
        if not self.actions:
            self.echo(f"{what}: (no moves)")
            return
        self.echo(f"{what}: {self.line_text()}")   # notation, as the replay command takes it
        self.echo(f"Replay it: {self.replay_command()}")

    def leave(self, why: str) -> None:
        state = self.state
        self.echo(f"{why}: you leave the dungeon in room {state.rooms_done + 1} ({render.heroes_text(state)}).")
        self._tell_line("Line so far")


# --------------------------------------------------------------- terminal

def _daily_game(game: GameChoice, date: Optional[datetime.date], progress=None):
    try:
        from scoundrel_solver.scoundrel.daily import daily_challenge
    except ImportError as exc:
        if exc.name != "scoundrel_solver.scoundrel.daily":  # the module is there but broken: a real bug
            raise
        raise usage_error("the daily challenge is not available in this build") from None
    rules = game.rules()
    when = date or datetime.datetime.now(datetime.timezone.utc).date()  # the same day as `daily`
    from .daily import _CandidateProgress
    with ProgressLine(enabled=progress) as line:
        told = _CandidateProgress(line)
        challenge = daily_challenge(when, rules, progress=told.candidate, search_progress=told.search)
    chosen = Game(rules, tuple(challenge.deck), challenge.seed)
    title = f"Daily challenge {challenge.id} ({when.isoformat()}): {render.deal_title(chosen)}"
    return chosen, title


@click.command("play", help=PLAY_HELP.replace("{samples}", str(TABLE_SAMPLES)))
@game_options
@click.option("--daily", is_flag=True, help="Play today's daily challenge (today in UTC, or --date).")
@click.option("--date", type=click.DateTime(formats=["%Y-%m-%d"]), default=None, metavar="YYYY-MM-DD",
              help="With --daily: the challenge of that day.")
@pretty_option
@time_option
@search_options
@threads_option
@progress_option
def play_command(game: GameChoice, daily, date, pretty, budget, max_nodes, timeout, tt_mb, threads, progress):
    if date is not None and not daily:
        raise usage_error("--date goes with --daily")
    if daily:
        if game.has_deck:
            raise usage_error("--daily picks the dungeon: drop --seed/--deck")
        chosen, title = _daily_game(game, date.date() if date is not None else None, progress)
    else:
        chosen, title = game.game(), None
    hint_budget(budget, max_nodes, timeout)      # --time with --max-nodes: refused before the game starts
    session = Session(chosen, click.echo, pretty=pretty, max_nodes=max_nodes, timeout=timeout, tt_mb=tt_mb,
                      title=title, budget=budget, progress=progress, threads=threads)
    terminal = Terminal()
    # dying is one typo away: offer to take it back before the game ends
    run_session(session, terminal, again=lambda: session.state.dead and session.take_back(terminal.read))
