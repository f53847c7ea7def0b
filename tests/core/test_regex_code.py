"""The regular expressions a process compiles are compiled once and made from the kept
code in later processes; the patterns made that way are the ones ``re`` compiles, and
a kept file that is damaged or writable by others is never used."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rubi.core import regexcode
from rubi.core.regexcode import RegexCache

pytestmark = pytest.mark.skipif(
    sys.implementation.name != "cpython" or sys.version_info[:2] not in regexcode._VERSIONS,
    reason="an interpreter regexcode keeps no records for",
)

PATTERNS: list[tuple[str | bytes, int]] = [
    (r"(?P<year>\d{4})-(?P<month>\d\d)(?:-(?P<day>\d\d))?", 0),
    (r"^\s*(?:thanks?(?: you)?|ok(?:ay)?|lgtm)\W*\s*$", re.I),
    (r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+", 0),
    (r"(?<![A-Za-z0-9_])ghp_[A-Za-z0-9]{36}(?![A-Za-z0-9_])", 0),
    (r"\b[CcFf](?:\+\+|#)(?![\w+#])|[\w\u0300-\u036f]+(?:[.'’][\w]+)*", re.UNICODE),
    (r"^#{1,6}\s+(.*)$", re.M),
    (r"(?i:password|token)\s*[:=]\s*(\S+)", 0),
    (r"(a)(b)?(?(2)c|d)", 0),
    (r"(?s).*?end", 0),
    (r"[^\W_]+", re.ASCII),
    (r"ſ|K", re.I),  # case folding beyond ASCII
    (rb"\\u[dD][89a-fA-F]", 0),
    (rb"(?P<k>[a-z]+)=(?P<v>[^&]*)", re.I),
    ("\n(\n    [A-Za-z+]+://  # protocol\n    \\S+?  # body\n)", re.VERBOSE),
]


def _same(made: re.Pattern[str] | re.Pattern[bytes], pattern: str | bytes, flags: int) -> None:
    fresh = re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
    assert made == fresh  # Pattern.__eq__ compares the pattern, the flags and the code
    assert (made.flags, made.groups, made.groupindex) == (
        fresh.flags,
        fresh.groups,
        fresh.groupindex,
    )


def test_patterns_made_from_kept_code_are_the_ones_re_compiles(tmp_path: Path) -> None:
    path = tmp_path / "regex.bin"
    first = RegexCache(path)
    for pattern, flags in PATTERNS:
        _same(first.compile(pattern, flags), pattern, flags)
    assert first.compiled == len(PATTERNS)
    assert first.save() and path.is_file()
    assert path.stat().st_mode & 0o777 == 0o600
    second = RegexCache(path)
    for pattern, flags in PATTERNS:
        made = second.compile(pattern, flags)
        _same(made, pattern, flags)
    assert second.compiled == 0
    assert second.save() is False  # nothing new: nothing written
    text = second.compile(PATTERNS[0][0], 0)
    found = text.match("2026-12-05")
    assert found is not None and found.group("day") == "05" and found.lastgroup == "day"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file owners")
def test_a_kept_file_others_could_write_is_never_used(tmp_path: Path) -> None:
    path = tmp_path / "regex.bin"
    first = RegexCache(path)
    for pattern, flags in PATTERNS:
        first.compile(pattern, flags)
    assert first.save()
    path.chmod(0o666)
    second = RegexCache(path)
    for pattern, flags in PATTERNS:
        second.compile(pattern, flags)
    assert second.compiled == len(PATTERNS)


def _record(pattern: str, flags: int, code: list[int]) -> bytes:
    fresh = re._compiler.compile(pattern, flags)  # type: ignore[attr-defined]
    return marshal.dumps((fresh.flags, code, fresh.groups, dict(fresh.groupindex), ()))


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not marshal at all",
        b"N",  # marshal's None
        marshal.dumps({("a+b", 0): b"x"}),  # a record that does not decode
        marshal.dumps({("a+b", 0): marshal.dumps((0, "code", 0, {}, ()))}),  # wrong types
        marshal.dumps({("a+b", 0): _record("a+b", 0, [17, 4, 0, 1, 1, 99, 255])}),  # bad code
        marshal.dumps({("a+b", 0): _record("a+b", 0, [])}),
        marshal.dumps({"a+b": b"x", ("a+b", "0"): b"y"}),  # keys of another shape
    ],
)
def test_a_damaged_kept_file_is_compiled_anew_and_replaced(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "regex.bin"
    path.write_bytes(content)
    path.chmod(0o600)
    cache = RegexCache(path)
    made = cache.compile("a+b", 0)
    _same(made, "a+b", 0)
    assert made.fullmatch("aaab") and not made.fullmatch("b")
    assert cache.compiled == 1
    assert cache.save()
    again = RegexCache(path)
    _same(again.compile("a+b", 0), "a+b", 0)
    assert again.compiled == 0


def test_a_pattern_of_another_record_is_not_taken_for_this_one(tmp_path: Path) -> None:
    """The key is the pattern and its flags: the same text with other flags is another
    pattern."""
    path = tmp_path / "regex.bin"
    first = RegexCache(path)
    first.compile("abc", 0)
    first.save()
    second = RegexCache(path)
    made = second.compile("abc", re.I)
    _same(made, "abc", re.I)
    assert made.match("ABC") and second.compiled == 1


def test_a_hook_process_compiles_no_pattern_an_earlier_one_kept(tmp_path: Path) -> None:
    """Two fresh processes set up as a cold hook is (``rubi.entry._run_hook`` installs
    the cache, ``main`` saves it): the first compiles its patterns and keeps them in the
    cache folder, the second compiles none, and both give ``re``'s patterns."""
    code = (
        "import re\n"
        "from rubi.core import regexcode\n"
        "regexcode.install()\n"
        "p = re.compile(r'(?P<w>[^\\W\\d_]{3,})\\s+(?P=w)', re.I)\n"
        "q = re.compile(rb'\\x00+[^\\x00]')\n"
        "assert p.search('the The end').group('w') == 'the'\n"
        "assert re._compiler.compile == regexcode._INSTALLED.compile\n"
        "print(regexcode._INSTALLED.compiled > 0, regexcode.save())\n"
    )

    def run() -> str:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    assert run() == "True True"
    assert os.path.isfile(regexcode.cache_file())
    assert run() == "False False"


