"""The resident engine: one warm process per vault answers Claude Code hooks (a
project's vault) and ``rubi search`` / ``rubi read`` (any vault, a plain Obsidian vault
too) over a local socket, so a hook or command costs a process start and a round trip
instead of importing the search stack and opening the index every time.

- :mod:`rubi.engine.address`: where an engine listens (a Unix socket in a private
  runtime folder, one per vault) and how a hook finds it; stdlib only.
- :mod:`rubi.engine.protocol`: the wire (one bounded JSON line each way), which
  events go through an engine, what must match between a hook and the engine.
- :mod:`rubi.engine.client`: the hook side; stdlib only, any failure means the
  cold path.
- :mod:`rubi.engine.server`: the engine, a background thread of ``rubi serve`` or
  ``rubi watch``; exactly one per vault (a lock file), answering by running the same
  hook handlers in process.
- :mod:`rubi.engine.rewarm`: while idle, the last recall replayed after an index
  change, so the next prompt finds the new reader scored.

See ``docs/engine.md``.
"""
