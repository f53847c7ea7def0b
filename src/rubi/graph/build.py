"""Build the link graph of a vault from its parsed notes.

One ``networkx.MultiDiGraph`` (ARCHITECTURE.md section 4). Node kinds: ``note`` and
``dangling`` (a link target that matches no note); the code map adds ``file`` and
``module``. Edge key and ``relation`` attribute: ``links_to`` or a typed relation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import networkx as nx

from rubi.core.config import GENERATED_COMMENT
from rubi.core.model import Note, note_files
from rubi.vault.resolve import LinkResolver, NoteNames, normalize_name

if TYPE_CHECKING:
    from rubi.codemap import CodeMap

__all__ = ["GraphBuild", "LinkProblem", "build_graph", "dangling_id", "note_names"]


@dataclass(frozen=True, slots=True)
class LinkProblem:
    """A link that did not resolve cleanly: ``status`` is ``missing`` (a note that does
    not exist), ``missing-attachment`` (an embedded file that does not exist) or
    ``ambiguous``."""

    source: str
    target: str
    status: str
    resolved_to: str | None = None
    candidates: tuple[str, ...] = ()


@dataclass
class GraphBuild:
    """The graph and what resolution found along the way.

    Attributes:
        graph: the MultiDiGraph.
        problems: missing and ambiguous links, in note order.
        names: normalized title/alias/file name/frontmatter id → note ids, for
            exact-name search.
    """

    graph: nx.MultiDiGraph
    problems: list[LinkProblem] = field(default_factory=list)
    names: dict[str, list[str]] = field(default_factory=dict)
    type_names: dict[str, list[str]] = field(default_factory=dict)
    """Type names exactly as defined (``Router``, ``Deserialize``) → the files that
    define them; matched case-sensitively, so a capitalised word in a query names the
    type while the plain word in prose does not."""
    defined_names: dict[str, list[str]] = field(default_factory=dict)
    """Capitalised symbol names of any kind exactly as defined (the function
    ``Depends``, the method ``Context.Abort`` as ``Abort``) → the files that define
    them; a query that is that one word names them."""


ATTACHMENT_EXTENSIONS = frozenset(
    [
        "png",
        "jpg",
        "jpeg",
        "gif",
        "svg",
        "webp",
        "bmp",
        "avif",
        "heic",
        "pdf",
        "mp3",
        "mp4",
        "webm",
        "wav",
        "ogg",
        "m4a",
        "flac",
        "mov",
        "mkv",
        "canvas",
        "base",
        "excalidraw",
        "csv",
        "json",
        "txt",
        "zip",
    ]
)
"""Extensions Obsidian embeds as files: a missing one is a missing attachment, not a
dangling note."""


def _is_attachment(target: str) -> bool:
    name = target.rsplit("/", 1)[-1]
    return "." in name and name.rsplit(".", 1)[1].lower() in ATTACHMENT_EXTENSIONS


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def dangling_id(target: str) -> str:
    """Node id of an unresolved link target (``dangling:<normalized target>``)."""
    return "dangling:" + normalize_name(target)


def note_names(note: Note) -> NoteNames:
    """What ``note`` can be linked by."""
    fm_id = note.metadata.get("id")
    return NoteNames(
        note.id, note.title, note.aliases, str(fm_id) if isinstance(fm_id, str) else None
    )


def build_graph(
    notes: Mapping[str, Note],
    attachments: Iterable[str] = (),
    code_map: CodeMap | None = None,
) -> GraphBuild:
    """Resolve every link and build the graph.

    Args:
        notes: parsed notes by id.
        attachments: vault-relative paths of non-markdown files (links to them are
            neither edges nor problems).
        code_map: the project's code map, whose files and modules join the graph
            (see :mod:`rubi.graph.code`); None for a plain vault.

    Returns:
        A :class:`GraphBuild`. Self-links and same-note heading links add no edge.
    """
    resolver = LinkResolver((note_names(n) for n in notes.values()), attachments)
    g = nx.MultiDiGraph()
    names: dict[str, list[str]] = {}
    for note in notes.values():
        g.add_node(
            note.id,
            kind="note",
            title=note.title,
            type=note.type,
            status=note.status,
            path=note.path,
            generated=GENERATED_COMMENT in note.body[:400],
            session=note.id.startswith("sessions/"),
            superseded_by=_text(note.metadata.get("superseded_by")),
            files=tuple(note_files(note)),
            commit=_text(note.metadata.get("commit")),
            fm_id=_text(note.metadata.get("id")),
        )
        nn = note_names(note)
        keys = {normalize_name(note.title), normalize_name(note.id.rsplit("/", 1)[-1])}
        keys.update(normalize_name(a) for a in note.aliases)
        if nn.frontmatter_id:
            keys.add(normalize_name(nn.frontmatter_id))
        for key in keys:
            if key:
                names.setdefault(key, []).append(note.id)
    problems: list[LinkProblem] = []
    for note in notes.values():
        for link in note.links:
            res = resolver.resolve(link.target, note.id)
            if res.status in ("self", "attachment"):
                continue
            if res.status == "missing" and _is_attachment(link.target):
                problems.append(LinkProblem(note.id, link.target, "missing-attachment"))
                continue
            if res.status == "missing":
                target = dangling_id(link.target)
                if target not in g:
                    g.add_node(target, kind="dangling", title=link.target.strip())
                problems.append(LinkProblem(note.id, link.target, "missing"))
            else:
                assert res.target is not None
                target = res.target
                if res.status == "ambiguous":
                    problems.append(
                        LinkProblem(note.id, link.target, "ambiguous", target, res.candidates)
                    )
            if target == note.id:
                continue
            g.add_edge(note.id, target, key=link.relation, relation=link.relation)
    if code_map is not None:
        from rubi.graph.code import add_code_map  # the code map's imports cost ~70 ms

        type_names: dict[str, list[str]] = {}
        defined_names: dict[str, list[str]] = {}
        add_code_map(g, names, code_map, notes, type_names, defined_names)
        return GraphBuild(g, problems, names, type_names, defined_names)
    return GraphBuild(g, problems, names)
