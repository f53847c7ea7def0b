"""The vault on disk: scanning, reading notes safely, resolving links."""
