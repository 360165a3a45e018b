"""LlamaIndex: a node postprocessor that drops withheld nodes (``contrascan[llamaindex]``).

The retrieved nodes are scanned as they are ("scan these hits": no second search); a node
whose memory a verdict superseded is dropped, one in an unresolved pair is kept and marked in
``node.metadata["contrascan"]``. The node id is the Weaviate object uuid
(llama-index-vector-stores-weaviate stores each node under its ``node_id``).
"""

from __future__ import annotations

from typing import Any

from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle
from pydantic import ConfigDict, Field

from scanner.store.memories import STATUS_SUPERSEDED

METADATA_KEY = "contrascan"


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
