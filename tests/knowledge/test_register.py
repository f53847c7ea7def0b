from __future__ import annotations

from pathlib import Path

import pytest

from rubi import app
from rubi.core.errors import RubiError
from rubi.core.paths import VaultPaths
from rubi.markdown import parse_note


def note(
    title: str, body: str = "Body.", kind: str = "decision", **extra: object
) -> dict[str, object]:
    return {"type": kind, "title": title, "body": body, **extra}


def notes_on_disk(vault: VaultPaths) -> dict[str, str]:
    return {
        p.stem: p.read_text(encoding="utf-8") for p in sorted((vault.root / "notes").glob("*.md"))
    }


def test_create_writes_the_documented_note(vault: VaultPaths, repo: Path) -> None:
    [r] = app.register(
        vault,
        [
            note(
                "Use JWT instead of session cookies",
                "Stateless, so it runs on edge runtimes.",
                files=["src/auth.py"],
                links=[{"relation": "about", "target": "concept-authentication"}],
                tags=["auth"],
            )
        ],
    )
    assert r.action == "created"
    assert r.id == "notes/decision-use-jwt-instead-of-session-cookies"
    assert r.dangling == ("concept-authentication",)
    parsed = parse_note((vault.root / r.path).read_text(encoding="utf-8"), r.path)
    meta = parsed.metadata
    assert meta["id"] == "decision-use-jwt-instead-of-session-cookies"
    assert (meta["type"], meta["status"], meta["files"], meta["tags"]) == (
        "decision",
        "active",
        ["src/auth.py"],
        ["auth"],
    )
    assert len(meta["commit"]) == 40 and meta["created"] == meta["updated"]
    assert parsed.title == "Use JWT instead of session cookies"
    assert [(lk.relation, lk.target) for lk in parsed.links] == [
        ("about", "concept-authentication")
    ]
    assert app.search(vault, "edge runtimes").hits[0].id == r.id


@pytest.mark.parametrize(
    "variant",
    [
        "use jwt instead of session cookies",
        "  Use   JWT instead of SESSION cookies. ",
        "Use JWT, instead of session-cookies!",
        "Use JWT instead of the session cookies",  # reworded, about the same file
        "Using JWT instead of session cookies",
    ],
)
def test_twins_merge(vault: VaultPaths, variant: str) -> None:
    [first] = app.register(
        vault, [note("Use JWT instead of session cookies", "First reason.", files=["src/auth.py"])]
    )
    [second] = app.register(vault, [note(variant, "Second reason.", files=["src/auth.py"])])
    assert second.action == "merged" and second.id == first.id
    [text] = notes_on_disk(vault).values()
    assert "First reason." in text and "Second reason." in text
    assert "src/auth.py" in text


def test_close_title_merges_only_with_a_shared_file(vault: VaultPaths) -> None:
    app.register(vault, [note("Retry database connections with backoff", files=["src/db.py"])])
    [same] = app.register(
        vault,
        [note("Retry database connections with exponential backoff", files=["./src/db.py"])],
    )
    assert same.action == "merged"
    [other] = app.register(vault, [note("Retry database connections with exponential backoff")])
    assert other.action == "created"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Use eval in templates", "Do not use eval in templates"),
        ("Enable caching in prod", "Disable caching in prod"),
        ("Migrate from MySQL to Postgres", "Migrate from Postgres to MySQL"),
        ("Flaky test in module 1 of payments", "Flaky test in module 2 of payments"),
        ("C++ build fails", "C build fails"),
        ("Use != instead of ==", "Use == instead of !="),
        ("Maße", "Masse"),
        ("ガス料金の計算", "カス料金の計算"),
        ("Мой кэш", "Мои кэш"),
        ("🔥🔥", "🚀"),
        ("../..", "/"),
    ],
)
def test_different_meanings_never_merge(vault: VaultPaths, first: str, second: str) -> None:
    a, b = app.register(
        vault, [note(first, files=["src/db.py"]), note(second, files=["src/db.py"])]
    )
    assert (a.action, b.action) == ("created", "created")
    assert a.path != b.path


def test_no_merge_across_types_or_with_superseded(vault: VaultPaths) -> None:
    app.register(vault, [note("Cache the token", kind="decision")])
    [gotcha] = app.register(vault, [note("Cache the token", kind="gotcha")])
    assert gotcha.action == "created"
    assert len(notes_on_disk(vault)) == 2


def test_same_batch_twice_is_one_note(vault: VaultPaths) -> None:
    results = app.register(vault, [note("Pin whoosh", "a"), note("pin Whoosh", "b")])
    assert [r.action for r in results] == ["created", "merged"]
    assert len(notes_on_disk(vault)) == 1


