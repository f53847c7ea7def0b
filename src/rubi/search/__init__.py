"""Hybrid search: BM25F, exact names and personalized PageRank, fused with RRF."""
