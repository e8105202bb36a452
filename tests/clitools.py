"""Running ``scoundrel-solve`` in-process for the tests (click's CliRunner)."""
from click.testing import CliRunner

from scoundrel_solver.cli.main import cli


def runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout on every click version."""
    try:  # click < 8.2 mixes stderr into output unless told not to
        return CliRunner(mix_stderr=False)
    except TypeError:
        return CliRunner()


def invoke(args, code=0, input=None):
    """Run the command line ``args``; assert its exit status is ``code``."""
    result = runner().invoke(cli, [str(a) for a in args], input=input)
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    return result
