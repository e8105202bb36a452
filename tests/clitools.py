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


def one_error_line(result, *words, code=2, json_out=False) -> str:
    """The contract for bad input and failed writes, in one place: exit status ``code``, no
    traceback, and one line naming what is wrong, holding each of ``words`` (any case):
    ``error: ...`` on stderr and nothing on stdout, or with ``--json`` (``json_out``) one error
    object on stdout (``{"type": "error", "status": code, "error": ...}``) and nothing on stderr.

    ``result``: a click result, a ``subprocess.CompletedProcess`` (text or bytes; stdout may not
    have been captured), or ``(exit status, stdout, stderr, exception or None)``.  A click result
    whose command raised (not ``SystemExit``) fails, whatever it printed.  Returns the message
    (the line without ``error: ``)."""
    import json
    if isinstance(result, tuple):
        status, out, err, crash = result
    elif hasattr(result, "returncode"):
        status, out, err, crash = result.returncode, result.stdout, result.stderr, None
    else:
        crash = result.exception if not isinstance(result.exception, (SystemExit, type(None))) else None
        status, out, err = result.exit_code, result.stdout, result.stderr
    out, err = ((s or "").decode("utf-8", "backslashreplace") if isinstance(s, bytes) else (s or "")
                for s in (out, err))
    shown = f"exit {status}\nstdout: {out[:2000]!r}\nstderr: {err[:2000]!r}"
    assert crash is None, f"{type(crash).__name__}: {crash}\n{shown}"
    assert "Traceback" not in out + err and "Exception ignored" not in out + err, shown
    assert status == code, shown
    if json_out:
        assert err == "", shown
        assert out.count("\n") == 1 and out.endswith("\n"), shown
        error = json.loads(out)
        assert error["type"] == "error" and error["status"] == code, shown
        message = error["error"]
        assert isinstance(message, str) and message and "\n" not in message, shown
    else:
        assert out == "", shown
        assert err.startswith("error: ") and err.endswith("\n") and len(err.splitlines()) == 1, shown
        message = err[len("error: "):-1]
    for word in words:
        assert str(word).lower() in message.lower(), f"{word!r} not in the message\n{shown}"
    return message


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
