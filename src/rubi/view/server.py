"""The HTTP side of ``rubi view``: a loopback-only, read-only server of one page and
its JSON endpoints (stdlib :class:`~http.server.ThreadingHTTPServer`).

Routes (GET and HEAD only; anything else is 405):

* ``/`` — the page (:mod:`rubi.view.page`).
* ``/api/graph?limit=N`` — :meth:`rubi.app.graphview.GraphView.as_json`.
* ``/api/timeline?ref=R&days=N`` — :func:`rubi.app.timeline.timeline_json` (``ref``
  defaults to today).
* ``/api/search?q=Q&k=N`` — :func:`rubi.app.results.search_json`: hits with their
  why-lines, the index as last built (no refresh: nothing is written).
* ``/xray`` — the token X-ray of the project's Claude Code transcripts, the HTML report
  of ``rubi xray --html``.

Every request first passes the DNS-rebinding checks of ``rubi serve --http``
(:func:`rubi.core.loopback.refusal`: 421 for a foreign ``Host``, 403 for a foreign
``Origin``). Errors are ``{"error": "<one line>"}`` with 400 (bad input) or 409 (the
vault's index is unreadable).
"""

from __future__ import annotations

import datetime as dt
import json
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from rubi.core.errors import IndexCorruptError, RubiError
from rubi.core.loopback import loopback_names, refusal, url_host
from rubi.core.paths import VaultPaths

__all__ = ["LOOPBACK", "SEARCH_BUDGET_TOKENS", "ViewServer", "make_server"]

SEARCH_BUDGET_TOKENS = 4000
"""Tokens of hit text the search endpoint returns at most."""
MAX_QUERY_STRING = 8192
"""Characters of a query string read at most (a longer one is refused with 414)."""
_JSON = "application/json; charset=utf-8"
_HTML = "text/html; charset=utf-8"
LOOPBACK = "127.0.0.1"
"""The only address served: this machine, IPv4."""
_XRAY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


@dataclass(frozen=True)
class ViewState:
    """What every request of one server reads: the vault and its name."""

    paths: VaultPaths
    name: str


class ViewServer(ThreadingHTTPServer):
    """A :class:`~http.server.ThreadingHTTPServer` holding the vault it shows and the
    Host names it answers to."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], state: ViewState) -> None:
        self.state = state
        self.names = loopback_names(address[0])
        self.closing = False
        super().__init__(address, _Handler)

    def server_close(self) -> None:
        """Stop listening; a request still running in its thread (the server is left on
        Ctrl-C while a connection is open) ends without a word."""
        self.closing = True
        super().server_close()

    def handle_error(self, request: object, client_address: Any) -> None:
        """One line on stderr for a request that failed (the stdlib prints a rule and a
        traceback); nothing for a client that went away or once the server is closing
        (the process is ending, and its request threads with it)."""
        exc = sys.exc_info()[1]
        if self.closing or isinstance(exc, (ConnectionError, TimeoutError)):
            return
        host = client_address[0] if isinstance(client_address, tuple) else client_address
        sys.stderr.write(f"rubi view: a request from {host} failed ({type(exc).__name__}: {exc})\n")

    @property
    def url(self) -> str:
        """``http://<host>:<port>/``, the address to open."""
        host, port = self.server_address[:2]
        return f"http://{url_host(str(host))}:{port}/"


def index_command(paths: VaultPaths) -> str:
    """The command that indexes this vault: ``rubi index`` in its project, or
    ``rubi index --vault <folder>`` for a plain vault (run from anywhere else,
    ``rubi index`` alone would index another vault or none)."""
    if paths.project_root is None:
        return f"rubi index --vault {shlex.quote(str(paths.root))}"
    try:
        here = Path.cwd().is_relative_to(paths.project_root)
    except OSError:  # the working folder was removed
        here = False
    return "rubi index" if here else f"cd {shlex.quote(str(paths.project_root))} && rubi index"


def make_server(paths: VaultPaths, port: int = 0) -> ViewServer:
    """A server of ``paths`` bound to ``127.0.0.1:port`` (0: a free port), not yet
    serving (call ``serve_forever``).

    Raises:
        RubiError: the vault was never indexed (the viewer writes nothing, so it does
            not index either).
        OSError: the port cannot be bound (taken, or not allowed).
    """
    from rubi.app.searching import indexed

    if not indexed(paths):
        raise RubiError(f"{paths.root} was never indexed; run `{index_command(paths)}` first")
    name = (paths.project_root or paths.root).name
    return ViewServer((LOOPBACK, port), ViewState(paths, name))


