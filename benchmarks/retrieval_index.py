"""Retrieval scores of sentence pairs from a real Weaviate, for the benchmarks (issue 5).

The benchmark asks whether Weaviate's own ranking — BM25 and hybrid search, the scores an
agent sees — separates a correction from a paraphrase. This module holds every call into
``weaviate`` that the similarity benchmark needs (the product's own calls are all in
:mod:`scanner.store`):

1. it starts a throw-away embedded server (:func:`scanner.store.server.connect_embedded`) in a
   temporary data directory on free ports, and stops it and deletes the directory afterwards;
2. it loads the sentences into one plain collection, ``BenchSentence``: ``text`` (word
   tokenization, BM25 k1 = 1.2, b = 0.75, the server defaults), ``pool`` (field tokenization),
   ``sentence`` (the caller's index) and the caller's vector (a flat index, cosine distance:
   exact search, so the scores do not depend on HNSW recall);
3. for every distinct ``(pool, query)`` it runs one BM25 query and one hybrid query per alpha,
   each filtered to the query's pool, with relative-score fusion (the fusion
   :meth:`scanner.store.memories.MemoryStore.hybrid_search` uses), and reads every hit's score.

A *pool* is the small store a pair lives in — e.g. every CounterFact sentence about one
subject — so a hybrid score is what a scoped search over that store returns: Weaviate
normalises each sub-search's scores to [0, 1] within the hits (min-max), then mixes them as
``alpha * vector + (1 - alpha) * bm25``. Alpha 0 is pure BM25, alpha 1 pure vector.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import weaviate
from weaviate.classes.config import Configure, DataType, Property, Tokenization
from weaviate.classes.data import DataObject
from weaviate.classes.query import Filter, HybridFusion, MetadataQuery
from weaviate.exceptions import WeaviateBaseError
from weaviate.util import generate_uuid5

from scanner.errors import WeaviateUnavailable
from scanner.store import server
from scanner.store.batching import insert_objects

COLLECTION = "BenchSentence"
DEFAULT_ALPHAS = (0.0, 0.5, 0.75, 1.0)


@dataclass(frozen=True)
class RetrievalScores:
    """Scores of each ``(pool, query, candidate)`` triple, in input order.

    Attributes:
        bm25: ``(n,)`` float64 raw BM25 scores (>= 0; 0 when the candidate shares no term with
            the query and so is not a hit).
        hybrid: alpha -> ``(n,)`` float64 fused scores in [0, 1] (0 when not a hit).
        server_version: the Weaviate server's version.
        objects: sentences loaded (one per distinct ``(pool, sentence)``).
        queries: distinct ``(pool, query)`` searches, each run ``1 + len(alphas)`` times.
        seconds: wall time, by stage (``start``, ``import``, ``query``).
    """

    bm25: np.ndarray
    hybrid: dict[float, np.ndarray]
    server_version: str
    objects: int
    queries: int
    seconds: dict[str, float] = field(default_factory=dict)


def retrieval_scores(texts: Sequence[str], vectors: np.ndarray,
                     pairs: Sequence[tuple[str, int, int]], *,
                     alphas: Sequence[float] = DEFAULT_ALPHAS, workers: int = 4,
                     batch_size: int = 500,
                     log: Callable[[str], None] | None = None) -> RetrievalScores:
    """BM25 and hybrid scores of candidates for queries, from a Weaviate started for the call.

    Args:
        texts: the sentences; ``texts[i]`` is sentence ``i``.
        vectors: ``(len(texts), d)`` float32, L2-normalised (cosine distance = 1 - dot).
        pairs: ``(pool, query index, candidate index)``; query and candidate are both loaded
            into the pool, the query is searched in its pool, the candidate's score is read.
        alphas: hybrid weights of the vector side (0 = BM25 only, 1 = vector only).
        workers: concurrent queries (gRPC; the server answers them in parallel).
        batch_size: objects per import request.
        log: receives progress lines.

    Returns:
        The scores, aligned with ``pairs``.

    Raises:
        WeaviateUnavailable: no server binary, the server does not start, or a request fails.
        ValueError: ``vectors`` does not have one row per text.
    """
    say = log or (lambda _msg: None)
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim != 2 or vectors.shape[0] != len(texts):
        raise ValueError(f"{len(texts)} texts but vectors of shape {vectors.shape}")
    members: dict[str, set[int]] = defaultdict(set)
    for pool, q, c in pairs:
        members[pool].update((q, c))
    queries = sorted({(pool, q) for pool, q, _ in pairs})
    seconds: dict[str, float] = {}

    if server.ensure_binary() is None:
        raise WeaviateUnavailable("no weaviate-server binary: run `make setup` (needs Go)")
    started = time.perf_counter()
    data_dir = Path(tempfile.mkdtemp(prefix="contrascan-bench-"))
    try:
        port, grpc_port = server.free_ports()
        client = server.connect_embedded(data_dir, port=port, grpc_port=grpc_port)
    except BaseException:
        shutil.rmtree(data_dir, ignore_errors=True)
        raise
    seconds["start"] = time.perf_counter() - started
    try:
        version = str(client.get_meta().get("version", ""))
        say(f"weaviate {version} on 127.0.0.1:{port} (gRPC {grpc_port}), data in {data_dir}")
        collection = _create(client)
        t0 = time.perf_counter()
        n_objects = _load(collection, texts, vectors, members, batch_size)
        seconds["import"] = time.perf_counter() - t0
        say(f"loaded {n_objects} sentences in {seconds['import']:.0f} s; "
            f"{len(queries)} queries x {1 + len(alphas)}")
        t0 = time.perf_counter()
        found = _search_all(collection, texts, vectors, queries, members, alphas, workers)
        seconds["query"] = time.perf_counter() - t0
    except WeaviateBaseError as err:
        raise WeaviateUnavailable(f"benchmark index: {err}") from err
    finally:
        client.close()
        shutil.rmtree(data_dir, ignore_errors=True)

    bm25 = np.array([found[(pool, q)]["bm25"].get(c, 0.0) for pool, q, c in pairs])
    hybrid = {a: np.array([found[(pool, q)][a].get(c, 0.0) for pool, q, c in pairs])
              for a in alphas}
    return RetrievalScores(bm25=bm25, hybrid=hybrid, server_version=version,
                           objects=n_objects, queries=len(queries), seconds=seconds)


def _create(client: weaviate.WeaviateClient):
    if client.collections.exists(COLLECTION):
        client.collections.delete(COLLECTION)
    return client.collections.create(
        COLLECTION,
        vector_config=Configure.Vectors.self_provided(
            vector_index_config=Configure.VectorIndex.flat()),
        properties=[
            Property(name="text", data_type=DataType.TEXT, tokenization=Tokenization.WORD),
            Property(name="pool", data_type=DataType.TEXT, tokenization=Tokenization.FIELD,
                     index_searchable=False),
            Property(name="sentence", data_type=DataType.INT, index_filterable=False),
        ])


def _load(collection, texts: Sequence[str], vectors: np.ndarray,
          members: dict[str, set[int]], batch_size: int) -> int:
    objects = [DataObject(properties={"text": texts[i], "pool": pool, "sentence": i},
                          vector=vectors[i].tolist(), uuid=generate_uuid5(f"{pool}\x1f{i}"))
               for pool in sorted(members) for i in sorted(members[pool])]
    failed = insert_objects(collection, objects, batch_size=batch_size)
    if failed:
        raise WeaviateUnavailable(f"{len(failed)} sentences failed to import: "
                                  f"{failed[0][1]}")
    count = len(objects)
    return count


def _search_all(collection, texts: Sequence[str], vectors: np.ndarray,
                queries: Sequence[tuple[str, int]], members: dict[str, set[int]],
                alphas: Sequence[float], workers: int) -> dict[tuple[str, int], dict]:
    def one(item: tuple[str, int]) -> tuple[tuple[str, int], dict]:
        pool, q = item
        where = Filter.by_property("pool").equal(pool)
        limit = len(members[pool])
        meta = MetadataQuery(score=True)
        scores: dict = {}
        res = collection.query.bm25(query=texts[q], query_properties=["text"], filters=where,
                                    limit=limit, return_metadata=meta,
                                    return_properties=["sentence"])
        scores["bm25"] = {int(o.properties["sentence"]): float(o.metadata.score or 0.0)
                          for o in res.objects}
        vector = vectors[q].tolist()
        for alpha in alphas:
            res = collection.query.hybrid(query=texts[q], vector=vector, alpha=alpha,
                                          query_properties=["text"], filters=where,
                                          fusion_type=HybridFusion.RELATIVE_SCORE,
                                          limit=limit, return_metadata=meta,
                                          return_properties=["sentence"])
            scores[alpha] = {int(o.properties["sentence"]): float(o.metadata.score or 0.0)
                             for o in res.objects}
        return item, scores

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool_:
        return dict(pool_.map(one, queries, chunksize=64))
