"""``rubi view`` over real HTTP: each endpoint on a small real vault, the loopback
Host/Origin refusals, escaping of hostile note titles, no write to the vault, and no
browser unless asked."""

from __future__ import annotations

import json
import re
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from click.testing import CliRunner

from rubi.cli.main import cli
from view.viewing import HOSTILE_TITLE, get, serving, small_project, tree_hash

from helpers import SHARED_DATA, require_data


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return small_project(tmp_path)


def _json(url: str) -> dict:
    status, headers, body = get(url)
    assert status == 200, body
    assert headers["Content-Type"].startswith("application/json")
    return json.loads(body)


def test_the_page_embeds_the_graph_and_offers_search_timeline_and_xray(project: Path) -> None:
    with serving(project) as url:
        status, headers, body = get(url)
    page = body.decode()
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert 'id="search-form"' in page and 'id="timeline-form"' in page
    assert 'id="xray-button"' in page and '<svg id="graph"' in page
    data = re.search(r'<script id="graph-data" type="application/json">(.*?)</script>', page)
    assert data is not None
    graph = json.loads(data.group(1))
    ids = {n["id"] for n in graph["nodes"]}
    assert {"notes/Home", "app.py", "util.py"} <= ids
    assert f"All {graph['total']} notes, files and modules" in page
    assert not re.search(r"""(src|href)=["']?https?://""", page), "no external resource"


def test_graph_endpoint_caps_nodes_by_rank_and_keeps_typed_links(project: Path) -> None:
    with serving(project) as url:
        everything = _json(url + "api/graph")
        top = _json(url + "api/graph?limit=3")
        status, _, body = get(url + "api/graph?limit=0")
    relations = {(e["source"], e["target"], e["relation"]) for e in everything["edges"]}
    assert ("app.py", "util.py", "imports") in relations
    assert ("notes/hostile", "notes/Home", "links_to") in relations
    assert top["shown"] == 3 and top["total"] == everything["total"] > 3
    ranks = [n["rank"] for n in everything["nodes"]]
    assert ranks == sorted(ranks, reverse=True)
    assert [n["id"] for n in top["nodes"]] == [n["id"] for n in everything["nodes"][:3]]
    shown = {n["id"] for n in top["nodes"]}
    assert all(e["source"] in shown and e["target"] in shown for e in top["edges"])
    assert status == 400 and "limit must be between 1" in json.loads(body)["error"]


def test_search_endpoint_returns_hits_with_why_lines(project: Path) -> None:
    with serving(project) as url:
        found = _json(url + "api/search?q=" + quote("back up files"))
        status, _, body = get(url + "api/search?q=")
    top = found["hits"][0]
    assert top["id"] == "notes/Getting started/Back up your Obsidian files"
    assert top["why"] and all(isinstance(line, str) for line in top["why"])
    assert status == 400 and "empty query" in json.loads(body)["error"]


def test_timeline_endpoint_lists_the_notes_of_the_days_around_a_ref(project: Path) -> None:
    with serving(project) as url:
        today = _json(url + "api/timeline")
        around = _json(url + "api/timeline?days=0&ref=" + quote("notes/Home"))
        status, _, body = get(url + "api/timeline?ref=nothing-by-that-name")
        bad_days, _, _ = get(url + "api/timeline?days=many")
    assert "notes/hostile" in {e["id"] for e in today["entries"]}
    assert around["ref"] == "notes/Home" and around["since"] == around["until"]
    assert status == 400 and "no note or file" in json.loads(body)["error"]
    assert bad_days == 400


def test_xray_serves_the_html_report_of_this_projects_transcripts(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi.transcripts.locate import project_slug

    samples = require_data(SHARED_DATA / "transcripts")
    config = tmp_path / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    with serving(project) as url:
        missing, _, empty = get(url + "xray")
        folder = config / "projects" / project_slug(project)
        folder.mkdir(parents=True)
        shutil.copyfile(samples / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl", folder / "a.jsonl")
        status, headers, body = get(url + "xray?days=0")
    assert missing == 200 and b"no Claude Code transcripts" in empty
    assert status == 200
    assert "<h1>Token X-ray</h1>" in body.decode()
    assert "script-src" not in headers["Content-Security-Policy"]


def test_a_hostile_title_is_text_everywhere(project: Path) -> None:
    with serving(project) as url:
        _, headers, body = get(url)
        graph = _json(url + "api/graph")
        hits = _json(url + "api/search?q=backup+policy")
    page = body.decode()
    assert "<script>document" not in page and "<img src=x" not in page
    assert HOSTILE_TITLE in {n["title"] for n in graph["nodes"]}
    assert HOSTILE_TITLE in {h["title"] for h in hits["hits"]}
    assert page.count("<script") == 2  # the graph's data and the page's own script
    policy = headers["Content-Security-Policy"]
    assert "script-src 'sha256-" in policy and "unsafe-inline'" not in policy.split(";")[1]


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Host": "evil.example:80"}, 421),
        ({"Host": "127.0.0.1.evil.example:80"}, 421),
        ({"Host": "127.0.0.1"}, 421),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "http://127.0.0.1.evil.example:8000"}, 403),
        ({"Origin": "null"}, 403),
        ({"Host": "localhost:1234", "Origin": "http://localhost:1234"}, 200),
    ],
)
def test_dns_rebinding_requests_are_refused(
    project: Path, headers: dict[str, str], status: int
) -> None:
    with serving(project) as url:
        got, _, _ = get(url + "api/graph", headers)
    assert got == status


