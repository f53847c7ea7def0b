"""The foundation every layer may use: errors, settings, the note model, where a
vault and its derived data live, atomic writes, the pickle store, git facts, PageRank,
and the trust boundary (untrusted paths, files and text made safe). Imports nothing
of rubi outside ``rubi.core``."""
