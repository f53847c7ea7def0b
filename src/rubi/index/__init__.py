"""The derived full-text index (Whoosh BM25F): schema, analysis, documents, store."""
