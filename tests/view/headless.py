"""Headless Chromium for the viewer's page test, driven over the DevTools protocol on
a pipe (``--remote-debugging-pipe``: JSON messages ended by NUL on file descriptors 3
and 4), so no WebSocket library is needed.

The browser is the system's ``chromium`` when there is one, else the headless build
of ``@sparticuz/chromium`` from npm (a brotli-compressed binary its own code unpacks
into the temporary folder; it only answers over the DevTools protocol, hence the
pipe). Without either the test is skipped on a developer's machine and fails in CI,
like the other npm-installed CLIs (:mod:`e2e.npm_cli`).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from e2e.npm_cli import npm_file

SPARTICUZ_VERSION = "153.0.0"
_FLAGS = (
    "--headless=shell",
    "--no-sandbox",
    "--no-zygote",
    "--single-process",
    "--no-first-run",
    "--use-gl=angle",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--in-process-gpu",
    "--remote-debugging-pipe",
)


def _unavailable(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def chromium() -> str:
    """The path of a headless-capable Chromium (see the module docstring)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    package = npm_file(
        "chromium",
        "@sparticuz/chromium",
        SPARTICUZ_VERSION,
        Path("node_modules", "@sparticuz", "chromium", "package.json"),
    )
    node = shutil.which("node")
    if node is None:
        _unavailable("node not found: @sparticuz/chromium cannot unpack its browser")
    script = "import('@sparticuz/chromium').then(m => m.default.executablePath())"
    proc = subprocess.run(
        [str(node), "-e", script + ".then(p => console.log(p))"],
        cwd=package.parents[3],
        capture_output=True,
        text=True,
        timeout=300,
    )
    path = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    if proc.returncode != 0 or not Path(path).is_file():
        _unavailable(f"@sparticuz/chromium did not unpack: {proc.stderr.strip()[-400:]}")
    return path


class Browser:
    """One headless Chromium and one page, driven over the DevTools pipe."""

    def __init__(self, executable: str, profile: Path, width: int, height: int) -> None:
        to_browser, self._write = os.pipe()
        self._read, from_browser = os.pipe()

        def wire() -> None:  # in the child: its fd 3 reads our writes, fd 4 is its answers
            a, b = os.dup(to_browser), os.dup(from_browser)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [executable, *_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=wire,
            close_fds=False,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        attach = {"targetId": target, "flatten": True}
        self.session = self.call("Target.attachToTarget", attach)["sessionId"]
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
        self.call("Emulation.setDeviceMetricsOverride", metrics, page=True)

    def call(self, method: str, params: dict[str, Any] | None = None, *, page: bool = False) -> Any:
        """Send one command (to the page's session with ``page``) and return its
        result; events in between are dropped."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        os.write(self._write, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._read, 1 << 20)
                if not chunk:
                    raise EOFError(f"Chromium closed the pipe during {method}")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        params = {"expression": expression, "awaitPromise": True, "returnByValue": True}
        result = self.call("Runtime.evaluate", params, page=True)
        if "exceptionDetails" in result:
            raise RuntimeError(str(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def wait_for(self, condition: str, timeout: float = 30.0) -> None:
        """Poll until the JavaScript ``condition`` is true."""
        deadline = time.monotonic() + timeout
        while not self.evaluate(f"Boolean({condition})"):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {condition}")
            time.sleep(0.1)

    def screenshot(self, scale: float = 1.0) -> bytes:
        """A PNG of the viewport, scaled by ``scale``."""
        params: dict[str, Any] = {"format": "png"}
        if scale != 1.0:
            size = self.evaluate("[innerWidth, innerHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": scale}
        return base64.b64decode(self.call("Page.captureScreenshot", params, page=True)["data"])

    def close(self) -> None:
        with contextlib.suppress(EOFError, OSError, RuntimeError):
            self.call("Browser.close")
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        os.close(self._write)
        os.close(self._read)


def open_browser(width: int, height: int) -> Browser:
    """A :class:`Browser` with a fresh profile folder."""
    return Browser(chromium(), Path(tempfile.mkdtemp(prefix="rubi-chromium-")), width, height)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def png_colours(data: bytes) -> int:
    """Distinct pixel colours of an 8-bit RGB or RGBA PNG (its rows unfiltered as the
    PNG specification, section 9, says)."""
    width, height = png_size(data)
    depth, colour_type = data[24], data[25]
    assert depth == 8 and colour_type in (2, 6), (depth, colour_type)
    channels = 4 if colour_type == 6 else 3
    chunks, at = [], 8
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        if data[at + 4 : at + 8] == b"IDAT":
            chunks.append(data[at + 8 : at + 8 + length])
        at += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    colours: set[bytes] = set()
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            if kind == 1:
                row[i] = (row[i] + left) & 255
            elif kind == 2:
                row[i] = (row[i] + up) & 255
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind == 4:
                corner = previous[i - channels] if i >= channels else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                row[i] = (row[i] + best) & 255
        colours.update(bytes(row[i : i + channels]) for i in range(0, stride, channels))
        previous = row
    return len(colours)
