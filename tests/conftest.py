"""What every test needs, whatever the game: Ctrl-C handed back to the tests that send it.

Each game's fixtures are in its own folder (tests/scoundrel/conftest.py); helpers shared by
all (clitools.py, browser.py) stay here, where every test folder can import them.  The browser
tests' fixtures (``server``, ``browser``: browser.py) are offered to every folder from here.
"""
import signal

from browser import browser, server  # noqa: F401  (fixtures of both games' browser tests)

# Started in the background (`nohup pytest &`, `cmd &` in a script), the shell hands us
# Ctrl-C ignored, and every process a test starts inherits that: the Ctrl-C tests would
# then wait for an interrupt that never comes. Take it back.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
