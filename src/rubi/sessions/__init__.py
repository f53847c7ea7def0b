"""Claude Code sessions: transcript reading, the Token X-ray and the startup audit."""
