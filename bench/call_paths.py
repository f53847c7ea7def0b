"""The reading paths of three everyday actions, module by module: which of rubi's
modules each passes through, in order, and how often a call goes *up* the layers (a
lower layer calling into a higher one: a callback, or a module reaching back).

Usage::

    python bench/call_paths.py [--vault DIR]

Actions (each on a copy of ``--vault``, default this repository's ``.rubi``, indexed
first; ``RUBI_ENGINE=0`` so that each runs in this process):

- ``save -> search``: a note is written, then ``rubi search`` (click, as the console
  runs it) finds it: the index is brought up to date first.
- ``hook``: a UserPromptSubmit hook answered cold (:func:`rubi.claude.hooks.entry.respond`).
- ``ranking``: one search of an up-to-date index (:func:`rubi.app.search`, no refresh).

The layers are the architecture test's (``tests/test_architecture.py``: ``LAYERS``).
A step is a call from a function of one rubi module into a function of another; the
path lists each module the first time it is entered, and the counts are over every
step. Tracing is :func:`sys.setprofile` (C calls are not steps).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _layers() -> tuple[tuple[str, ...], ...]:
    spec = importlib.util.spec_from_file_location("arch", REPO / "tests" / "test_architecture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    layers: tuple[tuple[str, ...], ...] = module.LAYERS
    return layers


def _layer_of(layers: tuple[tuple[str, ...], ...]) -> Callable[[str], int]:
    def layer(module: str) -> int:
        parts = module.split(".")
        package = ".".join(parts[:2])
        for i, group in enumerate(layers):
            if package in group or module in group:
                return i
        return -1  # rubi itself (rubi/__init__.py)

    return layer


class Trace:
    """Module-to-module steps seen while tracing."""

    def __init__(self, layer: Callable[[str], int]) -> None:
        self.layer = layer
        self.first: list[str] = []
        self.steps: Counter[tuple[str, str]] = Counter()
        self.names: dict[tuple[str, str], str] = {}

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        if not callee.startswith("rubi"):
            return
        caller_frame = frame.f_back
        while caller_frame is not None and not str(
            caller_frame.f_globals.get("__name__", "")
        ).startswith("rubi"):
            caller_frame = caller_frame.f_back
        caller = caller_frame.f_globals.get("__name__", "") if caller_frame else ""
        if callee not in self.first:
            self.first.append(callee)
        if caller and caller != callee:
            self.steps[(caller, callee)] += 1
            self.names.setdefault((caller, callee), frame.f_code.co_qualname)

    def up(self) -> list[tuple[str, str, int]]:
        """Steps from a lower layer into a higher one, with their counts."""
        return sorted(
            (a, b, n)
            for (a, b), n in self.steps.items()
            if self.layer(a) >= 0 and self.layer(b) > self.layer(a)
        )

    def report(self, name: str) -> dict[str, Any]:
        ups = self.up()
        return {
            "action": name,
            "modules": self.first,
            "module_steps": sum(self.steps.values()),
            "distinct_steps": len(self.steps),
            "up_steps": sum(n for *_, n in ups),
            "up": [f"{a} -> {b}.{self.names[(a, b)]} ({n}x)" for a, b, n in ups],
        }


@contextlib.contextmanager
def traced(trace: Trace) -> Iterator[None]:
    sys.setprofile(trace.profile)
    try:
        yield
    finally:
        sys.setprofile(None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vault", type=Path, default=REPO / ".rubi")
    parser.add_argument("--json", type=Path, help="write the reports here too")
    opts = parser.parse_args()
    os.environ["RUBI_ENGINE"] = "0"
    work = Path(tempfile.mkdtemp(prefix="paths"))
    os.environ["HOME"] = str(work / "home")
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")
    project = work / "project"
    shutil.copytree(opts.vault, project / ".rubi")
    os.chdir(project)

    from click.testing import CliRunner

    from rubi import app
    from rubi.claude.hooks.entry import respond
    from rubi.cli.main import cli

    paths = app.locate(project / ".rubi")
    app.index(paths)
    app.search(paths, "warm up every import", refresh=False)  # imports are not steps
    layer = _layer_of(_layers())
    reports = []

    note = project / ".rubi" / "notes" / "gotcha-paths-bench.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("---\ntype: gotcha\n---\n# Paths bench\n\nThe tracer reads modules.\n")
    trace = Trace(layer)
    with traced(trace):
        result = CliRunner().invoke(cli, ["search", "tracer", "reads", "modules"])
    assert result.exit_code == 0, result.output
    reports.append(trace.report("save -> search"))

    payload = {
        "session_id": "paths",
        "cwd": str(project),
        "hook_event_name": "UserPromptSubmit",
        "prompt": "how does the tracer read modules?",
    }
    trace = Trace(layer)
    with traced(trace):
        respond("UserPromptSubmit", payload, io.StringIO())
    reports.append(trace.report("hook (UserPromptSubmit, cold)"))

    trace = Trace(layer)
    with traced(trace):
        app.search(paths, "how are hits fused and ranked", refresh=False)
    reports.append(trace.report("ranking"))

    for report in reports:
        print(f"## {report['action']}")
        print(f"modules entered, in order ({len(report['modules'])}):")
        print("  " + " > ".join(m.removeprefix("rubi.") for m in report["modules"]))
        print(
            f"module-to-module calls: {report['module_steps']} "
            f"({report['distinct_steps']} distinct); going up the layers: {report['up_steps']}"
        )
        for line in report["up"]:
            print(f"  up: {line}")
        print()
    if opts.json:
        opts.json.write_text(json.dumps(reports, indent=2))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
