"""The hooks on issue prompts: does what they inject name a file the fix changed?

Usage::

    python bench/issue_recall.py --set bench/sets/issues-click=PATH [--set SET=PATH ...]
        [--off-topic bench/sets/kb-NAME[=PATH] ...] [--split dev|test|all] [--final]
        [--semantic] [--json OUT]

Each ``--set`` is an issue → files set (:mod:`evalset`) and a git repository holding its
base commits (a clone or a bare git directory). For every task of the chosen split the
base commit is checked out in a temporary worktree (:mod:`evalgit`), made a rubi project
as a user makes one (``rubi init``, then ``rubi index``: code map on, no notes), and the
hooks run exactly as the plugin's ``hooks/hooks.json`` runs them: its command line
through ``sh -c`` in the project, the hook JSON on standard input (the payload shape of
Claude Code's, ``tests/hooks/payloads``), ``rubi`` found on ``PATH`` (this interpreter's
scripts folder first), ``HOME`` and the cache folder fresh for the run, the dense channel
off (the plain install; ``--semantic``: on, for a checkout with the extra). Counted per task:

- recall: the UserPromptSubmit hook, the issue (title, blank line, body) as the prompt:
  whether its injected context names at least one ``relevant`` file (its whole
  repository-relative path, between non-path characters), and whether it injected
  anything at all;
- map: the SessionStart hook (``source`` ``startup``): whether the map it injects names
  one.

A hook that exceeds the timeout ``hooks.json`` gives it injects nothing (Claude Code
would not wait for it), and is counted so.

``--off-topic`` asks the off-topic questions (``relevant: []``) of the chosen split of a
notes set as prompts, in the project of each ``--set``'s first task (a code repository:
does recall stay silent on a question its code does not answer?) and, when ``=PATH``
names a checkout of the set's source, also in a project whose vault holds that set's
notes (does recall stay silent when the notes do not answer it?). Counted: prompts on
which recall injected nothing.

The test half is looked at only with ``--final`` (``--split test`` or ``all``), as in
:mod:`retrieval_eval`. Prints one row per set, the pooled row, the off-topic counts, the
hooks' wall time per call beside ``python -c pass`` (the floor of any cold process, in
the same run), and the run's wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchproc import pass_floor, run_child
from evalgit import GitError, checkout
from evalset import EvalSet, Query, SetError, load_set

REPO = Path(__file__).resolve().parent.parent
HOOKS_JSON = REPO / "hooks" / "hooks.json"
SETUP_TIMEOUT_S = 1_800.0
"""``rubi init`` and ``rubi index`` of one checkout (a first index of a big repository)."""
_PATH_CHAR = r"[\w./-]"


@dataclass(frozen=True, slots=True)
class Hook:
    """One hook of ``hooks.json``: the command line it runs and its timeout in seconds."""

    command: str
    timeout_s: float


@dataclass(frozen=True, slots=True)
class Injected:
    """What one hook call gave: the additional context (empty when none), its wall time
    in ms, and whether it ran past its timeout (then the context counts as nothing)."""

    context: str
    ms: float
    late: bool = False


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """One issue task: did recall / the map name a changed file?"""

    set: str
    id: str
    split: str
    recall_named: bool
    recall_injected: bool
    recall_chars: int
    recall_ms: float
    map_named: bool
    late: bool


@dataclass(frozen=True, slots=True)
class OffTopicRecord:
    """One off-topic prompt asked in one project: did recall inject anything, and did
    it name a file of that project?"""

    set: str
    id: str
    asked_in: str
    injected: bool
    names_file: bool
    chars: int
    ms: float


def load_hooks(path: Path = HOOKS_JSON) -> dict[str, Hook]:
    """Each event's first hook in the plugin's ``hooks.json``, as a command: an
    ``mcp_tool`` hook (a call of the plugin's server) as ``rubi hook EVENT``, which
    answers it with the same bytes (``tests/hooks/test_hook_tool.py``), with its timeout.

    Raises:
        ValueError: the file is not the plugin's hooks format.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        hooks: dict[str, Hook] = {}
        for event, groups in data["hooks"].items():
            spec = groups[0]["hooks"][0]
            command = spec["command"] if spec.get("type") != "mcp_tool" else f"rubi hook {event}"
            hooks[event] = Hook(str(command), float(spec.get("timeout", 60)))
    except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"{path}: not a hooks.json with command hooks ({exc})") from exc
    return hooks


