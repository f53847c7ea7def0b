"""rubi: a project memory for AI coding agents.

The vault (plain markdown with frontmatter and wikilinks) is the truth; the index,
graph, vectors and caches are derived from it, kept in the user's cache folder (never
in the vault: ``docs/architecture.md``), and can be rebuilt at any time.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
