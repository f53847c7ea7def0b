"""End to end with the real Claude Code CLI against the scripted fake Messages API:
hooks fire, the recall reaches the model, an MCP tool call reaches ``rubi serve``;
parallel tool calls trigger one harvest; the meter asks before Claude Code compacts
(``rubi install``'s window, and a 1M model with none); after ``/clear`` the record is
back; a second whole read of a huge file goes through; the server advertises no
resources and connects in a project without ``.rubi/``; and the first request's
tokens with rubi against none (printed; run with ``-s`` to see them).

The CLI (npm ``@anthropic-ai/claude-code``, pinned to :data:`CLAUDE_CODE_VERSION`,
the version the integration reference was verified with) is installed with npm into
the user's cache (``rubi-tests/claude-code``, outside the repository; read at import,
before the fixtures isolate HOME) on first run; ``RUBI_CLAUDE_BIN`` points to another one. The
test is skipped only where npm itself is missing.

Every run waits for the MCP server before the first request (``MCP_CONNECTION_NONBLOCKING=0``
and a generous ``MCP_TIMEOUT``), and the tests that need the server check that its
tools are in the first request.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from platformdirs import user_cache_path

from e2e.fake_api import FakeMessagesAPI
from e2e.test_other_harnesses import PROMPT, project_with_a_note
from rubi import app
from rubi.claude.install import install
from rubi.core.tokens import estimate_tokens

from helpers import rubi_project

CLAUDE_CODE_VERSION = "2.1.197"
CACHE = user_cache_path("rubi-tests", appauthor=False) / "claude-code"
RESOURCE_TOOLS = {"ListMcpResourcesTool", "ReadMcpResourceTool", "SubscribeMcpResourceTool"}
"""The tools Claude Code adds for a server that advertises resources."""
RUBI_TOKEN_GOAL = 1_600
"""What rubi may add to the first request, map included."""
HARVEST = "Register 1-5 durable notes"
METER = "Before it does: register"


def claude_bin() -> str | None:
    """The Claude Code CLI, installed on first use; None without npm."""
    env = os.environ.get("RUBI_CLAUDE_BIN")
    if env:
        return env
    local = CACHE / "node_modules" / ".bin" / "claude"
    if not local.exists():
        npm = shutil.which("npm")
        if npm is None:
            return None
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(CACHE),
                "--no-audit",
                "--no-fund",
                "--silent",
                f"@anthropic-ai/claude-code@{CLAUDE_CODE_VERSION}",
            ],
            check=True,
            timeout=600,
            capture_output=True,
        )
    return str(local)


@pytest.fixture
def claude() -> str:
    found = claude_bin()
    if found is None:
        pytest.skip("Claude Code CLI not installed (.ci/run installs it)")
    return found


@contextmanager
def as_home(home: Path) -> Iterator[None]:
    old = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        yield
    finally:
        if old is not None:
            os.environ["HOME"] = old


def new_home(tmp_path: Path, name: str = "home") -> Path:
    home = tmp_path / name
    home.mkdir()
    return home


def installed(project: Path, home: Path, compact_window: int | None = None) -> None:
    """``rubi install`` for ``project`` with ``home`` as the user's home."""
    with as_home(home):
        if compact_window is None:
            install(project, compact_window=None)
        else:
            install(project, compact_window=compact_window)


