"""Knowledge that stays true: register notes (merge, supersede, links), stale flags,
handoffs, and the personal vault. Writes are atomic and serialized."""
