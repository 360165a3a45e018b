"""LlamaIndex nodes written through llama-index-vector-stores-weaviate, scanned where they lie:
``VectorStoreIndex.insert_nodes`` lands every node in contrascan's embedded Weaviate and in a
plain one, and the default preset withholds the stale one and says what it assumes; planted
contradictions are found and the node postprocessor drops exactly the withheld nodes."""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("llama_index.vector_stores.weaviate",
                    reason="needs the contrascan[llamaindex] extra")

from llama_index.core import VectorStoreIndex  # noqa: E402
from llama_index.core.schema import TextNode  # noqa: E402
from llama_index.core.vector_stores.types import (  # noqa: E402
    VectorStoreQuery,
    VectorStoreQueryMode,
)
from llama_index.vector_stores.weaviate import WeaviateVectorStore  # noqa: E402

from scanner.embeddings import Embedder  # noqa: E402
from scanner.integrations.llamaindex import (  # noqa: E402
    METADATA_KEY,
    ContrascanNodePostprocessor,
    SentenceEmbedding,
)
from scanner.sources import preset  # noqa: E402
from scanner.sources.service import AttachedSource  # noqa: E402
from tests.integration.attached_support import (  # noqa: E402
    dropped_afterwards,
    source_cli,
    source_collections,
    source_report,
    stored,
)

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
    # LlamaIndex's NODE_SCHEMA declares no node metadata: Weaviate's auto-schema adds it, on
    # in the embedded server as in a default one (issue 35 item 2)
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


TIMELINE = [  # what a LlamaIndex user writes: the node's text, the user and when it was said
    ("celadon", "The preferred glaze is celadon.", "2026-04-01T09:00:00+00:00"),
    ("tenmoku", "The preferred glaze is tenmoku.", "2026-04-08T09:00:00+00:00"),
    ("kiln", "The kiln fires to cone 10.", "2026-04-03T09:00:00+00:00"),
]


def test_insert_nodes_lands_and_the_default_preset_withholds_the_stale_memory(user_weaviate):
    """Issue 35 items 2 and 3: nodes with metadata through the index's own ``insert_nodes``,
    no property declared beforehand, no source, no epoch: every node is stored, and the
    preset's declarations settle the update."""
    name = f"LlamaIndex_{uuid.uuid4().hex[:12]}"
    with user_weaviate.client() as client, \
            dropped_afterwards(client, *source_collections(name)):
        index = VectorStoreIndex.from_vector_store(
            WeaviateVectorStore(weaviate_client=client, index_name=name),
            embed_model=SentenceEmbedding())
        nodes = {key: TextNode(text=text, metadata={"user_id": USER, "observed_at": when})
                 for key, text, when in TIMELINE}
        index.insert_nodes(list(nodes.values()))
        index.insert_nodes([TextNode(text="The preferred glaze is shino.", metadata={
            "user_id": f"{USER}-2", "observed_at": "2026-04-09T09:00:00+00:00"})])
        assert not client.batch.failed_objects
        assert stored(client, name) == len(TIMELINE) + 1  # 0 writes lost

        preset_args = ("--preset", "llamaindex", "--collection", name)
        batch = source_cli(user_weaviate, "batch-scan", *preset_args)
        assert f"{name}: read 4, cached 0, extracted 4" in batch.output
        assert "scanned 4 memories of 2 users: 1 conflict {'resolved': 1}" in batch.output
        assert "assumed (declared:single_epoch)" in batch.output
        assert f"assumed (declared:source={name})" in batch.output

        report = source_report(user_weaviate, *preset_args, "--user", USER,
                               "--query", "preferred glaze")
        assert report["withhold"] == [nodes["celadon"].node_id]
        (glaze,) = report["conflicts"]
        assert (glaze["verdict"], glaze["rule"], glaze["winner"]) == (
            "resolved", "recency", nodes["tenmoku"].node_id)
        assert report["declared"] == ["declared:single_epoch", f"declared:source={name}"]
