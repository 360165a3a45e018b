"""The matrix products of the spaCy pipeline's neural layers: numpy's BLAS, on a set number of
threads.

thinc's ``NumpyOps`` multiplies with BLIS (the ``blis`` package) unless it is built with
``use_blis=False``, in which case ``gemm`` goes to numpy (thinc's own switch, ``thinc.api``).
BLIS picks its kernels by CPU model: on a virtual machine that names its processor only
"AMD EPYC" it falls back to its ``generic`` sub-configuration (``BLIS_ARCH_DEBUG=1`` prints
"libblis: selecting sub-configuration 'generic'"; ``BLIS_ARCH_TYPE`` does not change it),
about 14 GMAC/s on the tok2vec's products (4,096 x 288 by 288). numpy's OpenBLAS chooses its
kernels at run time from the instruction set (``DYNAMIC_ARCH``): about 40 GMAC/s on one
thread of the same core. With it the tok2vec's share of a CounterFact sentence went from
0.57 ms to 0.23 ms of CPU, and the parse is the same (tags, heads, labels and lemmas equal on
6,000 CounterFact sentences; ``tests/unit/test_blas.py``).

The parser's transition loop keeps BLIS (thinc's ``CBlas``, a C-level table this module does
not touch); it multiplies small matrices where the kernel matters less.
"""

from __future__ import annotations

import os

from spacy.language import Language
from thinc.api import NumpyOps

BLAS_OPS = NumpyOps(use_blis=False)
"""thinc operations that send matrix products to numpy's BLAS (``gemm`` -> ``numpy.matmul``)."""


def blas_threads() -> int:
    """Threads for one matrix product: ``$OMP_NUM_THREADS`` when it is a positive integer,
    else 1 — the rule the embedding model follows (``scanner.embeddings.compute_threads``):
    a scan or a request runs beside Weaviate on a small machine, and ``extract_many`` with
    ``n_process`` > 1 spreads the work over processes, not threads."""
    value = os.environ.get("OMP_NUM_THREADS", "")
    return int(value) if value.isdigit() and int(value) > 0 else 1


_LIMITS: list = []
"""The process's ``threadpoolctl`` limit, kept alive (it holds until restored)."""


def use_numpy_blas(nlp: Language) -> Language:
    """Make every thinc model of ``nlp`` multiply through numpy's BLAS, and limit that BLAS to
    :func:`blas_threads` threads in this process (``threadpoolctl``; OpenBLAS starts one
    thread per core otherwise, and two processes of two threads each on two cores wait on
    each other). Returns ``nlp``, changed in place; the annotations it produces are the
    same."""
    from threadpoolctl import threadpool_limits

    if not _LIMITS:
        _LIMITS.append(threadpool_limits(limits=blas_threads(), user_api="blas"))
    for _, component in nlp.pipeline:
        model = getattr(component, "model", None)
        if model is not None and hasattr(model, "walk"):
            for node in model.walk():
                node.ops = BLAS_OPS
    return nlp
