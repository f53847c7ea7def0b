"""The doc-sentence check: each language's doc comments give their first sentence, and
a drawn set is the same on every run."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from codemap.codemap_helpers import git

from helpers import REPO, write


@pytest.fixture(scope="module")
def ds() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))
    import doc_sentences

    return doc_sentences


def test_first_sentence_stops_at_tags_and_counts_words(ds: ModuleType) -> None:
    lines = [" The values provided to the {@link Argument}. More text", "@param x the x"]
    assert ds.first_sentence(lines) == "The values provided to the Argument"
    assert ds.first_sentence(["Too short here."]) is None
    assert ds.first_sentence(["@return the values of all the options given"]) is None


def test_each_language_gives_its_doc_comments(ds: ModuleType) -> None:
    kotlin = "/**\n * Returns the number of bytes in this string.\n */\nfun size(): Int = 0\n"
    assert ds.sentences("a/B.kt", kotlin) == ["Returns the number of bytes in this string"]
    go = "// Open opens the named file for reading today.\nfunc Open() {}\n// not a doc\n\nx := 1\n"
    assert ds.sentences("fs.go", go) == ["Open opens the named file for reading today"]
    rust = "/// The depth at which this entry was generated.\npub fn depth() {}\n"
    assert ds.sentences("src/dent.rs", rust) == ["The depth at which this entry was generated"]
    python = 'def f():\n    """Works like :meth:`.Signer.unsign` but checks the time."""\n'
    assert ds.sentences("t.py", python) == ["Works like .Signer.unsign but checks the time"]
    assert ds.sentences("notes.md", kotlin) == []


def test_draw_leaves_tests_and_shared_sentences_out_and_is_stable(
    ds: ModuleType, tmp_path: Path
) -> None:
    doc = '"""Read the settings file from the given folder path."""\n'
    write(tmp_path / "r/src/settings.py", doc)
    write(
        tmp_path / "r/tests/test_settings.py", '"""Checks that the settings file is read well."""\n'
    )
    write(tmp_path / "r/src/a.py", '"""The same sentence in two files is dropped here."""\n')
    write(tmp_path / "r/src/b.py", '"""The same sentence in two files is dropped here."""\n')
    git(tmp_path / "r", "init", "-q")
    git(tmp_path / "r", "add", "-A")
    git(tmp_path / "r", "commit", "-qm", "init")
    assert ds.draw(tmp_path / "r", 30, 28) == [
        ds.Question("Read the settings file from the given folder path", "src/settings.py")
    ]
    assert ds.main([str(tmp_path), str(tmp_path / "out")]) == 0
    entries = json.loads((tmp_path / "out/annotations/r.json").read_text())
    assert [e["relevant"] for e in entries] == [["src/settings.py"]]
    assert json.loads((tmp_path / "out/repos.json").read_text())[0]["language"] == "python"
