"""Days as rubi reads, spells, resolves and compares them: a note's day, a file's day,
the dates written in a text, relative phrases (``last Friday``) and the window
``--since/--until`` keeps."""
