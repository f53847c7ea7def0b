"""A stop-word list file that is missing or not UTF-8 leaves its language without
stop words; it never fails the analysis (and so a search)."""

from __future__ import annotations

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
