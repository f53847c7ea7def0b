"""Preparing one folder of a Hugo documentation site as a notes corpus: its pages are
copied unchanged into a fresh folder that mirrors the checkout, nothing outside the
folder comes along, and dropped subfolders, redirect pages and stubs are left out with
one line each; a stale output and a folder that climbs out are refused."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script, write


@pytest.fixture(scope="module")
def corpus() -> ModuleType:
    return load_script("bench/hugo_docs_corpus.py")


LONG = "A page that explains how to do something in real detail. " * 5


def site(tmp_path: Path) -> Path:
    checkout = tmp_path / "docs-site"
    base = checkout / "docs" / "v2"
    write(base / "guide.md", f"---\ntitle: Guide\n---\n\n# Guide\n\n{LONG}\n")
    write(base / "api" / "_index.md", f"---\ntitle: API\n---\n\n{LONG}\n")
    include = '---\ntitle: k6/http\n---\n\n# k6/http\n\n{{< docs/shared lookup="http.md" >}}\n'
    write(base / "api" / "http" / "_index.md", include)
    empty = "---\ntitle: Set up\n---\n\n# Set up\n\n<!-- TODO: Add content -->\n\n{{< section >}}\n"
    write(base / "setup" / "_index.md", empty)
    write(base / "api" / "go.md", "---\ntitle: API\nredirect: https://pkg.go.dev/x\n---\n")
    write(base / "shared" / "http.md", f"---\ntitle: fragment\n---\n\n{LONG}\n")
    write(base / "image.png", "not a page")
    write(checkout / "docs" / "v1" / "guide.md", f"# Old guide\n\n{LONG}\n")
    (base / "link.md").symlink_to(base / "guide.md")
    return checkout


def test_pages_of_the_folder_are_copied_and_fragments_redirects_and_stubs_left_out(
    tmp_path: Path, corpus: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = site(tmp_path)
    out = tmp_path / "md"
    assert corpus.main([str(checkout), "docs/v2", str(out), "--drop", "shared"]) == 0
    base = out / "docs" / "v2"
    kept = sorted(p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file())
    assert kept == ["api/_index.md", "guide.md"]
    assert (base / "guide.md").read_text() == (checkout / "docs/v2/guide.md").read_text()
    assert not (out / "docs" / "v1").exists()
    err = capsys.readouterr().err
    assert "left out (dropped folder): shared/http.md" in err
    assert "left out (stub): api/http/_index.md" in err
    assert "left out (stub): setup/_index.md" in err
    assert "left out (redirect): api/go.md" in err
    assert "2 pages written" in err


def test_the_stub_threshold_counts_words_outside_shortcodes_and_comments(
    corpus: ModuleType,
) -> None:
    body = "---\ntitle: t\n---\n" + "{{< admonition >}}" * 30 + "<!-- " + "w " * 40 + "-->"
    assert corpus.left_out(body + " one two three", 4) == "stub"
    assert corpus.left_out(body + " one two three four", 4) is None
    assert corpus.left_out("no frontmatter at all, five words", 5) is None


def test_an_existing_output_a_missing_folder_and_a_climbing_folder_are_refused(
    tmp_path: Path, corpus: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    checkout = site(tmp_path)
    out = tmp_path / "md"
    assert corpus.main([str(checkout), "docs/v2", str(out)]) == 0
    assert corpus.main([str(checkout), "docs/v2", str(out)]) == 2
    assert "exists already" in capsys.readouterr().out
    assert corpus.main([str(checkout), "docs/v9", str(tmp_path / "o2")]) == 2
    assert "not a folder" in capsys.readouterr().out
    assert corpus.main([str(checkout), "../docs-site", str(tmp_path / "o3")]) == 2
    assert "without '..'" in capsys.readouterr().out
    assert not (tmp_path / "o3").exists()
