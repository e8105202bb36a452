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


def without(obj, keys):
    """``obj`` (JSON: dicts, lists, values) with the keys ``keys`` left out at every depth: the
    answers of two faces compared without their measurements (seconds, nodes)."""
    if isinstance(obj, dict):
        return {k: without(v, keys) for k, v in obj.items() if k not in keys}
    if isinstance(obj, list):
        return [without(v, keys) for v in obj]
    return obj


def at_a_terminal(args, env_extra=None, input=None, timeout=60):
    """Run the CLI in a child process with stderr on a pseudo-terminal (stdout a
    pipe, stdin ``input`` bytes or nothing): ``(exit status, stdout bytes, stderr bytes)``."""
    import os
    import pty
    import select
    import subprocess
    import sys
    env = dict(os.environ, **(env_extra or {}))
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", "from scoundrel_solver.cli.main import main; main()", *args],
                            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    if input is not None:
        proc.stdin.write(input)
        proc.stdin.close()
    err = b""
    while True:
        r, _, _ = select.select([master], [], [], timeout)
        if not r:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    out = proc.stdout.read()
    code = proc.wait(timeout)
    os.close(master)
    return code, out, err
