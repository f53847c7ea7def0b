"""Evaluation sets on disk: ``bench/sets/<name>/`` with ``set.json`` and ``queries.jsonl``.

The format (shared by every set, whoever built it):

- ``set.json``: ``{"name", "kind": "notes" | "issues", "description", "license",
  "sources": [{"repo": "owner/name", "commit": <40 hex>, "folder": str}],
  "languages": [str], "split_rule": str, "made": "YYYY-MM-DD"}``.
- ``queries.jsonl``: one object a line. Notes sets: ``{"id", "query", "relevant":
  [folder-relative paths] ([] = off-topic), "split", "lang"}``. Issues sets: ``{"id":
  "owner/name#123", "repo", "base_commit", "fix_commit", "title", "query", "relevant":
  [non-test source files the fix changed], "relevant_all": [every file it changed],
  "split", "lang"}``.

The split is fixed by :func:`split_of` from the set's name and the query's id; a line
whose ``split`` disagrees is refused, so nobody can move a query between halves by hand.
Everything read here is untrusted: a path that is absolute, holds ``..`` or a NUL, a
commit that is not 40 hex digits, is refused with the file, the line and what to fix.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rubi.core.paths import VaultPaths

__all__ = ["EvalSet", "Query", "SetError", "load_set", "split_of"]

KINDS = ("notes", "issues")
SPLITS = ("dev", "test")
_HEX40 = re.compile(r"[0-9a-f]{40}")
_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+")


class SetError(ValueError):
    """A set folder that cannot be read; the message names the file and what to fix."""


def split_of(name: str, query_id: str) -> str:
    """``dev`` when the first hex digit of ``sha256(name + ':' + id)`` is even, else
    ``test`` (the rule every set's ``split_rule`` states)."""
    digit = hashlib.sha256(f"{name}:{query_id}".encode()).hexdigest()[0]
    return "dev" if int(digit, 16) % 2 == 0 else "test"


@dataclass(frozen=True, slots=True)
class Query:
    """One question of a set.

    Attributes:
        id: unique within the set.
        query: the text a user would type (issues: title, blank line, body).
        relevant: the documents that answer it, corpus-relative POSIX paths; empty for
            an off-topic question.
        split: ``dev`` or ``test``.
        lang: its language code.
        title: an issue's title ("" for a notes set).
        base_commit: the commit an issue is searched at ("" for a notes set).
        relevant_all: every file the fix changed (issues; else ``relevant``).
    """

    id: str
    query: str
    relevant: tuple[str, ...]
    split: str
    lang: str
    title: str = ""
    base_commit: str = ""
    relevant_all: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EvalSet:
    """A loaded set: its ``set.json`` fields and its queries in file order."""

    folder: Path
    name: str
    kind: str
    description: str
    sources: tuple[dict[str, str], ...]
    languages: tuple[str, ...]
    queries: tuple[Query, ...]

    @property
    def source_folder(self) -> str:
        """The folder inside the first source that is the corpus ("" = its root)."""
        return self.sources[0].get("folder", "") if self.sources else ""


def corpus_of(evalset: EvalSet, corpus: Path) -> Path:
    """The folder of ``corpus`` (a checkout or a prepared folder) that holds the set's
    notes: its source folder when that exists in it, else ``corpus`` itself."""
    if evalset.source_folder and (corpus / evalset.source_folder).is_dir():
        return corpus / evalset.source_folder
    return corpus


def vault_copy(corpus: Path, prefix: str) -> tuple[Path, Path]:
    """``corpus`` copied into a new temporary folder (``prefix`` its name's start) as
    ``vault`` (symbolic links as links, ``.git`` left out): the folder and the vault.
    The caller removes the folder."""
    work = Path(tempfile.mkdtemp(prefix=prefix))
    vault = work / "vault"
    shutil.copytree(corpus, vault, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    return work, vault


@contextmanager
def indexed_copy(evalset: EvalSet, corpus: Path, prefix: str) -> Iterator[VaultPaths]:
    """The set's documents under ``corpus`` copied (:func:`vault_copy`) and indexed by
    rubi (``rubi index``), for a bench that reads rubi's own lists question by
    question; the copy and its index are removed when the block ends, raised or not.

    Yields:
        the copy's vault paths (``rubi.app.locate`` of it).
    """
    from rubi import app

    work, vault = vault_copy(corpus_of(evalset, corpus), prefix)
    paths = app.locate(vault)
    try:
        app.index(paths)
        yield paths
    finally:
        shutil.rmtree(paths.index_dir, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


def load_set(folder: Path) -> EvalSet:
    """Read and check ``folder/set.json`` and ``folder/queries.jsonl``.

    Raises:
        SetError: a missing file, bad JSON, a missing or ill-typed field, an unsafe
            path, a duplicate id, or a ``split`` that disagrees with :func:`split_of`.
    """
    meta_file = folder / "set.json"
    meta = _read_json(meta_file)
    name = _field(meta, "name", str, meta_file)
    kind = _field(meta, "kind", str, meta_file)
    if kind not in KINDS:
        raise SetError(f"{meta_file}: kind is {kind!r}; use one of {', '.join(KINDS)}")
    sources = _sources(_field(meta, "sources", list, meta_file), meta_file)
    queries_file = folder / "queries.jsonl"
    try:
        lines = queries_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SetError(f"{queries_file}: cannot read it ({exc}); write one JSON a line") from exc
    queries: list[Query] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{queries_file}:{number}"
        query = _query(line, kind, name, where)
        if query.id in seen:
            raise SetError(f"{where}: id {query.id!r} appears twice; ids must be unique")
        seen.add(query.id)
        queries.append(query)
    return EvalSet(
        folder=folder,
        name=name,
        kind=kind,
        description=str(meta.get("description", "")),
        sources=sources,
        languages=tuple(str(x) for x in meta.get("languages", [])),
        queries=tuple(queries),
    )


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SetError(f"{path}: cannot read it as JSON ({exc}); fix or restore it") from exc
    if not isinstance(data, dict):
        raise SetError(f"{path}: holds {type(data).__name__}; write one JSON object")
    return data


def _field(data: dict[str, Any], key: str, kind: type, where: str | Path) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise SetError(f"{where}: {key!r} must be a {kind.__name__}; it is {value!r:.60}")
    return value


def _sources(items: list[Any], where: Path) -> tuple[dict[str, str], ...]:
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise SetError(f"{where}: each source must be an object with repo, commit, folder")
        repo, commit = str(item.get("repo", "")), str(item.get("commit", ""))
        folder = str(item.get("folder", ""))
        if not _REPO.fullmatch(repo) or not _HEX40.fullmatch(commit):
            raise SetError(f"{where}: source {item!r:.80} needs repo owner/name, 40-hex commit")
        if folder:
            safe_relpath(folder, where)
        out.append({"repo": repo, "commit": commit, "folder": folder})
    return tuple(out)


def safe_relpath(path: str, where: str | Path) -> str:
    """``path`` when it is a relative POSIX path without ``..``, empty parts or NUL.

    Raises:
        SetError: otherwise, naming ``where``.
    """
    parts = PurePosixPath(path).parts
    bad = (
        not path
        or "\0" in path
        or "\\" in path
        or path.startswith("/")
        or any(p in ("..", ".") for p in parts)
        or path.endswith("/")
    )
    if bad:
        raise SetError(f"{where}: path {path!r:.80} must be relative, inside the corpus")
    return path


def _paths(value: Any, key: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise SetError(f"{where}: {key!r} must be a list of paths")
    return tuple(safe_relpath(p, where) for p in value)


def _query(line: str, kind: str, name: str, where: str) -> Query:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise SetError(f"{where}: not JSON ({exc}); one object a line") from exc
    if not isinstance(data, dict):
        raise SetError(f"{where}: holds {type(data).__name__}; write one JSON object")
    qid = _field(data, "id", str, where)
    text = _field(data, "query", str, where)
    split = _field(data, "split", str, where)
    if split != split_of(name, qid):
        raise SetError(
            f"{where}: split {split!r} for {qid!r}, the rule gives {split_of(name, qid)!r};"
            " the split is computed, not chosen: write the rule's value"
        )
    relevant = _paths(data.get("relevant"), "relevant", where)
    if kind == "notes":
        return Query(qid, text, relevant, split, str(data.get("lang", "en")))
    base = _field(data, "base_commit", str, where)
    if not _HEX40.fullmatch(base):
        raise SetError(f"{where}: base_commit {base!r:.60} must be 40 lowercase hex digits")
    return Query(
        qid,
        text,
        relevant,
        split,
        str(data.get("lang", "en")),
        title=_field(data, "title", str, where),
        base_commit=base,
        relevant_all=_paths(data.get("relevant_all"), "relevant_all", where),
    )