def names_file(context: str, files: Iterable[str]) -> bool:
    """Whether ``context`` names one of ``files`` by its whole repository-relative
    path, not as part of a longer path or name (``src/a.py`` is not named by
    ``src/a.pyi`` nor by ``lib/src/a.py``)."""
    words = set(re.findall(f"{_PATH_CHAR}+", context))
    for path in files:
        if not path:
            continue
        if re.fullmatch(f"{_PATH_CHAR}+", path):
            if path in words:
                return True
        elif re.search(f"(?<!{_PATH_CHAR}){re.escape(path)}(?!{_PATH_CHAR})", context):
            return True
    return False


def project_files(tree: Path) -> list[str]:
    """The files of a checked-out project, repository-relative (rubi's own ``.rubi/``
    and ``CLAUDE.md``, made by ``rubi init``, and ``.git`` left out)."""
    return [
        f.relative_to(tree).as_posix()
        for f in tree.rglob("*")
        if f.is_file()
        and not {".git", ".rubi"}.intersection(f.relative_to(tree).parts)
        and f.relative_to(tree).as_posix() != "CLAUDE.md"
    ]


def hook_env(home: Path, *, semantic: bool = False) -> dict[str, str]:
    """The environment a hook runs in: this one, with ``HOME`` and the cache folder in
    ``home``, this interpreter's scripts folder first on ``PATH`` and the dense channel
    off (``RUBI_SEMANTIC=0``, the plain install), or on with ``semantic`` (the extra
    installed)."""
    from rubi.semantic import DISABLE_ENV

    env = dict(os.environ)
    (home / "cache").mkdir(parents=True, exist_ok=True)
    env["HOME"] = str(home)
    env["XDG_CACHE_HOME"] = str(home / "cache")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env[DISABLE_ENV] = "1" if semantic else "0"
    return env


def run_hook(
    hook: Hook, event: str, payload: dict[str, Any], project: Path, env: dict[str, str]
) -> Injected:
    """Run ``hook`` as Claude Code runs it (``sh -c`` its command, the payload on
    stdin, in ``project``) and read the ``additionalContext`` it printed, if any.

    Raises:
        RuntimeError: the hook exited non-zero or printed something that is not JSON.
    """
    body = {"session_id": str(uuid.uuid4()), "transcript_path": str(project / ".t.jsonl")}
    body |= {"cwd": str(project), "hook_event_name": event, **payload}
    started = time.perf_counter()
    try:
        done = run_child(
            ["sh", "-c", hook.command],
            stdin=json.dumps(body).encode(),
            cwd=project,
            env=env,
            timeout_s=hook.timeout_s * 3,
        )
    except RuntimeError as exc:
        if "killed after" in str(exc):
            return Injected("", (time.perf_counter() - started) * 1000, late=True)
        raise
    ms = done.wall_s * 1000
    if ms > hook.timeout_s * 1000:
        return Injected("", ms, late=True)
    out = done.stdout.strip()
    if not out:
        return Injected("", ms)
    try:
        reply = json.loads(out)
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"{event} hook printed no JSON: {out[:200]!r}") from exc
    specific = reply.get("hookSpecificOutput") if isinstance(reply, dict) else None
    context = specific.get("additionalContext", "") if isinstance(specific, dict) else ""
    return Injected(context if isinstance(context, str) else "", ms)


def make_project(project: Path, env: dict[str, str]) -> None:
    """``rubi init`` and ``rubi index`` in ``project``, as a user starts.

    Raises:
        RuntimeError: either command failed.
    """
    rubi = shutil.which("rubi", path=env["PATH"])
    if rubi is None:
        raise RuntimeError("no `rubi` on PATH: install the package into this interpreter")
    for argv in ([rubi, "init"], [rubi, "index"]):
        run_child(argv, cwd=project, env=env, timeout_s=SETUP_TIMEOUT_S)


def prompt_payload(prompt: str) -> dict[str, Any]:
    """The UserPromptSubmit payload's own fields for ``prompt``."""
    return {"prompt": prompt, "prompt_id": str(uuid.uuid4()), "permission_mode": "default"}


def ask_off_topic(
    hooks: dict[str, Hook],
    questions: Sequence[tuple[str, Query]],
    project: Path,
    env: dict[str, str],
    asked_in: str,
) -> list[OffTopicRecord]:
    """Each off-topic question as a prompt in ``project``."""
    files = project_files(project)
    records = []
    for set_name, q in questions:
        got = run_hook(
            hooks["UserPromptSubmit"], "UserPromptSubmit", prompt_payload(q.query), project, env
        )
        named = names_file(got.context, files)
        records.append(
            OffTopicRecord(
                set_name, q.id, asked_in, bool(got.context), named, len(got.context), got.ms
            )
        )
    return records


