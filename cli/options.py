"""Options shared by every command: rule flags, deck selection, output flags.

Each future command (``hint``, ``play``, ``rate``, ``daily``, ...) takes the
same ``@game_options`` and receives one :class:`GameOptions` value instead of
six loose keyword arguments; turning it into a :class:`Game` is where input is
checked, so every command reports bad input the same way.
"""
from __future__ import annotations

import functools
import math
import os
import re
from dataclasses import dataclass
from typing import Optional

import click

from scoundrel_solver import DEFAULT_TT_MB, Rules, State, deal, parse_cards
from scoundrel_solver.scoundrel.deal import MAX_SEED, check_seed
from scoundrel_solver.scoundrel.rules import DECK_SIZES, DURABILITIES, FLEES, MODES

RULE_PARAMS = ("mode", "flee", "durability", "deck_size")
DECK_PARAMS = ("seed", "deck")

# What the code under each number option can really take (issue 24): a value
# outside is refused at the command line, naming the option, instead of
# overflowing a C integer in the core or meaning "no limit" (nan, inf).
MAX_NODES = 2 ** 63 - 1     # the core counts nodes in a C long long
MAX_SECONDS = 10 ** 9       # 31 years: finite, and below threading.TIMEOUT_MAX for any wait on it
MAX_TT_MB = 65536           # the table is sized in a double of MB; 64 GB is more than any run needs
MAX_JOBS = 256              # worker processes, each with its own table and pipes (fd limit 1024)
MAX_RNG_SEED = MAX_SEED - 1  # a random-order seed is a 64-bit number, like a deal number
MAX_SAMPLES = 1_000_000     # random orders of a real-table hint: hours of solving already


class WholeNumber(click.ParamType):
    """An integer option within ``low..high``, refused otherwise in one line.

    Unlike ``click.IntRange`` the text must be plain ASCII digits (no ``1e3``,
    ``1_000``, ``٣`` or 5000-digit strings that ``int()`` refuses with its own
    message), and the value shown in an error is cut short.
    """

    name = "integer"

    def __init__(self, low: int, high: int, why: str = ""):
        self.low, self.high, self.why = low, high, why

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text, re.ASCII):
                self.fail(f"{_shown(value)} is not a whole number", param, ctx)
            digits = text.lstrip("+-").lstrip("0")
            # A number far longer than the bounds is out of range without
            # int() (which refuses 4,300 digits and more with its own error).
            if len(digits) > len(str(max(abs(self.low), abs(self.high)))) + 1:
                self.fail(f"{_shown(text, quote=False)} is out of range ({self._range()})", param, ctx)
            number = int(text)
        if not self.low <= number <= self.high:
            self.fail(f"{number} is out of range ({self._range()})", param, ctx)
        return number

    def _range(self) -> str:
        return f"{_power(self.low)} to {_power(self.high)}" + (f": {self.why}" if self.why else "")

    def get_metavar(self, param, ctx=None):
        return None

    def __repr__(self):
        return f"WholeNumber({self.low}, {self.high})"


class Seconds(click.ParamType):
    """A time limit: a finite number of seconds, 0 < t <= MAX_SECONDS (nan and inf
    would mean "no limit" to the core, and are refused)."""

    name = "seconds"

    def __init__(self, zero: bool = False):
        self.zero = zero        # 0 is allowed (and means "no limit": --time 0)

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            seconds = float(value)
        else:
            try:
                seconds = float(str(value).strip()) if len(str(value)) <= 40 else None
            except ValueError:
                seconds = None
            if seconds is None:
                self.fail(f"{_shown(value)} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{_shown(value)} is not a finite number of seconds", param, ctx)
        if not (0 <= seconds if self.zero else 0 < seconds) or seconds > MAX_SECONDS:
            low = "0 (no limit)" if self.zero else "more than 0"
            self.fail(f"{_shown(value)} is out of range ({low}, at most {MAX_SECONDS:,} seconds)", param, ctx)
        return seconds

    def __repr__(self):
        return "Seconds(zero=True)" if self.zero else "Seconds()"


def _shown(value, limit: int = 40, quote: bool = True) -> str:
    """``value`` for an error line: quoted and escaped if text, cut short."""
    text = repr(value) if isinstance(value, str) and quote else str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _power(n: int) -> str:
    """``2^63-1`` rather than nineteen digits."""
    for k in (32, 63, 64):
        if n in (2 ** k, 2 ** k - 1):
            return f"2^{k}" + ("-1" if n != 2 ** k else "")
    return str(n)


