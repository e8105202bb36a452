"""A value thousands of characters long is refused in one short line, by every face (issue 64):
the command line and the service show it cut as :func:`scoundrel_solver.errors.shown` cuts it
(about 40 characters and "(N characters)"), never whole.
"""
import pytest

from clitools import one_error_line, runner
from scoundrel_solver.batch import BatchError, parse_seeds
from scoundrel_solver.cli.main import cli
from scoundrel_solver.errors import OptionError, shown
from scoundrel_solver.shuffle import SeedError, check_seed
from scoundrel_solver.values import one_of

LONG = {"300": "9" * 300, "5000": "9" * 5000, "text": "x" * 5000}
SHORT_LINE = 300     # characters: the message around a cut value (a list of choices, where help is)


def cut_short(message: str, value: str) -> None:
    """``message`` is one short line that does not repeat ``value`` whole: the value is cut and
    its length said, or read as the number it is (``asked 1e+300``)."""
    assert len(message) < SHORT_LINE and value[:60] not in message, message[:400]
    assert "characters)" in message or "1e+300" in message, message


def test_shown_cuts_what_is_long_and_keeps_what_is_short():
    assert shown("42") == "'42'"
    assert shown("9" * 300) == "'" + "9" * 39 + "... (302 characters)"
    assert shown("9" * 300, quote=False) == "9" * 40 + "... (300 characters)"


@pytest.mark.parametrize("value", LONG.values(), ids=LONG.keys())
def test_the_library_checks_cut_a_long_value(value):
    for check, error in ((check_seed, SeedError), (parse_seeds, BatchError),
                         (lambda v: one_of(v, ("3", "4")), OptionError)):
        with pytest.raises(error) as caught:
            check(value)
        cut_short(str(caught.value), value)


COMMANDS = {
    "solve-seed": ["--seed"],
    "deal-seed": ["deal", "--seed"],
    "hint-seed": ["hint", "--seed"],
    "stats-seeds": ["stats", "--seeds"],
    "imp-solve-seed": ["imp", "solve", "--seed"],
    "imp-deal-seed": ["imp", "deal", "--seed"],
    "imp-puzzle-seed": ["imp", "puzzle", "--seed"],
    "imp-deal-players": ["imp", "deal", "--variant", "base", "--seed", "1", "--players"],
    "imp-stats-seeds": ["imp", "stats", "--seeds"],
    "imp-variant": ["imp", "deal", "--seed", "1", "--variant"],
    "imp-match-rounds": ["imp", "match", "--seed", "1", "--rounds"],
    "imp-match-lines": ["imp", "match", "--seed", "1", "--rounds", "2", "--lines"],
    "imp-play-rounds": ["imp", "play", "--seed", "1", "--rounds"],
}


@pytest.mark.parametrize("value", LONG.values(), ids=LONG.keys())
@pytest.mark.parametrize("args", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_long_option_value_is_cut_on_the_command_line(args, value):
    result = runner().invoke(cli, [*args, value])
    cut_short(one_error_line(result), value)


# ------------------------------------------------------------------ the service
httpx = pytest.importorskip("httpx", reason="the test extra installs httpx")
pytest.importorskip("starlette", reason="the test extra installs starlette")
pytest.importorskip("uvicorn", reason="the test extra installs uvicorn")
from scoundrel_solver.web.local import LocalServer  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with LocalServer(["--workers", "1"]) as server:
        with httpx.Client(base_url=server.url, timeout=90) as c:
            yield c


PARAMETERS = [
    ("/api/imp/deal", "variant", {}), ("/api/imp/deal", "players", {"variant": "base", "seed": "1"}),
    ("/api/imp/deal", "cards", {"seed": "1"}), ("/api/imp/deal", "seed", {}),
    ("/api/imp/solve", "timeout", {"seed": "1"}), ("/api/imp/hint", "time", {"seed": "1"}),
    ("/api/imp/hint", "against", {"seed": "1", "table": "true"}), ("/api/imp/daily", "method", {}),
    ("/api/imp/game", "bot", {"seed": "1"}),
    ("/api/imp/match", "rounds", {"seed": "1"}), ("/api/imp/match", "lines", {"seed": "1", "rounds": "2"}),
    ("/api/imp/hint", "samples", {"seed": "1", "table": "true"}),
    ("/api/imp/hint", "opponent", {"seed": "1", "table": "true"}),
    ("/api/solve", "seed", {}), ("/api/solve", "timeout", {"seed": "1"}), ("/api/solve", "tt_mb", {"seed": "1"}),
    ("/api/solve", "max_nodes", {"seed": "1"}), ("/api/daily", "method", {}), ("/api/hint", "time", {"seed": "1"}),
]


@pytest.mark.parametrize("value", LONG.values(), ids=LONG.keys())
@pytest.mark.parametrize("path, key, rest", PARAMETERS, ids=[f"{p}-{k}" for p, k, _ in PARAMETERS])
def test_a_long_parameter_is_cut_by_the_service(client, path, key, rest, value):
    answer = client.post(path, json={**rest, key: value})
    assert answer.status_code == 400, answer.text[:300]
    cut_short(answer.json()["error"], value)


def test_a_long_unknown_parameter_name_is_cut(client):
    answer = client.post("/api/imp/deal", json={"x" * 5000: 1})
    assert answer.status_code == 400
    cut_short(answer.json()["error"], "x" * 5000)
