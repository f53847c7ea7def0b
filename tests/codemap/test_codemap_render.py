"""Rendering of map.md and module pages: golden files, budget, curated blocks."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from rubi.codemap import (
    CodeMap,
    CodeMapError,
    CuratedSummaryError,
    NoteRef,
    build_code_map,
    extract_curated,
    files_for_note,
    render_map,
    render_module_page,
)
from rubi.core.tokens import estimate_tokens

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("RUBI_UPDATE_GOLDEN") == "1"
"""Run with RUBI_UPDATE_GOLDEN=1 to rewrite the golden files after a deliberate change."""

SHOP = {
    "pyproject.toml": "[project]\nname = 'shop'\n",
    "src/shop/__init__.py": "from .app import create_app\n",
    "src/shop/app.py": "from .db import Session\nfrom .auth.login import login\n"
    "class Shop:\n    def run(self): ...\ndef create_app(): ...\n",
    "src/shop/db.py": "import sqlalchemy\nclass Session: ...\nENGINE = None\n",
    "src/shop/auth/__init__.py": "",
    "src/shop/auth/login.py": "from ..db import Session\nfrom .tokens import issue\n"
    "def login(): ...\n",
    "src/shop/auth/tokens.py": "import jwt\nfrom shop.db import ENGINE\ndef issue(): ...\n",
    "tests/test_app.py": "from shop import create_app\nfrom shop.auth.login import login\n",
    "tests/test_db.py": "from shop.db import Session\n",
    "tests/conftest.py": "import pytest\n",
}
NOTES = [
    NoteRef(
        "notes/decision-jwt", "Use JWT | not cookies", "decision", "active", ("src/shop/auth/",)
    ),
    NoteRef(
        "notes/gotcha-session",
        "Session is not thread-safe",
        "gotcha",
        "active",
        ("src/shop/db.py",),
    ),
    NoteRef(
        "notes/decision-old", "Use cookies", "decision", "superseded", ("./src/shop/auth/login.py",)
    ),
    NoteRef("notes/how-to-test", "Run the tests", "how-to", "active", ("tests/test_app.py",)),
]


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"golden {name} differs"


@pytest.fixture
def shop(make_repo: Callable[..., Path]) -> CodeMap:
    return build_code_map(make_repo(SHOP))


def test_map_golden(shop: CodeMap) -> None:
    text = render_map(shop, NOTES, "A small shop: Flask-like app, SQL sessions, JWT auth.")
    _check_golden("shop-map.md", text)
    assert estimate_tokens(text) <= 500


def test_module_pages_golden(shop: CodeMap) -> None:
    assert sorted(shop.modules) == ["shop", "shop/auth", "tests"]
    _check_golden("shop-module-shop.md", render_module_page(shop, "shop", NOTES, None))
    page = render_module_page(shop, "shop/auth", NOTES, "Login and tokens.")
    _check_golden("shop-module-shop-auth.md", page)
    assert "[[modules/shop|shop]]" in page and "[[modules/tests|tests]]" in page


def test_output_is_deterministic_across_runs_and_checkouts(
    make_repo: Callable[..., Path], tmp_path: Path
) -> None:
    first = make_repo(SHOP, name="one")
    second = make_repo(SHOP, name="elsewhere")
    cache = tmp_path / "cache.json"
    maps = [build_code_map(first, cache), build_code_map(first, cache), build_code_map(second)]
    assert maps[1].stats.parsed == 0
    texts = {render_map(m, NOTES, None) for m in maps}
    pages = {render_module_page(m, "shop", NOTES, None) for m in maps}
    assert len(texts) == 1 and len(pages) == 1


def test_curated_summary_survives_regeneration(shop: CodeMap) -> None:
    summary = "Entry point: `create_app`.\n\n- auth lives in `shop/auth`"
    text = render_map(shop, NOTES, summary)
    assert extract_curated(text) == summary
    regenerated = render_map(shop, NOTES, extract_curated(text))
    assert regenerated == text
    assert extract_curated(render_map(shop, NOTES, None)) is None
    page = render_module_page(shop, "tests", NOTES, summary)
    assert extract_curated(page, "modules/tests.md") == summary


def test_broken_markers_are_a_user_error(shop: CodeMap) -> None:
    text = render_map(shop, NOTES, "kept")
    with pytest.raises(CuratedSummaryError, match=r"^map\.md: summary markers are broken"):
        extract_curated(text.replace("<!-- rubi:summary:end -->", ""))
    with pytest.raises(CuratedSummaryError, match=r"modules/x\.md"):
        extract_curated(text + text, "modules/x.md")
    with pytest.raises(CuratedSummaryError, match=r"contains a rubi:summary marker"):
        render_map(shop, NOTES, "<!-- rubi:summary:end -->")
    with pytest.raises(CodeMapError, match=r"^nope: no such module"):
        render_module_page(shop, "nope", NOTES, None)


def test_note_files_match_paths_and_folders(shop: CodeMap) -> None:
    assert files_for_note(shop, ["src/shop/auth"]) == (
        "src/shop/auth/__init__.py",
        "src/shop/auth/login.py",
        "src/shop/auth/tokens.py",
    )
    assert files_for_note(shop, ["./src\\shop\\db.py", "/src/shop/db.py", "gone.py", ""]) == (
        "src/shop/db.py",
    )


def test_map_fits_the_budget_on_a_large_repository(make_repo: Callable[..., Path]) -> None:
    files: dict[str, str] = {}
    classes = "".join(f"export class VeryLongGeneratedClassName{i} {{}}\n" for i in range(5))
    for m in range(40):
        package = f"packages/package-with-a-long-name-{m:02d}"
        following = f"package-with-a-long-name-{(m + 1) % 40:02d}"
        for f in range(8):
            files[f"{package}/src/component_{f}_with_long_name.ts"] = (
                f"import '../../{following}/src/component_0_with_long_name'\n{classes}"
            )
        files[f"{package}/package.json"] = "{}"
    notes = [
        NoteRef(
            f"notes/decision-{i}",
            f"A rather long decision title number {i} " * 2,
            "decision",
            "active",
            (f"packages/package-with-a-long-name-{i:02d}/src/",),
        )
        for i in range(30)
    ]
    code_map = build_code_map(make_repo(files, use_git=False))
    text = render_map(code_map, notes, "Summary kept whole.")
    assert estimate_tokens(text) <= 500
    assert "## Modules" in text and "## Central files" in text
    assert "Summary kept whole." in text and 'rubi search "words"' in text


def test_counts_of_one_are_singular_on_the_map_and_module_pages(
    make_repo: Callable[..., Path],
) -> None:
    code_map = build_code_map(
        make_repo({"pyproject.toml": "[project]\nname = 'one'\n", "one.py": "import os\n"})
    )
    text = render_map(code_map, [], "")
    assert "1 file in 1 module" in text and "1 files" not in text and "1 modules" not in text
    (module,) = code_map.modules
    page = render_module_page(code_map, module, [], "")
    assert " · 1 file · " in page and "1 files" not in page


def test_the_modules_the_map_leaves_out_are_named(make_repo: Callable[..., Path]) -> None:
    """The map lists 10 modules; the line for the rest named `rubi map`, the command
    that printed the page, so a reader could not reach them. It names them now (as
    many as fit), each a name `rubi map <module>` opens."""
    files = {f"packages/p{m:02d}/package.json": "{}" for m in range(14)}
    files |= {f"packages/p{m:02d}/src/index.ts": "export const x = 1\n" for m in range(14)}
    code_map = build_code_map(make_repo(files, use_git=False))
    assert len(code_map.modules) == 14
    more = [line for line in render_map(code_map, [], "").splitlines() if "more:" in line]
    assert len(more) == 1 and more[0].startswith("- … 4 more: ")
    assert "`rubi map`" not in more[0]
    listed = {
        line.split("|")[1].split("]]")[0]
        for line in render_map(code_map, [], "").splitlines()
        if line.startswith("- [[modules/")
    }
    named = {n.strip("` ") for n in more[0].split(": ", 1)[1].split(",")}
    assert named == set(code_map.modules) - listed and len(named) == 4


def test_a_long_list_of_left_out_modules_is_counted_past_its_names(
    make_repo: Callable[..., Path],
) -> None:
    files = {f"packages/package-with-a-long-name-{m:02d}/package.json": "{}" for m in range(40)}
    files |= {
        f"packages/package-with-a-long-name-{m:02d}/src/index.ts": "export const x = 1\n"
        for m in range(40)
    }
    code_map = build_code_map(make_repo(files, use_git=False))
    text = render_map(code_map, [], "")
    (more,) = [line for line in text.splitlines() if " more: " in line]
    assert more.endswith(" and 25 others") and "`package-with-a-long-name-10`" in more
    assert estimate_tokens(text) <= 500


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        ({"src/a.cpp": "", "src/b.cc": "", "src/c.c": ""}, "6 files in 2 modules (cpp 5, c 1)."),
        ({"src/a.c": "", "src/b.c": "", "src/c.cpp": ""}, "6 files in 2 modules (c 5, cpp 1)."),
        (
            {"src/a.m": "", "src/b.m": "", "src/c.mm": "", "src/d.cpp": ""},
            "7 files in 2 modules (objc 6, cpp 1).",
        ),
        ({"src/A.C": "", "src/B.C": "", "src/c.cpp": ""}, "6 files in 2 modules (c 5, cpp 1)."),
    ],
    ids=["a C++ project", "a C project", "an Objective-C project", "upper-case extensions"],
)
def test_headers_count_with_the_language_whose_sources_outnumber(
    make_repo: Callable[..., Path], sources: dict[str, str], expected: str
) -> None:
    """The map's header said ``c`` first for spdlog (a ``.h`` file's extension says C);
    a header counts as C++ where C++ sources outnumber C sources."""
    headers = {f"include/h{n}.h": "int f(void);\n" for n in range(3)}
    text = render_map(build_code_map(make_repo(sources | headers, use_git=False)), [], "")
    assert expected in text.splitlines()
