"""The derived full-text index (Whoosh BM25F) and its manifest."""