def test_writing_methods_are_refused_and_the_vault_is_never_written(project: Path) -> None:
    before = tree_hash(project)
    with serving(project) as url:
        for path in ("", "api/graph", "api/search?q=backup", "api/timeline", "xray"):
            get(url + path)
        methods = {m: get(url, method=m)[0] for m in ("POST", "PUT", "DELETE", "PATCH")}
        head, _, body = get(url, method="HEAD")
    assert methods == {"POST": 405, "PUT": 405, "DELETE": 405, "PATCH": 405}
    assert head == 200 and body == b""
    assert tree_hash(project) == before


def test_an_unknown_path_is_404(project: Path) -> None:
    with serving(project) as url:
        status, _, body = get(url + "etc/passwd")
    assert status == 404 and "no such page" in json.loads(body)["error"]


def test_a_vault_never_indexed_is_refused_without_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rubi import app
    from rubi.core.errors import RubiError
    from rubi.view import make_server

    vault = tmp_path / "my vault"
    (vault / "a.md").parent.mkdir()
    (vault / "a.md").write_text("# A\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    # a plain vault: the command that indexes it, not a bare `rubi index` (which,
    # run from here, would index another vault or none)
    with pytest.raises(RubiError) as refused:
        make_server(app.locate(vault))
    assert f"never indexed; run `rubi index --vault '{vault}'` first" in str(refused.value)
    assert sorted(p.name for p in vault.iterdir()) == ["a.md"]
    project = tmp_path / "proj"
    (project / ".rubi" / "notes").mkdir(parents=True)
    with pytest.raises(RubiError, match=f"run `cd {re.escape(str(project))} && rubi index` first"):
        make_server(app.locate(None, cwd=project))
    monkeypatch.chdir(project)
    with pytest.raises(RubiError, match="never indexed; run `rubi index` first"):
        make_server(app.locate(None, cwd=project))


def _run_view(project: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run ``rubi view`` in a thread until it printed its URL and answered it; the
    URLs handed to ``webbrowser.open``."""
    import webbrowser

    from rubi.view import server as view_server

    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    started: list[view_server.ViewServer] = []
    original = view_server.ViewServer.serve_forever

    def serve(self: view_server.ViewServer, poll_interval: float = 0.5) -> None:
        started.append(self)
        original(self, poll_interval)

    monkeypatch.setattr(view_server.ViewServer, "serve_forever", serve)
    result: list[object] = []
    thread = threading.Thread(
        target=lambda: result.append(
            CliRunner().invoke(cli, ["view", "--project", str(project), *args])
        )
    )
    thread.start()
    deadline = time.monotonic() + 30
    while not started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started, "rubi view did not start"
    status, _, _ = get(started[0].url)
    started[0].shutdown()
    thread.join(10)
    assert status == 200
    output = result[0].output  # type: ignore[attr-defined]
    assert re.search(r"rubi view: http://127\.0\.0\.1:\d+/ ", output)
    assert urlsplit(started[0].url).hostname == "127.0.0.1"
    return opened


def test_view_opens_no_browser_unless_asked(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run_view(project, [], monkeypatch) == []


def test_view_open_opens_the_printed_url(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened = _run_view(project, ["--open"], monkeypatch)
    assert len(opened) == 1 and opened[0].startswith("http://127.0.0.1:")


def test_view_refuses_project_and_vault_together(project: Path) -> None:
    result = CliRunner().invoke(
        cli, ["view", "--project", str(project), "--vault", str(project / ".rubi")]
    )
    assert result.exit_code == 2 and "not both" in result.output


def test_a_failed_request_is_one_line_and_a_closing_server_says_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rubi import app
    from rubi.view.server import make_server

    server = make_server(app.locate(project / ".rubi"))
    try:
        try:
            raise ValueError("a handler bug")
        except ValueError:
            server.handle_error(None, ("127.0.0.1", 5))
        try:
            raise ConnectionResetError("peer gone")
        except ConnectionResetError:
            server.handle_error(None, ("127.0.0.1", 6))
    finally:
        server.server_close()
    try:
        raise ValueError("during shutdown")
    except ValueError:
        server.handle_error(None, ("127.0.0.1", 7))
    err = capsys.readouterr().err
    assert err == "rubi view: a request from 127.0.0.1 failed (ValueError: a handler bug)\n"
