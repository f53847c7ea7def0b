"""The HTTP server's bearer token: where it is kept, when the kept file is refused,
and how a given token is matched."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rubi.core.errors import RubiError
from rubi.mcp.http_token import TOKEN_ENV, default_token_file, resolve_token, token_matches

TOKEN = "t0ken-for-tests-0123456789abcdef"


@pytest.fixture
def kept(tmp_path: Path) -> Path:
    return tmp_path / "state" / "rubi" / "http-token"


# ------------------------------------------------------------------------ matching


@pytest.mark.parametrize(
    "given",
    [
        "",
        TOKEN + " ",
        " " + TOKEN,
        TOKEN + "\t",
        TOKEN + "\n",
        TOKEN[:-1],
        TOKEN[:8],
        TOKEN + "x",
        TOKEN.upper(),
        TOKEN.swapcase(),
        f"Bearer {TOKEN}",
        "\udcff",
        "é" * 10,
    ],
)
def test_only_the_token_itself_matches(given: str) -> None:
    assert token_matches(TOKEN, TOKEN)
    assert not token_matches(given, TOKEN)


# ----------------------------------------------------------------- the kept file


def test_the_token_is_made_once_private_and_kept(kept: Path) -> None:
    old_umask = os.umask(0)  # a careless umask must not widen the file
    try:
        token, path, created = resolve_token({}, kept)
    finally:
        os.umask(old_umask)
    assert path == kept and created and len(token) >= 40
    assert kept.read_text() == f"{token}\n"
    assert kept.stat().st_mode & 0o777 == 0o600
    assert kept.parent.stat().st_mode & 0o777 == 0o700
    assert resolve_token({}, kept) == (token, kept, False)
    assert [p.name for p in kept.parent.iterdir()] == ["http-token"]  # no temp file left


def test_the_environment_token_wins_and_no_file_is_made(kept: Path) -> None:
    assert resolve_token({TOKEN_ENV: TOKEN}, kept) == (TOKEN, None, False)
    assert not kept.exists()


def test_the_default_file_is_in_the_state_folder(isolated_home: Path) -> None:
    assert default_token_file() == isolated_home / ".local" / "state" / "rubi" / "http-token"
    token, path, _ = resolve_token({})
    assert path == default_token_file() and path.read_text().strip() == token


def test_servers_starting_together_agree_on_one_token(kept: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from rubi.mcp.http_token import resolve_token;"
        "print(resolve_token({}, Path(sys.argv[1]))[0])"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(kept)], stdout=subprocess.PIPE, text=True, env=env
        )
        for _ in range(6)
    ]
    tokens = {proc.communicate(timeout=30)[0].strip() for proc in procs}
    assert tokens == {kept.read_text().strip()}


def _planted(kept: Path, how: str, tmp_path: Path) -> None:
    kept.parent.mkdir(parents=True, mode=0o700)
    if how == "symlink":
        target = tmp_path / "elsewhere"
        target.write_text(TOKEN + "\n")
        target.chmod(0o600)
        kept.symlink_to(target)
    elif how == "fifo":
        os.mkfifo(kept, 0o600)
    elif how == "folder":
        kept.mkdir()
    else:
        data = {
            "open to others": TOKEN.encode() + b"\n",
            "short": b"abc\n",
            "spaces": b"two words in a token file\n",
            "not ascii": b"\xff" * 40,
            "empty": b"",
            "huge": b"A" * 10_000,
        }[how]
        kept.write_bytes(data)
        kept.chmod(0o644 if how == "open to others" else 0o600)


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("symlink", "is a symbolic link"),
        ("fifo", "is not a regular file"),
        ("folder", "is not a regular file"),
        ("open to others", r"open to other users \(mode 0644\)"),
        ("short", "3 characters long"),
        ("spaces", "cannot carry"),
        ("not ascii", "not ASCII"),
        ("empty", "0 characters long"),
        ("huge", "over 4096 bytes"),
    ],
)
@pytest.mark.timeout(20)
def test_a_kept_file_that_is_not_a_private_token_is_one_clear_line(
    kept: Path, tmp_path: Path, how: str, message: str
) -> None:
    _planted(kept, how, tmp_path)
    with pytest.raises(RubiError, match=message) as info:
        resolve_token({}, kept)
    text = str(info.value)
    assert str(kept) in text and f"delete {kept}" in text and "\n" not in text
    if how == "symlink":
        assert (tmp_path / "elsewhere").read_text() == TOKEN + "\n"  # untouched


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_a_kept_file_of_another_user_is_refused(kept: Path) -> None:
    kept.parent.mkdir(parents=True, mode=0o700)
    kept.write_text(TOKEN + "\n")
    kept.chmod(0o600)
    os.chown(kept, 65534, 65534)
    with pytest.raises(RubiError, match=r"belongs to another user \(uid 65534\)"):
        resolve_token({}, kept)


def test_an_unwritable_state_folder_says_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(RubiError, match=f"cannot create the token file.*{TOKEN_ENV}"):
        resolve_token({}, blocker / "rubi" / "http-token")
