"""The shape of a vault's link graph (built and updated by :mod:`rubi.graph.live`).

One ``networkx.MultiDiGraph`` (``docs/architecture.md``). Node kinds: ``note`` and
``dangling`` (a link target that matches no note); the code map adds ``file`` and
``module``. Edge key and ``relation`` attribute: ``links_to`` or a typed relation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rubi.vault.names import normalize_name

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    import networkx as nx

    from rubi.core.model import Note  # the notes' model: not for a search (0.5 ms)
    from rubi.vault.resolve import NoteNames  # the resolver: not for a search (0.7 ms)

__all__ = ["GraphBuild", "LinkProblem", "dangling_id", "note_names"]


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
        graph: the MultiDiGraph (in a one-shot search process, the same dicts read
            without networkx: :class:`~rubi.graph.frozen.FrozenGraph`).
        problems_by_note: missing and ambiguous links by linking note
            (:attr:`problems` lists them all).
        names: normalized title/alias/file name/frontmatter id → note ids, for
            exact-name search.
    """

    graph: nx.MultiDiGraph
    problems_by_note: dict[str, list[LinkProblem]] = field(default_factory=dict)
    """Link problems by the note whose link it is."""
    names: dict[str, list[str]] = field(default_factory=dict)
    type_names: dict[str, list[str]] = field(default_factory=dict)
    """Type names exactly as defined (``Router``, ``Deserialize``) → the files that
    define them; matched case-sensitively, so a capitalised word in a query names the
    type while the plain word in prose does not."""
    defined_names: dict[str, list[str]] = field(default_factory=dict)
    """Capitalised symbol names of any kind exactly as defined (the function
    ``Depends``, the method ``Context.Abort`` as ``Abort``) → the files that define
    them; a query that is that one word names them."""

    @property
    def problems(self) -> list[LinkProblem]:
        """Every link problem (missing, ambiguous), in note id order."""
        by_note = self.problems_by_note
        return [p for k in sorted(by_note) for p in by_note[k]]


def dangling_id(target: str) -> str:
    """Node id of an unresolved link target (``dangling:<normalized target>``)."""
    return "dangling:" + normalize_name(target)


def note_names(note: Note) -> NoteNames:
    """What ``note`` can be linked by."""
    from rubi.vault.resolve import NoteNames

    fm_id = note.metadata.get("id")
    return NoteNames(
        note.id, note.title, note.aliases, str(fm_id) if isinstance(fm_id, str) else None
    )
