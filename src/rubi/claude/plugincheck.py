"""Whether Claude Code runs rubi twice: its plugin enabled beside the hooks that
``rubi install`` wrote.

The README offers two routes into Claude Code, the plugin or ``rubi install``; a new
user who takes both gets both sets of hooks. Measured with Claude Code 2.1.197 in a
project with both (``docs/benchmarks-history.md``, "issue 28/29: what a new user meets
on a fresh machine, twenty-sixth pass"): SessionStart ran twice, so the first request
carried the code map twice (12,387 characters of messages against 9,621 with the install
alone); and Claude Code hid the plugin's server as a duplicate of the ``rubi`` server
``rubi install`` put in ``.mcp.json``, so every ``mcp_tool`` hook of the plugin was
skipped with "MCP server 'plugin:rubi:rubi' not connected". Beside ``rubi install
--user`` (its server in ``~/.claude.json``) the plugin's server was not hidden: the map
and a prompt's recall each came twice (13,637 characters), and the turn was captured
twice in the session record (the second copy without its prompt). One route is enough.

Claude Code's ``enabledPlugins`` setting maps ``plugin@marketplace`` to a boolean; it
is read from the user's ``settings.json`` (in ``$CLAUDE_CONFIG_DIR``, else
``~/.claude``), then the project's ``.claude/settings.json`` and
``.claude/settings.local.json``, the later file's value winning for a key (Claude
Code's settings precedence: local over project over user).
"""

from __future__ import annotations

from pathlib import Path

from rubi.app import claude_config_dir
from rubi.claude import settingsfile
from rubi.claude.hookpaths import own_group, settings_files
from rubi.core.errors import RubiError

__all__ = ["PLUGIN", "double_wiring", "enabled_plugin"]

PLUGIN = "rubi"
"""The plugin's name in ``.claude-plugin/plugin.json``; its key is ``rubi@<marketplace>``
(the marketplace's name, ``rubi`` for this repository's own)."""


def _plugin_files(project: Path | None) -> list[tuple[Path, Path | None]]:
    """The settings files that can enable a plugin, lowest precedence first, each with
    the folder it must stay inside (None for the user's own)."""
    files: list[tuple[Path, Path | None]] = [(claude_config_dir() / "settings.json", None)]
    if project is not None:
        files += [
            (project / ".claude" / name, project)
            for name in ("settings.json", "settings.local.json")
        ]
    return files


def enabled_plugin(project: Path | None) -> tuple[str, Path] | None:
    """The key (``rubi@<marketplace>``) of rubi's plugin and the settings file that
    enables it for ``project`` (None: the user's settings alone), or None when no
    file enables it or a file of higher precedence disables it. A file that cannot be
    read or is not a JSON object is passed over (``rubi doctor`` reports it)."""
    state: dict[str, tuple[bool, Path]] = {}
    for path, within in _plugin_files(project):
        try:
            data = settingsfile.load(path, within)
        except (RubiError, OSError):
            continue
        plugins = data.get("enabledPlugins")
        if not isinstance(plugins, dict):
            continue
        for key, on in plugins.items():
            if isinstance(key, str) and key.partition("@")[0] == PLUGIN:
                state[key] = (on is True, path)
    for key, (on, path) in sorted(state.items()):
        if on:
            return key, path
    return None


def _installed_hooks(project: Path | None) -> Path | None:
    """The first settings file ``rubi install`` writes hooks into (the project's
    ``.claude/settings.local.json``, then the user's ``~/.claude/settings.json``) that
    holds rubi's SessionStart hook, or None."""
    for path, user_wide in settings_files(project):
        if path.name != "settings.local.json" and path.name != "settings.json":
            continue  # ~/.claude.json holds servers, not hooks
        try:
            data = settingsfile.load(path, None if user_wide else project)
        except (RubiError, OSError):
            continue
        hooks = data.get("hooks")
        groups = hooks.get("SessionStart") if isinstance(hooks, dict) else None
        if isinstance(groups, list) and own_group(groups, "SessionStart") is not None:
            return path
    return None


def double_wiring(project: Path | None) -> tuple[Path, str] | None:
    """Whether Claude Code would run rubi twice in ``project``: rubi's plugin is
    enabled and ``rubi install``'s hooks are there too (see the module docstring).

    Returns:
        ``(settings file holding rubi's hooks, problem)``, the problem one sentence
        that names the file enabling the plugin and the two ways back to one route;
        None when rubi runs once.
    """
    plugin = enabled_plugin(project)
    if plugin is None:
        return None
    installed = _installed_hooks(project)
    if installed is None:
        return None
    key, where = plugin
    project_install = project is not None and installed.is_relative_to(project)
    user = "" if project_install else " --user"
    also = (
        "the plugin's own hooks skipped (its server hidden behind the project's rubi server)"
        if project_install
        else "a prompt's recall and the turn's capture twice"
    )
    return installed, (
        f"rubi's hooks are installed here and the rubi plugin ({key}, enabled in "
        f"{where}) is too, so Claude Code runs both: the map twice at session start, "
        f"{also}; keep one, `rubi uninstall{user}` or `claude plugin disable {key}`"
    )
