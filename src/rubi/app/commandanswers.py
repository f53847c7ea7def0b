"""What ``rubi search`` and ``rubi read`` print, as values: one function per command
computes it, whether the command runs in its own process or the resident engine
answers it (:mod:`rubi.engine.server` runs the same function and sends the value back;
the command prints it either way, :mod:`rubi.cli.searchcmds`). The calls and answers
as data: :mod:`rubi.core.commandcalls`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from rubi.core.commandcalls import Answer, ReadArgs, SearchArgs
from rubi.core.paths import VaultPaths

__all__ = ["answer_call", "answer_read", "answer_search", "link_json"]

log = logging.getLogger(__name__)


def answer_search(
    paths: VaultPaths,
    args: SearchArgs,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    on_wait: Callable[[], None] | None = None,
    on_warning: Callable[[object], None] | None = None,
) -> Answer:
    """The hits of ``args`` in ``paths``' vault as ``rubi search`` prints them: the
    ``--json`` shape (:func:`rubi.app.results.search_json`) or the compact ranked text
    (:func:`rubi.app.results.render_search`), within ``args.budget`` tokens.
    ``progress`` and ``on_wait``: as for :func:`rubi.app.searching.search` (a command
    in its own process shows them; the engine passes none). ``on_warning``: each
    problem note the search's catch-up index met (:func:`rubi.app.searching.search`).

    Raises:
        RubiError: an empty or too long query, a bad day (:func:`rubi.app.search`).
    """
    from rubi.app.results import render_search, search_json
    from rubi.app.searching import search

    started = time.perf_counter()
    result = search(
        paths,
        args.query,
        terms=args.terms,
        top_k=args.top_k,
        scope=args.scope,
        include_superseded=args.include_superseded,
        progress=progress,
        on_wait=on_wait,
        personal=args.personal,
        since=args.since,
        until=args.until,
        on_warning=on_warning,
    )
    if log.isEnabledFor(logging.DEBUG):
        _log_search(result, time.perf_counter() - started)
    if args.as_json:
        return Answer(True, search_json(result, args.budget))
    text = render_search(result, args.budget)
    gone = _gone_files(paths, result.hits)
    if gone:
        text += "\n" + gone_files_hint(gone)
    elif (not result.hits or not result.relevant) and _code_behind(paths, args.scope):
        text += "\n" + CODE_BEHIND_HINT
    return Answer(False, text)


CODE_BEHIND_HINT = (
    "The code changed since it was mapped (a pull, a new file, an edit): `rubi index` maps it, "
    "then search again."
)
"""The last line of a search with no match, or none relevant ("Nothing relevant: ..."),
when the code map is behind the code: a search maps code only on its first run, so a
symbol of a file added or edited since finds nothing, or only weak matches, and without
this line nothing said why (a trial user's new ``quuxFrobnicator``; a new user's
function added to an existing file, found only as a weak match of its file's old
symbols)."""


def gone_files_hint(gone: list[str]) -> str:
    """The last line of a search whose hits name code files that are no longer on disk
    (``gone``: their repository paths, in rank order; at least one). A new user checked
    out an older tag of uber-go/zap and searched "zapslog handler": the first three hits
    were files of ``exp/zapslog/``, which that tag does not have, and nothing said the
    map was of another checkout."""
    first = gone[0]
    more = f" and {len(gone) - 1} more" if len(gone) > 1 else ""
    verb = "exist" if more else "exists"
    return (
        f"{first}{more} in these results no longer {verb} on disk (a branch switch, a pull "
        "or a deletion since the code was mapped): `rubi index` maps the code as it is now."
    )


def _gone_files(paths: VaultPaths, hits: Any) -> list[str]:
    """The repository paths of the code-file ``hits`` (:class:`rubi.search.hits.Hit`)
    that are gone from ``paths``' project folder, in rank order: one ``lstat`` a code
    hit (0.4 ms of CPU for 50 hits on uber-go/zap; 1.6 ms with ``Path.resolve``).
    Empty outside a project. A path is the index's own (from ``git ls-files``); one
    that is absolute or climbs out with ``..`` is not checked."""
    root = paths.project_root
    if root is None:
        return []
    import os

    from rubi.core.safepaths import UnsafePathError, relative_path

    gone: list[str] = []
    for hit in hits:
        if hit.kind != "file" or not hit.path:
            continue
        try:
            rel = relative_path(hit.path)
        except UnsafePathError:
            continue  # not a path under the project: nothing to check
        if not os.path.lexists(os.path.join(root, rel)):
            gone.append(hit.path)
    return gone


def _code_behind(paths: VaultPaths, scope: str) -> bool:
    """Whether a search of ``scope`` in ``paths``' project looked at a code map that is
    behind the code (:func:`rubi.app.health.code_map_behind`: a listing and ``git
    ls-files``, paid only when nothing matched, or nothing relevant). Never asked in a
    process whose watcher applies every change to ``paths`` (the engine of ``rubi
    serve`` or ``rubi watch``): the watcher maps the code as it changes, and the listing
    made every off-topic ``rubi search`` on spring-framework (9,724 files) take
    0.25-0.49 s of wall instead of 0.07-0.08 s."""
    if paths.project_root is None or scope not in ("all", "code"):
        return False
    from rubi.app.searching import watched_here

    if watched_here(paths):
        return False  # the watcher maps every change: the map is not behind
    from rubi.app.health import code_map_behind

    return code_map_behind(paths)


def _log_search(result: Any, seconds: float) -> None:
    """Debug lines of one search (:class:`rubi.search.hits.SearchResult`): its
    figures and time, then each hit with the lists that voted for it (a reason's
    kind, with the evidence that gave its list a vote in this search)."""
    log.debug(
        "search %r: %d hits of %d candidates in %.0f ms; coverage %.2f, "
        "significance %.1f, named %d, relevant %s",
        result.query,
        len(result.hits),
        result.candidates,
        seconds * 1000,
        result.coverage,
        result.significance,
        result.named,
        result.relevant,
    )
    for rank, hit in enumerate(result.hits, 1):
        voted = ", ".join(
            f"{why.kind} ({why.evidence})" if why.evidence else why.kind for why in hit.reasons
        )
        log.debug("hit %d %s: score %.4f, voted: %s", rank, hit.id, hit.score, voted or "-")


def answer_read(
    paths: VaultPaths,
    args: ReadArgs,
    *,
    progress: Callable[[int, int, str], None] | None = None,
    on_wait: Callable[[], None] | None = None,
) -> Answer:
    """``args.ref`` as ``rubi read`` prints it: the part a passage id names, a code
    file's outline, or a note in full with its links and flags; with ``as_json``, as
    one object (``{"id", "path", "kind", "text", ...}``). A ``ref`` that names several
    notes (a title two notes share) shows the first: its text answer's notice says
    so and names the others (:func:`rubi.app.reading.choice_line`), its JSON lists
    their ids as ``other_matches`` (empty when it names one). The notes are brought up to
    date first, as for a search (a note saved a moment ago is found; skipped where a
    watcher in this process applies every change): ``progress`` and ``on_wait`` as for
    :func:`rubi.app.searching.ensure_index`.

    Raises:
        NoteNotFoundError: ``ref`` names nothing; NoteParseError: its file is unreadable.
    """
    from rubi import app
    from rubi.app.searching import ensure_index

    ensure_index(paths, True, progress, on_wait)

    part = app.read_part(paths, args.ref)
    if part is not None:
        return _part_answer(part, args.ref, args.as_json)
    code = app.read_code(paths, args.ref)
    if code is not None:
        if not args.as_json:
            return Answer(False, code.outline)
        return Answer(
            True,
            {
                "id": code.id,
                "path": code.id,
                "kind": "file",
                "text": code.outline,
                "links": [link_json(lv) for lv in code.links],
                "backlinks": [link_json(lv) for lv in code.backlinks],
            },
        )
    from rubi.app.reading import choice_line

    view = app.read_note(paths, args.ref)
    if not args.as_json:
        from rubi.app.reading import render_note_view

        notice = choice_line(args.ref, view.id or view.note.id, view.others)
        return Answer(False, render_note_view(view), notice or "")
    note = view.note
    return Answer(
        True,
        {
            "id": view.id or note.id,
            "path": note.path,
            "title": note.title,
            "type": note.type,
            "status": note.status,
            "stale": list(view.stale),
            "superseded_by": view.superseded_by,
            "truncated": view.truncated,
            "text": view.text,
            "links": [link_json(lv) for lv in view.links],
            "backlinks": [link_json(lv) for lv in view.backlinks],
            "other_matches": list(view.others),
        },
    )


def _part_answer(part: Any, ref: str, as_json: bool) -> Answer:
    if not as_json:
        from rubi.app.passageread import part_what, render_part
        from rubi.app.reading import choice_line

        notice = choice_line(ref, part.id, part.others, what=part_what(part))
        return Answer(False, render_part(part), notice or "")
    return Answer(
        True,
        {
            "id": part.id,
            "parent": part.parent,
            "title": part.title,
            "kind": part.kind,
            "heading": part.heading,
            "lines": [part.start, part.end],
            "text": part.text,
            "other_matches": list(part.others),
        },
    )


def link_json(lv: Any) -> dict[str, str]:
    """A :class:`rubi.app.reading.LinkView` in ``--json`` output."""
    return {"id": lv.id, "title": lv.title, "kind": lv.kind, "relation": lv.relation}


def answer_call(paths: VaultPaths, call: SearchArgs | ReadArgs) -> Answer:
    """The answer of a decoded call (:func:`decode_call`), as the command computes it
    (no progress shown)."""
    if isinstance(call, SearchArgs):
        return answer_search(paths, call)
    return answer_read(paths, call)
