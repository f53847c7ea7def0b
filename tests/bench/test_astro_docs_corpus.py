"""Preparing one language of the Astro documentation as a notes corpus: its .mdx pages
become .md files in a fresh folder that mirrors the checkout, stub pages and retired
integration pages are left out with one line each, and a stale output is refused."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script, write


@pytest.fixture(scope="module")
def corpus() -> ModuleType:
    return load_script("bench/astro_docs_corpus.py")


LONG = "A guide with real content. " * 60


def docs(tmp_path: Path) -> Path:
    checkout = tmp_path / "astro-docs"
    base = checkout / "src" / "content" / "docs" / "fr"
    write(base / "guides" / "routing.mdx", f"---\ntitle: Routage\n---\n\n{LONG}\n")
    write(base / "guides" / "cms" / "keystone.mdx", "---\ntitle: K\nstub: true\n---\n\nOne line.\n")
    retired = "---\ntitle: '@astrojs/tailwind'\n---\n\n:::caution\nUse the Vite plugin.\n:::\n"
    write(base / "guides" / "integrations-guide" / "tailwind.mdx", retired)
    write(base / "guides" / "integrations-guide" / "react.mdx", f"---\ntitle: R\n---\n{LONG}")
    write(base / "notes.txt", "not a page")
    write(checkout / "src" / "content" / "docs" / "ko" / "index.mdx", "---\ntitle: ko\n---\n")
    return checkout


def test_pages_are_copied_as_md_and_stubs_and_retired_pages_are_left_out(
    tmp_path: Path, corpus: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = docs(tmp_path)
    out = tmp_path / "astro-md"
    assert corpus.main([str(checkout), str(out), "fr"]) == 0
    base = out / "src" / "content" / "docs" / "fr"
    kept = sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
    assert kept == ["guides/integrations-guide/react.md", "guides/routing.md"]
    source = checkout / "src" / "content" / "docs" / "fr" / "guides" / "routing.mdx"
    assert (base / "guides" / "routing.md").read_text() == source.read_text()
    assert not (out / "src" / "content" / "docs" / "ko").exists()
    err = capsys.readouterr().err
    assert "left out (stub): guides/cms/keystone.mdx" in err
    assert "left out (retired): guides/integrations-guide/tailwind.mdx" in err
    assert "2 pages written" in err


def test_an_existing_output_a_missing_language_and_a_bad_name_are_refused(
    tmp_path: Path, corpus: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = docs(tmp_path)
    out = tmp_path / "astro-md"
    assert corpus.main([str(checkout), str(out), "fr"]) == 0
    assert corpus.main([str(checkout), str(out), "fr"]) == 2
    assert "exists already" in capsys.readouterr().out
    assert corpus.main([str(checkout), str(tmp_path / "other"), "es"]) == 2
    assert "no src/content/docs/es" in capsys.readouterr().out
    assert corpus.main([str(checkout), str(tmp_path / "other"), "../fr"]) == 2
    assert "not a language folder name" in capsys.readouterr().err
    assert corpus.main([str(checkout)]) == 2
