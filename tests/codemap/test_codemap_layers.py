"""The code map's public API. Its place in the layers is held by tests/test_architecture.py."""

from __future__ import annotations

import rubi.codemap


def test_public_api() -> None:
    assert set(rubi.codemap.__all__) >= {
        "build_code_map",
        "render_map",
        "render_module_page",
        "extract_curated",
        "CodeMap",
        "CodeFile",
        "Module",
        "Symbol",
        "NoteRef",
    }
    for name in rubi.codemap.__all__:
        assert getattr(rubi.codemap, name) is not None