def run_set(
    evalset: EvalSet,
    corpus: Path,
    hooks: dict[str, Hook],
    env: dict[str, str],
    off_topic: Sequence[tuple[str, Query]],
    foreign: Sequence[tuple[str, Query]] = (),
) -> tuple[list[TaskRecord], list[OffTopicRecord]]:
    """Every task of ``evalset`` (queries already picked) at its base commit, and the
    off-topic prompts and ``foreign`` issues (another repository's) in the project of
    its first base commit."""
    by_commit: dict[str, list[Query]] = {}
    for q in evalset.queries:
        by_commit.setdefault(q.base_commit, []).append(q)
    tasks: list[TaskRecord] = []
    off: list[OffTopicRecord] = []
    for number, (commit, queries) in enumerate(by_commit.items()):
        with checkout(corpus, commit) as tree:
            make_project(tree, env)
            shown = run_hook(
                hooks["SessionStart"], "SessionStart", {"source": "startup"}, tree, env
            )
            for q in queries:
                got = run_hook(
                    hooks["UserPromptSubmit"],
                    "UserPromptSubmit",
                    prompt_payload(q.query),
                    tree,
                    env,
                )
                tasks.append(
                    TaskRecord(
                        evalset.name,
                        q.id,
                        q.split,
                        names_file(got.context, q.relevant),
                        bool(got.context),
                        len(got.context),
                        round(got.ms, 1),
                        names_file(shown.context, q.relevant),
                        got.late or shown.late,
                    )
                )
            if number == 0 and off_topic:
                off += ask_off_topic(hooks, off_topic, tree, env, evalset.name)
            if number == 0 and foreign:
                where = f"{evalset.name} ({foreign[0][0]})"
                off += ask_off_topic(hooks, foreign, tree, env, where)
    return tasks, off


@contextmanager
def source_folder(evalset: EvalSet, corpus: Path) -> Iterator[Path]:
    """The folder of a notes set's documents: inside ``corpus`` when it is a checkout,
    inside a worktree at the set's recorded commit when it is a bare git directory.

    Raises:
        GitError: the commit cannot be checked out.
    """
    if (corpus / "HEAD").is_file() and (corpus / "objects").is_dir():
        commit = evalset.sources[0].get("commit", "") if evalset.sources else ""
        with checkout(corpus, commit) as tree:
            yield tree / evalset.source_folder if evalset.source_folder else tree
    else:
        yield corpus / evalset.source_folder if evalset.source_folder else corpus


@contextmanager
def notes_project(corpus: Path, env: dict[str, str]) -> Iterator[Path]:
    """A temporary project whose vault's notes are a copy of ``corpus`` (a notes set's
    folder), initialised and indexed; removed after."""
    holder = Path(tempfile.mkdtemp(prefix="rubi-recall-notes-"))
    try:
        project = holder / "project"
        project.mkdir()
        rubi = shutil.which("rubi", path=env["PATH"])
        if rubi is None:
            raise RuntimeError("no `rubi` on PATH: install the package into this interpreter")
        run_child([rubi, "init"], cwd=project, env=env, timeout_s=SETUP_TIMEOUT_S)
        shutil.copytree(
            corpus,
            project / ".rubi" / "notes" / "kb",
            symlinks=True,
            ignore=shutil.ignore_patterns(".git"),
        )
        run_child([rubi, "index"], cwd=project, env=env, timeout_s=SETUP_TIMEOUT_S)
        yield project
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def rate(hit: int, total: int) -> str:
    """``hit/total (pct)``."""
    return f"{hit}/{total} ({100 * hit / total:.0f}%)" if total else "0/0"


def report(tasks: Sequence[TaskRecord], off: Sequence[OffTopicRecord]) -> list[str]:
    """The printed table: a row per set, the pooled row, the off-topic counts."""
    lines = [
        f"{'set':22} {'tasks':>5}  {'recall names a file':>20}  {'recall injects':>15}  "
        f"{'map names a file':>17}  {'late':>4}"
    ]
    groups = list(dict.fromkeys(t.set for t in tasks))
    for name in [*groups, "pooled"]:
        rows = [t for t in tasks if name == "pooled" or t.set == name]
        lines.append(
            f"{name:22} {len(rows):5}  {rate(sum(t.recall_named for t in rows), len(rows)):>20}  "
            f"{rate(sum(t.recall_injected for t in rows), len(rows)):>15}  "
            f"{rate(sum(t.map_named for t in rows), len(rows)):>17}  "
            f"{sum(t.late for t in rows):4}"
        )
    if off:
        lines.append(
            f"{'off-topic prompts asked in':48} {'recall silent':>14}  {'names no file':>14}"
        )
        wheres = list(dict.fromkeys(o.asked_in for o in off))
        for where in [*wheres, "all"]:
            rows = [o for o in off if where == "all" or o.asked_in == where]
            silent = rate(sum(not o.injected for o in rows), len(rows))
            no_file = rate(sum(not o.names_file for o in rows), len(rows))
            lines.append(f"  {where:46} {silent:>14}  {no_file:>14}")
    return lines


