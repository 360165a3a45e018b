"""``contrascan source demo``: the attach path on a collection written by LangChain.

The bundled CounterFact demo memories (``scanner/data/PROVENANCE.md``) are written through
langchain-weaviate's ``WeaviateVectorStore.add_texts`` (text + metadata, as an agent using
LangChain would), then attached with the ``langchain`` preset: a batch scan of the whole
collection (extraction rate reported; a second run writes nothing), and read-time retrievals
through :class:`~scanner.integrations.langchain.ContrascanRetriever`, showing which documents
are dropped (withheld) and which are marked unresolved. Needs ``contrascan[langchain]``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import click

from scanner.demo import demo_records_path
from scanner.errors import ConfigurationError
from scanner.records import read_jsonl

COLLECTION = "ContrascanDemoLangChain"
METADATA = ("user_id", "group", "source", "source_class", "observed_at", "epoch")


def run_source_demo(client, *, queries: int = 3, say: Callable[[str], None] = click.echo
                    ) -> dict[str, Any]:
    """Write the demo memories through LangChain (once), attach, batch scan, retrieve.

    Returns:
        Figures: objects, the batch scan's sync and verdict counts, the re-run's writes, and
        per retrieval the documents kept, dropped and marked.

    Raises:
        ConfigurationError: langchain-weaviate is not installed.
    """
    try:
        from langchain_weaviate import WeaviateVectorStore
    except ImportError as err:
        raise ConfigurationError("source demo", "needs the extra: pip install "
                                                "'contrascan[langchain]'") from err
    from scanner.integrations.langchain import METADATA_KEY, ContrascanRetriever, SentenceEmbeddings
    from scanner.sources import preset
    from scanner.sources.service import AttachedSource

    records, _ = read_jsonl(demo_records_path())
    embeddings = SentenceEmbeddings()
    if not client.collections.exists(COLLECTION):
        # what a default server's autoschema would create on LangChain's first add_texts
        client.collections.create_from_dict({"class": COLLECTION, "properties": [
            {"name": p, "dataType": ["text"]} for p in ("text", *METADATA)]})
    store = WeaviateVectorStore(client, COLLECTION, "text", embedding=embeddings)
    col = client.collections.use(COLLECTION)
    have = col.aggregate.over_all(total_count=True).total_count or 0
    if have < len(records):
        say(f"writing {len(records)} memories through langchain-weaviate add_texts into "
            f"{COLLECTION}")
        store.add_texts([r.text for r in records], metadatas=[
            {k: v for k, v in {"user_id": r.user_id, "group": r.group or "", "source": r.source,
                               "source_class": r.source_class.value,
                               "observed_at": r.observed_at.isoformat() if r.observed_at
                               else None, "epoch": r.epoch}.items() if v is not None}
            for r in records], ids=[_uuid(r.user_id, r.id) for r in records])
    source = AttachedSource(client, preset("langchain", COLLECTION, group_property="group"),
                            embedder=embeddings.embedder)
    t0 = time.perf_counter()
    first = source.batch_scan_source()
    rate = first.sync.extraction_rate
    verdicts: dict[str, int] = {}
    for t in first.scan.tenants:
        for v, n in t.by_verdict.items():
            verdicts[v] = verdicts.get(v, 0) + n
    say(f"batch scan of the attached collection: read {first.sync.read}, extracted "
        f"{first.sync.extracted}" + (f" ({rate:.0f}/s)" if rate else "") +
        f", cached {first.sync.cached}; {first.scan.scanned} memories, verdicts {verdicts} "
        f"({time.perf_counter() - t0:.1f} s)")
    again = source.batch_scan_source()
    writes = again.sync.extracted + sum(t.ledger.written + t.ledger.replaced +
                                        t.applied.edges_added for t in again.scan.tenants)
    say(f"re-run: {writes} writes")
    retrievals = []
    updates = sorted({(r.user_id, r.text) for r in records if r.id.endswith("-update")})
    for user_id, text in updates[:queries]:
        inner = store.as_retriever(search_kwargs={"k": 12, "return_uuids": True,
                                                  "filters": _user_filter(user_id)})
        query = text.rstrip(".")
        raw = inner.invoke(query)
        kept = ContrascanRetriever(retriever=inner, source=source, user_id=user_id).invoke(query)
        kept_ids = {d.metadata["uuid"] for d in kept}
        dropped = [d.page_content for d in raw if d.metadata["uuid"] not in kept_ids]
        marked = [d.page_content for d in kept if d.metadata.get(METADATA_KEY)]
        say(f"\n{user_id}: {query!r}: {len(raw)} documents, dropped {len(dropped)}, "
            f"marked unresolved {len(marked)}")
        for text_ in dropped:
            say(f"  dropped: {text_}")
        for text_ in marked:
            say(f"  unresolved: {text_}")
        retrievals.append({"user_id": user_id, "query": query, "documents": len(raw),
                           "dropped": dropped, "unresolved": marked})
    return {"collection": COLLECTION, "objects": first.sync.read,
            "sync": first.sync.to_json_dict(), "by_verdict": verdicts,
            "rerun_writes": writes, "retrievals": retrievals}


def _uuid(user_id: str, memory_id: str) -> str:
    from scanner.store.memories import object_uuid

    return object_uuid(user_id, memory_id)


def _user_filter(user_id: str):
    from weaviate.classes.query import Filter

    return Filter.by_property("user_id").equal(user_id)
