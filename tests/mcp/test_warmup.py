"""The stdio server's warm-up: the vault first, the SDK's import after, and never
while a tool call is being answered in the greeting."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from rubi.core.paths import VaultPaths
from rubi.mcp import startup
from rubi.mcp.startup import Warmup, one_blas_thread

WAIT_S = 10.0


def test_the_vault_warms_before_the_sdk_loads_and_the_build_waits_for_a_call(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    order: list[str] = []
    warming = threading.Event()
    monkeypatch.setattr(
        startup, "warm_vault", lambda paths: (warming.wait(WAIT_S), order.append("warm"))
    )

    def build(ready: Any) -> Any:
        order.append("build")
        return object()

    warmup = Warmup(VaultPaths(root=tmp_path, index_dir=tmp_path), build)
    with warmup.serving():  # a call arrived in the greeting before the vault was warm
        warmup.start()
        warming.set()
        warmup.ready()
        assert order == ["warm"]
        assert not warmup.built.wait(0.2)  # the call is answered first
        order.append("call answered")
    assert warmup.built.wait(WAIT_S)
    assert order == ["warm", "call answered", "build"]
    assert warmup.server() is not None


def test_numpy_gets_one_blas_thread_unless_the_user_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in startup.BLAS_THREADS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    one_blas_thread()
    assert startup.os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    one_blas_thread()
    assert "OPENBLAS_NUM_THREADS" not in startup.os.environ


def test_the_start_is_told_once_the_vault_is_warm_and_no_call_is_being_answered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    warming = threading.Event()
    monkeypatch.setattr(startup, "STARTED", threading.Event())
    monkeypatch.setattr(startup, "warm_vault", lambda paths: warming.wait(WAIT_S))
    warmup = Warmup(VaultPaths(root=tmp_path, index_dir=tmp_path), lambda ready: object())
    with warmup.serving():  # a call came in the greeting
        warmup.start()
        assert not startup.STARTED.wait(0.2)  # the vault is still warming
        warming.set()
        warmup.ready()
        assert not startup.STARTED.wait(0.2)  # warm, but the call is being answered
    assert startup.STARTED.wait(WAIT_S)
