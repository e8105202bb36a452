"""The shared check of the bad-input contract (``clitools.one_error_line``) refuses what breaks it."""
import subprocess

import pytest

from clitools import one_error_line


def test_one_clear_line_passes_and_gives_the_message():
    assert one_error_line((2, "", "error: unknown card 'ZZ'\n", None), "zz", "UNKNOWN") == "unknown card 'ZZ'"
    proc = subprocess.CompletedProcess([], 1, None, b"error: /dev/full: no space left\n")
    assert one_error_line(proc, "no space left", code=1) == "/dev/full: no space left"
    got = one_error_line((2, '{"type": "error", "status": 2, "error": "bad JSON"}\n', "", None), json_out=True)
    assert got == "bad JSON"


@pytest.mark.parametrize("ran, words, kw", [
    ((1, "", "error: x\n", None), (), {}),                                 # another exit status
    ((2, "partial\n", "error: x\n", None), (), {}),                        # something on stdout
    ((2, "", "error: x\nerror: y\n", None), (), {}),                       # two lines
    ((2, "", "x\n", None), (), {}),                                        # not an error line
    ((2, "", "error: x", None), (), {}),                                   # no end of line
    ((2, "", "Traceback (most recent call last):\nerror: x\n", None), (), {}),
    ((2, "", "error: x\n", ValueError("raised")), (), {}),                 # the command raised
    ((2, "", "error: unknown card\n", None), ("ZZ",), {}),                 # does not name it
    ((2, '{"type": "error", "status": 1, "error": "x"}\n', "", None), (), {"json_out": True}),
    ((2, '{"type": "error", "status": 2, "error": "x"}\n', "warn\n", None), (), {"json_out": True}),
    ((2, '{"type": "error", "status": 2, "error": ""}\n', "", None), (), {"json_out": True}),
])
def test_what_breaks_the_contract_fails(ran, words, kw):
    with pytest.raises(AssertionError):
        one_error_line(ran, *words, **kw)
