"""The held-out evaluation sets under bench/sets and the scripts that check and draw them:
the format check reports every broken promise of the shared set format (split by id,
unique ids, relevant paths that are real files inside the checkout at the recorded
commit), and the seeded draw is reproducible and leaves out index pages, stubs and
symlinks."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import REPO, load_script

SETS = REPO / "bench" / "sets"


@pytest.fixture(scope="module")
def check() -> ModuleType:
    return load_script("bench/sets_check.py")


@pytest.fixture(scope="module")
def sample() -> ModuleType:
    return load_script("bench/sets_sample.py")


def rule(name: str, query_id: str) -> str:
    """The split rule as the format states it, written out independently."""
    first = hashlib.sha256(f"{name}:{query_id}".encode()).hexdigest()[0]
    return "dev" if first in "02468ace" else "test"


def write_set(
    folder: Path,
    check: ModuleType,
    rows: list[dict[str, Any]],
    *,
    commit: str = "a" * 40,
    folder_in_repo: str = "notes",
) -> Path:
    folder.mkdir(parents=True)
    meta = {
        "name": folder.name,
        "kind": "notes",
        "description": "a test set",
        "license": "CC0-1.0",
        "sources": [{"repo": "owner/name", "commit": commit, "folder": folder_in_repo}],
        "languages": ["en"],
        "split_rule": check.SPLIT_RULE,
        "made": "2026-12-04",
    }
    (folder / "set.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "README.md").write_text("# a test set\n", encoding="utf-8")
    lines = [json.dumps(row, ensure_ascii=False) for row in rows]
    (folder / "queries.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def rows_for(name: str, relevant: dict[str, list[str]]) -> list[dict[str, Any]]:
    return [
        {
            "id": qid,
            "query": f"question {qid}",
            "relevant": rel,
            "split": rule(name, qid),
            "lang": "en",
        }
        for qid, rel in relevant.items()
    ]


def both_splits(name: str, count: int = 8) -> list[str]:
    """At least ``count`` ids, the first ones that put questions in both splits of ``name``."""
    ids = [f"q{n:03d}" for n in range(count)]
    while {rule(name, qid) for qid in ids} != {"dev", "test"}:
        ids.append(f"q{len(ids):03d}")
    return ids


def _set_folders() -> list[Path]:
    """The committed sets' folders: every folder under ``bench/sets`` but Python's own
    (``__pycache__``, written there when a test imports ``issues_check.py``)."""
    return sorted(p for p in SETS.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))


def test_every_committed_set_is_well_formed_and_split_by_its_ids(check: ModuleType) -> None:
    folders = _set_folders()
    assert len(folders) >= 5
    for folder in folders:
        assert check.check_set(folder) == [], folder.name
        meta = json.loads((folder / "set.json").read_text(encoding="utf-8"))
        if meta["kind"] == "code":
            rows = [
                row
                for path in sorted((folder / "annotations").glob("*.json"))
                for row in json.loads(path.read_text(encoding="utf-8"))
            ]
        else:
            text = (folder / "queries.jsonl").read_text(encoding="utf-8")
            rows = [json.loads(line) for line in text.splitlines()]
        for row in rows:
            assert row["split"] == rule(meta["name"], row["id"]), (folder.name, row["id"])


def test_committed_notes_sets_have_off_topic_questions_in_their_language(
    check: ModuleType,
) -> None:
    held_out = 0
    for folder in _set_folders():
        meta = json.loads((folder / "set.json").read_text(encoding="utf-8"))
        if meta["kind"] != "notes" or meta["name"] == "notes-qa":
            continue  # issue sets have no off-topic tasks; notes-qa is the tuned-on set
        held_out += 1
        rows = [
            json.loads(x) for x in (folder / "queries.jsonl").read_text("utf-8").split("\n") if x
        ]
        off = [r for r in rows if not r["relevant"]]
        on = [r for r in rows if r["relevant"]]
        minimum = (30, 10) if meta["languages"] == ["en"] else (15, 5)
        assert len(on) >= minimum[0] and len(off) >= minimum[1], folder.name
        assert {r["lang"] for r in rows} == set(meta["languages"])
        listed = (SETS / "README.md").read_text(encoding="utf-8")
        assert f"[{meta['name']}]({meta['name']}/)" in listed
    assert held_out >= 5


def test_split_for_follows_the_stated_rule(check: ModuleType) -> None:
    for n in range(200):
        assert check.split_for("some-set", f"id{n}") == rule("some-set", f"id{n}")
    assert {check.split_for("some-set", f"id{n}") for n in range(200)} == {"dev", "test"}


def test_a_split_that_disagrees_with_the_rule_is_reported(
    tmp_path: Path, check: ModuleType
) -> None:
    name = "flipped"
    ids = both_splits(name)
    rows = rows_for(name, {qid: [] for qid in ids})
    rows[0]["split"] = "test" if rows[0]["split"] == "dev" else "dev"
    problems = check.check_set(write_set(tmp_path / name, check, rows))
    assert len(problems) == 1
    assert f"split is {rows[0]['split']!r}" in problems[0]


def test_duplicate_ids_an_empty_split_and_a_foreign_language_are_reported(
    tmp_path: Path, check: ModuleType
) -> None:
    name = "dupes"
    dev_id = next(f"q{n}" for n in range(100) if rule(name, f"q{n}") == "dev")
    rows = rows_for(name, {dev_id: []}) * 2
    rows[1] = dict(rows[1], lang="fr")
    problems = check.check_set(write_set(tmp_path / name, check, rows))
    assert any("appears more than once" in p for p in problems)
    assert any("the test split is empty" in p for p in problems)
    assert any("lang 'fr'" in p for p in problems)


def test_relevant_paths_must_be_regular_files_inside_the_checkout(
    tmp_path: Path, check: ModuleType
) -> None:
    name = "paths"
    checkout = tmp_path / "checkout"
    notes = checkout / "notes"
    notes.mkdir(parents=True)
    (notes / "real.md").write_text("# real\n", encoding="utf-8")
    (notes / "folder.md").mkdir()
    outside = tmp_path / "outside.md"
    outside.write_text("# outside\n", encoding="utf-8")
    (notes / "link.md").symlink_to(outside)
    os.mkfifo(notes / "pipe.md")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.md").write_text("# x\n", encoding="utf-8")
    (notes / "linked-dir").symlink_to(tmp_path / "elsewhere")
    ids = both_splits(name)
    targets = [
        "real.md",
        "link.md",
        "missing.md",
        "folder.md",
        "pipe.md",
        "../outside.md",
        "linked-dir/x.md",
    ]
    relevant = {qid: [targets[i]] for i, qid in enumerate(ids[: len(targets)])}
    relevant.update({qid: ["real.md"] for qid in ids[len(targets) :]})
    folder = write_set(tmp_path / name, check, rows_for(name, relevant))

    problems = check.check_set(folder, checkout)

    flagged = {t for t in targets if any(repr(t) in p for p in problems)}
    assert flagged == set(targets) - {"real.md"}
    assert check.check_set(folder) == [p for p in problems if "'../outside.md'" in p]


def test_a_checkout_at_another_commit_is_reported(tmp_path: Path, check: ModuleType) -> None:
    checkout = tmp_path / "repo"
    (checkout / "notes").mkdir(parents=True)
    (checkout / "notes" / "a.md").write_text("# a\n", encoding="utf-8")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "a"],
    ):
        subprocess.run(["git", *args], cwd=checkout, check=True, env=env)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=checkout, env=env, capture_output=True, text=True
    ).stdout.strip()
    name = "commits"
    rows = rows_for(name, {qid: ["a.md"] for qid in both_splits(name)})

    stale = write_set(tmp_path / "stale" / name, check, rows, commit="b" * 40)
    fresh = write_set(tmp_path / "fresh" / name, check, rows, commit=head)

    assert [p for p in check.check_set(stale, checkout) if "HEAD is" in p] == [
        f"{checkout}: HEAD is {head}, the set was made at {'b' * 40}; check out the recorded commit"
    ]
    assert check.check_set(fresh, checkout) == []


def test_malformed_files_get_one_line_naming_the_file(tmp_path: Path, check: ModuleType) -> None:
    name = "broken"
    folder = write_set(tmp_path / name, check, rows_for(name, {"q": []}))
    queries = folder / "queries.jsonl"
    queries.write_bytes(b'{"id": "\xff"}\n')
    assert check.check_set(folder) == [f"{queries}: not UTF-8; re-save it as UTF-8"]
    queries.write_text("not json\n", encoding="utf-8")
    assert any(p.startswith(f"{queries}:1: not JSON") for p in check.check_set(folder))
    (folder / "set.json").write_text('{"name": 3}', encoding="utf-8")
    assert any("field 'name' must be a str" in p for p in check.check_set(folder))
    (folder / "README.md").unlink()
    assert check.check_set(folder) == [
        f"{folder / 'README.md'}: missing; every set folder needs it"
    ]


def test_main_exit_status(
    tmp_path: Path, check: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "cli"
    folder = write_set(
        tmp_path / name, check, rows_for(name, {qid: [] for qid in both_splits(name)})
    )
    assert check.main([str(folder)]) == 0
    assert check.main([str(tmp_path / "absent")]) == 2
    assert check.main([str(folder), "--checkout", str(tmp_path / "absent")]) == 2
    (folder / "README.md").unlink()
    assert check.main([str(folder)]) == 1
    assert "README.md: missing" in capsys.readouterr().out


def test_the_draw_skips_index_pages_stubs_and_symlinks_and_is_reproducible(
    tmp_path: Path, sample: ModuleType
) -> None:
    base = tmp_path / "corpus"
    (base / "sub").mkdir(parents=True)
    body = "word " * 100
    for n in range(30):
        (base / "sub" / f"note{n:02d}.md").write_text(f"# note {n}\n{body}", encoding="utf-8")
    (base / "index.md").write_text(body, encoding="utf-8")
    (base / "sub" / "README.md").write_text(body, encoding="utf-8")
    (base / "stub.md").write_text("# stub\nshort", encoding="utf-8")
    fm = "---\ntitle: x\ntags: [" + ", ".join(["t"] * 100) + "]\n---\n"
    (base / "frontmatter-only.md").write_text(fm + "# heading\n", encoding="utf-8")
    (base / "elsewhere.md").symlink_to(base / "sub" / "note00.md")
    (base / "sub" / "article.md").write_text(body, encoding="utf-8")

    paths = sample.candidates(base)

    assert paths == sorted(paths)
    assert len(paths) == 31
    assert not {
        "index.md",
        "sub/README.md",
        "stub.md",
        "frontmatter-only.md",
        "elsewhere.md",
    } & set(paths)
    assert sample.candidates(base, only="article.md") == ["sub/article.md"]
    first = sample.pick(paths, 28, 10)
    assert first == sample.pick(paths, 28, 10)
    assert first != sample.pick(paths, 29, 10)
    assert len(set(first)) == 10
    assert sample.pick(paths, 28, 100) == sample.pick(paths, 28, len(paths))


def test_only_an_index_name_draws_the_articles_of_a_site_made_of_slug_folders(
    tmp_path: Path, sample: ModuleType
) -> None:
    base = tmp_path / "site"
    body = "word " * 100
    for slug in ("flexbox", "grid", "margin"):
        (base / "css" / slug / "practice").mkdir(parents=True)
        (base / "css" / slug / "index.md").write_text(f"# {slug}\n{body}", encoding="utf-8")
        (base / "css" / slug / "practice" / "someone.md").write_text(body, encoding="utf-8")
    (base / "css" / "stub").mkdir()
    (base / "css" / "stub" / "index.md").write_text("# stub\nshort", encoding="utf-8")

    assert sample.candidates(base, only="index.md") == [
        "css/flexbox/index.md",
        "css/grid/index.md",
        "css/margin/index.md",
    ]
    assert all(p.endswith("someone.md") for p in sample.candidates(base))


def write_code_set(folder: Path, check: ModuleType, entries: list[dict[str, Any]]) -> Path:
    """A ``code`` set of one repository ``tiny`` with these annotation entries."""
    folder.mkdir(parents=True)
    meta = {
        "name": folder.name,
        "kind": "code",
        "description": "a test set",
        "license": "MIT",
        "sources": [{"repo": "owner/tiny", "commit": "b" * 40, "folder": ""}],
        "languages": ["en"],
        "split_rule": check.SPLIT_RULE,
        "made": "2026-12-05",
    }
    (folder / "set.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "README.md").write_text("# a code set\n", encoding="utf-8")
    repos = [{"name": "tiny", "language": "go", "url": "u", "revision": "b" * 40}]
    (folder / "repos.json").write_text(json.dumps(repos), encoding="utf-8")
    (folder / "annotations").mkdir()
    (folder / "annotations" / "tiny.json").write_text(json.dumps(entries), encoding="utf-8")
    return folder


def test_a_code_set_is_checked_in_the_code_benchmarks_format(
    tmp_path: Path, check: ModuleType
) -> None:
    name = "code-tiny"
    entries = [
        {
            "id": qid,
            "query": f"where is {qid}",
            "relevant": ["main.go"],
            "secondary": [],
            "category": "semantic",
            "split": rule(name, qid),
        }
        for qid in both_splits(name)
    ]
    checkouts = tmp_path / "repos"
    (checkouts / "tiny").mkdir(parents=True)
    (checkouts / "tiny" / "main.go").write_text("package main\n", encoding="utf-8")
    good = write_code_set(tmp_path / name, check, entries)
    assert check.check_set(good, checkouts) == []
    bad = [
        dict(entries[0], split="test" if entries[0]["split"] == "dev" else "dev"),
        dict(entries[1], id=entries[2]["id"], category="vibes"),
        dict(entries[2], relevant=["../escape.go"], secondary=["gone.go"]),
        *entries[3:],
    ]
    other = tmp_path / "other"
    broken = write_code_set(other / name, check, bad)
    problems = check.check_set(broken, checkouts)
    assert any("the rule gives" in p for p in problems)
    assert any("appears more than once" in p for p in problems)
    assert any("category must be one of" in p for p in problems)
    assert any("'../escape.go' must be relative" in p for p in problems)
    assert any("'gone.go' is not a file" in p for p in problems)


def code_checkout(
    checkout: Path, body: str, files: tuple[str, ...], extra: dict[str, str] | None = None
) -> Path:
    """A git repository at ``checkout`` whose ``files`` hold ``body`` (and ``extra``:
    path → its own text), every file added, nothing committed: what the code draw lists."""
    for rel, text in [*((rel, body) for rel in files), *(extra or {}).items()]:
        (checkout / rel).parent.mkdir(parents=True, exist_ok=True)
        (checkout / rel).write_text(text, encoding="utf-8")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for args in (["init", "-q"], ["add", "."]):
        subprocess.run(["git", *args], cwd=checkout, check=True, env=env)
    return checkout


def test_the_code_draw_knows_c_and_typescript_and_leaves_c_tests_out(tmp_path: Path) -> None:
    code_sample = load_script("bench/code_sample.py")
    checkout = code_checkout(
        tmp_path / "repo",
        "int x;\n" * 25,
        (
            "src/net.c",
            "src/net.h",
            "test.c",
            "src/test_read.c",
            "src/read_test.c",
            "examples/example.c",
            "source/index.ts",
            "source/index.test.ts",
            "source/view.tsx",
            "lib/tool.js",
        ),
        extra={"short.c": "int y;\n"},
    )

    c_files = code_sample.candidates(checkout, "c")
    ts_files = code_sample.candidates(checkout, "typescript")

    assert c_files == [("src/net.c", 25), ("src/net.h", 25)]
    assert [p for p, _ in ts_files] == ["source/index.ts", "source/view.tsx"]
    draw = code_sample.pick(c_files + ts_files, 1728, 3)
    assert draw == code_sample.pick(c_files + ts_files, 1728, 3)
    assert len(set(draw)) == 3


def test_the_code_draw_knows_cpp_and_kotlin_and_leaves_their_tests_out(tmp_path: Path) -> None:
    code_sample = load_script("bench/code_sample.py")
    checkout = code_checkout(
        tmp_path / "repo",
        "int x;\n" * 25,
        (
            "include/lib/logger.h",
            "include/lib/logger-inl.hpp",
            "src/logger.cpp",
            "src/sink.cc",
            "src/test_sink.cpp",
            "src/sink_test.cc",
            "tests/main.cpp",
            "lib/src/main/kotlin/Result.kt",
            "lib/src/test/kotlin/ResultTest.kt",
            "lib/src/commonTest/kotlin/MapTests.kt",
            "lib/src/main/kotlin/BindingBenchmark.kt",
            "build.gradle.kts",
            "lib/Tool.java",
        ),
    )

    cpp_files = [p for p, _ in code_sample.candidates(checkout, "cpp")]
    kotlin_files = [p for p, _ in code_sample.candidates(checkout, "kotlin")]

    assert cpp_files == [
        "include/lib/logger-inl.hpp",
        "include/lib/logger.h",
        "src/logger.cpp",
        "src/sink.cc",
    ]
    assert kotlin_files == ["build.gradle.kts", "lib/src/main/kotlin/Result.kt"]
    assert [p for p, _ in code_sample.candidates(checkout, "java")] == ["lib/Tool.java"]


def test_the_code_draw_knows_swift_and_dart_and_leaves_test_folders_out(tmp_path: Path) -> None:
    code_sample = load_script("bench/code_sample.py")
    checkout = code_checkout(
        tmp_path / "repo",
        "let x = 1\n" * 25,
        (
            "Sources/Core/Provider.swift",
            "Sources/Core/ProviderTests.swift",
            "Tests/CoreTests/TestHelpers.swift",
            "Examples/Demo/App.swift",
            "Package.swift",
            "pkgs/router/lib/src/router.dart",
            "pkgs/router/lib/src/router_test.dart",
            "pkgs/router/test/helpers.dart",
            "lib/src/commonMain/kotlin/Settings.kt",
            "lib/src/commonTest/kotlin/Fixtures.kt",
            "lib/src/androidUnitTest/kotlin/Fake.kt",
            "lib/src/latest/kotlin/Latest.kt",
        ),
    )

    swift_files = [p for p, _ in code_sample.candidates(checkout, "swift")]
    dart_files = [p for p, _ in code_sample.candidates(checkout, "dart")]
    kotlin_files = [p for p, _ in code_sample.candidates(checkout, "kotlin")]

    assert swift_files == ["Package.swift", "Sources/Core/Provider.swift"]
    assert dart_files == ["pkgs/router/lib/src/router.dart"]
    assert kotlin_files == [
        "lib/src/commonMain/kotlin/Settings.kt",
        "lib/src/latest/kotlin/Latest.kt",
    ]


def test_the_code_draw_leaves_php_tests_beside_the_code_out(tmp_path: Path) -> None:
    code_sample = load_script("bench/code_sample.py")
    checkout = code_checkout(
        tmp_path / "repo",
        "<?php\n" * 25,
        (
            "src/Reader.php",
            "src/ReaderTest.php",
            "src/Query/LimitTests.php",
            "src/ParserBenchmark.php",
            "src/ReaderBench.php",
            "tests/Helper.php",
        ),
    )

    assert [p for p, _ in code_sample.candidates(checkout, "php")] == ["src/Reader.php"]
