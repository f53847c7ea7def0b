"""``rubi view``: serve one local page of the project's memory (opt-in, loopback)."""

from __future__ import annotations

from pathlib import Path

import click

from rubi.cli.common import echo, handle_errors, vault_option

__all__ = ["view"]


@click.command()
@click.option(
    "--project",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="Project folder: its .rubi/ is looked for there and above (default: here).",
)
@vault_option
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="Port on 127.0.0.1; 0 picks a free one.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
@handle_errors
def view(project: Path | None, vault: Path | None, port: int, open_browser: bool) -> None:
    """Serve one read-only page of this project's memory on 127.0.0.1: the graph of
    notes and code files, the timeline, search with its why-lines, and the token
    X-ray of the project's Claude Code transcripts. Prints the URL; opens a browser
    only with --open. Stop it with Ctrl-C.
    """
    from rubi import app
    from rubi.view import make_server

    if vault is not None and project is not None:
        raise click.UsageError("give --project or --vault, not both")
    paths = app.locate(vault) if vault is not None else app.locate(None, cwd=project)
    server = make_server(paths, port)
    echo(f"rubi view: {server.url} (read-only; Ctrl-C stops it)")
    if open_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        server.serve_forever()
    finally:  # Ctrl-C: closed, then ended by SIGINT as any command (rubi.cli.main)
        server.server_close()
