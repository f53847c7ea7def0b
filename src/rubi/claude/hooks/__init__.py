"""Claude Code hooks: small adapters from a hook's JSON to the library and back.

Each event has its own module, imported only when that event fires. Every handler
fails open: an internal error is logged to ``.index/hooks.log`` and the hook prints
nothing, so the session goes on.
"""
