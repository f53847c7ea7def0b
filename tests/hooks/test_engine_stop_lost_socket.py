"""An idle engine whose socket file was removed (a temp cleaner, a user's ``rm``, an
engine of another rubi that took the path over) still ends when stopped. Its accept
loop sleeps without a timeout and is woken by a connection of :meth:`Engine.stop`'s
own, which then reaches nobody (or another engine): the loop must end anyway, not
sleep in ``accept`` for ever."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

from rubi import app
from rubi.engine.address import address_for
from rubi.engine.server import Engine


def _asleep_in_accept(running: Engine) -> str:
    """Wait until ``running``'s loop sleeps in accept with no timeout; its socket's path."""
    assert running.serving.wait(10) and running.ready.wait(30)
    listener = running._listener
    assert listener is not None
    for _ in range(200):
        if listener.gettimeout() is None:
            break
        time.sleep(0.05)
    assert listener.gettimeout() is None
    address = address_for(running.vault, create=False)
    assert address is not None and os.path.exists(address.socket)
    return address.socket


def test_an_engine_whose_socket_file_is_gone_ends_when_stopped(project: Path) -> None:
    paths = app.locate(project / ".rubi")
    running = Engine(paths).start()
    try:
        os.unlink(_asleep_in_accept(running))
    finally:
        running.stop(timeout_s=5.0)
    thread = running._thread
    assert thread is not None
    thread.join(5.0)  # not a timing: the loop ends, or sleeps in accept for ever
    assert not thread.is_alive()


def test_an_engine_whose_socket_path_another_listener_took_ends_when_stopped(
    project: Path,
) -> None:
    """The path bound again by someone else (another rubi's engine after a clean-up):
    stop's waking connection would reach that listener, not this accept."""
    paths = app.locate(project / ".rubi")
    running = Engine(paths).start()
    other = socket.socket(socket.AF_UNIX)
    try:
        path = _asleep_in_accept(running)
        os.unlink(path)
        other.bind(path)
        other.listen(4)
    finally:
        running.stop(timeout_s=5.0)
        other.close()
    thread = running._thread
    assert thread is not None
    thread.join(5.0)
    assert not thread.is_alive()
