"""Pure markdown parsing: text in, :class:`rubi.core.model.Note` out. No file access."""

from rubi.markdown.links import parse_link_text
from rubi.markdown.parse import parse_note

__all__ = ["parse_link_text", "parse_note"]
