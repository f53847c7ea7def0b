from __future__ import annotations

from pathlib import Path

from rubi.graph.build import note_names
from rubi.markdown import parse_note
from rubi.vault.resolve import LinkResolver, NoteNames
from rubi.vault.scan import read_note_text, scan_vault


def _resolver(ids: list[str], **aliases: tuple[str, ...]) -> LinkResolver:
    return LinkResolver(
        [NoteNames(i, i.rsplit("/", 1)[-1], aliases.get(i.rsplit("/", 1)[-1], ())) for i in ids],
        ["img/pic.png"],
    )


def test_order_path_then_name_then_alias() -> None:
    r = _resolver(["a/Note", "b/Other", "Top"], Other=("Second name",))
    assert r.resolve("a/Note").target == "a/Note"
    assert r.resolve("a/Note.md").target == "a/Note"
    assert r.resolve("note").target == "a/Note"  # unique file name, any case
    assert r.resolve("Second name").target == "b/Other"
    assert r.resolve("../Top", "a/Note").target == "Top"
    assert r.resolve("pic.png").status == "attachment"
    assert r.resolve("missing thing").status == "missing"
    assert r.resolve("").status == "self"


def test_ambiguous_name_is_recorded_and_resolved_like_obsidian() -> None:
    r = _resolver(["x/Readme", "y/Readme", "deep/z/Readme"])
    res = r.resolve("Readme", "y/Source")
    assert res.status == "ambiguous"
    assert res.target == "y/Readme"  # same folder as the linking note
    assert set(res.candidates) == {"x/Readme", "y/Readme", "deep/z/Readme"}
    assert r.resolve("Readme", "elsewhere/S").target == "x/Readme"  # else shortest path
    assert r.resolve("z/Readme").target == "deep/z/Readme"  # path suffix is exact


def test_obsidian_help_link_targets(help_vault: Path) -> None:
    listing = scan_vault(help_vault)
    notes = [parse_note(read_note_text(help_vault, f.path).text, f.path) for f in listing.notes]
    r = LinkResolver([note_names(n) for n in notes], listing.attachments)
    src = "Getting started/Link notes"
    assert r.resolve("Embed files", src).target == "Linking notes and files/Embed files"
    assert r.resolve("internal links", src).target == "Linking notes and files/Internal links"
    assert r.resolve("Start here", src).target == "Home"  # an alias of Home
    counts = {"resolved": 0, "missing": 0}
    for note in notes:
        for link in note.links:
            name = link.target.rsplit("/", 1)[-1]
            if not link.target or "." in name[-5:]:
                continue  # same-note links and attachments (icons are not in the copy)
            status = r.resolve(link.target, note.id).status
            counts["resolved" if status in ("resolved", "ambiguous") else "missing"] += 1
    assert counts["resolved"] > 1300
    assert counts["missing"] / (counts["resolved"] + counts["missing"]) < 0.01