def _int(query: dict[str, list[str]], key: str, default: int) -> int:
    raw = query.get(key, [""])[0].strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise RubiError(f"{key}: {raw[:40]!r} is not a whole number") from None


def _page(state: ViewState, query: dict[str, list[str]]) -> tuple[int, str, str]:
    from rubi.app.graphview import graph_view
    from rubi.view.page import render_page

    graph = graph_view(state.paths).as_json()
    today = dt.date.today().isoformat()
    return 200, _HTML, render_page(state.name, graph, today=today, xray=_has_project(state))


def _has_project(state: ViewState) -> bool:
    return state.paths.project_root is not None


def _graph(state: ViewState, query: dict[str, list[str]]) -> tuple[int, str, str]:
    from rubi.app.graphview import DEFAULT_NODES, graph_view

    try:
        view = graph_view(state.paths, _int(query, "limit", DEFAULT_NODES))
    except ValueError as exc:
        raise RubiError(str(exc)) from None
    return 200, _JSON, json.dumps(view.as_json())


def _timeline(state: ViewState, query: dict[str, list[str]]) -> tuple[int, str, str]:
    from rubi.app.timeline import timeline, timeline_json

    ref = query.get("ref", [""])[0].strip() or dt.date.today().isoformat()
    found = timeline(state.paths, ref, _int(query, "days", 30))
    return 200, _JSON, json.dumps(timeline_json(found))


def _search(state: ViewState, query: dict[str, list[str]]) -> tuple[int, str, str]:
    from rubi.app import search
    from rubi.app.results import search_json

    text = query.get("q", [""])[0]
    try:
        result = search(
            state.paths, text, top_k=_int(query, "k", 10), refresh=False, personal=False
        )
    except ValueError as exc:
        raise RubiError(str(exc)) from None
    return 200, _JSON, json.dumps(search_json(result, SEARCH_BUDGET_TOKENS))


def _xray(state: ViewState, query: dict[str, list[str]]) -> tuple[int, str, str]:
    from html import escape

    from rubi.app import xray

    if state.paths.project_root is None:
        raise RubiError("a vault without a project folder has no transcripts")
    try:
        report = xray.scan(days=_int(query, "days", 30), project=state.paths.project_root)
    except RubiError as exc:  # no transcripts of this project: a page that says so
        return 200, _HTML, f"<!DOCTYPE html><meta charset=utf-8><p>{escape(str(exc))}</p>"
    return 200, _HTML, xray.render_html(report)


_ROUTES: dict[str, Callable[[ViewState, dict[str, list[str]]], tuple[int, str, str]]] = {
    "/": _page,
    "/api/graph": _graph,
    "/api/timeline": _timeline,
    "/api/search": _search,
    "/xray": _xray,
}


class _Handler(BaseHTTPRequestHandler):
    server: ViewServer
    server_version = "rubi-view"
    sys_version = ""

    def do_GET(self) -> None:
        self._answer(head=False)

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def _refuse_method(self) -> None:
        self._send(405, "text/plain; charset=utf-8", "read-only: GET and HEAD only", False)

    do_POST = do_PUT = do_DELETE = do_PATCH = _refuse_method

    def _answer(self, head: bool) -> None:
        refused = refusal(self.headers.get("Host"), self.headers.get("Origin"), self.server.names)
        if refused is not None:
            self._send(refused[0], "text/plain; charset=utf-8", refused[1], head)
            return
        if len(self.path) > MAX_QUERY_STRING:
            self._send(414, "text/plain; charset=utf-8", "request line too long", head)
            return
        parts = urlsplit(self.path)
        route = _ROUTES.get(parts.path)
        if route is None:
            self._send(404, _JSON, json.dumps({"error": f"no such page: {parts.path[:80]}"}), head)
            return
        try:
            status, kind, body = route(self.server.state, parse_qs(parts.query))
        except IndexCorruptError as exc:
            status, kind, body = 409, _JSON, json.dumps({"error": str(exc)})
        except RubiError as exc:
            status, kind, body = 400, _JSON, json.dumps({"error": str(exc)})
        self._send(status, kind, body, head, xray=parts.path == "/xray")

    def _send(self, status: int, kind: str, body: str, head: bool, xray: bool = False) -> None:
        from rubi.view.page import CONTENT_SECURITY_POLICY

        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        policy = _XRAY_POLICY if xray else CONTENT_SECURITY_POLICY
        self.send_header("Content-Security-Policy", policy)
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged (a page and its calls would flood the terminal);
        errors the server itself hits still go to stderr."""

    def log_error(self, format: str, *args: Any) -> None:
        sys.stderr.write(f"rubi view: {format % args}\n")
