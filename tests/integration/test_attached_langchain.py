"""A LangChain memory (langchain-weaviate ``WeaviateVectorStore.add_texts`` with metadata) scanned
where it lies: every write lands in contrascan's embedded Weaviate and in a plain one, the
default preset withholds the stale memory and says what it assumes; planted contradictions are
found, the wrapped retriever drops exactly the withheld documents and marks the unresolved
ones, and nothing is written into LangChain's objects."""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("langchain_weaviate", reason="needs the contrascan[langchain] extra")

from langchain_weaviate import WeaviateVectorStore  # noqa: E402

from scanner.integrations.langchain import (  # noqa: E402
    METADATA_KEY,
    ContrascanRetriever,
    SentenceEmbeddings,
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

USER = "lc-user"
DOCS = [  # (key, text, metadata besides user_id)
    ("old_glaze", "The preferred glaze is celadon.",
     {"source": "chat:1", "source_class": "user", "observed_at": "2026-03-01T10:00:00Z",
      "epoch": "studio-v3"}),
    ("new_glaze", "The preferred glaze is tenmoku.",
     {"source": "chat:2", "source_class": "user", "observed_at": "2026-03-05T10:00:00Z",
      "epoch": "studio-v3"}),
    ("paris", "Alice lives in Paris.",  # no epoch: quarantined, kept and marked
     {"source": "chat:3", "source_class": "user", "observed_at": "2026-03-02T10:00:00Z"}),
    ("berlin", "Alice lives in Berlin.",
     {"source": "chat:4", "source_class": "user", "observed_at": "2026-03-06T10:00:00Z"}),
    ("kiln", "The kiln fires to cone 10.",
     {"source": "chat:5", "source_class": "user", "observed_at": "2026-03-03T10:00:00Z",
      "epoch": "studio-v3"}),
]


@pytest.fixture()
def langchain_store(weaviate_server):
    name = f"LangChain_{uuid.uuid4().hex[:12]}"
    # LangChain's collection declares only "text": the metadata properties come from
    # Weaviate's auto-schema, on in the embedded server as in a default one (issue 35 item 2)
    store = WeaviateVectorStore(weaviate_server, name, "text", embedding=SentenceEmbeddings())
    ids = {}
    for key, text, meta in DOCS:
        ids[key] = store.add_texts([text], metadatas=[{"user_id": USER, **meta}])[0]
    ids["other"] = store.add_texts(["The preferred glaze is shino."], metadatas=[{
        "user_id": f"{USER}-2", "source": "chat:9", "source_class": "user",
        "observed_at": "2026-03-09T10:00:00Z", "epoch": "studio-v3"}])[0]
    assert stored(weaviate_server, name) == len(DOCS) + 1
    yield store, name, {k: str(v) for k, v in ids.items()}
    for coll in (name, f"ContrascanSource{name}", f"ContrascanSource{name}Ledger",
                 f"ContrascanSource{name}ScanState"):
        weaviate_server.collections.delete(coll)


def _properties(client, name: str) -> dict[str, dict]:
    col = client.collections.use(name)
    return {str(o.uuid): dict(o.properties) for o in col.iterator()}


def test_retriever_drops_exactly_the_withheld_documents(weaviate_server, langchain_store):
    store, name, ids = langchain_store
    before = _properties(weaviate_server, name)
    # strict: no declared epoch, so the pair without one is quarantined and marked
    source = AttachedSource(weaviate_server, preset("langchain", name, single_epoch=False))
    inner = store.as_retriever(search_kwargs={"k": 12, "return_uuids": True,
                                              "filters": None})
    docs = inner.invoke("preferred glaze Alice lives kiln")
    user_docs = [d for d in docs if d.metadata.get("user_id") == USER]

    scan = source.scan_hits(USER, ids=[d.metadata["uuid"] for d in user_docs])
    assert scan.report.withhold == [ids["old_glaze"]]
    assert sorted(scan.report.unresolved) == sorted([ids["paris"], ids["berlin"]])
    verdicts = {tuple(sorted(c.members)): c for c in scan.report.conflicts}
    glaze = verdicts[tuple(sorted([ids["old_glaze"], ids["new_glaze"]]))]
    assert (glaze.verdict, glaze.rule, glaze.winner) == ("resolved", "recency", ids["new_glaze"])

    wrapped = ContrascanRetriever(retriever=inner, source=source, user_id=USER)
    kept = [d for d in wrapped.invoke("preferred glaze Alice lives kiln")
            if d.metadata.get("user_id") == USER]
    assert {d.metadata["uuid"] for d in kept} == {ids[k] for k in
                                                   ("new_glaze", "paris", "berlin", "kiln")}
    marked = {d.metadata["uuid"]: d.metadata.get(METADATA_KEY) for d in kept}
    assert marked[ids["paris"]]["status"] == "unresolved"
    assert marked[ids["berlin"]]["status"] == "unresolved"
    assert marked[ids["new_glaze"]] is None and marked[ids["kiln"]] is None

    # nothing was written into LangChain's objects, and its schema is unchanged
    assert _properties(weaviate_server, name) == before


def test_search_stays_in_the_users_scope(weaviate_server, langchain_store):
    _, name, ids = langchain_store
    source = AttachedSource(weaviate_server, preset("langchain", name, single_epoch=False))
    scan = source.search(USER, "preferred glaze", limit=12)
    # the other user's id holds every word of USER: the word-tokenized user_id filter
    # matches it, and the exact comparison leaves it out (not a rejected hit)
    assert ids["other"] not in {h.record.id for h in scan.hits}
    assert scan.report.rejected == []
    assert ids["old_glaze"] in scan.report.withhold
    # a second scan of the same hits finds every triple in the cache
    again = source.search(USER, "preferred glaze", limit=12)
    assert again.extracted == 0 and again.report.withhold == scan.report.withhold


TIMELINE = [  # what a LangChain user writes: the text, the user and when it was said
    ("celadon", "The preferred glaze is celadon.", "2026-03-01T10:00:00+00:00"),
    ("tenmoku", "The preferred glaze is tenmoku.", "2026-03-05T10:00:00+00:00"),
    ("kiln", "The kiln fires to cone 10.", "2026-03-03T10:00:00+00:00"),
]


def test_add_texts_lands_and_the_default_preset_withholds_the_stale_memory(user_weaviate):
    """Issue 35 items 2 and 3: no metadata property declared beforehand, no source, no
    epoch: every write is stored, and the preset's declarations settle the update."""
    name = f"LangChain_{uuid.uuid4().hex[:12]}"
    with user_weaviate.client() as client, \
            dropped_afterwards(client, *source_collections(name)):
        store = WeaviateVectorStore(client, name, "text", embedding=SentenceEmbeddings())
        ids = {key: store.add_texts([text], metadatas=[{"user_id": USER, "observed_at": when}])[0]
               for key, text, when in TIMELINE}
        store.add_texts(["The preferred glaze is shino."], metadatas=[
            {"user_id": f"{USER}-2", "observed_at": "2026-03-09T10:00:00+00:00"}])
        assert not client.batch.failed_objects
        assert stored(client, name) == len(TIMELINE) + 1  # 0 writes lost

        preset_args = ("--preset", "langchain", "--collection", name)
        batch = source_cli(user_weaviate, "batch-scan", *preset_args)
        assert f"{name}: read 4, cached 0, extracted 4" in batch.output
        assert "rejected 0\nscanned 4 memories of 2 users: 1 conflict {'resolved': 1}" \
            in batch.output
        assert "assumed (declared:single_epoch): every memory without an epoch is taken to " \
               "be in one epoch" in batch.output
        assert f"assumed (declared:source={name}): a memory that names no source is taken " \
               f"to come from {name}" in batch.output

        report = source_report(user_weaviate, *preset_args, "--user", USER,
                               "--query", "preferred glaze")
        assert report["withhold"] == [ids["celadon"]]
        assert report["unresolved"] == []
        (glaze,) = report["conflicts"]
        assert (glaze["verdict"], glaze["rule"], glaze["winner"]) == (
            "resolved", "recency", ids["tenmoku"])
        declared = ["declared:single_epoch", f"declared:source={name}"]
        assert report["declared"] == declared
        assert set(declared) <= set(glaze["reasons"])

        printed = source_cli(user_weaviate, "scan", *preset_args, "--user", USER,
                             "--query", "preferred glaze").output
        assert "withhold 1, unresolved 0" in printed
        assert f"assumed (declared:source={name})" in printed


def test_a_write_weaviate_rejects_is_a_clear_error(embedded_weaviate):
    """add_texts returns an id for an object Weaviate rejected (here a date property given a
    date without a time); require_stored names it with Weaviate's reason."""
    from scanner.errors import StoreWriteError
    from scanner.integrations import require_stored

    name = f"LangChain_{uuid.uuid4().hex[:12]}"
    with embedded_weaviate.client() as client, dropped_afterwards(client, name):
        store = WeaviateVectorStore(client, name, "text", embedding=SentenceEmbeddings())
        first = store.add_texts(["The kiln fires to cone 10."], metadatas=[
            {"user_id": USER, "observed_at": "2026-03-01T10:00:00+00:00"}])
        require_stored(client, name, first)
        # auto-schema made observed_at a DATE property from the first value
        ids = store.add_texts(["The kiln fires to cone 9."], metadatas=[
            {"user_id": USER, "observed_at": "2026-03-02"}])
        with pytest.raises(StoreWriteError) as raised:
            require_stored(client, name, first + ids)
        assert raised.value.written == 1
        ((lost, reason),) = raised.value.failures
        assert lost == ids[0] and "invalid date property 'observed_at'" in reason
        assert stored(client, name) == 1
