"""Whether the dense list can vote in this vault, for a query's script, as measured on
the vault's own notes when it was indexed: ``semantic.vote`` beside the vectors file.

The dense list votes in a search only when its best document stands out
(:func:`rubi.search.dense.dense_weight`). Deciding that needs every document's score,
so a search that ends with the list abstaining still imports NumPy, loads the vectors
and scores them all. Whether the model separates anything in a vault is a property of
the vault and the model, not of one query: the index run measures it once, using a
sample of the vault's notes as queries (each note's title asked, the note itself the
answer; :func:`rubi.search.densevote.measure_separation`), per script of the title.
Of the title queries on which the list would vote, the share whose first document is
the note asked for is the list's precision when it speaks. Where that is below
:data:`MIN_PRECISION` (or it spoke on fewer than :data:`MIN_VOTES` of them), a vote
of the list would be a guess, and every process (a cold hook, a command, the server)
leaves the list out for queries of that script, without NumPy
(:func:`list_may_vote`). Measured on the English Obsidian Help vault (173 notes),
where the list voted on 7 of 11 development questions of notes QA: it voted on 73 of
100 title queries, 61 of them right (0.84); on a 6,334-note project of rubi's notes and
Obsidian Help in many languages, Latin titles 12 of 25 (0.48), CJK 4 of 32, Cyrillic
and Greek 0 of 0, other scripts (Thai, Khmer, ...) 1 of 40 (``docs/benchmarks-history.md``,
"issue 29: cold hooks, tenth pass").

The file is derived data like the rest of the index folder: JSON, written atomically
(0600), read only when :func:`rubi.core.picklefiles.open_trusted` accepts it and its
format and fields check out; anything else is named in one warning line and read as
not measured, and the list then decides per query as it always did. The index run
measures again when the file is missing or of another format, model or vectors file,
and when the vault's embedded documents changed in number by a quarter
(:func:`needs_measuring`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from rubi.core.lazylog import get_logger

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from typing import BinaryIO

__all__ = [
    "MIN_PRECISION",
    "MIN_SAMPLED",
    "MIN_VOTES",
    "SCRIPTS",
    "SEPARATION_FILE",
    "SEPARATION_FORMAT",
    "Separation",
    "Tally",
    "list_may_vote",
    "needs_measuring",
    "read_separation",
    "separation_file",
    "text_script",
    "write_separation",
]

log = get_logger(__name__)

SEPARATION_FILE = "semantic.vote"
"""The file's name, beside the vectors file in the vault's index folder."""

SEPARATION_FORMAT = 1
"""Bump when the file's fields or their meaning change: a file of another format is
measured again by the next index run, and read as not measured until then."""

MIN_PRECISION = 0.4
"""Share of the list's votes on title queries whose first document must be the note
asked for. Set from the two kinds of vault measured: where the list's votes helped
real questions (notes QA on the English Obsidian Help vault, 0.84; on the 6,334-note
project, whose Latin titles are Obsidian Help in 17 languages and rubi's notes, 0.48,
the 30 notes QA questions there MRR@10 0.630 with the list, 0.580 without) and where
it is a guess (the same project's CJK titles 0.13, Thai and Khmer 0.03: a Korean page
first for most). Title queries are harder than questions in a vault of translations:
the same page in another language is often the list's first."""

MIN_VOTES = 5
"""Title queries the list must vote on before its precision is read at all: a list
that almost never stands out has nothing to add."""

MIN_SAMPLED = 20
"""Titles of a script the measurement needs before it can leave the list out for that
script: below (a small vault, a script few notes are written in, or none) the list
decides per query, as in a vault never measured."""

REMEASURE_DRIFT = 0.25
"""A measurement stands until the embedded documents grow or shrink by this share."""

SCRIPTS = ("latin", "cyrillic", "greek", "cjk", "arabic", "other")
"""The scripts a query and a title are told apart by (:func:`text_script`)."""

CJK_LETTERS = 3
"""Letters a CJK character weighs (a Chinese word is one or two characters, an English
one five letters; as :data:`rubi.index.language.CJK_LETTERS`)."""

_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0370, 0x0400, "greek"),
    (0x0400, 0x0530, "cyrillic"),
    (0x0600, 0x0780, "arabic"),
    (0x1E00, 0x1F00, "latin"),
    (0x1F00, 0x2000, "greek"),
    (0x3040, 0x3100, "cjk"),
    (0x3400, 0xA000, "cjk"),
    (0xAC00, 0xD7B0, "cjk"),
    (0xF900, 0xFB00, "cjk"),
)


def _char_script(ch: str) -> str:
    code = ord(ch)
    if code < 0x0250:
        return "latin"
    for low, high, name in _RANGES:
        if low <= code < high:
            return name
    return "other"


def text_script(text: str) -> str | None:
    """The script most of ``text``'s letters are in (one of :data:`SCRIPTS`), a CJK
    character weighing :data:`CJK_LETTERS` letters, or None when it has no letter.
    Ties go to the first of :data:`SCRIPTS`."""
    counts = dict.fromkeys(SCRIPTS, 0)
    for ch in text:
        if ch.isalpha():
            counts[_char_script(ch)] += 1
    counts["cjk"] *= CJK_LETTERS
    best = max(SCRIPTS, key=lambda s: counts[s])
    return best if counts[best] else None


