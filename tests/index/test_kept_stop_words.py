"""A process that searches once takes the analysis chains' stop-word sets from the
file the last one kept (``rubi.index.keptstops``): the same sets, made anew whenever
what they are made from changed, or the file is damaged or not the user's own."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from rubi.core import segmentreads
from rubi.index import keptstops, wordterm

LANGS = ("en", "de", "fr", "tr", "ca", "ru", "pl")


@pytest.fixture
def one_shot(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A one-shot process (segments mapped), with no set made yet; yields the
    languages whose sets were made from the lists."""
    monkeypatch.setattr(segmentreads, "_MAPPED", [True])
    made: list[str] = []
    real = wordterm._made_stop_words

    def counted(lang: str) -> frozenset[str]:
        made.append(lang)
        return real(lang)

    monkeypatch.setattr(wordterm, "_made_stop_words", counted)
    wordterm.chain_stop_words.cache_clear()
    yield made
    wordterm.chain_stop_words.cache_clear()


def _next_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a new process starts with: no set read, made or remembered."""
    wordterm.chain_stop_words.cache_clear()
    for attribute, value in (("_KEPT", None), ("_NEW", {}), ("_PATH", []), ("_STAMPED", {})):
        monkeypatch.setattr(keptstops, attribute, value)


def _lists() -> dict[str, frozenset[str]]:
    return {lang: wordterm._made_stop_words(lang) for lang in LANGS}


def test_the_next_one_shot_process_reads_the_sets_the_last_one_made(
    one_shot: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    want = _lists()
    one_shot.clear()
    assert {lang: wordterm.chain_stop_words(lang) for lang in LANGS} == want
    assert one_shot == list(LANGS)
    assert keptstops.save()
    kept = Path(keptstops.store_file())
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    _next_process(monkeypatch)
    one_shot.clear()
    assert {lang: wordterm.chain_stop_words(lang) for lang in LANGS} == want
    assert one_shot == []  # none made: all read
    assert not keptstops.save()  # nothing new to keep


def test_a_set_whose_source_changed_is_made_anew(
    one_shot: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = tmp_path / "stopwords.py"
    source.write_text("one\n")
    real = keptstops.sources
    monkeypatch.setattr(keptstops, "sources", lambda *how: [*real(*how), str(source)])
    wordterm.chain_stop_words("de")
    assert keptstops.save()
    _next_process(monkeypatch)
    one_shot.clear()
    source.write_text("two\n")  # another size
    assert wordterm.chain_stop_words("de") == wordterm._made_stop_words("de")
    assert one_shot[:1] == ["de"]
    _next_process(monkeypatch)
    one_shot.clear()
    assert keptstops.save() is False
    wordterm.chain_stop_words("de")
    assert one_shot[:1] == ["de"]  # not kept by the last run (it was not saved)


def test_a_damaged_or_group_writable_file_is_not_read(
    one_shot: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    wordterm.chain_stop_words("fr")
    assert keptstops.save()
    kept = Path(keptstops.store_file())
    os.chmod(kept, 0o664)
    _next_process(monkeypatch)
    one_shot.clear()
    assert wordterm.chain_stop_words("fr") == wordterm._made_stop_words("fr")
    assert one_shot[:1] == ["fr"]  # not the user's alone: not read
    kept.write_bytes(b"\x00not marshal")
    os.chmod(kept, 0o600)
    _next_process(monkeypatch)
    one_shot.clear()
    assert wordterm.chain_stop_words("fr") == wordterm._made_stop_words("fr")
    assert one_shot[:1] == ["fr"]
    assert keptstops.save()  # and written anew, whole
    _next_process(monkeypatch)
    one_shot.clear()
    wordterm.chain_stop_words("fr")
    assert one_shot == []


def test_a_long_lived_process_neither_reads_nor_keeps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    _next_process(monkeypatch)
    assert wordterm.chain_stop_words("it") == wordterm._made_stop_words("it")
    assert keptstops._NEW == {} and keptstops._KEPT is None
    assert not keptstops.save()
    assert not Path(keptstops.store_file()).exists()
