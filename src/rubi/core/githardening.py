"""What every git call of rubi's runs with, so that nothing a repository carries runs.

A ``.git/config`` arrives with an archive or a synced folder as easily as a note does,
and git runs programs that config names: a signature checker, a pager, a diff tool, a
filter, a hook. rubi asks git read-only questions only (``rev-parse``, ``log``,
``show -s``, ``ls-files``, ``ls-tree``, ``status``, ``config --get``, ``worktree
list``), and each runs with every program-valued setting that such a command can reach
set to nothing by ``-c`` (command-line values win over every config file), and with the
environment of :data:`GIT_ENV`.

Settings whose name holds a driver name chosen by the repository (``filter.<name>.clean``)
cannot be listed ahead: :func:`driver_overrides` finds those a repository defines, for
the one command that can run them (``status`` hashes changed files through ``clean``
and ``process`` filters). ``diff.<name>.command`` and ``textconv`` run only for a patch,
which rubi never asks for, and are turned off by ``--no-ext-diff --no-textconv`` too.

Settings not listed, because no read-only command reaches them: ``merge.<name>.driver``,
``mergetool``/``difftool.<name>.cmd``, ``remote.<name>.uploadpack``/``receivepack``/
``vcs`` (no network: ``protocol.allow=never``), ``sendemail.*``, ``browser.<name>.cmd``,
``man.<name>.cmd``, ``alias.*`` (rubi never calls an alias), ``pager.<command>`` (no
pager at all: ``--no-pager``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

__all__ = [
    "DRIVER_PROGRAM_KEYS",
    "GIT_ENV",
    "GIT_HARDENING",
    "driver_overrides",
    "git_environment",
]

_SETTINGS: tuple[tuple[str, str], ...] = (
    # core.fsmonitor names a program git runs on status to learn what changed.
    ("core.fsmonitor", "false"),
    # The untracked cache is written into the index: a read must not write.
    ("core.untrackedCache", "false"),
    # No git call of rubi's reaches the network (remote helpers, ssh, http).
    ("protocol.allow", "never"),
    # log/show check every gpgsig header with gpg.program when this is true.
    ("log.showSignature", "false"),
    # The programs that check a signature, per format (openpgp, ssh, x509).
    ("gpg.program", ""),
    ("gpg.openpgp.program", ""),
    ("gpg.ssh.program", ""),
    ("gpg.x509.program", ""),
    # Runs to find the signing key (signing only; set to nothing all the same).
    ("gpg.ssh.defaultKeyCommand", ""),
    # The pager for any command (stdout is a pipe, and --no-pager is given too).
    ("core.pager", "cat"),
    # An external diff program for patches (rubi asks for names only).
    ("diff.external", ""),
    # Hooks: status may refresh the index and run post-index-change.
    ("core.hooksPath", os.devnull),
    # Editors: never started by a read, set to nothing all the same.
    ("core.editor", ""),
    ("sequence.editor", ""),
    # Programs for the network and for passwords (no network: nothing asks).
    ("core.sshCommand", ""),
    ("core.askPass", ""),
    ("credential.helper", ""),
    # Runs to list an alternate's refs (fetch and push only).
    ("core.alternateRefsCommand", ""),
    # Runs pack-objects on a server (upload-pack only).
    ("uploadpack.packObjectsHook", ""),
    # A folder that looks like a bare repository is not one unless named (--git-dir):
    # an archive can hold a bare repository's files at any level.
    ("safe.bareRepository", "explicit"),
)

GIT_HARDENING: tuple[str, ...] = (
    "--no-pager",
    *(arg for key, value in _SETTINGS for arg in ("-c", f"{key}={value}")),
)
"""Options put before the command of every git call rubi runs (``git OPTIONS cmd``):
``--no-pager`` and ``-c key=value`` for each program-valued setting a read-only command
can reach, each with its reason above."""

GIT_ENV: Mapping[str, str | None] = {
    # No pager, whatever the user's environment says.
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    # External diff and password programs named by the environment: removed.
    "GIT_EXTERNAL_DIFF": None,
    "GIT_ASKPASS": None,
    "SSH_ASKPASS": None,
    "GIT_SSH": None,
    "GIT_SSH_COMMAND": None,
    "GIT_EDITOR": None,
    "GIT_SEQUENCE_EDITOR": None,
    # Never wait for a password on a terminal.
    "GIT_TERMINAL_PROMPT": "0",
    # A read never takes the index lock nor writes the index (status would).
    "GIT_OPTIONAL_LOCKS": "0",
    # The system config is not read (the user's own global config is: user.email for
    # handoffs, core.excludesFile). On Windows it holds core.autocrlf, which changes
    # what status reports, so it is kept there.
    "GIT_CONFIG_NOSYSTEM": None if sys.platform == "win32" else "1",
}
"""Environment variables every git call gets: a value is set, None removes the
variable."""

DRIVER_PROGRAM_KEYS = r"^filter\..+\.(clean|smudge|process)$"
"""The program-valued settings named by a driver the repository chooses that a
read-only command can run (``status`` cleans a changed file to hash it): a regular
expression for ``git config --get-regexp``."""


def git_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) with :data:`GIT_ENV` applied."""
    env = dict(os.environ if base is None else base)
    for key, value in GIT_ENV.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def driver_overrides(names: list[str]) -> list[str] | None:
    """``-c`` options that set each driver program in ``names`` (setting names as
    ``git config --name-only`` prints them, matching :data:`DRIVER_PROGRAM_KEYS`) to
    nothing, and mark each driver not required (a required filter that does not run
    would fail the command).

    Returns:
        The options, in order, to put before the command; None when a name cannot be
        set from the command line (a driver name holding ``=``): then the command
        must not run.
    """
    out: list[str] = []
    drivers: set[str] = set()
    for name in names:
        section, _, rest = name.partition(".")
        driver, _, key = rest.rpartition(".")
        if section.lower() != "filter" or not driver:
            continue
        if "=" in driver or "\n" in name:
            return None
        out += ["-c", f"filter.{driver}.{key}="]
        drivers.add(driver)
    for driver in sorted(drivers):
        out += ["-c", f"filter.{driver}.required=false"]
    return out