def _pair(text: str, *, need_path: bool) -> tuple[Path, Path | None]:
    name, sep, path = text.partition("=")
    if need_path and not sep:
        raise argparse.ArgumentTypeError(f"{text!r}: write SET=PATH (a repository)")
    return Path(name), (Path(path) if sep else None)


def pick(evalset: EvalSet, split: str) -> EvalSet:
    """``evalset`` with the queries of ``split`` only (``all``: every one)."""
    chosen = tuple(q for q in evalset.queries if split == "all" or q.split == split)
    return dataclasses.replace(evalset, queries=chosen)


def run_all(
    issue_sets: Sequence[tuple[EvalSet, Path]],
    off_sets: Sequence[tuple[EvalSet, Path | None]],
    hooks: dict[str, Hook],
    env: dict[str, str],
    *,
    cross: bool,
) -> tuple[list[TaskRecord], list[OffTopicRecord]]:
    """Every issue set's tasks and the off-topic prompts (sets already picked)."""
    questions = [(s.name, q) for s, _ in off_sets for q in s.queries if not q.relevant]
    tasks: list[TaskRecord] = []
    off: list[OffTopicRecord] = []
    for number, (evalset, corpus) in enumerate(issue_sets):
        other = issue_sets[(number + 1) % len(issue_sets)][0]
        foreign = [(other.name, q) for q in other.queries] if cross and other is not evalset else []
        got_tasks, got_off = run_set(evalset, corpus, hooks, env, questions, foreign)
        tasks += got_tasks
        off += got_off
    for evalset, source in off_sets:
        if source is None:
            continue
        own = [(evalset.name, q) for q in evalset.queries if not q.relevant]
        with source_folder(evalset, source) as folder, notes_project(folder, env) as project:
            off += ask_off_topic(hooks, own, project, env, f"{evalset.name} notes")
    return tasks, off


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--set", dest="sets", action="append", default=[], required=True)
    parser.add_argument("--off-topic", dest="off_topic", action="append", default=[])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--final", action="store_true", help="allow the test half")
    parser.add_argument(
        "--cross",
        action="store_true",
        help="also ask each set's issues in the next set's project (off-topic there)",
    )
    parser.add_argument(
        "--semantic", action="store_true", help="the dense channel on (the semantic extra)"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.split != "dev" and not args.final:
        parser.error(
            f"--split {args.split} reads the test half, which is reported once at the end"
            " of the work: add --final to do that now, or use --split dev"
        )
    try:
        pairs = [_pair(s, need_path=True) for s in args.sets]
        off_pairs = [_pair(s, need_path=False) for s in args.off_topic]
        issue_sets = [(pick(load_set(f), args.split), c) for f, c in pairs]
        off_sets = [(pick(load_set(f), args.split), c) for f, c in off_pairs]
        hooks = load_hooks()
    except (argparse.ArgumentTypeError, SetError, ValueError) as exc:
        parser.error(str(exc))
    repos: list[tuple[EvalSet, Path]] = []
    for evalset, corpus in issue_sets:
        if evalset.kind != "issues" or corpus is None or not corpus.is_dir():
            parser.error(f"--set {evalset.name}: an issues set and a repository folder")
        repos.append((evalset, corpus))
    for evalset, corpus in off_sets:
        if evalset.kind != "notes" or (corpus is not None and not corpus.is_dir()):
            parser.error(f"--off-topic {evalset.name}: a notes set (and a checkout folder)")
    if args.split != "dev":
        print("FINAL: the test half was looked at")
    home = Path(tempfile.mkdtemp(prefix="rubi-recall-home-"))
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        floor_wall, floor_cpu = pass_floor()
        tasks, off = run_all(
            repos, off_sets, hooks, hook_env(home, semantic=args.semantic), cross=args.cross
        )
    except (GitError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(home, ignore_errors=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (kids.ru_utime + kids.ru_stime)
    print("\n".join(report(tasks, off)))
    ms = [t.recall_ms for t in tasks] + [o.ms for o in off]
    if ms:
        print(
            f"UserPromptSubmit hook: median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms"
            f" wall per call; floor `python -c pass` {floor_wall * 1000:.0f} ms wall,"
            f" {floor_cpu * 1000:.0f} ms CPU"
        )
    print(f"run: {wall:.1f} s wall, {cpu:.1f} s CPU (children: git, rubi init/index, hooks)")
    if args.json:
        report_json = {
            "split": args.split,
            "tasks": [asdict(t) for t in tasks],
            "off_topic": [asdict(o) for o in off],
        }
        args.json.write_text(json.dumps(report_json, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
