"""How a code file's own fields (its symbols and comments) are weighed in a search of
code: a long module's definitions are not discounted as padding."""

from __future__ import annotations

from pathlib import Path

from rubi import app

from helpers import rubi_project

VERBS = ["add", "remove", "list", "rename", "copy", "move", "show", "hide", "sort", "filter"]
VERBS += ["merge", "split", "load", "save", "reset", "clear", "print", "format", "check", "lint"]


def _code_hits(root: Path, files: dict[str, str], query: str) -> list[str]:
    rubi_project(root, files)
    paths = app.locate(root / ".rubi")
    app.index(paths)
    return [h.path for h in app.search(paths, query, scope="code", refresh=False).hits]


def test_a_long_module_defining_the_answer_outranks_a_small_file_naming_one_word(
    tmp_path: Path,
) -> None:
    methods = "".join(
        f"    def {v}_option(self, name):\n"
        f'        """{v.capitalize()} an option by name."""\n'
        f"        return self.options.{v}(name)\n\n"
        for v in VERBS
    )
    spawn = (
        "    def spawn_subcommand(self, name, argv):\n"
        '        """Run a subcommand as its own executable file."""\n'
        "        return subprocess.run([self.executable_for(name), *argv])\n"
    )
    files = {
        "cli/command.py": 'class Command:\n    """A command of the program."""\n\n'
        + methods
        + spawn,
        "cli/hint.py": (
            "def subcommand_hint(name):\n"
            '    """A hint for a mistyped name."""\n'
            '    return f"did you mean {name}?"\n'
        ),
        "cli/help.py": (
            'def help_text(command):\n    """The help of a command."""\n'
            "    return command.describe()\n"
        ),
    }
    hits = _code_hits(tmp_path / "p", files, "run a subcommand")
    assert hits[:2] == ["cli/command.py", "cli/hint.py"]