def run_claude(
    claude: str,
    project: Path,
    home: Path,
    api: FakeMessagesAPI,
    prompts: list[str],
    allowed: str = "",
) -> str:
    """One ``claude -p`` session in ``project``: one prompt as an argument, several
    (slash commands included) as stream-json input, each after the last one's turn;
    its output."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC", "CLAUDE"))},
        "HOME": str(home),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "ANTHROPIC_API_KEY": "sk-test-dummy",
        "ANTHROPIC_BASE_URL": api.url,
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        # Claude Code connects MCP servers in the background and may send the first
        # request before rubi serve is up; a falsy value makes it wait for them, and
        # MCP_TIMEOUT gives a slow start on a loaded machine the time it needs.
        "MCP_CONNECTION_NONBLOCKING": "0",
        "MCP_TIMEOUT": "60000",
    }
    tools = ["--allowedTools", allowed] if allowed else []  # variadic: keep it last
    if len(prompts) == 1:
        args = [claude, "-p", prompts[0], "--output-format", "json", *tools]
        proc = subprocess.run(
            args, cwd=project, env=env, capture_output=True, text=True, timeout=420
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        return proc.stdout
    args = [claude, "-p", "--input-format", "stream-json", "--output-format", "stream-json"]
    return _converse([*args, "--verbose", *tools], project, env, prompts)


def _converse(args: list[str], project: Path, env: dict[str, str], prompts: list[str]) -> str:
    """Send each prompt once the previous one has its ``result`` (a prompt sent during
    a turn joins that turn instead of starting the next)."""
    with subprocess.Popen(
        args,
        cwd=project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        timer = threading.Timer(420, child.kill)
        timer.start()
        out: list[str] = []
        try:
            for prompt in prompts:
                message = {"type": "user", "message": {"role": "user", "content": prompt}}
                child.stdin.write(json.dumps(message) + "\n")
                child.stdin.flush()
                for line in child.stdout:
                    out.append(line)
                    if line.startswith('{"type":"result"'):
                        break
            child.stdin.close()
            out.extend(child.stdout)
        finally:
            timer.cancel()
        assert child.wait() == 0, "".join(out)[-2000:]
    return "".join(out)


def main_requests(api: FakeMessagesAPI) -> list[dict[str, Any]]:
    """The requests of the main conversation (they carry the tools)."""
    return [b for b in api.requests if b.get("tools")]


def tool_names(body: dict[str, Any]) -> set[str]:
    return {str(t.get("name")) for t in body.get("tools") or []}


def assert_rubi_connected(body: dict[str, Any]) -> None:
    names = tool_names(body)
    assert any(n.startswith("mcp__rubi__") for n in names), sorted(names)
    assert not names & RESOURCE_TOOLS, sorted(names & RESOURCE_TOOLS)


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``tool_result`` blocks of a request's messages, in order."""
    return [
        block
        for m in body.get("messages") or []
        if isinstance(m.get("content"), list)
        for block in m["content"]
        if isinstance(block, dict) and block.get("type") == "tool_result"
    ]


