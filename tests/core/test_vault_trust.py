"""A ``.rubi/`` the walk up finds is used only when it is the user's own and not at the
filesystem's root: a vault another user planted above the working folder (a
``/tmp/.rubi`` on a shared machine) would otherwise put its notes in the agent's
context and receive the notes the agent writes, as git refuses a repository another
user owns; one at ``/`` would make every file of the machine its project."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hooks.hookhelpers import base, hook
from rubi.core.errors import VaultNotFoundError
from rubi.core.paths import find_vault, walked_vault
from rubi.core.vaultwalk import VaultWalk

from helpers import login_project, tree_state

needs_uids = pytest.mark.skipif(not hasattr(os, "getuid"), reason="no user ids here")


def _as_another_user(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process runs as a user who owns none of the test's files."""
    uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: uid + 1)


def test_a_vault_at_the_filesystem_root_is_refused_with_one_line() -> None:
    root = Path(os.path.abspath(os.sep))
    walk = VaultWalk(str(root / "tmp" / "work"), str(root / ".rubi"))
    with pytest.raises(VaultNotFoundError, match="filesystem's root") as caught:
        walked_vault(walk)
    assert "\n" not in str(caught.value) and "rubi init" in str(caught.value)


@needs_uids
def test_another_users_vault_above_the_folder_is_refused_but_usable_by_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    (shared / ".rubi" / "notes").mkdir(parents=True)
    work = shared / "mine" / "src"
    work.mkdir(parents=True)
    assert find_vault(cwd=work).root == (shared / ".rubi").resolve()  # one's own: used
    _as_another_user(monkeypatch)
    with pytest.raises(VaultNotFoundError, match="owned by another user") as caught:
        find_vault(cwd=work)
    assert "\n" not in str(caught.value) and "--vault" in str(caught.value)
    assert find_vault(shared / ".rubi").root == (shared / ".rubi").resolve()


@needs_uids
def test_a_hook_below_another_users_vault_recalls_nothing_and_writes_nothing_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    planted = login_project(tmp_path / "shared")
    work = planted / "victim" / "src"
    work.mkdir(parents=True)
    payload = base(work, "UserPromptSubmit", prompt="why does the login token expire at night?")
    out = hook("UserPromptSubmit", payload)
    assert out is not None and "login-tokens-expire" in str(out)  # the user's own: recalled
    before = tree_state(planted / ".rubi")
    _as_another_user(monkeypatch)
    assert hook("UserPromptSubmit", payload) is None
    assert hook("SessionEnd", base(work, "SessionEnd", reason="other")) is None
    assert tree_state(planted / ".rubi") == before
