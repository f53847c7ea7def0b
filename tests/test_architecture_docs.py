"""``docs/architecture.md`` held to the code: its layer table lists every package in
the order the layering test enforces, its dependency table names exactly the runtime
dependencies of ``pyproject.toml``, and no docstring cites a design file the project
does not have."""

from __future__ import annotations

import re
import tomllib

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
