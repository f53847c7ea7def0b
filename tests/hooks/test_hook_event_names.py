"""``rubi hook EVENT``: an event rubi answers (in any case, kebab-case too) takes the
hook path; a misspelt one or extra arguments are a usage error in click's words
(status 2), as ``rubi hook --help`` lists the events, not a silent ``KeyError`` in
hooks.log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rubi.entry import _hook_args_known

_AS_RUBI = "import sys; sys.argv[0] = 'rubi'; from rubi.entry import main; main()"


@pytest.mark.parametrize(
    ("args", "known"),
    [
        ([], True),
        (["UserPromptSubmit"], True),
        (["user-prompt-submit"], True),
        (["sessionstart"], True),
        (["Pre_Tool_Use"], True),
        (["Bogus"], False),
        (["Notification"], False),
        (["UserPromptSubmit", "extra"], False),
        (["--help"], False),
        (["-h"], False),
    ],
)
def test_only_a_known_event_takes_the_hook_path(args: list[str], known: bool) -> None:
    assert _hook_args_known(args) is known


def test_a_misspelt_event_is_a_usage_error_and_logs_nothing(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-c", _AS_RUBI, "hook", "UserPromtSubmit"],
        input="{}",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, **env},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines()[-1].startswith(
        "Error: Invalid value for 'EVENT': 'UserPromtSubmit' is not one of 'sessionstart',"
    )
    assert not list(tmp_path.rglob("hooks.log"))
