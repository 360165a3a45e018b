"""LlamaIndex: a node postprocessor that drops withheld nodes (``contrascan[llamaindex]``).

The retrieved nodes are scanned as they are ("scan these hits": no second search); a node
whose memory a verdict superseded is dropped, one in an unresolved pair is kept and marked in
``node.metadata["contrascan"]``. The node id is the Weaviate object uuid
(llama-index-vector-stores-weaviate stores each node under its ``node_id``).
"""

from __future__ import annotations

from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle
from pydantic import ConfigDict, Field, PrivateAttr

from scanner.store.memories import STATUS_SUPERSEDED

METADATA_KEY = "contrascan"


class SentenceEmbedding(BaseEmbedding):
    """A LlamaIndex embedding model from the sidecar's sentence-transformers model (default
    all-MiniLM-L6-v2 from its PyPI package, no hub download), so an index written with
    ``VectorStoreIndex.insert_nodes`` and the sidecar's query vectors share one space
    (384 dimensions, L2-normalised).

    Args:
        embedder: a :class:`scanner.embeddings.Embedder` (default: the default model).
    """

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: Any = None, **kwargs: Any):
        super().__init__(model_name="contrascan-sentence-embedding", **kwargs)
        from scanner.embeddings import Embedder

        self._embedder = embedder or Embedder()

    @classmethod
    def class_name(cls) -> str:
        return "ContrascanSentenceEmbedding"

    @property
    def embedder(self) -> Any:
        """The :class:`scanner.embeddings.Embedder` (for :class:`AttachedSource`)."""
        return self._embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._embedder.encode([query])[0].tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._embedder.encode([text])[0].tolist()

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._embedder.encode(list(texts)).tolist()


class ContrascanNodePostprocessor(BaseNodePostprocessor):
    """Drops withheld nodes, marks unresolved ones.

    Attributes:
        source: the :class:`~scanner.sources.service.AttachedSource` the nodes come from.
        user_id: the scope the retriever searched.
        apply: record verdicts (see ``AttachedSource.scan_hits``).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    source: Any = Field(exclude=True)
    user_id: str
    apply: bool = True

    @classmethod
    def class_name(cls) -> str:
        return "ContrascanNodePostprocessor"

    def _postprocess_nodes(self, nodes: list[NodeWithScore],
                           query_bundle: QueryBundle | None = None) -> list[NodeWithScore]:
        text_property = self.source.mapping.text_property
        objects = []
        for n in nodes:
            props = {k: v for k, v in n.node.metadata.items() if k != METADATA_KEY}
            props[text_property] = n.node.get_content()
            props["_id"] = n.node.node_id
            objects.append(props)
        scan = self.source.scan_hits(self.user_id, objects=objects, apply=self.apply)
        scanned = {h.record.id for h in scan.hits}
        questions = {m: c.question for c in scan.report.conflicts for m in c.members
                     if c.question}
        kept = []
        for n in nodes:
            node_id = n.node.node_id
            status = scan.status(node_id) if node_id in scanned else None
            if status == STATUS_SUPERSEDED:
                continue
            if status is not None and status != "active":
                n.node.metadata[METADATA_KEY] = {"status": status,
                                                 "question": questions.get(node_id)}
            kept.append(n)
        return kept
