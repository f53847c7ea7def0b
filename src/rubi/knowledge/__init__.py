"""Knowledge that stays true: the rules of notes (merge, supersede, links), writing
note files, stale flags,
handoffs, and the personal vault. Writes are atomic and serialized."""
