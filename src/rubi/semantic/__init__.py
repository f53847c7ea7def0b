"""The dense (semantic) channel: a static embedding model shipped in rubi's wheel,
vectors of every note and its heading sections cached beside the index, and cosine
similarity as a fourth ranked list of the hybrid search (``docs/semantic.md``).

It needs the optional extra ``semantic`` (numpy: :data:`INSTALL_HINT`); without
it the channel is off and everything else works.
Nothing is downloaded at run time: the weights are package data
(``rubi/semantic/weights``).

Modules, one concern each:

- :mod:`rubi.semantic.encoder` — load the model, embed texts;
- :mod:`rubi.semantic.wordpiece` — the model's tokenizer;
- :mod:`rubi.semantic.passages` — the passages of a note (heading sections);
- :mod:`rubi.semantic.vectors` — the cached vectors (SQLite in the user cache);
- :mod:`rubi.semantic.sync` — the sync hook that keeps them current;
- :mod:`rubi.semantic.dense` — the in-memory matrix a search scores.

This package imports nothing heavy: numpy and the model load on first use.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs a hook ~3 ms of imports; mypy reads this as usual
if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["DISABLE_ENV", "INSTALL_HINT", "enabled", "unavailable", "weights_dir"]

INSTALL_HINT = (
    "add numpy to rubi's environment: `pipx inject rubi-memory numpy`, "
    "or `pip install -e '.[semantic]'` in a checkout"
)
"""How a user turns the channel on."""

DISABLE_ENV = "RUBI_SEMANTIC"
"""Set to ``0`` to turn the channel off although the extra is installed (benchmarks
compare with and without)."""

_MISSING: list[str | None] = []
"""The answer of :func:`unavailable`, once asked (one item): process-wide and never
cleared, so a package installed or weights added while a process runs are seen by the
next process (the channel never switches on or off halfway through a process)."""


def weights_dir() -> Path:
    """The folder of the shipped model (``vectors.npy``, ``scales.npy``, ``vocab.txt``,
    ``model.json``): here, not in :mod:`rubi.semantic.encoder`, so that asking whether
    the channel can run does not import the encoder (``typing``, ``threading``: about
    5 ms of a cold recall hook that leaves the dense list out)."""
    from pathlib import Path

    return Path(__file__).with_name("weights")


def unavailable() -> str | None:
    """Why the channel cannot run here (a missing package or weights file), or None.

    Checks installed packages without importing them; the answer is cached.
    """
    if not _MISSING:
        import importlib.util

        weights = weights_dir()
        reason = None
        if importlib.util.find_spec("numpy") is None:
            reason = f"numpy is not installed ({INSTALL_HINT})"
        if reason is None and not (weights / "vectors.npy").is_file():
            reason = f"the model's weights are missing from {weights}"
        _MISSING.append(reason)
    return _MISSING[0]


def enabled() -> bool:
    """True when the channel runs: the extra is installed and ``RUBI_SEMANTIC`` is not
    ``0``."""
    import os

    return os.environ.get(DISABLE_ENV, "1") != "0" and unavailable() is None