def hooks_log_clean(project: Path) -> None:
    log = app.locate(project / ".rubi").index_dir / "hooks.log"
    assert not log.exists(), log.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_real_claude_code_session(tmp_path: Path, claude: str) -> None:
    project = project_with_a_note(tmp_path / "proj")
    home = new_home(tmp_path)
    installed(project, home)
    api = FakeMessagesAPI().start()
    try:
        prompt = PROMPT.format(tool="mcp__rubi__search")
        run_claude(claude, project, home, api, [prompt], allowed="mcp__rubi__search")
    finally:
        api.stop()
    assert_rubi_connected(main_requests(api)[0])
    bodies = [json.dumps(b) for b in api.requests]
    everything = "\n".join(bodies)
    # SessionStart injected the map; UserPromptSubmit recalled the note.
    assert "Project memory (rubi" in everything
    assert "notes/gotcha-login-tokens-expire-at-midnight-utc" in everything
    # The MCP tool call reached rubi serve and its answer went back to the model.
    results = [b for b in bodies if "tool_result" in b]
    assert results and "Login tokens expire at midnight UTC" in results[-1]
    # Claude Code shows the model the tool's structured content: the passages are there
    tool_results = [
        json.dumps(block["content"])
        for body in api.requests
        for message in body.get("messages", [])
        if isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert tool_results and "Refresh the login token before midnight UTC" in tool_results[-1]
    # Stop captured the turn into the session record.
    sessions = list((project / ".rubi" / "sessions").glob("*.md"))
    assert sessions and "Why do login tokens expire" in sessions[0].read_text(encoding="utf-8")
    hooks_log_clean(project)


def request_tokens(body: dict[str, Any]) -> dict[str, int]:
    """Estimated tokens (rubi's characters / 4) of a request's parts: the system
    prompt, the tool definitions, the messages."""

    def text(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False) if value is not None else ""

    parts = {
        "system": estimate_tokens(text(body.get("system"))),
        "tools": estimate_tokens(text(body.get("tools"))),
        "messages": estimate_tokens(text(body.get("messages"))),
    }
    parts["total"] = sum(parts.values())
    return parts


@pytest.mark.slow
def test_first_request_tokens_with_rubi_and_without(tmp_path: Path, claude: str) -> None:
    """The first request of a session with rubi (hooks, MCP server, map) against the
    same project without it, measured from the request bodies the API receives."""
    files = {
        f"src/pkg{i}/mod{j}.py": f"def f{j}():\n    return {j}\n"
        for i in range(6)
        for j in range(4)
    }
    project = rubi_project(tmp_path / "proj", files)
    app.index(app.locate(project / ".rubi"))
    bare = tmp_path / "bare"
    # without rubi: no .rubi/ and no CLAUDE.md (rubi init wrote it: a pointer to rubi)
    shutil.copytree(project, bare, ignore=shutil.ignore_patterns(".rubi", "CLAUDE.md"))
    firsts = {}
    for name, folder in (("none", bare), ("rubi", project)):
        home = new_home(tmp_path, f"home-{name}")
        if name == "rubi":
            installed(project, home)
        api = FakeMessagesAPI().start()
        try:
            run_claude(claude, folder, home, api, ["hello"])
        finally:
            api.stop()
        firsts[name] = main_requests(api)[0]
    assert_rubi_connected(firsts["rubi"])
    none, rubi = request_tokens(firsts["none"]), request_tokens(firsts["rubi"])
    added = {k: rubi[k] - none[k] for k in rubi}
    print(f"\nfirst request tokens (chars/4): without rubi {none}, with rubi {rubi}, added {added}")
    assert 0 < added["total"] <= RUBI_TOKEN_GOAL, added


@pytest.mark.slow
def test_parallel_reads_trigger_exactly_one_harvest(tmp_path: Path, claude: str) -> None:
    files = {f"src/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(12)}
    project = rubi_project(tmp_path / "proj", files)
    home = new_home(tmp_path)
    installed(project, home)
    paths = ",".join(str(project / f"src/m{i}.py") for i in range(12))
    api = FakeMessagesAPI().start()
    try:
        run_claude(claude, project, home, api, [f"Look at these READ:{paths}"], allowed="Read")
    finally:
        api.stop()
    bodies = main_requests(api)
    first_use = next(m for m in bodies[1]["messages"] if m.get("role") == "assistant")
    assert json.dumps(first_use).count('"tool_use"') == 12  # all twelve in one answer
    assert len(tool_results(bodies[1])) == 12
    last = json.dumps(bodies[-1])
    assert last.count(HARVEST) == 1, last.count(HARVEST)  # one harvest, not zero, not two
    assert "took 12 reads and searches" in last
    hooks_log_clean(project)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("compact_window", "growth"),
    [(150_000, 4_000), (None, 25_000)],
    ids=["install-window", "1m-model-no-window"],
)
def test_meter_asks_once_before_claude_code_compacts(
    tmp_path: Path, claude: str, compact_window: int | None, growth: int
) -> None:
    """With ``rubi install``'s ``autoCompactWindow`` (Claude Code compacts at about
    117k on its default 1M model) and with no window on that model (about 967k), the
    meter's ask reaches the model in a request before the compaction request."""
    project = rubi_project(tmp_path / "proj", {"src/app.py": "def run():\n    pass\n"})
    home = new_home(tmp_path)
    installed(project, home, compact_window)
    user_settings = home / ".claude" / "settings.json"
    settings = (
        json.loads(user_settings.read_text(encoding="utf-8")) if user_settings.exists() else {}
    )
    assert settings.get("autoCompactWindow") == compact_window
    api = FakeMessagesAPI(growth=growth).start()
    try:
        run_claude(claude, project, home, api, ["Work through it LOOP"], allowed="Bash")
    finally:
        api.stop()
    compactions = [i for i, b in enumerate(api.requests) if api.is_compaction(b)]
    asked = [i for i, b in enumerate(api.requests) if METER in json.dumps(b)]
    assert compactions, "Claude Code never compacted"
    assert asked and asked[0] < compactions[0], (asked[:3], compactions)
    assert json.dumps(api.requests[compactions[0]]).count(METER) == 1  # once
    hooks_log_clean(project)


@pytest.mark.slow
def test_the_meter_asks_before_a_read_and_the_read_goes_ahead(tmp_path: Path, claude: str) -> None:
    """A read's PreToolUse hook meters it (the plugin runs no PostToolUse hook for a
    read): past the ask point its ask reaches the model beside a read's result, once.
    Two rounds of reads: the hook reads the context size from the transcript, which
    Claude Code writes asynchronously, so on a loaded machine the first round's hooks
    may still see the size before it (the meter's headroom allows for a round)."""
    files = {f"src/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(3)}
    project = rubi_project(tmp_path / "proj", files)
    (project / ".rubi" / "config.toml").write_text(
        "[hooks]\ncontext_window = 30000\n", encoding="utf-8"
    )
    home = new_home(tmp_path)
    installed(project, home)
    paths = ",".join(str(project / f"src/m{i}.py") for i in range(3))
    api = FakeMessagesAPI(growth=25_000).start()
    try:
        run_claude(claude, project, home, api, [f"Look at these READ2:{paths}"], allowed="Read")
    finally:
        api.stop()
    bodies = main_requests(api)
    assert len(tool_results(bodies[1])) == 3 and len(tool_results(bodies[2])) == 6
    assert all("return" in json.dumps(r.get("content")) for r in tool_results(bodies[1]))
    assert json.dumps(bodies[2]).count(METER) == 1  # asked once, beside the reads' results
    hooks_log_clean(project)


@pytest.mark.slow
def test_clear_brings_back_the_session_record(tmp_path: Path, claude: str) -> None:
    project = rubi_project(tmp_path / "proj", {"src/auth.py": "def login():\n    pass\n"})
    home = new_home(tmp_path)
    installed(project, home)
    api = FakeMessagesAPI().start()
    try:
        run_claude(
            claude,
            project,
            home,
            api,
            [f"Read it READ:{project / 'src' / 'auth.py'}", "/clear", "Where were we?"],
            allowed="Read",
        )
    finally:
        api.stop()
    after = [b for b in main_requests(api) if "Where were we?" in json.dumps(b)]
    assert after, "the prompt after /clear never reached the API"
    first = json.dumps(after[0])
    assert not tool_results(after[0])  # the conversation was cleared...
    assert "Latest session record" in first and "src/auth.py" in first  # ...the record is back
    hooks_log_clean(project)


@pytest.mark.slow
def test_a_second_whole_read_of_a_huge_file_goes_through(tmp_path: Path, claude: str) -> None:
    body = "".join(f"def handler_{i}(request):\n    return {i}\n\n\n" for i in range(1500))
    project = rubi_project(tmp_path / "proj", {"src/big.py": body + "# END OF BIG\n"})
    app.index(app.locate(project / ".rubi"))
    home = new_home(tmp_path)
    installed(project, home)
    api = FakeMessagesAPI().start()
    try:
        run_claude(
            claude, project, home, api, [f"READ2:{project / 'src' / 'big.py'}"], allowed="Read"
        )
    finally:
        api.stop()
    results = [block for b in main_requests(api) for block in tool_results(b)]
    texts = list(dict.fromkeys(json.dumps(r.get("content")) for r in results))
    assert len(texts) == 2, texts
    denied, read = texts
    assert "is large" in denied and "function handler_0: lines 1-4" in denied
    assert "handler_7(request)" in read and "is large" not in read
    hooks_log_clean(project)


@pytest.mark.slow
def test_the_server_connects_in_a_project_without_rubi(tmp_path: Path, claude: str) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    (project / "main.py").write_text("print('hi')\n", encoding="utf-8")
    home = new_home(tmp_path)
    rubi = shutil.which("rubi", path=str(Path(sys.executable).parent))
    assert rubi is not None
    server = {"type": "stdio", "command": rubi, "args": ["serve"]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"rubi": server}}))
    api = FakeMessagesAPI().start()
    try:
        run_claude(claude, project, home, api, ["hello"])
    finally:
        api.stop()
    first = main_requests(api)[0]
    assert_rubi_connected(first)
    assert "has none yet" in json.dumps(first) and "rubi init" in json.dumps(first)
    assert not (project / ".rubi").exists()
