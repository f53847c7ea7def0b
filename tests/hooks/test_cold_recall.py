"""The recall hook run cold, in a process of its own (no engine): the answer the
handlers give in process, without the modules it has no use for (the note parser,
YAML, ``numpy.ma``; networkx: the graph is read frozen, also when the store's journal
is ahead of the graph snapshot; filelock: only an index run takes the index lock; the
personal vault's module and the TOML reader: recall leaves that vault out), a BLAS
thread pool or the cyclic garbage collector, and with the lists that are ready: NumPy
is not imported and no vector is read, the dense list left out as a starting
server's recall leaves it out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hooks.hookhelpers import base, hook
from rubi.entry import _short as entry_short

_COLD = """
import gc, io, os, sys
from rubi.entry import _run_hook
out = io.StringIO()
_run_hook(["UserPromptSubmit"], sys.stdin, out)
heavy = ("markdown_it", "yaml", "frontmatter", "numpy.ma", "rubi.app.reading", "networkx",
         "filelock", "secrets", "rubi.knowledge.personal", "tomllib")
print(out.getvalue())
print(" ".join(m for m in heavy if m in sys.modules))
print(os.environ.get("OPENBLAS_NUM_THREADS", ""), gc.isenabled())
dense = sys.modules.get("rubi.semantic.dense")
print(sorted({i._lazy for i in dense._INDEXES.values()}) if dense else [])
"""


def _cold(
    project: Path, payload: dict[str, object], script: str = _COLD, **more_env: str
) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    run = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        env={**env, "RUBI_ENGINE": "0", **more_env},
        cwd=project,
    )
    return run.stdout.rsplit("\n", 4)[:4]


def _answers_without(project: Path, modules: str) -> None:
    """A cold recall (dense channel off) of the login-token question answers as the
    engine does and imports none of ``modules`` (names split by spaces) on its second
    call (the first syncs the new project's vault, whose modules may use them)."""
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    expected = hook("UserPromptSubmit", payload)
    names = ", ".join(f'"{name}"' for name in modules.split())
    probe = _COLD.replace('"tomllib")', f'"tomllib", {names})')
    for _ in range(2):
        answer, loaded = _cold(project, payload, probe, RUBI_SEMANTIC="0")[:2]
    assert json.loads(answer) == expected
    assert "gotcha-login-tokens-expire-at-midnight-utc" in answer
    assert loaded == ""


def test_cold_recall_answers_as_in_process_and_imports_less(project: Path) -> None:
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    probe = _COLD.replace(
        '"tomllib")',
        '"tomllib", "numpy", "rubi.semantic.dense", "rubi.semantic.encoder",'
        ' "rubi.semantic.separation", "importlib.util")',
    )
    answer, loaded, threads, lazy = _cold(project, payload, probe)
    # the same answer: the dense list (left out cold) has no weight on this prompt
    assert json.loads(answer) == hook("UserPromptSubmit", payload)
    assert "gotcha-login-tokens-expire-at-midnight-utc" in answer
    # with the extra too: the lists that are ready, no NumPy, nor the packages or the
    # vault's measurement asked whether the list would vote (it is left out either way)
    assert loaded == ""
    assert threads == "1 False"  # no BLAS pool, no cyclic collector in a one-shot hook
    assert lazy == "[]"  # no vector read


def test_cold_recall_of_a_prompt_naming_code_files_reads_no_note_parser(
    project: Path,
) -> None:
    """A prompt that names the project's files (the session's "read these files"): the
    recall shows their code passages, each named by its symbols from the code map, and
    still loads neither the note parser (markdown-it, YAML) nor the note reader."""
    (project / "src" / "auth.py").write_text(
        "def login():\n    return refresh_token()\n\n\ndef refresh_token():\n    pass\n",
        encoding="utf-8",
    )
    from rubi.app import index, locate

    index(locate(cwd=project))
    prompt = f"Read these files: {project / 'src' / 'auth.py'} and the login token gotcha"
    payload = base(project, "UserPromptSubmit", prompt=prompt)
    answer, loaded, _, _ = _cold(project, payload)
    assert json.loads(answer) == hook("UserPromptSubmit", payload)
    assert "src/auth.py" in answer
    assert loaded == ""


_MAIN = """
import atexit, sys, threading
mark = sys.argv[1]
atexit.register(lambda: open(mark, "w").write("ran"))
if sys.argv[2] == "thread":  # a thread that is not a daemon outlives the hook
    threading.Thread(target=threading.Event().wait, args=(0.5,)).start()
sys.argv = ["rubi", "hook", "UserPromptSubmit"]
from rubi.entry import main
main()
"""


def test_a_short_cold_hook_leaves_at_once_with_its_answer_and_atexit(
    project: Path, tmp_path: Path
) -> None:
    """The console script ends a short cold hook's process without the interpreter's
    teardown (``rubi.entry._leave``): the answer is printed whole, the status is 0 and
    the ``atexit`` functions run; with a thread still running it exits as usual."""
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    expected = hook("UserPromptSubmit", payload)
    for case in ("plain", "thread"):
        marker = tmp_path / f"atexit-{case}"
        run = subprocess.run(
            [sys.executable, "-c", _MAIN, str(marker), case],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            env={**os.environ, "RUBI_ENGINE": "0"},
            cwd=project,
        )
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == expected
        assert marker.read_text() == "ran"


def test_cold_recall_replays_the_journal_without_networkx(project: Path) -> None:
    """Notes indexed after the graph snapshot and the flat graph were written (the
    store's journal: a run that changes the graph leaves the flat graph behind) are
    found cold as in process, the replay needs no networkx, and the cold process writes
    the flat graph again for the next one."""
    from rubi.app import index, locate
    from rubi.graph.flat import read_flat
    from rubi.graph.snapshot import load_snapshot

    paths = locate(cwd=project)
    flat_file = paths.graph_file.with_name("graph.flat")
    before = paths.graph_file.read_bytes()
    note = paths.root / "notes" / "gotcha-night-shift-tokens.md"
    note.write_text(
        "---\ntype: gotcha\n---\n# Night shift tokens expire at the login rollover\n\n"
        "The login token rolls over at night; see "
        "[[gotcha-login-tokens-expire-at-midnight-utc]].\n",
        encoding="utf-8",
    )
    index(paths)
    assert paths.graph_file.read_bytes() == before  # the snapshot is behind the store
    assert "notes/gotcha-night-shift-tokens" not in read_flat(flat_file)[0].graph  # and this
    assert "notes/gotcha-night-shift-tokens" not in load_snapshot(paths.graph_file)[0].notes
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    answer, loaded, _, _ = _cold(project, payload)
    assert json.loads(answer) == hook("UserPromptSubmit", payload)
    assert "gotcha-night-shift-tokens" in answer
    assert loaded == ""
    assert "notes/gotcha-night-shift-tokens" in read_flat(flat_file)[0].graph


def test_cold_recall_with_a_current_flat_graph_loads_no_snapshot_module(project: Path) -> None:
    """Once the flat graph is current (a cold recall that replayed the journal wrote it),
    the next cold recall reads it without importing the graph snapshot's module (its
    pickler and unpickler): the one-shot flag lives in :mod:`rubi.graph.readmode`. Nor
    OpenSSL's ``_hashlib``: the near-duplicate check's BLAKE2b is the interpreter's."""
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    expected = hook("UserPromptSubmit", payload)
    probe = _COLD.replace('"tomllib")', '"tomllib", "rubi.graph.snapshot", "_hashlib")')
    first, second = (_cold(project, payload, probe) for _ in range(2))
    assert json.loads(first[0]) == json.loads(second[0]) == expected
    assert second[1] == ""


def test_cold_recall_without_the_dense_channel_imports_no_typing(project: Path) -> None:
    """``typing`` (35 modules of the search stack imported it; the ``stop-words``
    package's ``__init__`` does) is a cold recall's 3 ms of imports for names only mypy
    reads: without the dense channel (numpy imports it) the recall answers the same
    without it, and reads the ``stop-words`` lists without importing their package.
    Nor does it import or read the dense list's per-vault measurement or the vectors'
    file names: with the channel off there is no list to weigh. Nor ``urllib.parse``
    (with ``ipaddress``, 2–5 ms), which ``Path.as_uri`` imports: the near-duplicate
    fingerprints' store is opened by a URI made without it."""
    _answers_without(
        project,
        "typing stop_words rubi.semantic.separation rubi.semantic.sync "
        "rubi.semantic.dense rubi.app.vaultinit urllib.parse",
    )


def test_cold_recall_imports_no_threading_base64_latin1_codec_model_or_renderer(
    project: Path,
) -> None:
    """What a cold recall had imported for nothing its answer uses (about 1.5 ms): the
    ``threading`` module for five locks (``_thread``'s are the same objects), ``base64``
    and ``binascii`` for the redaction of a base64 PEM block the prompt does not hold,
    the Latin-1 codec's module for the bytes a posting block's pickle holds
    (``str.encode`` gives them without it), the notes' model (``rubi.core.model``: the
    graph's and the store's modules named it only in annotations) and the index's
    summary (``rubi.app.status``), nor the renderer of search results (its hits' why
    lines are :mod:`rubi.search.whyline`'s), nor Whoosh's Arabic stemmer (made for the
    first Arabic word; asked of whoosh only for a language with stop words); the same
    answer."""
    _answers_without(
        project,
        "threading base64 binascii encodings.latin_1 rubi.core.model "
        "rubi.app.status rubi.search.render whoosh.lang.isri",
    )


def test_cold_recall_imports_no_json_nor_whooshs_other_snowball_ports(project: Path) -> None:
    """The ``json`` package (its decoder, scanner and encoder: about 1.4 ms) is not
    imported: the payload, the session's state, the store's values, the flat graph's
    tables and the answer go through :mod:`rubi.core.jsonline`, the same text and
    values; nor Whoosh's pure-Python Snowball ports but the English one (about 4 ms:
    every other language stems through PyStemmer), nor the link resolver (a search
    compares names with :mod:`rubi.vault.names` alone); the same answer."""
    _answers_without(
        project,
        "json json.decoder json.encoder whoosh.lang.snowball.danish "
        "whoosh.lang.snowball.russian whoosh.lang.snowball.german "
        "rubi.vault.resolve",
    )


def test_cold_recall_imports_no_dense_list_why_lines_or_date_window(project: Path) -> None:
    """With the dense channel off, the dense list's module (its record and ``sqlite3``
    import) is not imported; a search that gives its hits no reasons (the recall)
    does not import the why-lines' module; a search without ``--since/--until`` makes
    no date window's class (:mod:`rubi.dates.window`): the same answer."""
    _answers_without(project, "rubi.search.dense rubi.search.whyline rubi.dates.window")


def test_cold_recall_makes_no_index_writer_s_document_class(project: Path) -> None:
    """A cold search reads the index and writes no document to it: the writers' record
    (:class:`rubi.index.indexdoc.IndexDoc`, a dataclass made at its module's import) is
    not imported; the same answer."""
    _answers_without(project, "rubi.index.indexdoc")


def test_cold_recall_of_notes_imports_no_code_abbreviations_or_whoosh_internals(
    project: Path,
) -> None:
    """A search of notes (not of code alone) adds no programming abbreviations and a
    cold reader reads its segments without Whoosh: neither the abbreviations' table
    nor the module of Whoosh's internals is imported; the same answer."""
    _answers_without(project, "rubi.index.abbreviations rubi.index.whooshinternals")


def test_cold_recall_of_a_short_ascii_question_imports_no_cjk_or_code_window(
    project: Path,
) -> None:
    """A question in ASCII of fewer words than the window measures: neither the CJK
    modules (the relevance floor and the note window ask them only of a text that is
    not ASCII) nor the code window's (its window only for such questions, a code search's
    or a longer one's) are imported; the same answer."""
    _answers_without(project, "rubi.index.cjkwords rubi.index.japanese rubi.search.codewindow")


def test_cold_recall_imports_no_file_stamps(project: Path) -> None:
    """A cold search reads the store's generation once and never asks whether the store
    changed since (:func:`rubi.sync.rows.quiet_stamp`): the stamps' module is not
    imported; the same answer."""
    _answers_without(project, "rubi.core.filestamp")


_COLLECTOR_AT_IMPORTS = """
import gc, io, sys
import rubi.entry as entry
seen = []
kept = entry._keep_code
entry._keep_code = lambda event: (seen.append(gc.isenabled()), kept(event))[1]
entry._run_hook([sys.argv[1]], sys.stdin, io.StringIO())
print(seen, gc.isenabled())
"""


def test_a_short_cold_hook_collects_nothing_from_its_start(project: Path) -> None:
    """The recall hook turns the cyclic collector off before the cold path's imports
    (``dataclasses``, ``re``: :func:`rubi.entry._keep_code`), not with the search's
    settings after them; SessionStart, which may index at length, keeps it there and
    after."""
    assert entry_short("UserPromptSubmit") and entry_short("user-prompt-submit")
    assert not entry_short("SessionStart") and not entry_short("") and not entry_short("Nope")
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    env = {**os.environ, "RUBI_ENGINE": "0", "RUBI_SEMANTIC": "0"}
    run = subprocess.run(
        [sys.executable, "-c", _COLLECTOR_AT_IMPORTS, "UserPromptSubmit"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=project,
    )
    assert run.stdout.split() == ["[False]", "False"]


_KEPT = """
import io, sys
from rubi.entry import _run_hook, _save_kept_code
out = io.StringIO()
_run_hook(["UserPromptSubmit"], sys.stdin, out)
_save_kept_code()
kinds = {type(m.__spec__.loader).__name__ for name, m in list(sys.modules.items())
         if name.startswith(("rubi.search.", "whoosh.", "sqlite3")) and m.__spec__ is not None}
print(out.getvalue())
print(" ".join(sorted(kinds)))
print()
print()
"""


def test_a_cold_recall_s_modules_are_kept_and_the_next_answers_the_same(project: Path) -> None:
    """The first cold recall imports its modules from source and keeps them
    (:mod:`rubi.core.modulecode`); the next ones find and load them from the kept file,
    with the same answer."""
    payload = base(project, "UserPromptSubmit", prompt="why does the login token expire at night?")
    answers, kinds = [], []
    for _ in range(3):
        answer, loaded = _cold(project, payload, _KEPT, RUBI_SEMANTIC="0")[:2]
        answers.append(answer)
        kinds.append(loaded)
    assert "gotcha-login-tokens-expire-at-midnight-utc" in answers[0]
    assert answers[0] == answers[1] == answers[2]
    assert kinds[0] == "SourceFileLoader"
    assert kinds[2] == "_KeptLoader"
