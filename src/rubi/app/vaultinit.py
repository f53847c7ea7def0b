"""``rubi init``: the project vault made from the vault template, and a short rubi
section in the project's agent instructions (``CLAUDE.md``, ``AGENTS.md``)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rubi.core.errors import RubiError
from rubi.core.paths import PROJECT_VAULT_DIRNAME

__all__ = ["InitReport", "init_project"]


@dataclass(frozen=True, slots=True)
class InitReport:
    """The vault folder and the files ``init`` created (vault-relative; existing kept);
    ``agent_docs``: the project's agent instructions it added a rubi section to, each
    ``(file name, "created" or "appended")``; ``upgraded``: the files an older rubi
    wrote, unchanged since, that it replaced with the current template
    (:mod:`rubi.app.helpreadme`)."""

    vault: Path
    created: list[str]
    agent_docs: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    upgraded: list[str] = dataclasses.field(default_factory=list)


def _template_dir() -> Path:
    from importlib import resources

    packaged = Path(str(resources.files("rubi"))) / "vault_template"
    if packaged.is_dir():
        return packaged
    if not (checkout := Path(__file__).resolve().parents[3] / "vault-template").is_dir():
        raise RubiError(
            f"rubi's vault template is missing from this install ({checkout}); reinstall rubi"
        )
    return checkout


def init_project(project_dir: Path) -> InitReport:
    """Create ``<project_dir>/.rubi/`` from the vault template; never overwrite a file
    but a README an older rubi wrote and nobody edited, replaced with the current one
    (:func:`rubi.app.helpreadme.upgrade_readme`).

    Every folder and file it would create or change (``.rubi/`` itself, each template
    file and folder, ``CLAUDE.md`` and ``AGENTS.md``) is checked first: when one is, or
    lies below, a symlink that leads outside the project, nothing at all is written.
    Files are created whole and never through a link (:func:`rubi.core.atomic.create_exclusive`).

    Raises:
        RubiError: ``project_dir`` is not an existing folder, a file (a FIFO) stands
            where ``init`` makes a folder (``.rubi``, ``.rubi/notes``), or the install
            lacks the vault template; nothing written.
        UnsafePathError: a path ``init`` writes is a symlink (or lies in a symlinked
            folder) that leads outside the project; one line naming the link.
    """
    from rubi.core.atomic import create_exclusive

    if not project_dir.is_dir():
        raise RubiError(f"{project_dir}: no such folder; run `rubi init` inside the project")
    vault = project_dir / PROJECT_VAULT_DIRNAME
    template = _template_dir()
    plan: list[tuple[Path, Path]] = []
    for src in sorted(template.rglob("*")):
        rel = src.relative_to(template)
        if "__pycache__" not in rel.parts:
            plan.append((src, vault / rel))
    _refuse_links_out(
        project_dir, [vault, *(dst for _, dst in plan), *(project_dir / n for n in _AGENT_DOCS)]
    )
    for folder in [vault, *(dst for src, dst in plan if src.is_dir())]:
        if os.path.lexists(folder) and not folder.is_dir():
            raise RubiError(
                f"{folder.relative_to(project_dir).as_posix()}: a file where rubi init "
                "makes a folder; rename or remove it and run rubi init again"
            )
    created: list[str] = []
    for src, dst in plan:
        if src.is_dir():
            dst.mkdir(parents=True, exist_ok=True)
        elif not os.path.lexists(dst) and create_exclusive(dst, src.read_bytes().decode("utf-8")):
            created.append(dst.relative_to(vault).as_posix())
    from rubi.app.agentdocs import add_pointer

    upgraded = _upgraded(vault, template, created)
    existed = {name for name in _AGENT_DOCS if (project_dir / name).exists()}
    docs = [(n, "appended" if n in existed else "created") for n in add_pointer(project_dir)]
    return InitReport(vault, created, docs, upgraded)


def _upgraded(vault: Path, template: Path, created: list[str]) -> list[str]:
    """The README an older rubi wrote, unedited, replaced with the template's
    (:func:`rubi.app.helpreadme.upgrade_readme`): ``["README.md"]``, or nothing."""
    from rubi.app.helpreadme import README, upgrade_readme

    if README in created or not (template / README).is_file():
        return []
    return [README] if upgrade_readme(vault, (template / README).read_bytes()) else []


_AGENT_DOCS = ("CLAUDE.md", "AGENTS.md")
"""The project's agent instructions ``init`` adds its pointer to."""


def _refuse_links_out(project: Path, paths: Sequence[Path]) -> None:
    """Raise for the first of ``paths`` that is, or lies below, a symlink leading
    outside ``project``, naming the link and what to do."""
    from rubi.core.safepaths import UnsafePathError, link_outside

    for path in paths:
        link = link_outside(project, path)
        if link is None:
            continue
        kind = "a folder" if os.path.isdir(link) or link != path else "a file"
        raise UnsafePathError(
            f"{link.relative_to(project).as_posix()}: a symlink to {kind} outside the "
            f"project ({os.path.realpath(link)}); rubi init writes nothing there: replace "
            f"the link with {kind} of its own, or remove it, and run rubi init again"
        )
