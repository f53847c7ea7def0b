"""Command-line surface."""
