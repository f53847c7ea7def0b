"""The model's token table is memory-mapped, not read whole: a query reads the rows of
its few tokens, and every vector is the one a full read of the table gives."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rubi import semantic

pytestmark = pytest.mark.skipif(
    semantic.unavailable() is not None, reason="the semantic extra is not installed"
)

_PROBE = """
import sys
import numpy as np
from rubi.semantic.encoder import Encoder, load_encoder, weights_dir
enc = load_encoder()
full = np.load(weights_dir() / "vectors.npy", allow_pickle=False)
ref = Encoder(enc.model_id, enc.dims, full, enc._scales, enc._tokenizer)
texts = ["how does the recall hook search notes", "", "café naïve 中文 ΟΔΥΣΣΕΥΣ", "x" * 300]
same = np.array_equal(enc.encode(texts), ref.encode(texts))
print(isinstance(enc._vectors, np.memmap), enc._vectors.flags.writeable, same)
"""


def test_the_token_table_is_mapped_read_only_and_encodes_as_a_full_read() -> None:
    run = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["True", "False", "True"]