def test_supersede_marks_links_and_hides(vault: VaultPaths) -> None:
    [a] = app.register(vault, [note("Sessions in cookies", "Old way, cookieword.")])
    [b] = app.register(vault, [note("JWT in headers", "Newer.", supersedes="Sessions in cookies")])
    assert b.superseded == (a.id,)
    old = parse_note((vault.root / a.path).read_text(encoding="utf-8"), a.path)
    new = parse_note((vault.root / b.path).read_text(encoding="utf-8"), b.path)
    assert old.status == "superseded"
    assert old.metadata["superseded_by"] == new.metadata["id"]
    assert ("superseded_by", b.path.removeprefix("notes/").removesuffix(".md")) in {
        (lk.relation, lk.target) for lk in old.links
    }
    assert new.metadata["supersedes"] == old.metadata["id"]
    assert any(lk.relation == "supersedes" for lk in new.links)
    assert all(h.id != a.id for h in app.search(vault, "cookieword").hits)
    [c] = app.register(vault, [note("PASETO tokens", "Newest.", supersedes=b.id)])
    shown = {h.id: h for h in app.search(vault, "cookieword", include_superseded=True).hits}
    assert shown[a.id].superseded_by == c.id  # A ← B ← C resolves to the newest
    view = app.read_note(vault, a.id)
    assert view.superseded_by == c.id


def test_supersede_errors_write_nothing(vault: VaultPaths) -> None:
    app.register(vault, [note("Existing")])
    before = notes_on_disk(vault)
    with pytest.raises(RubiError, match=r"notes\[1\]\.supersedes: no note named 'Nope'"):
        app.register(vault, [note("Fine one"), note("Bad one", supersedes="Nope")])
    assert notes_on_disk(vault) == before


def test_hand_written_supersede_loop_is_refused(vault: VaultPaths) -> None:
    for name, succ in (("a", "b"), ("b", "a")):
        (vault.root / "notes" / f"{name}.md").write_text(
            f"---\nid: {name}\ntype: decision\nstatus: superseded\n"
            f"superseded_by: {succ}\n---\n# {name}\n",
            encoding="utf-8",
        )
    with pytest.raises(RubiError, match="loops"):
        app.register(vault, [note("c", supersedes="a")])
    assert app.read_note(vault, "a").superseded_by in ("notes/b", None)


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"title": "x", "body": ""}, r"notes\[0\]\.type: must be one of"),
        ({"type": "decision", "body": "x"}, r"notes\[0\]\.title: required"),
        ({"type": "decision", "title": "x", "body": "y" * 100_001}, r"notes\[0\]\.body: 100,001"),
        ({"type": "decision", "title": "x", "files": "a", "extra": 1}, "unknown field"),
        ({"type": "decision", "title": "x", "body": "", "links": [{"to": "y"}]}, r"links\[0\]"),
        ({"type": "decision", "title": "x", "body": "", "scope": "team"}, r"scope"),
        ({"type": "decision", "title": "x"}, r"notes\[0\]\.body: missing"),
    ],
)
def test_bad_items_name_the_field(vault: VaultPaths, item: dict[str, object], message: str) -> None:
    with pytest.raises(RubiError, match=message):
        app.register(vault, [item])
    assert notes_on_disk(vault) == {}


@pytest.mark.parametrize(
    ("title", "stem"),
    [
        ("Configurações de sincronização", "decision-configuracoes-de-sincronizacao"),
        ("Кэш на диске", "decision-кэш-на-диске"),
        ("日本語のメモ", "decision-日本語のメモ"),
        ("🚀 launch day", "decision-launch-day"),
        ("../../etc/passwd", "decision-etc-passwd"),
        ("a/b\\c", "decision-a-b-c"),
    ],
)
def test_titles_in_any_script_stay_inside_notes(vault: VaultPaths, title: str, stem: str) -> None:
    [r] = app.register(vault, [note(title)])
    assert r.path == f"notes/{stem}.md"
    assert (vault.root / r.path).resolve().is_relative_to(vault.root / "notes")
    assert app.read_note(vault, r.id).note.title == " ".join(title.split())


def test_titles_that_slug_alike_get_distinct_files(vault: VaultPaths) -> None:
    _, b = app.register(vault, [note("Cache: on"), note("Cache on!", kind="decision", files=["x"])])
    # Same normalized title: the second merges; a different type slugs alike but is new.
    assert b.action == "merged"
    [c] = app.register(vault, [note("Cache-on")])
    assert c.action == "merged"
    (vault.root / "notes" / "decision-cache-on.md").write_text(
        "---\ntype: decision\nstatus: superseded\n---\n# Cache on\n", encoding="utf-8"
    )
    [d] = app.register(vault, [note("Cache on")])
    assert d.action == "created" and d.path == "notes/decision-cache-on-2.md"


def test_hand_edit_between_registers_is_kept(vault: VaultPaths) -> None:
    [r] = app.register(vault, [note("Index lock", "First.")])
    path = vault.root / r.path
    path.write_text(path.read_text(encoding="utf-8") + "\nA line added in Obsidian.\n", "utf-8")
    app.register(vault, [note("Index lock", "Second.")])
    text = path.read_text(encoding="utf-8")
    assert "A line added in Obsidian." in text and "First." in text and "Second." in text


