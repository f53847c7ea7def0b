"""The MCP surface: rubi's memory as a handful of tools (``rubi serve``)."""
