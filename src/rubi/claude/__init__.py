"""The Claude Code integration: the hooks (``rubi hook <event>``), ``rubi install``,
reading Claude Code's own settings, and the startup audit of a Claude Code setup."""
