"""Recall is rubi search with a relevance bar: the same ranking, notes that clear it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rubi import app
from rubi.app.recall import MAX_FILES
from rubi.search.limits import (
    MAX_QUERY_CHARS,
    MAX_QUERY_WORDS,
    QueryTooLargeError,
    check_query,
    fit_query,
)

from helpers import rubi_project, write


def _ids(block: str | None) -> list[str]:
    return re.findall(r"\(id ([^)]+)\): ", block or "")


def test_recall_lists_the_search_hits_that_clear_the_bar_in_search_order(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "sync.md", "# Sync settings\n\nHow the vault syncs between two devices.\n")
    write(vault / "devices.md", "# Devices\n\nPhones and laptops. See [[sync]].\n")
    write(vault / "other.md", "# Other\n\nNothing about it; the vault only.\n")
    write(vault / "sessions/chat.md", "# Chat\n\nsync vault devices settings\n")
    paths = app.locate(vault)
    app.index(paths)
    prompt = "how do I sync my vault between two devices?"
    block = app.recall(paths, prompt, max_tokens=700)
    order = [h.id for h in app.search(paths, prompt, scope="notes", refresh=False).hits]
    ids = _ids(block)
    assert ids and ids == [i for i in order if i in ids]  # the search's own order
    assert "other" not in ids  # one shared word: below the bar
    assert not any(i.startswith("sessions/") for i in ids)


def test_recall_ranks_as_the_search_without_its_why_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recall shows no why-line, so its searches make none (nor the query's word map,
    which only the why-lines read): the same hits, in the same order, with the same
    scores and matched words as a search that says why."""
    from rubi.index.queryanalysis import QueryAnalysis
    from rubi.search.hits import Hit

    vault = tmp_path / "v"
    write(vault / "sync.md", "# Sync settings\n\nHow the HttpServer vault syncs devices.\n")
    write(vault / "devices.md", "# Devices\n\nPhones and laptops sync. See [[sync]].\n")
    write(vault / "copy.md", "# Sync settings\n\nHow the HttpServer vault syncs devices.\n")
    paths = app.locate(vault)
    app.index(paths)
    prompt = "how does the HttpServer sync my vault devices?"
    said = app.search(paths, prompt, scope="notes", refresh=False)
    quiet = app.search(paths, prompt, scope="notes", refresh=False, why=False)
    assert said.hits and all(h.why for h in said.hits)

    def seen(hits: list[Hit]) -> list[tuple[object, ...]]:
        return [(h.id, h.score, h.matched, h.also, h.title, h.type) for h in hits]

    assert seen(quiet.hits) == seen(said.hits)
    assert all(h.why == () and h.reasons == () for h in quiet.hits)
    expected = app.recall(paths, prompt, max_tokens=700)
    assert expected

    def no_word_map(self: QueryAnalysis, text: str) -> object:
        raise AssertionError("recall made the query's word map")

    monkeypatch.setattr(QueryAnalysis, "word_map", no_word_map)
    assert app.recall(paths, prompt, max_tokens=700) == expected


def test_recall_of_a_never_indexed_vault_indexes_nothing(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "a.md", "# Alpha\n\nsync vault devices\n")
    paths = app.locate(vault)
    assert app.recall(paths, "sync vault devices", max_tokens=700) is None
    assert not paths.store_file.exists()


def test_a_long_prompt_is_searched_for_its_words_the_index_holds(tmp_path: Path) -> None:
    vault = tmp_path / "v"
    write(vault / "sync.md", "# Sync settings\n\nHow the vault syncs between devices.\n")
    paths = app.locate(vault)
    app.index(paths)
    words = " ".join(f"word{i}" for i in range(2 * MAX_QUERY_WORDS))
    block = app.recall(paths, f"sync vault settings {words}", max_tokens=700)
    assert _ids(block) == ["sync"]