def test_a_cold_hook_and_a_command_keep_their_patterns() -> None:
    """The console script installs the cache for a hook (saved as it ends) and for a
    command (saved at exit); a second ``rubi --help`` compiles nothing anew."""
    hook = (
        "import io, sys\n"
        "from rubi.entry import main\n"
        "sys.argv = ['rubi', 'hook', 'Stop']\n"
        "sys.stdin = io.StringIO('{}')\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", hook], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert os.path.isfile(regexcode.cache_file("hook-Stop"))  # the event's own
    command = (
        "import atexit, sys\n"
        "from rubi.core import regexcode\n"
        "from rubi.entry import main\n"
        "atexit.register(lambda: print('compiled', regexcode._INSTALLED.compiled))\n"
        "sys.argv = ['rubi', '--help']\n"
        "main()\n"
    )
    first = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    second = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip().endswith("compiled 0")


def test_a_str_and_a_bytes_pattern_of_one_text_are_kept_apart_under_python_bb(
    tmp_path: Path,
) -> None:
    """``"abc"`` and ``b"abc"`` hash alike; a table keyed by ``(pattern, flags)`` for
    both compares them, which ``python -bb`` makes an error of ``re.compile``."""
    path = tmp_path / "regex.bin"
    code = (
        "import re, sys\n"
        "from rubi.core.regexcode import RegexCache\n"
        "cache = RegexCache(sys.argv[1])\n"
        "for p in ('abc', b'abc', 'abc', b'abc'):\n"
        "    made = cache.compile(p, 0)\n"
        "    assert made == re._compiler.compile(p, 0) and made.match(p), p\n"
        "print(cache.compiled, cache.save())\n"
    )
    for expected in ("2 True", "0 False"):
        done = subprocess.run(
            [sys.executable, "-bb", "-c", code, str(path)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == expected


def test_the_kept_file_is_another_one_for_another_release_of_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``re``'s compiler may write other code for a pattern in a bug-fix release (the
    engine's magic number stays): a 3.x.y interpreter never reads 3.x.z's records."""
    here = regexcode.cache_file()
    monkeypatch.setattr(sys, "hexversion", sys.hexversion + 0x100)
    assert regexcode.cache_file() != here


def test_the_debug_bit_the_cache_tests_is_re_s(tmp_path: Path) -> None:
    """The cache tests ``re.DEBUG`` as a plain int (no ``RegexFlag`` operator runs): the
    same bit, and a pattern asked for with it is compiled anew, never kept."""
    assert int(re.DEBUG) == regexcode._DEBUG
    cache = RegexCache(tmp_path / "regex.bin")
    cache.compile("a", int(re.I))
    assert cache.compiled == 1
    assert cache.compile("b", int(re.I)).flags & int(re.I)
    assert cache.compiled == 2
