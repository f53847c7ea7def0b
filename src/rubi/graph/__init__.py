"""The knowledge and code graph (networkx) and the rankings computed over it."""