def test_fit_query_cuts_after_whole_words_within_the_caps() -> None:
    assert fit_query("a short question") == "a short question"
    many = " ".join(f"w{i}" for i in range(MAX_QUERY_WORDS + 50))
    assert fit_query(many) == many  # words are reduced by the search, not cut here
    check_query(many)
    long = "word " * (MAX_QUERY_CHARS // 5) + "tail"
    cut = fit_query(long)
    check_query(cut)
    assert long.startswith(cut) and len(cut) <= MAX_QUERY_CHARS and cut.endswith("word")
    assert fit_query("x" * (MAX_QUERY_CHARS + 10)) == ""
    with pytest.raises(QueryTooLargeError):
        check_query("x" * (MAX_QUERY_CHARS + 10))


CODE = {
    "shell/quoting.py": "def parse_quoted_string(text):\n"
    '    """Split a shell line on its quotes; an escaped quote stays inside."""\n'
    "    return text.split('\"')\n",
    "shell/history.py": "def load_history(path):\n"
    '    """Read the saved command lines; change how often they are saved here."""\n'
    "    return open(path).read().splitlines()\n",
    "shell/engine.py": "# The engine runs each command line; oil it with care, often.\n"
    "def run_line(line):\n    return line\n",
}
ISSUE = (
    "parse_quoted_string splits escaped quotes\n\nCalling it on a shell command line that "
    "holds an escaped quote splits the quoted text in two; the escaped quote should stay "
    "inside the string. Seen with bash and zsh history lines since the last release."
)


def _code_project(tmp_path: Path) -> Path:
    root = rubi_project(tmp_path / "proj", CODE)
    app.index(app.locate(root / ".rubi"))
    return root


def _files(block: str | None) -> list[str]:
    return re.findall(r"^- ([\w./-]+)#L\d+-\d+", block or "", re.M)


def test_recall_names_the_code_files_a_long_issue_is_about(tmp_path: Path) -> None:
    paths = app.locate(_code_project(tmp_path) / ".rubi")
    block = app.recall(paths, ISSUE, max_tokens=700)
    files = _files(block)
    assert files and files[0] == "shell/quoting.py"
    assert "(parse_quoted_string)" in (block or "")
    assert len(files) <= MAX_FILES


def test_recall_names_a_file_for_a_short_prompt_naming_its_symbol(tmp_path: Path) -> None:
    paths = app.locate(_code_project(tmp_path) / ".rubi")
    block = app.recall(paths, "why does parse_quoted_string split escaped quotes?", max_tokens=700)
    assert _files(block)[:1] == ["shell/quoting.py"]


def test_recall_names_no_file_for_a_short_question_in_plain_words(tmp_path: Path) -> None:
    paths = app.locate(_code_project(tmp_path) / ".rubi")
    # three of its content words are in one file's comment: chance, not a topic
    assert app.recall(paths, "How often should I change the engine oil?", max_tokens=700) is None


def test_notes_cannot_crowd_the_files_out_of_the_budget(tmp_path: Path) -> None:
    root = _code_project(tmp_path)
    for n in range(8):
        write(root / ".rubi" / "notes" / f"quotes-{n}.md",
              f"# Escaped quotes {n}\n\n{ISSUE} " + "More on shell quoting. " * 20)  # fmt: skip
    paths = app.locate(root / ".rubi")
    app.index(paths)
    block = app.recall(paths, ISSUE, max_tokens=200)
    assert _ids(block) and _files(block)[:1] == ["shell/quoting.py"]
    assert len(block or "") / 4 <= 200 + 10


FOREIGN_ISSUE = (
    "QuoteParser.feed splits escaped quotes\n\nCalling shlexer.split_line on a command "
    "line that holds an escaped quote splits the quoted text in two; the escaped quote "
    "should stay inside the string. Seen with bash and zsh history lines since the last "
    "release of quotelib (quotelib/parser.py)."
)


def test_recall_names_no_file_for_another_projects_issue(tmp_path: Path) -> None:
    # as many shared words as its own issue, but only another library's identifiers
    paths = app.locate(_code_project(tmp_path) / ".rubi")
    assert _files(app.recall(paths, ISSUE, max_tokens=700))[:1] == ["shell/quoting.py"]
    assert app.recall(paths, FOREIGN_ISSUE, max_tokens=700) is None
    # the project's package written as a word counts (a prompt about "shell" here)
    prompt = FOREIGN_ISSUE.replace("a command line", "a shell command line")
    assert _files(app.recall(paths, prompt, max_tokens=700))


def test_an_issue_naming_a_file_by_an_installed_path_gets_files(tmp_path: Path) -> None:
    paths = app.locate(_code_project(tmp_path) / ".rubi")
    prompt = FOREIGN_ISSUE.replace("quotelib/parser.py", "site-packages/shell/quoting.py")
    assert _files(app.recall(paths, prompt, max_tokens=700))[:1] == ["shell/quoting.py"]


HISTORY_CODE = {
    **CODE,
    "shell/history.py": "def load_history(path):\n"
    '    """Read the saved command lines from the history file, newest last; each saved\n'
    '    line keeps its timestamp, its working folder and its exit status."""\n'
    "    return open(path).read().splitlines()\n",
}
TITLED_ISSUE = (
    "Escaped quotes split the quoted string\n\n"
    "I keep my shell history in a file and reload the saved lines at login: each saved "
    "line has its timestamp, its working folder and its exit status, newest last. After "
    "a reload with the history file one line came back in two pieces, and the exit status "
    "of the working folder line was gone as well, which I noticed only days later when "
    "the timestamp order looked wrong to me and my colleagues on three machines."
)


def test_recall_ranks_the_files_as_rubi_search_does_headline_and_all(tmp_path: Path) -> None:
    # the body's story shares its rare words with history.py; the title says quoting.py.
    # The reduced body alone put history.py first; rubi search fuses the headline's list.
    root = rubi_project(tmp_path / "proj", HISTORY_CODE)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    searched = app.search(paths, TITLED_ISSUE, scope="code", refresh=False, personal=False)
    assert [h.path for h in searched.hits][:1] == ["shell/quoting.py"]
    files = _files(app.recall(paths, TITLED_ISSUE, max_tokens=700))
    assert files[:2] == ["shell/quoting.py", "shell/history.py"]