@dataclass(frozen=True)
class Game:
    """A checked game choice: the rules and the dungeon (top first)."""

    rules: Rules
    deck: tuple
    seed: Optional[int] = None

    def start(self) -> State:
        return State.new(self.deck, self.rules)

    def as_dict(self) -> dict:
        return {"seed": self.seed, "rules": self.rules.as_dict(), "deck": [str(c) for c in self.deck]}


@dataclass(frozen=True)
class GameOptions:
    """The raw rule and deck options of one command line, not yet checked."""

    mode: str = "solo"
    flee: str = "classic"
    durability: Optional[str] = None
    deck_size: str = "52"
    seed: Optional[str] = None
    deck: Optional[str] = None

    @property
    def has_deck(self) -> bool:
        return self.seed is not None or self.deck is not None

    def rules(self) -> Rules:
        return Rules(mode=self.mode, flee=self.flee, durability=self.durability, deck_size=int(self.deck_size))

    def game(self) -> Game:
        """Check everything; raise the solver's own error for bad input."""
        rules = self.rules()
        if self.seed is not None and self.deck is not None:
            raise usage_error("give either --seed or --deck, not both")
        if self.seed is not None:
            seed = check_seed(self.seed.strip())
            return Game(rules, deal(seed, rules), seed)
        if self.deck is not None:
            deck = tuple(parse_cards(self.deck))
            State.new(deck, rules)  # validates: card of the mode, duplicates, size
            return Game(rules, deck, None)
        raise usage_error("give --seed N (a numbered deal) or --deck \"CARDS\" (a custom dungeon)")


def rule_notes(mode: str, flee: str, deck_size: str) -> list:
    """Why a rule flag given has no effect in this mode, one note a flag.

    Rules ignores options of the other mode (scripts that loop over every
    flag combination keep working); a person is told on stderr.
    """
    notes = []
    if mode == "coop" and flee != "classic":
        notes.append("note: --flee applies to solo only; co-op never allows two avoids in a row")
    if mode == "solo" and str(deck_size) != "52":
        notes.append("note: --deck-size applies to co-op only; solo always uses the 44-card deck")
    return notes


def _notes_after_success(f):
    """Print the rule notes once the command has finished without an error.

    A note printed first would stand before the error line of a command that
    then fails (issue 24: a failing command prints only the error), and input
    is checked all the way through a command (a line of moves, a results
    file, ...), so the only moment the notes are sure to be no error's
    preamble is the end.
    """

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        notes = rule_notes(kwargs.get("mode", "solo"), kwargs.get("flee", "classic"), kwargs.get("deck_size", "52"))
        rv = f(*args, **kwargs)
        for note in notes:
            click.echo(note, err=True)
        return rv

    return wrapper


