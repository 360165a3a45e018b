"""LlamaIndex nodes written through llama-index-vector-stores-weaviate, scanned where they lie:
planted contradictions are found and the node postprocessor drops exactly the withheld nodes."""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("llama_index.vector_stores.weaviate",
                    reason="needs the contrascan[llamaindex] extra")

from llama_index.core.schema import TextNode  # noqa: E402
from llama_index.core.vector_stores.types import (  # noqa: E402
    VectorStoreQuery,
    VectorStoreQueryMode,
)
from llama_index.vector_stores.weaviate import WeaviateVectorStore  # noqa: E402
from weaviate.classes.config import DataType, Property  # noqa: E402

from scanner.embeddings import Embedder  # noqa: E402
from scanner.integrations.llamaindex import METADATA_KEY, ContrascanNodePostprocessor  # noqa: E402
from scanner.sources import preset  # noqa: E402
from scanner.sources.service import AttachedSource  # noqa: E402

pytestmark = pytest.mark.integration

USER = "li-user"
NODES = [
    ("blue", "My favorite color is blue.", "2026-04-01T09:00:00Z", "profile-v1"),
    ("green", "My favorite color is green.", "2026-04-08T09:00:00Z", "profile-v1"),
    ("paris", "Alice lives in Paris.", "2026-04-02T09:00:00Z", "profile-v1"),
    ("berlin", "Alice lives in Berlin.", "2026-04-09T09:00:00Z", "profile-v2"),  # epoch change
    ("kiln", "The kiln fires to cone 10.", "2026-04-03T09:00:00Z", "profile-v1"),
]


@pytest.fixture()
def llama_store(weaviate_server):
    name = f"LlamaIndex_{uuid.uuid4().hex[:12]}"
    store = WeaviateVectorStore(weaviate_client=weaviate_server, index_name=name)
    embedder = Embedder()
    nodes, ids = [], {}
    for key, text, observed, epoch in NODES:
        node = TextNode(text=text, metadata={"user_id": USER, "source": f"note:{key}",
                                             "source_class": "user", "observed_at": observed,
                                             "epoch": epoch})
        node.embedding = embedder.encode([text])[0].tolist()
        nodes.append(node)
        ids[key] = node.node_id
    store.add(nodes[:1])  # creates the collection with LlamaIndex's NODE_SCHEMA
    # The test server runs with AUTOSCHEMA_ENABLED=false: declare the properties a default
    # server's autoschema adds for node metadata and node_to_metadata_dict's fields.
    col = weaviate_server.collections.use(name)
    have = {p.name for p in col.config.get().properties}
    for prop in ("user_id", "source", "source_class", "observed_at", "epoch", "_node_content",
                 "_node_type", "document_id", "doc_id"):
        if prop not in have:
            col.config.add_property(Property(name=prop, data_type=DataType.TEXT))
    store.add(nodes)
    yield store, name, ids, embedder
    for coll in (name, f"ContrascanSource{name}", f"ContrascanSource{name}Ledger",
                 f"ContrascanSource{name}ScanState"):
        weaviate_server.collections.delete(coll)


def test_postprocessor_drops_exactly_the_withheld_nodes(weaviate_server, llama_store):
    store, name, ids, embedder = llama_store
    assert weaviate_server.collections.use(name).aggregate.over_all(
        total_count=True).total_count == len(NODES)
    source = AttachedSource(weaviate_server, preset("llamaindex", name))
    query = "favorite color Alice lives kiln"
    result = store.query(VectorStoreQuery(query_embedding=embedder.encode([query])[0].tolist(),
                                          query_str=query, similarity_top_k=12,
                                          mode=VectorStoreQueryMode.HYBRID, alpha=0.5))
    from llama_index.core.schema import NodeWithScore

    nodes = [NodeWithScore(node=n, score=s) for n, s in zip(result.nodes, result.similarities)]
    assert {n.node.node_id for n in nodes} == set(ids.values())

    post = ContrascanNodePostprocessor(source=source, user_id=USER)
    kept = post.postprocess_nodes(nodes)
    assert {n.node.node_id for n in kept} == {ids[k] for k in ("green", "paris", "berlin",
                                                                "kiln")}
    marks = {n.node.node_id: n.node.metadata.get(METADATA_KEY) for n in kept}
    assert marks[ids["paris"]]["status"] == marks[ids["berlin"]]["status"] == "unresolved"
    assert marks[ids["green"]] is None

    scan = source.scan_hits(USER, ids=list(ids.values()))
    kinds = {tuple(sorted(c.members)): (c.verdict, c.rule) for c in scan.report.conflicts}
    assert kinds[tuple(sorted([ids["blue"], ids["green"]]))] == ("resolved", "recency")
    assert kinds[tuple(sorted([ids["paris"], ids["berlin"]]))] == ("epoch_change",
                                                                   "epoch_change")
    assert scan.extracted == 0  # the postprocessor's scan cached every node's triples
