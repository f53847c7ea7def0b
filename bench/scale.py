"""Scale benchmark: rubi on generated vaults of 1k, 5k, 20k and 50k real-shaped notes.

Usage::

    python bench/scale.py [--sizes 1000,5000,20000,50000] [--repeat 3]
                          [--source PATH ...] [--no-shared] [--json out.json] [--keep]

Vaults. The notes come from real vaults: the shared ones (``$RUBI_SHARED_DATA/vaults``,
default ``../shared/data/vaults`` next to the repository: Obsidian Help in English and
kepano's vault) and every ``--source`` folder (a bigger real vault, e.g. a checkout of
obsidian-community/obsidian-hub; ``--no-shared`` uses the sources alone). The pool is
shuffled once (``--seed``) and copied round-robin until the size is reached: copy *k*
of a note lives at ``c<k>/<source>/<its path>`` with `` c<k>`` appended to its file
name, its frontmatter ``title``, ``aliases`` and ``id`` and its first ``# heading``
(copy 0 keeps the original names and text). Every wikilink is rewired to the note of
the same copy (to the previous copy when the last, partial copy lacks the target), so
links resolve as often as in the source; a link the source could not resolve gets
the copy's suffix too (dangling names stay distinct per copy); attachment links stay
as written. Markdown links (``[x](y.md)``) are left alone (rare in these vaults).

Figures, per size (each timing repeated ``--repeat`` times; tables show the median
and the min–max spread; CPU seconds are printed beside wall seconds because the
machine may be loaded):
- full index: ``app.index(full=True)`` in a fresh child process after deleting the
  vault's derived-data folder: wall (process start to exit), CPU (user + sys of that
  child from ``wait4``), peak RSS (the child's own ``VmHWM``: ``ru_maxrss`` would
  include this script's peak, see ``benchproc.py``);
- index on disk: bytes under ``app.locate(vault).index_dir`` (in the user cache) after
  the full index;
- Whoosh floor: the same notes (title = first heading or file name, body = the text
  after the frontmatter, one document per note) indexed by plain Whoosh with its stock
  ``StemmingAnalyzer`` and default writer, in a fresh child: wall, CPU, peak RSS,
  size; ``index / floor`` is the CPU ratio (the issue's goal: at most 2);
- in one long-lived worker process (a second process beside the watcher), on the
  indexed vault:
  - no-change index: ``app.index`` when nothing changed (the scan every refreshing
    search pays);
  - search p50/p95: ``app.search(refresh=False, top_k=10)`` over ``--queries`` note
    titles drawn with the seed, wall and CPU (``time.process_time``) per query;
    ``search, refreshing`` is the default ``refresh=True`` (the CLI, the MCP server);
  - body edit / link edit / new note: a change written to a note (a sentence with a
    new word; a ``[[link]]`` to another note; a new note with three links), then
    ``app.index`` in process: CPU (``time.process_time`` plus any child processes)
    and wall;
  - save → searchable: ``rubi watch --vault V`` runs as a child of the worker; a new
    note with a unique word is written and ``app.search(refresh=False)`` is polled
    every 25 ms until the note is a hit: the wall time from the write; ``watcher CPU``
    is the watcher process's CPU for that save (``/proc`` or psutil), read once its
    report line is printed and its CPU stays still. ``edit → searchable`` does the
    same for a new word appended to an existing note.

The children run with ``RUBI_VAULT`` pointing to a missing folder, so no personal vault
takes part. The generated vaults (in ``--workdir``, default the system temp folder) and
their derived-data folders are deleted at the end unless ``--keep``.

To measure one commit while the working tree changes, clone it elsewhere, compile its
bytecode (``python -m compileall -q CLONE/src``: without it, and with
``PYTHONDONTWRITEBYTECODE`` set, every child recompiles rubi) and run this script with
``PYTHONPATH=CLONE/src``; the children, ``rubi watch`` included, inherit it, and the
tables name the commit measured. ``--from-json FILE`` prints the tables of a saved run.

Internal modes (run by this script in child processes): ``_index VAULT``,
``_floor VAULT DIR``, ``_worker VAULT SPEC.json OUT.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from benchproc import cpu_seconds, fmt, fmt_s, pct, report_result, run_child, spread
from rich.console import Console
from rich.table import Table

REPO = Path(__file__).resolve().parents[1]
RUBI = str(Path(sys.executable).with_name("rubi"))
SHARED_VAULTS = ("obsidian-help-en", "kepano-obsidian")
DEFAULT_SIZES = (1000, 5000, 20_000, 50_000)
ATTACHMENT_EXTS = frozenset(
    {"png", "jpg", "jpeg", "gif", "svg", "webp", "bmp", "avif", "ico", "tif", "tiff", "heic"}
    | {"pdf", "mp3", "mp4", "m4a", "wav", "ogg", "webm", "mov", "mkv", "flac", "zip", "html"}
    | {"canvas", "base", "excalidraw", "json", "csv", "txt", "css", "js"}
)
"""Link targets with these extensions are attachments: left as written."""
POLL_S = 0.025

_FM_RE = re.compile(r"\A(---[ \t]*\n)(.*?\n)?((?:---|\.\.\.)[ \t]*(?:\n|\Z))", re.S)
_H1_RE = re.compile(r"#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*")
_FENCE_RE = re.compile(r"[ ]{0,3}(```|~~~)")
_WIKILINK_RE = re.compile(r"\[\[([^\[\]\n]+?)\]\]")


# -- generation -----------------------------------------------------------------------
def _norm(name: str) -> str:
    return " ".join(name.casefold().split())


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


@dataclass
class SourceNote:
    """One real note of the pool."""

    source: str
    rel: str
    text: str
    meta: dict[str, Any] | None
    fm_end: int
    title: str
    names: list[str]


def h1_span(text: str, start: int) -> tuple[int, int] | None:
    """Where the text of the first ``# heading`` after ``start`` is (outside fenced
    code), as (start, end) offsets in ``text``; None when there is none."""
    fence: str | None = None
    pos = start
    for line in text[start:].splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        f = _FENCE_RE.match(bare)
        if f:
            fence = None if fence == f.group(1) else (fence or f.group(1))
        elif fence is None:
            m = _H1_RE.fullmatch(bare)
            if m and m.group(1).strip():
                return pos + m.start(1), pos + m.end(1)
        pos += len(line)
    return None


def read_note(source: str, root: Path, path: Path) -> SourceNote:
    """Read a note (bytes kept as they are: undecodable ones as surrogates)."""
    import yaml

    text = path.read_bytes().decode("utf-8", "surrogateescape")
    rel = path.relative_to(root).as_posix()
    meta: dict[str, Any] | None = None
    fm_end = 0
    m = _FM_RE.match(text.lstrip("\ufeff"))
    if m and text.startswith(("---", "\ufeff---")):
        fm_end = m.end() + (1 if text.startswith("\ufeff") else 0)
        try:
            loaded = yaml.safe_load(m.group(2) or "")
        except Exception:  # broken YAML stays as written: real vaults have it
            loaded = None
        meta = loaded if isinstance(loaded, dict) else None
    title = str((meta or {}).get("title") or "").strip()
    if not title:
        span = h1_span(text, fm_end)
        title = text[span[0] : span[1]] if span else path.stem
    names = [title]
    if meta:
        names += _strings(meta.get("aliases", meta.get("alias")))
        if isinstance(meta.get("id"), str):
            names.append(meta["id"])
    return SourceNote(source, rel, text, meta, fm_end, title, names)


def load_pool(roots: list[Path]) -> list[SourceNote]:
    """Every ``.md`` note under ``roots`` (hidden folders skipped), in a stable order."""
    pool: list[SourceNote] = []
    labels: Counter[str] = Counter()
    for root in roots:
        label = re.sub(r"[^A-Za-z0-9]+", "-", root.resolve().name).strip("-") or "vault"
        labels[label] += 1
        if labels[label] > 1:
            label = f"{label}-{labels[label]}"
        for path in sorted(root.rglob("*.md")):
            rel_parts = path.relative_to(root).parts
            if any(p.startswith(".") for p in rel_parts) or not path.is_file():
                continue
            pool.append(read_note(label, root, path))
    return pool


class Resolver:
    """Obsidian-like resolution inside one source vault: path, file name, then
    title/alias/id (the order of ``rubi.vault.resolve``), first match wins."""

    def __init__(self, notes: list[tuple[int, SourceNote]]) -> None:
        self.by_path: dict[str, int] = {}
        self.keys: dict[int, str] = {}
        self.by_stem: dict[str, list[int]] = defaultdict(list)
        self.by_name: dict[str, list[int]] = defaultdict(list)
        for i, n in notes:
            key = n.rel[:-3].casefold()
            self.by_path[key] = i
            self.keys[i] = key
            self.by_stem[key.rsplit("/", 1)[-1]].append(i)
            for name in n.names:
                if name.strip():
                    self.by_name[_norm(name)].append(i)

    def resolve(self, target: str) -> int | None:
        t = target.strip().replace("\\", "/").lstrip("/").removeprefix("./")
        key = t.casefold()
        note_key = key[:-3] if key.endswith(".md") else key
        if note_key in self.by_path:
            return self.by_path[note_key]
        stem = note_key.rsplit("/", 1)[-1]
        cands = [
            i
            for i in self.by_stem.get(stem, ())
            if "/" not in note_key or self.keys[i].endswith("/" + note_key)
        ]
        if cands:
            return cands[0]
        named = self.by_name.get(_norm(t))
        return named[0] if named else None


@dataclass
class Generated:
    """What :func:`generate` wrote."""

    vault: Path
    notes: int
    copies: int
    bytes: int
    links: Counter[str] = field(default_factory=Counter)
    titles: list[str] = field(default_factory=list)
    """Original titles of the notes of copy 0, in pool order (for queries)."""
    ids: list[str] = field(default_factory=list)
    """Note ids (vault-relative paths without ``.md``) in writing order."""


def _suffix(k: int) -> str:
    return f" c{k}" if k else ""


def _with_suffix(target: str, sfx: str) -> str:
    if target.lower().endswith(".md"):
        return target[:-3] + sfx + target[-3:]
    return target + sfx


def _rename_meta(meta: dict[str, Any], sfx: str) -> dict[str, Any] | None:
    """A copy of ``meta`` with title/aliases/id suffixed, or None when none is set."""
    out = dict(meta)
    changed = False
    for key in ("title", "aliases", "alias", "id"):
        value = out.get(key)
        if isinstance(value, str) and value.strip():
            out[key] = value + sfx
            changed = True
        elif isinstance(value, list):
            out[key] = [v + sfx if isinstance(v, str) else v for v in value]
            changed = True
    return out if changed else None


def _split_target(inner: str) -> tuple[str, str]:
    """``Note#heading|shown`` → (``Note``, ``#heading|shown``); an escaped table pipe
    (``[[Note\\|shown]]``) stays with the rest."""
    cut = len(inner)
    for mark in ("#", "|"):
        at = inner.find(mark)
        if at != -1:
            cut = min(cut, at)
    if cut and cut < len(inner) and inner[cut] == "|" and inner[cut - 1] == "\\":
        cut -= 1
    return inner[:cut], inner[cut:]


def _renamed(note: SourceNote, sfx: str) -> str:
    """The note's text with ``sfx`` appended to its frontmatter title, aliases and id
    and to its first heading (when the title comes from it)."""
    import yaml

    head, body = note.text[: note.fm_end], note.text[note.fm_end :]
    renamed = _rename_meta(note.meta, sfx) if note.meta else None
    if renamed is not None:
        head = "---\n" + yaml.safe_dump(renamed, sort_keys=False, allow_unicode=True) + "---\n"
    span = h1_span(body, 0)
    if span and not (note.meta and note.meta.get("title")):
        body = body[: span[1]] + sfx + body[span[1] :]
    return head + body


class _Copier:
    """Places copy *k* of each pool note and rewires its links (see :func:`generate`)."""

    def __init__(self, pool: list[SourceNote], size: int, seed: int) -> None:
        self.pool, self.size, self.n = pool, size, len(pool)
        self.order = list(range(len(pool)))
        random.Random(seed).shuffle(self.order)
        self.position = {note: pos for pos, note in enumerate(self.order)}
        by_source: dict[str, list[tuple[int, SourceNote]]] = defaultdict(list)
        for i, note in enumerate(pool):
            by_source[note.source].append((i, note))
        self.resolvers = {source: Resolver(members) for source, members in by_source.items()}
        self.links: Counter[str] = Counter()

    def present(self, i: int, k: int) -> bool:
        return k * self.n + self.position[i] < self.size

    def out_rel(self, i: int, k: int) -> str:
        note = self.pool[i]
        folder, _, name = note.rel.rpartition("/")
        stem = name[:-3] + _suffix(k)
        return f"c{k:03d}/{note.source}/" + (f"{folder}/" if folder else "") + stem + ".md"

    def text(self, i: int, k: int) -> str:
        note = self.pool[i]
        text = _renamed(note, _suffix(k)) if k else note.text
        resolver = self.resolvers[note.source]
        return _WIKILINK_RE.sub(lambda m: self.rewire(m, resolver, k), text)

    def rewire(self, m: re.Match[str], resolver: Resolver, k: int) -> str:
        target, rest = _split_target(m.group(1))
        if not target.strip():
            self.links["self"] += 1
            return m.group(0)
        hit = resolver.resolve(target)
        if hit is None:
            ext = target.rsplit(".", 1)[-1].lower() if "." in target else ""
            if ext in ATTACHMENT_EXTS:
                self.links["attachment"] += 1
                return m.group(0)
            self.links["dangling"] += 1
            return "[[" + _with_suffix(target.rstrip(), _suffix(k)) + rest + "]]"
        if self.present(hit, k):
            self.links["note, same copy"] += 1
            to = k
        elif k:
            self.links["note, previous copy"] += 1
            to = k - 1
        else:
            self.links["note, not in this vault"] += 1
            return m.group(0)
        return "[[" + _with_suffix(target.rstrip(), _suffix(to)) + rest + "]]"


def generate(pool: list[SourceNote], size: int, vault: Path, seed: int) -> Generated:
    """Write a vault of ``size`` notes copied round-robin from ``pool`` (see the module
    docstring). Deterministic for a given pool, size and seed."""
    if not pool:
        raise SystemExit("no source notes: check RUBI_SHARED_DATA or --source")
    copier = _Copier(pool, size, seed)
    gen = Generated(vault, 0, (size + len(pool) - 1) // len(pool), 0, copier.links)
    made: set[Path] = set()
    for g in range(size):
        k, pos = divmod(g, len(pool))
        i = copier.order[pos]
        rel = copier.out_rel(i, k)
        path = vault / rel
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        data = copier.text(i, k).encode("utf-8", "surrogateescape")
        path.write_bytes(data)
        gen.notes += 1
        gen.bytes += len(data)
        gen.ids.append(rel[:-3])
        if k == 0:
            gen.titles.append(pool[i].title)
    return gen


def pick_queries(titles: list[str], count: int, seed: int) -> list[str]:
    """``count`` distinct note titles usable as queries, drawn with ``seed``."""
    usable = sorted(
        {t.strip() for t in titles if 2 <= len(t.strip()) <= 80 and re.search(r"\w\w", t)}
    )
    rng = random.Random(seed)
    return rng.sample(usable, min(count, len(usable)))


# -- child modes ----------------------------------------------------------------------
def child_index(vault: Path) -> None:
    """``_index``: one full index of ``vault`` in this (fresh) process."""
    from rubi import app

    report = app.index(app.locate(vault), full=True)
    report_result(
        {
            "notes": report.added + report.updated + report.unchanged,
            "warnings": len(report.warnings),
        }
    )


def _split_note(text: str, stem: str) -> tuple[str, str]:
    m = _FM_RE.match(text)
    body = text[m.end() :] if m else text
    span = h1_span(body, 0)
    return (body[span[0] : span[1]] if span else stem), body


def child_floor(vault: Path, out: Path) -> None:
    """``_floor``: plain Whoosh, stock ``StemmingAnalyzer``, one document per note."""
    from whoosh import index
    from whoosh.analysis import StemmingAnalyzer
    from whoosh.fields import ID, TEXT, Schema

    schema = Schema(
        path=ID(stored=True, unique=True),
        title=TEXT(analyzer=StemmingAnalyzer()),
        body=TEXT(analyzer=StemmingAnalyzer()),
    )
    out.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(out), schema)
    writer = ix.writer()
    docs = 0
    for path in sorted(vault.rglob("*.md")):
        if any(p.startswith(".") for p in path.relative_to(vault).parts):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        title, body = _split_note(text, path.stem)
        writer.add_document(path=path.relative_to(vault).as_posix(), title=title, body=body)
        docs += 1
    writer.commit()
    report_result({"docs": docs})


def _timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """(wall s, CPU s of this process and its finished children, fn's result)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    c0, t0 = time.process_time(), time.perf_counter()
    value = fn()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, value


class Watcher:
    """``rubi watch --vault V`` as a child process, its report lines collected."""

    REPORT = re.compile(r"^\d\d:\d\d:\d\d |catch-up|\bchanges?\b")
    """A line the watcher prints after each index run (today: ``HH:MM:SS N changes: ...``)."""

    def __init__(self, vault: Path) -> None:
        self.proc = subprocess.Popen(
            [RUBI, "watch", "--vault", str(vault)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def reports(self) -> int:
        return sum(1 for line in self.lines if self.REPORT.match(line))

    def wait_reports(self, count: int, timeout_s: float) -> bool:
        """Wait until ``count`` report lines were printed; False on timeout.

        Raises:
            RuntimeError: the watcher exited.
        """
        end = time.monotonic() + timeout_s
        while self.reports() < count:
            if self.proc.poll() is not None:
                raise RuntimeError("rubi watch exited: " + "\n".join(self.lines[-20:]))
            if time.monotonic() > end:
                return False
            time.sleep(0.05)
        return True

    def cpu(self) -> float:
        return cpu_seconds(self.proc.pid)

    def settle(self, timeout_s: float = 30.0) -> float:
        """The watcher's CPU seconds once it has stopped using CPU (300 ms still)."""
        end = time.monotonic() + timeout_s
        last, still = self.cpu(), 0
        while still < 3 and time.monotonic() < end:
            time.sleep(0.1)
            now = self.cpu()
            still = still + 1 if now - last < 0.005 else 0
            last = now
        return last

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._reader.join(timeout=5)


def _word(kind: str, n: int) -> str:
    """A made-up word of letters only (digits would split it into tokens)."""
    letters = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(ord("a") + r) + letters
    return f"zqx{kind}{letters}word"


_LINKABLE = re.compile(r"^[^\[\]#|^]+$")


def child_worker(vault: Path, spec_file: Path, out_file: Path) -> None:
    """``_worker``: the in-process figures and the watcher round trips (module
    docstring), written to ``out_file`` as JSON."""
    from rubi import app

    spec = json.loads(spec_file.read_text(encoding="utf-8"))
    repeat: int = spec["repeat"]
    queries: list[str] = spec["queries"]
    timeout_s: float = spec["save_timeout_s"]
    ids = [i for i in spec["ids"] if _LINKABLE.match(i.rsplit("/", 1)[-1])]
    picks = iter(random.Random(spec["seed"]).sample(ids, min(len(ids), 8 * repeat + 8)))
    paths = app.locate(vault)
    res: dict[str, Any] = {}
    checks: list[str] = []

    def add(name: str, wall: float, cpu: float) -> None:
        entry = res.setdefault(name, {"wall": [], "cpu": []})
        entry["wall"].append(wall)
        entry["cpu"].append(cpu)

    def append(note_id: str, text: str) -> None:
        with open(vault / f"{note_id}.md", "a", encoding="utf-8") as fh:
            fh.write(text)

    def name_of(note_id: str) -> str:
        return note_id.rsplit("/", 1)[-1]

    def found(word: str, note_id: str) -> bool:
        try:
            hits = app.search(paths, word, refresh=False, top_k=5).hits
        except Exception:  # an index being replaced: try again at the next poll
            return False
        return any(h.id == note_id for h in hits)

    app.index(paths)  # loads the modules and caches a long-lived process holds
    for _ in range(repeat):
        wall, cpu, _ = _timed(lambda: app.index(paths))
        add("no-change index", wall, cpu)

    app.search(paths, queries[0], refresh=False)
    for _ in range(repeat):
        for q in queries:
            wall, cpu, _ = _timed(partial(app.search, paths, q, refresh=False, top_k=10))
            add("search", wall, cpu)
        for q in queries[:3]:
            wall, cpu, _ = _timed(partial(app.search, paths, q, top_k=10))
            add("search, refreshing", wall, cpu)

    for r in range(repeat):
        note, word = next(picks), _word("body", r)
        append(note, f"\n\nBench body edit: {word} in a sentence of plain words.\n")
        wall, cpu, _ = _timed(lambda: app.index(paths))
        add("body edit", wall, cpu)
        if not found(word, note):
            checks.append(f"body edit of {note}: not found by {word}")
        note, other = next(picks), next(picks)
        append(note, f"\n\nSee also [[{name_of(other)}]] (bench link edit).\n")
        wall, cpu, _ = _timed(lambda: app.index(paths))
        add("link edit", wall, cpu)
        links = [name_of(next(picks)) for _ in range(3)]
        new, word = f"bench-added-{r}", _word("added", r)
        (vault / f"{new}.md").write_text(
            f"# Bench added {r}\n\n{word}, see [[{links[0]}]], [[{links[1]}]] "
            f"and [[{links[2]}]].\n",
            encoding="utf-8",
        )
        wall, cpu, _ = _timed(lambda: app.index(paths))
        add("new note", wall, cpu)
        if not found(word, new):
            checks.append(f"new note {new}: not found by {word}")

    if spec["watch"]:
        _watched(vault, repeat, timeout_s, picks, res, add, append, found)
    res["checks"] = checks
    out_file.write_text(json.dumps(res), encoding="utf-8")
    report_result({})


def _watched(
    vault: Path,
    repeat: int,
    timeout_s: float,
    picks: Iterator[str],
    res: dict[str, Any],
    add: Callable[[str, float, float], None],
    append: Callable[[str, str], None],
    found: Callable[[str, str], bool],
) -> None:
    """The watcher round trips of :func:`child_worker`."""
    watcher = Watcher(vault)
    try:
        t0 = time.perf_counter()
        if not watcher.wait_reports(1, timeout_s=max(timeout_s, 3600)):
            raise TimeoutError("rubi watch: no report line after its catch-up run")
        res["watcher catch-up s"] = time.perf_counter() - t0
        time.sleep(0.5)
        kinds = [("save → searchable", "new")] * (repeat + 1)
        kinds += [("edit → searchable", "edit")] * repeat
        for n, (name, kind) in enumerate(kinds):
            word = _word("save" if kind == "new" else "edit", n)
            reports = watcher.reports()
            cpu0 = watcher.settle()
            if kind == "new":
                note = f"bench-save-{n}"
                started = time.perf_counter()
                with open(vault / f"{note}.md", "w", encoding="utf-8") as fh:
                    fh.write(f"# Bench save {n}\n\nA note saved with the word {word}.\n")
            else:
                note = next(picks)
                started = time.perf_counter()
                append(note, f"\n\nEdited while watched: {word}.\n")
            while not found(word, note):
                if time.perf_counter() - started > timeout_s:
                    raise TimeoutError(f"{note}: not searchable {timeout_s:.0f} s after the save")
                time.sleep(POLL_S)
            wall = time.perf_counter() - started
            watcher.wait_reports(reports + 1, timeout_s=30)
            cpu = watcher.settle() - cpu0
            if n == 0:
                res["first save (warm-up) s"] = wall
                continue
            add(name, wall, cpu)
    finally:
        watcher.stop()
        res["watcher log tail"] = watcher.lines[-5:]


# -- the run --------------------------------------------------------------------------
def dir_bytes(path: Path) -> int:
    """Bytes of the regular files under ``path`` (0 when missing)."""
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def child_env(workdir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["RUBI_VAULT"] = str(workdir / "no-personal-vault")
    env.setdefault("NO_COLOR", "1")
    return env


def me(mode: str, *args: str) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), mode, *args]


def bench_size(
    size: int, pool: list[SourceNote], args: argparse.Namespace, workdir: Path, console: Console
) -> dict[str, Any]:
    """Every figure for one vault size (see the module docstring)."""
    from rubi import app

    env = child_env(workdir)
    vault = workdir / f"vault-{size}"
    if vault.exists():
        shutil.rmtree(vault)
    t0 = time.perf_counter()
    gen = generate(pool, size, vault, args.seed)
    index_dir = app.locate(vault).index_dir
    out: dict[str, Any] = {
        "size": size,
        "notes": gen.notes,
        "copies": gen.copies,
        "vault_mb": gen.bytes / 2**20,
        "links": dict(gen.links),
        "generate_s": time.perf_counter() - t0,
        "loadavg_start": os.getloadavg(),
        "index_dir": str(index_dir),
    }
    console.print(
        f"[bold]{size:,} notes[/]: generated in {out['generate_s']:.1f} s "
        f"({gen.copies} copies, {out['vault_mb']:.0f} MiB, links {dict(gen.links)})"
    )
    measures: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    try:
        for r in range(args.repeat):
            shutil.rmtree(index_dir, ignore_errors=True)
            run = run_child(me("_index", str(vault)), env=env, timeout_s=args.timeout)
            m = measures["full index"]
            m["wall"].append(run.wall_s)
            m["cpu"].append(run.cpu_s)
            m["peak_mb"].append(run.peak_mb)
            out["indexed_notes"] = run.result.get("notes")
            out["index_warnings"] = run.result.get("warnings")
            console.print(
                f"  full index {r + 1}/{args.repeat}: {run.cpu_s:.1f} s CPU, "
                f"{run.wall_s:.1f} s wall, {run.peak_mb:.0f} MiB"
            )
        out["index_mb"] = dir_bytes(index_dir) / 2**20
        floor_dir = workdir / f"floor-{size}"
        for r in range(args.repeat):
            shutil.rmtree(floor_dir, ignore_errors=True)
            run = run_child(
                me("_floor", str(vault), str(floor_dir)), env=env, timeout_s=args.timeout
            )
            m = measures["whoosh floor"]
            m["wall"].append(run.wall_s)
            m["cpu"].append(run.cpu_s)
            m["peak_mb"].append(run.peak_mb)
            out["floor_mb"] = dir_bytes(floor_dir) / 2**20
            console.print(
                f"  whoosh floor {r + 1}/{args.repeat}: {run.cpu_s:.1f} s CPU, "
                f"{run.wall_s:.1f} s wall"
            )
        shutil.rmtree(floor_dir, ignore_errors=True)
        queries = pick_queries(gen.titles, args.queries, args.seed)
        spec = {
            "repeat": args.repeat,
            "queries": queries,
            "ids": gen.ids,
            "seed": args.seed,
            "watch": not args.no_watch,
            "save_timeout_s": args.save_timeout,
        }
        spec_file, res_file = workdir / f"spec-{size}.json", workdir / f"worker-{size}.json"
        spec_file.write_text(json.dumps(spec), encoding="utf-8")
        console.print("  worker: searches, edits, watcher round trips ...")
        run = run_child(
            me("_worker", str(vault), str(spec_file), str(res_file)),
            env=env,
            timeout_s=args.timeout,
        )
        worker = json.loads(res_file.read_text(encoding="utf-8"))
        for name, entry in worker.items():
            if isinstance(entry, dict):
                measures[name]["wall"] = entry["wall"]
                measures[name]["cpu"] = entry["cpu"]
            else:
                out[name] = entry
        out["queries"] = queries
    finally:
        out["loadavg_end"] = os.getloadavg()
        if not args.keep:
            shutil.rmtree(vault, ignore_errors=True)
            shutil.rmtree(index_dir, ignore_errors=True)
    out["measures"] = {k: dict(v) for k, v in measures.items()}
    return out


GOALS = {
    "full index": "CPU ≤ 2× floor",
    "save → searchable": "≤ 0.5 s wall (≤ 1 s at 50k), ≤ 0.15 s CPU",
    "edit → searchable": "≤ 0.5 s wall, ≤ 0.1 s CPU",
    "body edit": "≤ 0.1 s CPU",
    "link edit": "flat in size",
    "new note": "≤ 0.15 s CPU",
    "search": "flat in size",
    "search, refreshing": "flat in size",
    "no-change index": "flat in size",
}


def size_table(r: dict[str, Any]) -> Table:
    m = r["measures"]
    table = Table(
        title=f"{r['notes']:,} notes ({r['vault_mb']:.0f} MiB of markdown), "
        f"load {r['loadavg_start'][0]:.1f} → {r['loadavg_end'][0]:.1f}"
    )
    for col in ("measure", "wall", "CPU", "other", "goal"):
        table.add_column(col, justify="left" if col in ("measure", "goal") else "right")
    for name in ("full index", "whoosh floor"):
        if name in m:
            other = f"peak {fmt(m[name]['peak_mb'], 'MiB', 0)}"
            if name == "full index":
                other += f", {r['index_mb']:,.0f} MiB on disk"
            else:
                other += f", {r.get('floor_mb', 0):,.0f} MiB on disk"
            table.add_row(
                name, fmt_s(m[name]["wall"]), fmt_s(m[name]["cpu"]), other, GOALS.get(name, "")
            )
    if "full index" in m and "whoosh floor" in m:
        ratio = (
            spread(m["full index"]["cpu"])["median"] / spread(m["whoosh floor"]["cpu"])["median"]
        )
        table.add_row("index / floor (CPU)", "", f"{ratio:.1f}×", "", "≤ 2×")
    for name in ("no-change index", "body edit", "link edit", "new note"):
        if name in m:
            table.add_row(
                name, fmt_s(m[name]["wall"]), fmt_s(m[name]["cpu"]), "in process", GOALS[name]
            )
    for name in ("search", "search, refreshing"):
        if name in m:
            w, c = m[name]["wall"], m[name]["cpu"]
            table.add_row(
                f"{name} p50",
                f"{pct(w, 50) * 1000:,.1f} ms",
                f"{pct(c, 50) * 1000:,.1f} ms",
                f"p95 {pct(w, 95) * 1000:,.0f} ms wall, {pct(c, 95) * 1000:,.0f} ms CPU, "
                f"n={len(w)}",
                GOALS[name],
            )
    for name in ("save → searchable", "edit → searchable"):
        if name in m:
            table.add_row(
                name, fmt_s(m[name]["wall"]), fmt_s(m[name]["cpu"]), "watcher CPU", GOALS[name]
            )
    if "watcher catch-up s" in r:
        table.add_row(
            "watcher start (catch-up run)", f"{r['watcher catch-up s']:.1f} s", "", "", ""
        )
    return table


def summary_table(results: list[dict[str, Any]]) -> Table:
    table = Table(title="rubi at scale: medians (CPU s unless said)")
    cols: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("notes", lambda r: f"{r['notes']:,}"),
        ("index CPU", lambda r: _med(r, "full index", "cpu", "{:.1f}")),
        ("index wall", lambda r: _med(r, "full index", "wall", "{:.1f}")),
        ("peak MiB", lambda r: _med(r, "full index", "peak_mb", "{:.0f}")),
        ("disk MiB", lambda r: f"{r.get('index_mb', float('nan')):.0f}"),
        ("floor CPU", lambda r: _med(r, "whoosh floor", "cpu", "{:.1f}")),
        ("save→found wall", lambda r: _med(r, "save → searchable", "wall", "{:.2f}")),
        ("watcher CPU/save", lambda r: _med(r, "save → searchable", "cpu", "{:.2f}")),
        ("body edit", lambda r: _med(r, "body edit", "cpu", "{:.2f}")),
        ("link edit", lambda r: _med(r, "link edit", "cpu", "{:.2f}")),
        ("search p50/p95 ms", lambda r: _pcts(r, "search")),
        ("refreshing search ms", lambda r: _med(r, "search, refreshing", "cpu", "{:.0f}", 1000)),
    ]
    for name, _ in cols:
        table.add_column(name, justify="right")
    for r in results:
        table.add_row(*(fn(r) for _, fn in cols))
    return table


def _med(r: dict[str, Any], name: str, key: str, form: str, scale: float = 1) -> str:
    values = r["measures"].get(name, {}).get(key, [])
    return form.format(spread(values)["median"] * scale) if values else "—"


def _pcts(r: dict[str, Any], name: str) -> str:
    values = r["measures"].get(name, {}).get("wall", [])
    if not values:
        return "—"
    return f"{pct(values, 50) * 1000:.0f} / {pct(values, 95) * 1000:.0f}"


def source_roots(args: argparse.Namespace) -> list[Path]:
    roots: list[Path] = []
    if not args.no_shared:
        shared = Path(os.environ.get("RUBI_SHARED_DATA", REPO.parent / "shared" / "data"))
        for name in SHARED_VAULTS:
            folder = shared / "vaults" / name
            if not folder.is_dir():
                raise SystemExit(f"{folder}: not found; set RUBI_SHARED_DATA or pass --no-shared")
            roots.append(folder)
    for folder in args.source:
        if not folder.is_dir():
            raise SystemExit(f"--source {folder}: not a folder; pass a vault folder")
        roots.append(folder)
    if not roots:
        raise SystemExit("no source vaults: drop --no-shared or pass --source")
    return roots


def git_describe() -> str:
    """The commit of the rubi being measured (the checkout its package is imported
    from, which ``PYTHONPATH`` may point elsewhere), plus whether its src/ has edits."""
    import rubi

    src = Path(rubi.__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "-C", str(src), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(src), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"unknown (imported from {src})"
    where = "" if src == REPO else f" (imported from {src})"
    return head + (" + uncommitted changes in src/" if dirty else "") + where


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(s.replace("_", "").replace("k", "000")) for s in text.split(",") if s.strip()]
    except ValueError:
        raise SystemExit(
            f"--sizes {text!r}: give numbers separated by commas, e.g. 1000,5000"
        ) from None
    if not sizes or any(s <= 0 for s in sizes):
        raise SystemExit(f"--sizes {text!r}: give positive numbers, e.g. 1000,5000")
    return sizes


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "_index":
        child_index(Path(argv[1]))
        return 0
    if argv and argv[0] == "_floor":
        child_floor(Path(argv[1]), Path(argv[2]))
        return 0
    if argv and argv[0] == "_worker":
        child_worker(Path(argv[1]), Path(argv[2]), Path(argv[3]))
        return 0
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--repeat", type=int, default=3, help="timings per figure (default 3)")
    parser.add_argument(
        "--source", type=Path, action="append", default=[], help="another real vault"
    )
    parser.add_argument("--no-shared", action="store_true", help="use the --source vaults alone")
    parser.add_argument("--queries", type=int, default=20, help="search queries (note titles)")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--json", type=Path, default=None, help="write every sample here")
    parser.add_argument("--keep", action="store_true", help="keep the vaults and their indexes")
    parser.add_argument("--workdir", type=Path, default=None, help="where the vaults go")
    parser.add_argument("--no-watch", action="store_true", help="skip the watcher round trips")
    parser.add_argument("--save-timeout", type=float, default=600, help="seconds (default 600)")
    parser.add_argument("--timeout", type=float, default=4 * 3600, help="per child, seconds")
    parser.add_argument("--from-json", type=Path, default=None, help="print the tables of a --json")
    args = parser.parse_args(argv)
    if args.from_json:
        saved = json.loads(args.from_json.read_text(encoding="utf-8"))
        console = Console(width=None if sys.stdout.isatty() else 150)
        console.print(f"{saved['meta']['command']}  (rubi {saved['meta']['rubi']})")
        for result in saved["sizes"]:
            console.print(size_table(result))
        console.print(summary_table(saved["sizes"]))
        return 0
    if args.repeat < 1:
        parser.error("--repeat: at least 1")
    sizes = parse_sizes(args.sizes)
    console = Console(width=None if sys.stdout.isatty() else 150)
    roots = source_roots(args)
    pool = load_pool(roots)
    console.print(
        f"pool: {len(pool):,} notes from {', '.join(r.name for r in roots)}; "
        f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; rubi {git_describe()}"
    )
    base = args.workdir or Path(tempfile.gettempdir())
    base.mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="rubi-scale-", dir=base))
    results: list[dict[str, Any]] = []
    try:
        for size in sizes:
            result = bench_size(size, pool, args, workdir, console)
            results.append(result)
            console.print(size_table(result))
            if result.get("checks"):
                console.print("[red]checks failed:[/] " + "; ".join(result["checks"]))
            if args.json:
                _write_json(args, roots, pool, results)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            console.print(f"kept: {workdir}")
    if len(results) > 1:
        console.print(summary_table(results))
    return 0


def _write_json(
    args: argparse.Namespace,
    roots: list[Path],
    pool: list[SourceNote],
    results: list[dict[str, Any]],
) -> None:
    meta = {
        "command": " ".join(["python", "bench/scale.py", *sys.argv[1:]]),
        "rubi": git_describe(),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "sources": [r.name for r in roots],
        "pool_notes": len(pool),
        "repeat": args.repeat,
        "seed": args.seed,
    }
    args.json.write_text(json.dumps({"meta": meta, "sizes": results}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