def rule_options(f):
    """The rule flags alone (commands that pick their own deals: stats, daily, generate)."""
    f = _notes_after_success(f)
    decorators = [
        click.option("--mode", type=click.Choice(MODES), default="solo", show_default=True,
                     help="Solo Scoundrel or Scoundrel for Two."),
        click.option("--flee", type=click.Choice(FLEES), default="classic", show_default=True,
                     help="Solo avoid rule: classic = not twice in a row, easy = always, hard = never."),
        click.option("--durability", type=click.Choice(DURABILITIES), default=None,
                     help="Weapon after a kill: strict = only below the last kill, lenient = also equal. "
                          "[default: strict in solo, lenient in co-op]"),
        click.option("--deck-size", type=click.Choice([str(n) for n in DECK_SIZES]), default="52",
                     show_default=True, help="Co-op pack: 50 = no red aces, 54 = two jokers."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


def _rule_and_deck_params(f):
    decorators = [
        click.option("--seed", metavar="N", default=None,
                     help="Numbered deal, 0 <= N < 2^64 (the same N always gives the same dungeon)."),
        click.option("--deck", metavar="CARDS", default=None,
                     help='Custom dungeon, top card first, e.g. "5D 3S 4H 9C" (spaces or commas).'),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return rule_options(f)


def game_options(f):
    """Add ``--seed/--deck`` and the rule flags; pass them as ``game=GameOptions``."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        raw = {name: kwargs.pop(name) for name in RULE_PARAMS + DECK_PARAMS}
        return f(*args, game=GameOptions(**raw), **kwargs)

    return _rule_and_deck_params(wrapper)


def typed(ctx: click.Context, name: str) -> bool:
    """Was option ``name`` given on the command line (not left at its default)?"""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def usage_error(message: str) -> click.UsageError:
    """A usage error tied to the running command, so the hint names it."""
    return click.UsageError(message, ctx=click.get_current_context(silent=True))


json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object for machines.")
progress_option = click.option(
    "--progress/--no-progress", "progress", default=None,
    help="While a search runs over a second, show on stderr what it is doing (the score's proven bounds, "
         "tests, nodes, nodes/s, time), one line rewritten in place and erased before the answer.  "
         "[default: when stderr is a terminal]")
pretty_option = click.option("--pretty", is_flag=True, help="Print cards for people: 10♦ instead of TD.")


def search_options(f):
    """Limits of the search (``solve`` and the main job)."""
    decorators = [
        click.option("--max-nodes", type=WholeNumber(1, MAX_NODES, "the search counts nodes in 64 bits"),
                     default=None, metavar="N",
                     help="Stop after N nodes (1 to 2^63-1); the answer is then marked NOT PROVEN."),
        click.option("--timeout", type=Seconds(), default=None, metavar="SECONDS",
                     help=f"Stop after this many seconds (more than 0, at most {MAX_SECONDS:,}); "
                          "the answer is then marked NOT PROVEN."),
        click.option("--tt-mb", type=WholeNumber(1, MAX_TT_MB), default=DEFAULT_TT_MB, show_default=True,
                     metavar="MB", help=f"Memory for the transposition table (1 to {MAX_TT_MB})."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


def default_threads() -> int:
    """The CLI's default thread count: the cores this process may run on (at most
    ``MAX_THREADS``).  ``solve`` and ``rate`` run one search on that many threads
    sharing one table (lazy SMP, docs/solver.md, "Threads for one solve"; a search
    goes on the threads from its first test in co-op, and in solo only past its first
    50,000 nodes, so small solo solves stay on one); ``hint`` solves that many actions
    at once.  The score, the line and every rating are the same whatever the count
    (tests/scoundrel/test_threads.py); the speed-up (co-op 52 proofs 1-100 on a quiet 2-core
    machine: 1.49 in total, 2026-12-02) is in benchmarks/README.md, "Both cores
    for one solve"."""
    from scoundrel_solver.scoundrel.search import MAX_THREADS
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, cores))


def threads_option(f):
    """``--threads N``: threads for one search (``solve``, ``rate``; ``hint``: searches at once)."""
    from scoundrel_solver.scoundrel.search import MAX_THREADS
    return click.option(
        "--threads", type=WholeNumber(1, MAX_THREADS), default=None, metavar="N",
        help="Threads for the search, sharing one table; the score and the line are the same "
             "whatever N [default: the number of cores].")(f)


def time_option(f):
    """``--time SECONDS``: the budget of an exact hint (``hint``; ``play`` should take it too)."""
    from scoundrel_solver.scoundrel.budget import DEFAULT_TIME
    return click.option(
        "--time", "budget", type=Seconds(zero=True), default=None, metavar="SECONDS",
        help=f"Exact hint: answer within this many seconds [default: {DEFAULT_TIME:g}; with --max-nodes/"
             f"--timeout: 0]; what is not finished is shown as proven bounds.  0: until every score is exact.  "
             f"Real-table hint: the whole hint within this many seconds [default: the same; with --max-nodes/"
             f"--timeout, which limit each of its searches: 0], orders not solved in time left out and said so.")(f)


def table_budget(budget, max_nodes, timeout) -> float:
    """The time budget of a real-table hint: ``--time`` if given, else the exact
    hint's default unless --max-nodes/--timeout (limits of each of its searches)
    are given, which keep the hint unbounded as before; 0: no limit."""
    from scoundrel_solver.scoundrel.budget import DEFAULT_TIME
    if budget is not None:
        return budget
    return 0.0 if (max_nodes is not None or timeout is not None) else DEFAULT_TIME


def hint_budget(budget, max_nodes, timeout) -> float:
    """The budget of an exact hint: ``--time`` if given, else the default,
    except that --max-nodes/--timeout (limits of the unbounded hint) mean 0."""
    from scoundrel_solver.scoundrel.budget import DEFAULT_TIME
    limited = max_nodes is not None or timeout is not None
    if budget is None:
        return 0.0 if limited else DEFAULT_TIME
    if budget > 0 and limited:
        raise usage_error("--time and --max-nodes/--timeout are two ways to stop a hint: give one "
                          "(or --time 0 with them)")
    return budget
