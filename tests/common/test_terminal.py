"""The in-game commands and the read loop both games' ``play`` share (cli/terminal.py)."""
import pytest

from scoundrel_solver.cli.terminal import QUIT_WORDS, Commands, run_session


class Recorder(Commands):
    """A session that writes down what it is asked; ``over`` after ``turns`` moves."""

    help_text = "HELP"

    def __init__(self, turns=99):
        self.calls, self.turns = [], turns

    @property
    def over(self):
        return sum(c[0] == "play" for c in self.calls) >= self.turns

    def echo(self, text):
        self.calls.append(("echo", text))

    def __getattr__(self, name):
        if name in ("look", "show_line", "undo", "hint", "explain", "play", "start", "finish", "leave"):
            return lambda *args: self.calls.append((name, *args))
        raise AttributeError(name)

    def prompt(self):
        return "> "


@pytest.mark.parametrize("line,call", [
    ("", ("look",)), ("  ", ("look",)), ("L", ("look",)), ("look", ("look",)),
    ("help", ("echo", "HELP")), ("?", ("echo", "HELP")),
    ("moves", ("show_line",)), ("LINE", ("show_line",)),
    ("undo", ("undo", [])), ("u 2", ("undo", ["2"])),
    ("hint table 50", ("hint", ["table", "50"])), ("h", ("hint", [])),
    ("why 5D", ("explain", ["5D"])), ("explain table QSw", ("explain", ["table", "QSw"])),
    ("5D 5C", ("play", "5D 5C")), ("pass 1 12", ("play", "pass 1 12")), ("undone", ("play", "undone")),
])
def test_each_word_goes_to_its_command_and_anything_else_is_a_move(line, call):
    s = Recorder()
    s.handle(line)
    assert s.calls == [call]


class Lines:
    def __init__(self, *lines):
        self.lines, self.prompts = list(lines), []

    def read(self, prompt):
        self.prompts.append(prompt)
        return self.lines.pop(0) if self.lines else None


@pytest.mark.parametrize("word", QUIT_WORDS + ("QUIT", " q "))
def test_a_quit_word_leaves_before_the_game_is_over(word):
    s = Recorder()
    run_session(s, Lines("5D", word, "5C"))
    assert s.calls == [("start",), ("play", "5D"), ("leave", "Quit")]


def test_the_end_of_input_leaves_and_a_finished_game_finishes():
    s = Recorder()
    run_session(s, Lines("5D"))
    assert s.calls == [("start",), ("play", "5D"), ("leave", "End of input")]
    s = Recorder(turns=2)
    terminal = Lines("5D", "help", "5C", "never read")
    run_session(s, terminal)
    assert s.calls == [("start",), ("play", "5D"), ("echo", "HELP"), ("play", "5C"), ("finish",)]
    assert terminal.lines == ["never read"] and terminal.prompts == ["> "] * 3


def test_again_may_reopen_a_finished_game():
    s = Recorder(turns=1)
    asked = []

    def again():            # the first time: take the last move back
        asked.append(True)
        if len(asked) == 1:
            s.calls.remove(("play", "5D"))
            return True
        return False
    run_session(s, Lines("5D", "4D"), again)
    assert s.calls == [("start",), ("play", "4D"), ("finish",)] and len(asked) == 2


def test_ctrl_c_leaves_with_status_130():
    class Interrupting(Lines):
        def read(self, prompt):
            raise KeyboardInterrupt
    s = Recorder()
    with pytest.raises(SystemExit) as exit:
        run_session(s, Interrupting())
    assert exit.value.code == 130 and s.calls == [("start",), ("leave", "Interrupted")]
