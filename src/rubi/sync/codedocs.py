"""A run's documents for the text index, code documents made when they are read.

A code file's document holds a slice of its text and its comments
(:func:`rubi.codemap.read_text_slice`, :func:`rubi.codemap.comment_text`): reading
and cutting them is about 2 s of a first build of spring-framework. Made as the index
writer asks for them, they are made by whichever process writes them when a build runs
in two (:mod:`rubi.index.twoprocess`), instead of all of them here first. Each is made
once per read: the writer reads each document once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:  # imported when documents are made: listing them costs no import
    from rubi.codemap.model import CodeFile
    from rubi.index.indexdoc import IndexDoc

__all__ = ["RunDocuments"]


class RunDocuments(Sequence["IndexDoc"]):
    """Notes' documents (made already), then code files' (made when read), as one
    sequence.

    Args:
        root: the project; code paths are relative to it.
        code: the code files whose documents are made when read.
        notes: the documents before them.
    """

    def __init__(
        self, root: Path, code: Sequence[CodeFile], notes: Sequence[IndexDoc] = ()
    ) -> None:
        self._root = root
        self._notes = list(notes)
        self._code = list(code)

    def joined(self, notes: Sequence[IndexDoc]) -> RunDocuments:
        """``notes``, then these documents."""
        return RunDocuments(self._root, self._code, [*notes, *self._notes])

    def __len__(self) -> int:
        return len(self._notes) + len(self._code)

    @overload
    def __getitem__(self, i: int) -> IndexDoc: ...

    @overload
    def __getitem__(self, i: slice) -> RunDocuments: ...

    def __getitem__(self, i: int | slice) -> IndexDoc | RunDocuments:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                raise ValueError("RunDocuments takes contiguous slices only")
            n = len(self._notes)
            code = self._code[max(0, start - n) : max(0, stop - n)]
            return RunDocuments(self._root, code, self._notes[start:stop])
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        n = len(self._notes)
        return self._notes[i] if i < n else self._made(self._code[i - n])

    def __iter__(self) -> Iterator[IndexDoc]:
        return chain(self._notes, map(self._made, self._code))

    @property
    def ids(self) -> list[str]:
        """The documents' ids, nothing made."""
        return [*(d.id for d in self._notes), *(f.path for f in self._code)]

    def text_sizes(self) -> list[int]:
        """Each document's text in characters, a code file's estimated from its size
        and symbols (what :mod:`rubi.index.twoprocess` splits a build by), nothing
        made."""
        from rubi.codemap import INDEX_TEXT_CHARS

        notes = [sum(len(v) for v in d.fields.values()) for d in self._notes]
        code = [min(f.size, INDEX_TEXT_CHARS) + 8 * len(f.symbols) for f in self._code]
        return notes + code

    def _made(self, file: CodeFile) -> IndexDoc:
        from rubi.codemap import comment_text, read_text_slice, symbol_text
        from rubi.index.documents import code_document

        text = read_text_slice(self._root, file.path)
        return code_document(file.path, file.language, symbol_text(file), text, comment_text(text))
