"""Knowledge that stays true: the rules of notes (merge, supersede, links), note files
as rubi writes them, stale flags, handoffs and the personal vault. Registering a note
(which also re-indexes) is a use case of the facade: :mod:`rubi.app.registration`."""
