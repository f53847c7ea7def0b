"""Claude Code hooks: small adapters from a hook's JSON to the library and back.

Each event has its own module, imported only when that event fires. Every handler
fails open: an internal error is logged to ``hooks.log`` in the vault's
index folder (the user's cache: :func:`rubi.core.paths.index_dir_for`) and the hook prints
nothing, so the session goes on.
"""
