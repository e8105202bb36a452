"""``jsonform.read_document``: the one reader of small JSON files (``--position``, ``--table``)."""
import io

import pytest
from hypothesis import given, strategies as st

from scoundrel_solver.errors import InputError
from scoundrel_solver.jsonform import read_document


@given(st.text(max_size=60), st.integers(1, 80))
def test_text_within_the_limit_is_read_and_beyond_it_refused(text, limit):
    size = len(text.encode("utf-8", "surrogatepass"))
    for handle in (io.BytesIO(text.encode("utf-8", "surrogatepass")), io.StringIO(text)):
        if size <= limit:
            assert read_document(handle, "the file x", limit=limit) == text
        else:
            with pytest.raises(InputError, match=f"^the file x: more than {limit:,} bytes; a position is a few"):
                read_document(handle, "the file x", limit=limit)


def test_an_endless_file_is_refused_after_the_limit():
    class Endless(io.RawIOBase):
        reads = 0

        def readable(self):
            return True

        def readinto(self, b):
            self.reads += len(b)
            b[:] = b"\0" * len(b)
            return len(b)
    handle = io.BufferedReader(Endless())
    with pytest.raises(InputError, match="more than 1,000 bytes; a table view is"):
        read_document(handle, "--table t", "a table view", limit=1000)
    assert handle.raw.reads < 20_000


def test_bytes_that_are_not_utf8_and_a_failing_read_are_one_line():
    with pytest.raises(InputError, match=r"^--position p is not UTF-8 text$"):
        read_document(io.BytesIO(b'{"a": "\xff"}'), "--position p")

    class Broken(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise OSError(5, "Input/output error")
    with pytest.raises(InputError, match=r"^cannot read --position p: Input/output error$"):
        read_document(io.BufferedReader(Broken()), "--position p")
