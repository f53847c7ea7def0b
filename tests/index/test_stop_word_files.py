"""A stop-word list file that is missing or not UTF-8 leaves its language without
stop words; it never fails the analysis (and so a search)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi.index import snowball


@pytest.fixture
def lists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "stop_words"
    (folder / "stop-words").mkdir(parents=True)
    monkeypatch.setattr(snowball, "_stop_words_folder", lambda: str(folder))
    monkeypatch.setattr(snowball, "STOP_WORD_SOURCES", {"pl": "polish", "xx": "nolanguage"})
    snowball.stop_words.cache_clear()
    yield folder / "stop-words"
    snowball.stop_words.cache_clear()


def test_a_list_file_that_is_not_utf8_is_read_as_the_package_reads_it(lists: Path) -> None:
    (lists / "polish.txt").write_bytes(b"zzzyx\n\xff\xfe albo\n")
    words = snowball.stop_words("pl")  # the package's own list, from its own folder
    assert "zzzyx" not in words and len(words) > 100


def test_a_list_no_one_has_gives_no_stop_words(lists: Path) -> None:
    assert snowball.stop_words("xx") == frozenset()
    assert snowball.package_stop_words("nolanguage") == []


def test_a_list_with_any_line_ends_and_blank_lines_is_read_line_by_line(lists: Path) -> None:
    """Read whole and cut at its line ends: the words a line-by-line read gives (CRLF and
    CR line ends, blank and space-only lines, a word with a space inside, no final
    line end)."""
    raw = "albo\r\n\r\n  aby \rjak to\n\n \t\nczy"
    (lists / "polish.txt").write_bytes(raw.encode("utf-8"))
    with (lists / "polish.txt").open(encoding="utf-8") as f:
        expected = [line.strip() for line in f if line.strip()]
    assert snowball.package_stop_words("polish") == expected == ["albo", "aby", "jak to", "czy"]


def test_the_turkish_list_is_repaired_as_the_codec_would_without_importing_it() -> None:
    """``_repair_turkish`` gives ``encode("latin-1").decode("iso8859_9")`` for every
    Latin-1 character and leaves a word beyond Latin-1 as it is; a process making the
    Turkish stop words imports no codec for it."""
    import subprocess
    import sys

    for ch in map(chr, range(256)):
        assert snowball._repair_turkish(ch) == ch.encode("latin-1").decode("iso8859_9")
    assert snowball._repair_turkish("altmýþ") == "altmış"
    assert snowball._repair_turkish("") == ""
    assert snowball._repair_turkish("şýþ") == "şýþ"  # cannot be encoded: as it is
    code = (
        "import sys; from rubi.index.snowball import stop_words; w = stop_words('tr'); "
        "print('encodings.iso8859_9' in sys.modules, 'altmış' in w, 'bir' in w)"
    )
    src = str(Path(snowball.__file__).parents[2])  # this tree's rubi, wherever the test runs
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == ["False", "True", "True"]


def test_the_package_folder_is_found_without_importing_importlib_machinery() -> None:
    """The folder is the one the package's import finds, looked for with the
    interpreter's own ``PathFinder`` (``importlib.machinery`` cost a cold recall
    0.4–0.7 ms to import)."""
    code = (
        "import sys; from rubi.index import snowball; found = snowball._stop_words_folder(); "
        "print('importlib.machinery' in sys.modules); "
        "import importlib.util; spec = importlib.util.find_spec('stop_words'); "
        "print(found == (spec.submodule_search_locations[0] if spec else None))"
    )
    src = str(Path(snowball.__file__).parents[2])  # this tree's rubi, wherever the test runs
    env = {**os.environ, "PYTHONPATH": src}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.split() == ["False", "True"]
