"""Claude Code sessions: transcript reading, redaction of captured text, and the
Token X-ray. (The startup audit of a Claude Code setup lives in :mod:`rubi.claude`.)"""
