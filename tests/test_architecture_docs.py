"""``docs/architecture.md`` held to the code: its layer table lists every package in
the order the layering test enforces, its dependency table names exactly the runtime
dependencies of ``pyproject.toml``, no docstring cites a design file the project does
not have, a benchmark section cited anywhere is a heading of the page cited, and every
``bench/`` script the benchmarks page names exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from test_architecture import LAYERS, SRC

ROOT = SRC.parent.parent
DOC = ROOT / "docs" / "architecture.md"


def _table_rows(text: str, header: str) -> list[list[str]]:
    """The body rows of the markdown table whose header line starts with ``header``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_layer_table_lists_every_package_in_the_enforced_order() -> None:
    rows = _table_rows(DOC.read_text(encoding="utf-8"), "| layer | package |")
    documented = [tuple(re.findall(r"`(rubi\.[a-z_]+)`", row[1])) for row in rows]
    assert documented == list(LAYERS)
    assert [row[0] for row in rows] == [str(i) for i in range(1, len(rows) + 1)]


def test_every_package_on_disk_has_a_layer() -> None:
    on_disk = {
        f"rubi.{p.name}" for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    on_disk |= {f"rubi.{p.stem}" for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert on_disk == {name for group in LAYERS for name in group}


def _requirement_name(spec: str) -> str:
    return re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].strip().lower()


def test_the_dependency_table_names_exactly_the_runtime_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {_requirement_name(spec) for spec in project["project"]["dependencies"]}
    rows = _table_rows(DOC.read_text(encoding="utf-8"), "| package | what it does for rubi |")
    documented = {name.lower() for row in rows for name in re.findall(r"`([^`]+)`", row[0])}
    assert documented == declared


def test_docstrings_cite_only_documents_the_project_has() -> None:
    """A ``docs/<page>.md`` named in the source exists; no module cites a design file
    that lives outside the repository."""
    cited = re.compile(r"\b(docs/[A-Za-z0-9_-]+\.md|ARCHITECTURE\.md)")
    missing = []
    for path in sorted(SRC.rglob("*.py")):
        for name in sorted(set(cited.findall(path.read_text(encoding="utf-8")))):
            if not (ROOT / name).exists():
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, missing


BENCH_PAGES = ("benchmarks.md", "benchmarks-history.md")
_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^#{1,6} +(.+?) *#* *$")
# ``docs/<page>.md`` then, after its closing backticks, a comma or an opening bracket
# (or the word "section") and a quoted section name, which may run over a line break.
_SECTION_CITED = re.compile(
    r"docs/(benchmarks(?:-history)?\.md)`{0,2}\s*(?:,\s*|\(\s*|section\s+)+([\"'])(.{1,200}?)\2",
    re.DOTALL,
)
_ANCHOR_LINK = re.compile(r"\]\((?:docs/)?(benchmarks(?:-history)?\.md)#([^)\s]+)\)")


def _headings(page: str) -> list[str]:
    """The headings of ``docs/<page>`` outside fenced code, their backticks dropped."""
    found, fenced = [], False
    for line in (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(line)):
            found.append(match.group(1).replace("`", ""))
    return found


def _anchors(page: str) -> set[str]:
    """GitHub's anchors of the page's headings: lower case, punctuation but ``-`` and
    ``_`` dropped, spaces as ``-``, ``-1``, ``-2`` on repeats."""
    seen: dict[str, int] = {}
    anchors = set()
    for heading in _headings(page):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(f"{slug}-{count}" if count else slug)
    return anchors


def _citing_files() -> list[Path]:
    """Every file that may cite a benchmark section: code, tests, bench scripts, the
    docs, the README and the project's own notes."""
    files = [p for top in ("src", "tests", "bench") for p in (ROOT / top).rglob("*.py")]
    files += [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
    return files + sorted((ROOT / ".rubi" / "notes").glob("*.md"))


def test_a_cited_benchmark_section_is_a_heading_of_the_page_cited() -> None:
    """A benchmark page's path followed by a quoted section name (after a comma, a
    bracket or the word "section") names a heading of that page, or the start of one:
    a section moved or renamed leaves no citation behind."""
    headings = {page: _headings(page) for page in BENCH_PAGES}
    cited, missing = 0, []
    for path in _citing_files():
        for page, _quote, name in _SECTION_CITED.findall(path.read_text(encoding="utf-8")):
            cited += 1
            section = " ".join(name.replace("`", "").split())
            if not any(h == section or h.startswith(section) for h in headings[page]):
                missing.append(f"{path.relative_to(ROOT)}: docs/{page}, {section!r}")
    assert cited >= 20, cited
    assert not missing, missing


def test_links_into_the_benchmark_pages_name_their_headings() -> None:
    anchors = {page: _anchors(page) for page in BENCH_PAGES}
    linked, missing = 0, []
    for path in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for page, anchor in _ANCHOR_LINK.findall(path.read_text(encoding="utf-8")):
            linked += 1
            if anchor not in anchors[page]:
                missing.append(f"{path.relative_to(ROOT)}: {page}#{anchor}")
    assert linked >= 20, linked
    assert not missing, missing


def test_every_bench_script_the_benchmarks_page_names_exists() -> None:
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\bbench/[\w/.-]+?\.py\b", page))
    assert len(named) >= 10, named
    assert not sorted(n for n in named if not (ROOT / n).is_file())
