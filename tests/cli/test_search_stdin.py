"""``rubi search -`` reads the query from standard input (a pasted issue or log over
the shell's argument limit, about 128 KB), and the search limits and refuses it as it
does a query given as arguments: the same message for the same text."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli


def _seen_queries(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from rubi.cli import searchcmds

    seen: list[str] = []

    def answered(paths: object, args: searchcmds.SearchArgs, local: object) -> object:
        seen.append(args.query)
        return searchcmds.Answer(False, "")

    monkeypatch.setattr(searchcmds, "answered", answered)
    monkeypatch.setattr(searchcmds, "find_vault", lambda vault: None)
    return seen


def test_a_dash_reads_a_query_over_the_argument_limit_from_stdin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _seen_queries(monkeypatch)
    log = "Traceback (most recent call last):\n  ReadTimeout: timed out ünïcode\n" * 2_000
    assert len(log.encode()) > 128 * 1024
    result = CliRunner().invoke(cli, ["search", "-"], input=log)
    assert result.exit_code == 0, result.output
    assert seen == [log]


def test_a_dash_among_other_words_is_a_word(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _seen_queries(monkeypatch)
    result = CliRunner().invoke(cli, ["search", "read", "-", "write"], input="not read")
    assert result.exit_code == 0, result.output
    assert seen == ["read - write"]


def test_bytes_that_are_not_utf8_read_as_replacement_characters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _seen_queries(monkeypatch)
    result = CliRunner().invoke(cli, ["search", "-"], input=b"timeout \xff here")
    assert result.exit_code == 0, result.output
    assert seen == ["timeout \ufffd here"]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("word " * 20_001, "query: 100,005 characters with its terms; at most 100,000"),
        ("   \n", "empty query; say what to look for"),
    ],
)
def test_stdin_is_refused_as_the_same_query_given_as_an_argument(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, says: str
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".rubi").mkdir()
    piped = CliRunner().invoke(cli, ["search", "-"], input=text)
    given = CliRunner().invoke(cli, ["search", text])
    assert piped.exit_code == given.exit_code == 1, piped.output
    assert says in piped.output
    assert piped.output == given.output


class _Endless(io.RawIOBase):
    """A standard input of ``size`` bytes of one word repeated (a log piped in, or
    ``yes`` that never ends), counting what was read from it."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.left = size
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(len(buffer), self.left)
        buffer[:n] = (b"timeout " * (n // 8 + 1))[:n]
        self.left -= n
        self.read_bytes += n
        return n


def test_stdin_is_read_to_a_bound_not_to_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """`yes | rubi search -`, or a 2 GB log piped in, was read whole into memory before
    the query's limit refused it (an endless one never ended)."""
    seen = _seen_queries(monkeypatch)
    piped = _Endless(64 * 1024 * 1024)
    result = CliRunner().invoke(cli, ["search", "-"], input=io.BufferedReader(piped))
    assert piped.read_bytes <= 4 * 1_000_001 + 1024 * 1024  # 1,000,000 characters at most
    assert result.exit_code == 1
    assert "standard input: more than 1,000,000 characters" in result.output
    assert seen == []
