"""rubi: a project memory for AI coding agents.

The vault (plain markdown with frontmatter and wikilinks) is the truth; the index,
graph and maps under ``.index/`` are derived from it and can be rebuilt at any time.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
