"""The derived full-text index (Whoosh BM25F): schema, analysis, documents, store.

Whoosh is first imported here, without the standard-library modules it binds and
never calls (:mod:`rubi.index.whooshimport`)."""

from rubi.index.whooshimport import import_whoosh

import_whoosh()
