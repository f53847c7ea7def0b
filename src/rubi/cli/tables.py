"""The one way rubi prints a ``rich`` table (``rubi xray``, ``rubi audit``): headers
and numbers are never cut, at any width (an 80-column pipe, a 60-column terminal);
only the columns of long free text (a folder, a path, a note) shrink, with an
ellipsis and never below their header's width; a table the console cannot hold so is
printed as wide as it needs (long lines, not cut words)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["print_table", "table", "table_floor"]


def table(
    title: Any, columns: tuple[str, ...], left: tuple[str, ...], shrink: tuple[str, ...] = ()
) -> Any:
    """A rich table titled ``title`` (a string of markup, or a rich ``Text`` shown as
    written); the ``left`` columns are text, the others numbers.
    Only the ``shrink`` columns (long free text: a folder, a path) may be cut, with an
    ellipsis and never below their header's width; every header is whole and no
    number is cut, at any width (:func:`print_table`). Light rules, no outer edge:
    the sessions table fits 80 columns (a pipe's width), where the boxed one cut its
    headers to "sessi…", "start…", "expiri…", "compa…"."""
    from rich import box
    from rich.table import Table

    made = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False
    )
    for column in columns:
        made.add_column(
            column,
            justify="left" if column in left else "right",
            min_width=len(column),
            no_wrap=column not in shrink,
            overflow="ellipsis",
        )
    return made


def print_table(out: Any, shown: Any) -> None:
    """Print ``shown`` (of :func:`table`) on ``out`` whole: when the console is
    narrower than its headers and uncut cells need (:func:`table_floor`), the table is
    printed that wide (long lines, not cut words)."""
    need = table_floor(shown)
    if need <= out.width:
        out.print(shown)
        return
    width = out.width
    out.width = need
    try:
        out.print(shown)
    finally:
        out.width = width


def table_floor(shown: Any) -> int:
    """The narrowest width ``shown`` (of :func:`table`) shows whole at: each column
    its header, or its widest cell when it may not be cut, and three characters
    between columns (padding, rule, padding)."""
    from rich.cells import cell_len

    widths = []
    for column in shown.columns:
        header = cell_len(str(column.header))
        cells = [] if not column.no_wrap else [_text(c) for c in column.cells]
        widths.append(max([header, *(c.cell_len for c in cells)]))
    return sum(widths) + 3 * max(len(widths) - 1, 0)


def _text(cell: Any) -> Text:
    """A cell as rich ``Text``: a ``Text`` as it is (shown as written), a string read
    as markup, as rich reads it."""
    from rich.text import Text

    return cell if isinstance(cell, Text) else Text.from_markup(str(cell))
