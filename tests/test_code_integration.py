"""The code map joined to the vault: one index, one graph, map pages in the vault."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rubi import app
from rubi.cli.main import cli
from rubi.core.errors import RubiError
from rubi.core.tokens import estimate_tokens
from rubi.sync import graph_for, load_code_map

from helpers import rubi_project, write


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = rubi_project(
        tmp_path / "proj",
        {
            "pkg/__init__.py": "",
            "pkg/app.py": "from pkg.util import helper\n\n\nclass SmartRouter:\n    pass\n\n\n"
            "def dispatch_request(req):\n    return helper(req)\n",
            "pkg/util.py": "def helper(x):\n    return x\n",
            "pkg/cli.py": "from pkg.app import dispatch_request\n",
        },
    )
    write(
        root / ".rubi" / "notes" / "decision-routing.md",
        "---\ntype: decision\nfiles: [pkg/app.py]\n---\n# Route with a trie\n\n"
        "Requests are matched by prefix, zanzibar style.\n",
    )
    return root


def test_one_search_spans_notes_and_code(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    report = app.index(paths)
    assert report.code_files == 4
    assert "map.md" in report.pages_written
    hits = app.search(paths, "dispatch_request", refresh=False).hits
    assert hits[0].id == "pkg/app.py" and hits[0].kind == "file"
    assert any(w.startswith('named: "dispatch_request"') for w in hits[0].why)
    assert any(w == "imported by 1" for w in hits[0].why)
    # The note is about pkg/app.py, so the file comes with it, linked.
    hits = app.search(paths, "zanzibar", refresh=False).hits
    assert hits[0].id == "notes/decision-routing"
    linked = {h.id: h.why for h in hits[1:]}
    # (the reason says what the walk's vote rests on: "(from the only top match)")
    assert 'linked to "Route with a trie" (from the only top match)' in linked["pkg/app.py"]
    code_only = app.search(paths, "SmartRouter", scope="code", refresh=False).hits
    assert code_only and all(h.kind == "file" for h in code_only)
    g = graph_for(paths).graph
    assert g.has_edge("notes/decision-routing", "pkg/app.py", key="about_file")
    assert g.has_edge("pkg/app.py", "pkg/util.py", key="imports")
    assert g.has_edge("pkg/app.py", "module:pkg", key="in_module")


def test_map_pages_are_deterministic_and_keep_the_summary(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    app.index(paths)
    text = app.map_text(paths)
    assert estimate_tokens(text) <= 500
    assert "[[notes/decision-routing|Route with a trie]]" in text
    assert app.index(paths).pages_written == []  # nothing changed: no rewrite
    app.write_summary(paths, "map", "Start at pkg/app.py.")
    write(
        project / "pkg" / "util.py",
        "def helper(x):\n    return x * 2\n\n\ndef other():\n    pass\n",
    )
    report = app.index(paths)
    assert report.code_changed == 1
    assert "Start at pkg/app.py." in app.map_text(paths)
    app.write_summary(paths, "module:pkg", "The whole app.")
    assert "The whole app." in app.map_text(paths, "pkg")
    with pytest.raises(RubiError, match="no such module"):
        app.map_text(paths, "nope")
    with pytest.raises(RubiError, match="target must be"):
        app.write_summary(paths, "elsewhere", "x")


def test_deleted_code_file_leaves_index_and_graph(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    app.index(paths)
    (project / "pkg" / "cli.py").unlink()
    report = app.index(paths)
    assert report.code_deleted == 1
    assert "pkg/cli.py" not in graph_for(paths).graph
    assert all(h.id != "pkg/cli.py" for h in app.search(paths, "cli", refresh=False).hits)


def test_a_body_edit_reindexes_the_file_only(project: Path) -> None:
    """An edit that keeps the file's shape (imports, names) changes its text in the
    index: no map page is rewritten and the graph snapshot is not rewritten."""
    paths = app.locate(project / ".rubi")
    app.index(paths)
    pages = {p: p.read_bytes() for p in (project / ".rubi").rglob("*.md")}
    snapshot = paths.graph_file.stat().st_mtime_ns
    app_py = project / "pkg" / "app.py"
    app_py.write_text(app_py.read_text() + "# quixotic comment\n", encoding="utf-8")
    report = app.index(paths)
    assert report.code_changed == 1 and report.pages_written == []
    assert {p: p.read_bytes() for p in (project / ".rubi").rglob("*.md")} == pages
    assert paths.graph_file.stat().st_mtime_ns == snapshot
    hits = app.search(paths, "quixotic", refresh=False).hits
    assert hits and hits[0].id == "pkg/app.py"
    assert "pkg/app.py" in graph_for(paths).graph
    code_map = load_code_map(paths)
    assert code_map is not None and code_map.stats.reused_shape
    assert code_map.files["pkg/app.py"].size == app_py.stat().st_size


def test_broken_summary_markers_are_never_overwritten(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    app.index(paths)
    page = paths.root / "map.md"
    broken = page.read_text(encoding="utf-8").replace("<!-- rubi:summary:end -->", "") + "mine\n"
    page.write_text(broken, encoding="utf-8")
    write(project / "pkg" / "new.py", "import pkg.app\n")
    report = app.index(paths)
    assert any(w.path == "map.md" and "markers" in w.message for w in report.warnings)
    assert page.read_text(encoding="utf-8") == broken


def test_map_cli(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    runner = CliRunner()
    result = runner.invoke(cli, ["map"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# Code map")
    result = runner.invoke(cli, ["map", "pkg"])
    assert result.exit_code == 0 and "## Files" in result.output
    result = runner.invoke(cli, ["map", "--write-summary", "-"], input="From stdin.\n")
    assert result.exit_code == 0 and "From stdin." in runner.invoke(cli, ["map"]).output
    result = runner.invoke(cli, ["index", "--json"])
    assert json.loads(result.output)["code"]["files"] == 4
    # A summary holding a marker would break the page: refused, page untouched.
    before = (project / ".rubi" / "map.md").read_text(encoding="utf-8")
    bad = "x <!-- rubi:summary:end --> y"
    result = runner.invoke(cli, ["map", "--write-summary", bad])
    assert result.exit_code != 0 and "marker" in result.output
    assert (project / ".rubi" / "map.md").read_text(encoding="utf-8") == before


def test_map_needs_a_project(tmp_path: Path) -> None:
    write(tmp_path / "v" / "a.md", "x")
    result = CliRunner().invoke(cli, ["map", "--vault", str(tmp_path / "v")])
    assert result.exit_code == 1 and "not a project vault" in result.output


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Flask.dispatch_request", ["Flask.dispatch_request", "dispatch_request"]),
        ("SmartRouter", ["SmartRouter"]),
        ("HTTPServer", ["HTTPServer"]),
        ("request", []),  # a plain word: left to the text match
        ("Config", []),
        ("__init__", []),
        ("app", []),
    ],
)
def test_which_symbols_count_as_named(name: str, expected: list[str]) -> None:
    from rubi.graph.code import symbol_names

    assert symbol_names(name) == expected


def test_why_names_the_part_that_matched(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    app.index(paths)
    hits = {h.id: h for h in app.search(paths, "dispatch_request", refresh=False).hits}
    # util.py matches nothing of "dispatch"; cli.py only mentions it; neither may claim
    # the whole identifier unless it has it.
    for hit in hits.values():
        for why in hit.why:
            if why.startswith("text match") and "dispatch_request" in why:
                root = project if hit.kind == "file" else paths.root
                text = (root / hit.path).read_text(encoding="utf-8")
                assert "dispatch_request" in text, hit.id


def test_generated_pages_do_not_outrank_what_they_echo(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    app.index(paths)
    ids = [h.id for h in app.search(paths, "Route with a trie", refresh=False).hits]
    assert ids[0] == "notes/decision-routing"
    assert ids.index("map") > ids.index("pkg/app.py")


@pytest.mark.parametrize(
    ("path", "is_test"),
    [
        ("tests/test_app.py", True),
        ("src/flask/testing.py", False),
        ("command_test.go", True),
        ("src/router.test.ts", True),
        ("typings/index.test-d.ts", True),
        ("typings/index.d.ts", False),
        ("src/FooTest.java", True),
        ("src/contest.py", False),
        ("pkg/conftest.py", True),
        # Kotlin Multiplatform's test source sets and Swift's test targets
        ("core/src/commonTest/kotlin/a/Helpers.kt", True),
        ("core/src/androidUnitTest/kotlin/a/Robo.kt", True),
        ("Tests/MoyaTests/EndpointSpec.swift", True),
        ("core/src/jsTest/kotlin/a/BrowserTest.js.kt", True),  # a platform file of a test
        ("core/src/commonMain/kotlin/a/Latest.kt", False),
        ("core/src/jsMain/kotlin/a/Storage.js.kt", False),
        ("core/src/contestMain/kotlin/a/Contest.kt", False),
        ("core/src/commonMain/kotlin/a/Contest.kt", False),
        # a package named in camel case ending in Test is code, not a source set
        ("app/src/main/kotlin/com/x/abTest/AbRouter.kt", False),
        ("app/src/main/java/com/x/speedTest/Meter.java", False),
        ("core/src/jvmTestUtils/kotlin/a/Helpers.kt", False),
        ("core/src/integrationTest/java/a/Flow.java", True),
        # Swift: the package's Tests/ root and UI test targets (an upper case before it)
        ("Tests/Helpers.swift", True),
        ("MyAppUITests/Launch.swift", True),
        # PHPUnit's test classes, beside the code or in tests/
        ("src/Schema/FieldMetadataTest.php", True),
        ("src/Schema/FieldMetadata.php", False),
        # below a main source set a folder is a package; above it, still a test folder
        ("interop/src/main/kotlin/a/metadata/specs/ClassInspector.kt", False),
        ("lib/src/commonMain/kotlin/a/testing/CliktTesting.kt", False),
        ("lib/src/main/java/a/specs/FooTest.java", True),
        ("tests/src/commonMain/kotlin/a/ListenerVerifier.kt", True),
        ("spec/src/main/ruby/a.rb", True),
    ],
)
def test_test_paths_are_not_central(path: str, is_test: bool) -> None:
    from rubi.codemap.render import is_test_path

    assert is_test_path(path) is is_test


def test_a_full_build_indexes_map_pages_in_the_same_pass(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    report = app.index(paths, full=True)
    assert {"map.md", "modules/pkg.md"} <= set(report.pages_written)
    # One commit: a single Whoosh segment, and the pages are notes of the graph.
    assert len(list(paths.whoosh_dir.glob("*.seg"))) == 1
    g = graph_for(paths).graph
    assert "map" in g and "modules/pkg" in g
    hits = app.search(paths, "code map", scope="notes", refresh=False).hits
    assert "map" in {h.id for h in hits}
    # Nothing is left to do afterwards, and a second full build changes no page.
    assert not app.index(paths).changed
    again = app.index(paths, full=True)
    assert again.pages_written == [] and len(list(paths.whoosh_dir.glob("*.seg"))) == 1


def test_a_capitalised_function_is_named_by_a_one_word_query(tmp_path: Path) -> None:
    root = rubi_project(
        tmp_path / "api",
        {
            "api/params.py": "class Depends:\n    pass\n",
            "api/functions.py": "def Depends(dependency=None):\n    return dependency\n",
            "api/other.py": "from api.functions import Depends\n\nx = Depends()\ny = Depends()\n",
        },
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    hits = app.search(paths, "Depends", scope="code", refresh=False).hits
    assert {h.id for h in hits[:2]} == {"api/params.py", "api/functions.py"}
    assert all(any(w.startswith('named: "Depends"') for w in h.why) for h in hits[:2])


def test_a_variant_file_ranks_below_its_twin_and_says_so(tmp_path: Path) -> None:
    body = "def bind_json(x):\n    return x\n\n\ndef bind_form(x):\n    return x\n\n\n"
    body += "def validate(x):\n    return x\n\n\ndef default_binding(x):\n    return x\n"
    root = rubi_project(
        tmp_path / "variants",
        {
            "binding/binding.py": body + "\n\ndef bind_msgpack(x):\n    return x\n",
            "binding/binding_nomsgpack.py": body,
            "binding/query.py": "def bind_query(x):\n    return x\n",
        },
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    g = graph_for(paths).graph
    assert g.nodes["binding/binding.py"]["twins"] == ("binding/binding_nomsgpack.py",)
    assert "twins" not in g.nodes["binding/query.py"]
    hits = app.search(paths, "validate binding", scope="code", refresh=False).hits
    ids = [h.id for h in hits]
    twin = "binding/binding_nomsgpack.py"
    first = min(ids.index("binding/binding.py"), ids.index(twin))
    second = hits[max(ids.index("binding/binding.py"), ids.index(twin))]
    assert ids[first] in {"binding/binding.py", twin} and second.id != ids[first]
    assert f"variant of {ids[first]}" in second.why


def test_why_names_the_abbreviation_that_matched(tmp_path: Path) -> None:
    root = rubi_project(
        tmp_path / "abbr",
        {
            "web/app.py": "def create():\n    '''Build the application object.'''\n",
            "web/other.py": "def unrelated():\n    return 1\n",
        },
    )
    paths = app.locate(root / ".rubi")
    app.index(paths)
    hit = app.search(paths, "application factory", scope="code", refresh=False).hits[0]
    assert hit.id == "web/app.py"
    why = next(w for w in hit.why if w.startswith("text match:"))
    # "app" matched the file name; it stays beside "application" (not a piece of it).
    assert "app (title)" in why and "application" in why


def test_a_search_after_an_index_format_change_keeps_the_code(project: Path) -> None:
    from rubi.sync import forget_vault_syncs
    from rubi.sync.rows import open_store

    paths = app.locate(project / ".rubi")
    app.index(paths)
    store = open_store(paths.store_file, create=False)
    assert store is not None
    with store.transaction():
        store.set_meta({"schema": -1})  # as if written by another version of rubi
    store.close()
    forget_vault_syncs()  # a new process
    # The search's refresh rebuilds everything: notes and code alike.
    hits = app.search(paths, "dispatch_request", scope="code").hits
    assert hits and hits[0].id == "pkg/app.py"
