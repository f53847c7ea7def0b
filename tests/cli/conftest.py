"""Fixtures shared by the tests of commands answered by a resident engine: the calls
the engine answers and an engine serving the test module's ``project``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rubi.app import commandanswers
from rubi.core.commandcalls import Answer, ReadArgs, SearchArgs

from helpers import serving


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the calls the engine (in this process) answers, in order."""
    seen: list[str] = []
    real = commandanswers.answer_call

    def counted(paths: Any, call: SearchArgs | ReadArgs) -> Answer:
        seen.append(type(call).__name__)
        return real(paths, call)

    monkeypatch.setattr(commandanswers, "answer_call", counted)
    return seen


@pytest.fixture
def engine(project: Path) -> Iterator[Any]:
    """A resident engine (:class:`rubi.engine.server.Engine`) serving the module's
    ``project`` fixture's vault, ready, while the test runs."""
    with serving(project) as running:
        yield running