@dataclass(frozen=True, slots=True)
class Tally:
    """The list on one script's title queries.

    Attributes:
        sampled: title queries asked.
        voted: on how many the list would have voted (weight above 0).
        found: of those, how many had the note asked for first.
    """

    sampled: int
    voted: int
    found: int

    @property
    def votes(self) -> bool:
        """Whether the list's votes were measured to be right often enough
        (:data:`MIN_VOTES`, :data:`MIN_PRECISION`)."""
        return self.voted >= MIN_VOTES and self.found >= MIN_PRECISION * self.voted

    def describe(self) -> str:
        """``voted on 18 of 100 title queries, 9 right``."""
        return f"voted on {self.voted} of {self.sampled} title queries, {self.found} right"


@dataclass(frozen=True, slots=True)
class Separation:
    """One measurement of a vault's dense list.

    Attributes:
        model: the model id of the vectors measured.
        token: the vectors file's token (:meth:`rubi.semantic.vectors.VectorStore.token`).
        documents: the embedded documents then.
        scripts: per script of the notes' titles, what the list did.
    """

    model: str
    token: str
    documents: int
    scripts: dict[str, Tally]

    def votes_for(self, script: str | None) -> bool:
        """Whether the list may vote on a query in ``script``: False only where at
        least :data:`MIN_SAMPLED` of the vault's titles are in that script and the
        list's votes on them were not right often enough (:attr:`Tally.votes`)."""
        tally = self.scripts.get(script or "")
        return tally is None or tally.sampled < MIN_SAMPLED or tally.votes

    def describe(self) -> str:
        """One line for ``rubi doctor``: each script measured, on or off, and why."""
        parts = []
        for name in SCRIPTS:
            tally = self.scripts.get(name)
            if tally is not None:
                state = "votes" if self.votes_for(name) else "left out"
                if tally.sampled < MIN_SAMPLED:
                    state = "decides per query (too few titles)"
                parts.append(f"{name} {state} ({tally.describe()})")
        return "; ".join(parts) if parts else "no note title to measure on"


def separation_file(index_dir: Path) -> Path:
    """The measurement's file in a vault's index folder."""
    return index_dir / SEPARATION_FILE


_READ: dict[Path, tuple[tuple[int, int, int], Separation | None]] = {}
"""Each file read in this process, by path, with its stat signature (a server asks on
every search: a stat then)."""


def read_separation(index_dir: Path) -> Separation | None:
    """The stored measurement of the vault whose derived data is in ``index_dir``;
    None when there is none (never measured), or it is refused, damaged or of another
    format (named in one warning line)."""
    path = separation_file(index_dir)
    try:
        st = os.stat(path)
    except OSError:
        return None
    signature = (st.st_mtime_ns, st.st_size, st.st_ino)
    known = _READ.get(path)
    if known is not None and known[0] == signature:
        return known[1]
    found = _read(path)
    _READ[path] = (signature, found)
    return found


def _read(path: Path) -> Separation | None:
    from rubi.core.picklefiles import UntrustedCacheError, open_trusted

    try:
        with open_trusted(path) as fh:
            data = json.loads(fh.read(1 << 16))
        if data.get("format") != SEPARATION_FORMAT:
            log.warning(
                "%s: format %s, not %s; measured again by the next index run",
                path.name,
                data.get("format"),
                SEPARATION_FORMAT,
            )
            return None
        scripts = {
            str(name): Tally(int(t["sampled"]), int(t["voted"]), int(t["found"]))
            for name, t in data["scripts"].items()
            if name in SCRIPTS
        }
        return Separation(str(data["model"]), str(data["token"]), int(data["documents"]), scripts)
    except FileNotFoundError:
        return None
    except (OSError, UntrustedCacheError) as exc:
        log.warning("dense list's measurement not read: %s", exc)
    except (ValueError, KeyError, TypeError, AttributeError):
        log.warning("%s: damaged; measured again by the next index run", path)
    return None


def write_separation(index_dir: Path, separation: Separation) -> None:
    """Replace the stored measurement atomically (0600).

    Raises:
        OSError: the folder is not writable.
    """
    from rubi.core.atomic import atomic_write_stream

    body = {
        "format": SEPARATION_FORMAT,
        "model": separation.model,
        "token": separation.token,
        "documents": separation.documents,
        "scripts": {
            name: {"sampled": t.sampled, "voted": t.voted, "found": t.found}
            for name, t in sorted(separation.scripts.items())
        },
    }
    text = (json.dumps(body, indent=1) + "\n").encode("utf-8")

    def write(fh: BinaryIO) -> None:
        fh.write(text)

    atomic_write_stream(separation_file(index_dir), write, mode=0o600)


def needs_measuring(index_dir: Path, *, model: str, token: str, documents: int) -> bool:
    """Whether the index run should measure again: nothing stored (or unreadable), or
    stored for another model or vectors file, or for a number of documents more than
    :data:`REMEASURE_DRIFT` away from ``documents``."""
    found = read_separation(index_dir)
    if found is None or found.model != model or found.token != token:
        return True
    return abs(documents - found.documents) > REMEASURE_DRIFT * max(found.documents, 1)


def list_may_vote(index_dir: Path, query: str) -> bool:
    """Whether a search of ``query`` in this vault should compute the dense list:
    False where the stored measurement says the list's votes on the query's script
    are not right often enough (:meth:`Separation.votes_for`); True where they are,
    where too few titles are in that script, or when the vault was never measured (the
    list then decides per query, :func:`rubi.search.dense.dense_weight`)."""
    found = read_separation(index_dir)
    return found is None or found.votes_for(text_script(query))
