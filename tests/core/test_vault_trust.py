"""A ``.rubi/`` the walk up finds is used only when it is the user's own and not at the
filesystem's root: a vault another user planted above the working folder (a
``/tmp/.rubi`` on a shared machine) would otherwise put its notes in the agent's
context and receive the notes the agent writes, as git refuses a repository another
user owns; one at ``/`` would make every file of the machine its project."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

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


def _owned_by(monkeypatch: pytest.MonkeyPatch, entry: Path, uid: int) -> None:
    """``os.lstat`` says ``entry`` (a link: the entry itself, not its target) is
    ``uid``'s, as ``chown -h`` would make it (which needs root)."""
    real = os.lstat

    def lstat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        st = real(path, *args, **kwargs)
        if os.fspath(path) == str(entry):
            fields = list(st)
            fields[4] = uid  # st_uid
            return os.stat_result(fields)
        return st

    monkeypatch.setattr(os, "lstat", lstat)


@needs_uids
def test_another_users_link_to_a_folder_of_mine_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/tmp/.rubi -> /tmp/my-checkout``, planted by another user: the folder it leads
    to is the user's, yet the link would make the checkout the vault (rubi's pages
    written into it) and ``/tmp`` its project (every file there in the code map)."""
    shared = tmp_path / "shared"
    checkout = shared / "my-checkout"
    (checkout / "src").mkdir(parents=True)
    (shared / ".rubi").symlink_to(checkout)
    assert find_vault(cwd=checkout / "src").project_root == shared  # my own link: used
    _owned_by(monkeypatch, shared / ".rubi", os.getuid() + 1)
    with pytest.raises(VaultNotFoundError, match="owned by another user"):
        find_vault(cwd=checkout / "src")


@needs_uids
def test_my_link_to_another_users_folder_is_refused_when_walked_to_but_not_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "docs" / "memory" / "notes").mkdir(parents=True)
    (project / "src").mkdir()
    (project / ".rubi").symlink_to(Path("docs") / "memory")
    _as_another_user(monkeypatch)  # every file is now another user's...
    _owned_by(monkeypatch, project / ".rubi", os.getuid())  # ...but the link
    with pytest.raises(VaultNotFoundError, match="--vault PATH") as caught:
        find_vault(cwd=project / "src")
    assert "\n" not in str(caught.value)
    named = find_vault(project / ".rubi")  # what the refusal says to do works
    assert (named.root, named.project_root) == (project / ".rubi", project)


@needs_uids
def test_root_through_sudo_is_told_to_run_rubi_without_sudo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sudo rubi search`` in one's own project: refused (what it would write there
    would be root's), in one line that says why, not ``rubi init``."""
    vault = tmp_path / ".rubi"
    vault.mkdir()
    real = {name: getattr(os, name) for name in ("stat", "lstat")}
    for name, call in real.items():

        def owned_by_4242(path: Any, *args: Any, _call: Any = call, **kwargs: Any) -> Any:
            st = _call(path, *args, **kwargs)
            if os.fspath(path) != str(vault):
                return st
            fields = list(st)
            fields[4] = 4242  # st_uid: the user who ran sudo
            return os.stat_result(fields)

        monkeypatch.setattr(os, name, owned_by_4242)
    monkeypatch.setattr(os, "getuid", lambda: 0)
    monkeypatch.setenv("SUDO_UID", "4242")
    with pytest.raises(VaultNotFoundError, match="without sudo") as caught:
        find_vault(cwd=tmp_path)
    assert "\n" not in str(caught.value)
    monkeypatch.setenv("SUDO_UID", "4243")  # someone else ran sudo: the usual line
    with pytest.raises(VaultNotFoundError, match="owned by another user"):
        find_vault(cwd=tmp_path)


@needs_uids
def test_a_vault_declared_safe_is_used_whoever_owns_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``RUBI_SAFE_VAULTS`` (git's ``safe.directory``): a checkout mounted into a
    container belongs to the host's user id; listing its folder, or ``*``, lets the
    walk use its vault; another folder listed does not."""
    project = tmp_path / "mounted"
    (project / ".rubi" / "notes").mkdir(parents=True)
    work = project / "src"
    work.mkdir()
    _as_another_user(monkeypatch)
    with pytest.raises(VaultNotFoundError, match="RUBI_SAFE_VAULTS=") as caught:
        find_vault(cwd=work)
    assert str(project.resolve()) in str(caught.value)
    for value in [str(tmp_path / "other"), ""]:
        monkeypatch.setenv("RUBI_SAFE_VAULTS", value)
        with pytest.raises(VaultNotFoundError):
            find_vault(cwd=work)
    for value in [str(project), f"{tmp_path / 'other'}{os.pathsep}{project}/", "*"]:
        monkeypatch.setenv("RUBI_SAFE_VAULTS", value)
        assert find_vault(cwd=work).root == (project / ".rubi").resolve()