def test_unparseable_note_is_never_rewritten(vault: VaultPaths) -> None:
    broken = "---\ntitle: [unclosed\ntype: decision\n---\n# Broken decision\n"
    path = vault.root / "notes" / "broken.md"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(RubiError, match=r"notes/broken\.md holds this title"):
        app.register(vault, [note("Broken decision")])  # not a second note beside it
    assert path.read_text(encoding="utf-8") == broken
    assert [p.name for p in path.parent.glob("*.md")] == ["broken.md"]
    with pytest.raises(RubiError, match="cannot be parsed"):
        app.register(vault, [note("Replacement", supersedes="notes/broken")])
    assert path.read_text(encoding="utf-8") == broken


def test_note_deleted_while_merging_is_created_anew(
    vault: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.register(vault, [note("Flaky test", "First.")])
    from rubi.app import registration as reg

    real = reg.rewrite

    def delete_first(path: Path, rel: str, edit: object) -> str:
        path.unlink()
        return real(path, rel, edit)  # type: ignore[arg-type]

    monkeypatch.setattr(reg, "rewrite", delete_first)
    [again] = app.register(vault, [note("Flaky test", "Second.")])
    assert again.action == "created"
    assert "Second." in (vault.root / again.path).read_text(encoding="utf-8")


def test_read_only_vault_is_a_clear_error(
    vault: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from rubi.cli.main import cli

    def refuse(path: Path, *args: object, **kwargs: object) -> bool:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("rubi.knowledge.notefile.create_exclusive", refuse)
    monkeypatch.setattr("rubi.knowledge.notefile.atomic_write_bytes", refuse)
    result = CliRunner().invoke(
        cli,
        [
            "note",
            "add",
            "--type",
            "gotcha",
            "--title",
            "x",
            "--body",
            "b",
            "--vault",
            str(vault.root),
        ],
    )
    assert result.exit_code == 1
    assert "Permission denied" in result.output and "notes" in result.output
    assert notes_on_disk(vault) == {}


def test_numbers_keep_titles_apart(vault: VaultPaths) -> None:
    a, b = app.register(vault, [note("Bug 1 in the pager"), note("Bug 2 in the pager")])
    assert (a.action, b.action) == ("created", "created")


def test_same_words_different_meaning_do_not_merge_without_a_shared_file(
    vault: VaultPaths,
) -> None:
    a, b = app.register(
        vault, [note("Migrate from MySQL to Postgres"), note("Migrate from Postgres to MySQL")]
    )
    assert (a.action, b.action) == ("created", "created")


def test_superseding_a_superseded_note_is_refused(vault: VaultPaths) -> None:
    app.register(vault, [note("Redis cache")])
    app.register(vault, [note("Memcached cache", supersedes="Redis cache")])
    with pytest.raises(RubiError, match="already superseded by notes/decision-memcached-cache"):
        app.register(vault, [note("SQLite cache", supersedes="Redis cache")])


def test_a_failing_batch_writes_in_no_vault(
    vault: VaultPaths, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUBI_VAULT", str(tmp_path / "me"))
    with pytest.raises(RubiError, match=r"notes\[1\]\.supersedes"):
        app.register(
            vault,
            [note("Mine", kind="preference", scope="personal"), note("Bad", supersedes="Nope")],
        )
    assert not list((tmp_path / "me" / "notes").glob("*.md"))
    assert notes_on_disk(vault) == {}


def test_long_titles_in_four_byte_characters(vault: VaultPaths) -> None:
    [r] = app.register(vault, [note("𠮷" * 80)])
    assert len(Path(r.path).name.encode("utf-8")) < 200
    assert app.read_note(vault, r.id).note.title == "𠮷" * 80


def test_file_paths_are_spelled_one_way(vault: VaultPaths) -> None:
    [r] = app.register(
        vault, [note("Run the tests", files=["./src/db.py", "src\\db.py", "tests/"])]
    )
    meta = parse_note((vault.root / r.path).read_text(encoding="utf-8"), r.path).metadata
    assert meta["files"] == ["src/db.py", "tests/"]


def test_an_edit_racing_a_hand_save_keeps_both(
    vault: VaultPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.knowledge import notefile

    [r] = app.register(vault, [note("Race", "First.")])
    path = vault.root / r.path
    real = notefile.edit_note_text
    saved = {"done": False}

    def edit_while_someone_saves(text: str, *args: object, **kwargs: object) -> str:
        if not saved["done"]:  # Obsidian saves between rubi's read and its write
            saved["done"] = True
            path.write_text(text + "\nSaved by hand.\n", encoding="utf-8")
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(notefile, "edit_note_text", edit_while_someone_saves)
    monkeypatch.setattr("rubi.app.registration.edit_note_text", edit_while_someone_saves)
    app.register(vault, [note("Race", "Second.")])
    text = path.read_text(encoding="utf-8")
    assert "Saved by hand." in text and "Second." in text
