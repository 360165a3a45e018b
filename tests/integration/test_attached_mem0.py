"""Mem0 (mem0ai) with its Weaviate vector store on the test server and the packaged
all-MiniLM-L6-v2 as a local huggingface embedder: memories added with ``infer=False`` (no LLM
call) land in contrascan's embedded Weaviate and in a plain one, the default preset withholds
the stale one and says what it assumes; searched with ``Memory.search``, the result is scanned
where it lies."""

from __future__ import annotations

import copy
import json
import os
import uuid

import pytest

os.environ.setdefault("MEM0_TELEMETRY", "False")  # read once, when mem0 is first imported
pytest.importorskip("mem0", reason="needs the contrascan[mem0] extra")

from mem0 import Memory  # noqa: E402

from scanner.embeddings import resolve_model_path  # noqa: E402
from scanner.integrations.mem0 import RESULT_KEY, scan_mem0_results  # noqa: E402
from scanner.sources import preset  # noqa: E402
from scanner.sources.service import AttachedSource  # noqa: E402
from scanner.store.server import rest_endpoint  # noqa: E402
from tests.integration.attached_support import (  # noqa: E402
    dropped_afterwards,
    source_cli,
    source_collections,
    source_report,
    stored,
)

pytestmark = [
    pytest.mark.integration,
    # mem0ai 2.2.1 creates its collection with weaviate-client's deprecated vectorizer_config
    # and vector_index_config arguments (mem0/vector_stores/weaviate.py create_col)
    pytest.mark.filterwarnings("ignore:Dep02[45]:DeprecationWarning"),
]

USER = "mem0-user"


def _memory(name: str, port: int, api_key: str, client, history):
    """A Mem0 ``Memory`` on collection ``name`` of the Weaviate at 127.0.0.1:``port``."""
    memory = Memory.from_config({
        # a server that takes no anonymous client: its API key as a bearer header (Mem0's
        # auth_client_secret would connect to Weaviate Cloud over https)
        "vector_store": {"provider": "weaviate", "config": {
            "collection_name": name, "embedding_model_dims": 384,
            "cluster_url": f"http://127.0.0.1:{port}",
            "additional_headers": {"Authorization": f"Bearer {api_key}"}}},
        "embedder": {"provider": "huggingface", "config": {
            "model": resolve_model_path(), "embedding_dims": 384}},
        # infer=False never calls the LLM; Mem0 builds the client at construction
        "llm": {"provider": "openai", "config": {"api_key": "no-llm-calls"}},
        "history_db_path": str(history),
    })
    # Mem0's Weaviate store connects gRPC to port 50051 whatever the URL says
    # (mem0/vector_stores/weaviate.py __init__); the test servers' gRPC ports are free-chosen,
    # so the store is handed a client of the same server (a real one, not a stand-in).
    memory.vector_store.client.close()
    memory.vector_store.client = client
    return memory


@pytest.fixture()
def mem0_memory(weaviate_server, weaviate_api_key, tmp_path):
    name = f"Mem0_{uuid.uuid4().hex[:12]}"
    # Mem0's collection does not declare what Memory.add writes besides (role, actor_id,
    # text_lemmatized, metadata keys): Weaviate's auto-schema adds them, on in the embedded
    # server as in a default one (issue 35 item 2)
    memory = _memory(name, rest_endpoint(weaviate_server).port, weaviate_api_key,
                     weaviate_server, tmp_path / "mem0-history.db")
    yield memory, name
    for coll in source_collections(name):
        weaviate_server.collections.delete(coll)


def _add(memory, text: str, created_at: str, *, name: str | None = None,
         user: str = USER) -> str:
    message = {"role": "user", "content": text, **({"name": name} if name else {})}
    out = memory.add([message], user_id=user, infer=False,
                     metadata={"created_at": created_at})
    return out["results"][0]["id"]


def test_mem0_search_results_lose_exactly_the_withheld_memories(weaviate_server, mem0_memory):
    memory, name = mem0_memory
    ids = {
        "celadon": _add(memory, "The preferred glaze is celadon.", "2026-03-01T10:00:00+00:00",
                        name="potter"),
        "tenmoku": _add(memory, "The preferred glaze is tenmoku.", "2026-03-05T10:00:00+00:00",
                        name="potter"),
        # no actor: no source, so the pair is quarantined (missing_provenance)
        "paris": _add(memory, "Alice lives in Paris.", "2026-03-02T10:00:00+00:00"),
        "berlin": _add(memory, "Alice lives in Berlin.", "2026-03-06T10:00:00+00:00",
                       name="potter"),
        "kiln": _add(memory, "The kiln fires to cone 10.", "2026-03-03T10:00:00+00:00",
                     name="potter"),
    }
    other = _add(memory, "The preferred glaze is shino.", "2026-03-09T10:00:00+00:00",
                 name="potter", user="someone-else")
    results = memory.search("preferred glaze Alice lives kiln", filters={"user_id": USER},
                            top_k=12, threshold=0.0)
    assert {r["id"] for r in results["results"]} == set(ids.values())

    # strict about the source (none declared): a memory without an actor is quarantined
    mapping = preset("mem0", name, source_default="")
    source = AttachedSource(weaviate_server, mapping)
    before = copy.deepcopy(results)
    filtered = scan_mem0_results(source, USER, results)
    # Mem0's own shape back: the same keys, "results" without the withheld memories
    assert isinstance(filtered, dict) and filtered.keys() == results.keys()
    assert results == before  # the agent's result is not changed
    kept, scan = filtered["results"], filtered.scan
    assert {r["id"] for r in kept} == {ids[k] for k in ("tenmoku", "paris", "berlin", "kiln")}
    assert [r["id"] for r in kept] == [r["id"] for r in results["results"]
                                       if r["id"] != ids["celadon"]]  # Mem0's order kept
    assert json.loads(json.dumps(filtered)) == dict(filtered)
    # the list Mem0 returned before 1.1 still gives (items, scan)
    listed, listed_scan = scan_mem0_results(source, USER, results["results"], apply=False)
    assert listed == kept and listed_scan.report.withhold == scan.report.withhold
    marks = {r["id"]: r.get(RESULT_KEY) for r in kept}
    assert marks[ids["paris"]]["status"] == marks[ids["berlin"]]["status"] == "unresolved"
    assert marks[ids["tenmoku"]] is None

    verdicts = {tuple(sorted(c.members)): c for c in scan.report.conflicts}
    glaze = verdicts[tuple(sorted([ids["celadon"], ids["tenmoku"]]))]
    assert (glaze.verdict, glaze.rule, glaze.winner) == ("resolved", "recency", ids["tenmoku"])
    # the store-wide time serves as observed_at only as declared, and every verdict says so
    for c in scan.report.conflicts:
        assert "declared:observed_at=created_at" in c.reasons
        assert "declared:single_epoch" in c.reasons
    alice = verdicts[tuple(sorted([ids["paris"], ids["berlin"]]))]
    assert alice.reasons[0] == f"missing_provenance:source@{ids['paris']}"

    # the batch scan over the whole collection finds the same verdicts, scoped per user,
    # and a re-run writes nothing
    assert stored(weaviate_server, name) == 6  # every Memory.add landed
    first = source.batch_scan_source()
    assert first.sync.read == 6 and first.sync.extracted == 1  # only the other user's
    assert first.sync.cached == 5
    assert other not in scan.report.cite
    again = source.batch_scan_source()
    assert again.sync.extracted == 0
    assert sum(t.ledger.written + t.ledger.replaced + t.applied.edges_added
               for t in again.scan.tenants) == 0


def test_memory_add_lands_and_the_default_preset_withholds_the_stale_memory(user_weaviate,
                                                                            tmp_path):
    """Issue 35 items 2 and 3: ``Memory.add`` as Mem0's documentation shows it (a user's
    messages, no actor, no metadata): every write is stored, and the preset maps Mem0's
    created_at and declares one epoch and the collection as source."""
    name = f"Mem0_{uuid.uuid4().hex[:12]}"
    with user_weaviate.client() as client, \
            dropped_afterwards(client, *source_collections(name)):
        memory = _memory(name, user_weaviate.port, user_weaviate.api_key, client,
                         tmp_path / "mem0-history.db")
        ids = {}
        for key, text in (("celadon", "The preferred glaze is celadon."),
                          ("kiln", "The kiln fires to cone 10."),
                          ("tenmoku", "The preferred glaze is tenmoku.")):
            out = memory.add([{"role": "user", "content": text}], user_id=USER, infer=False)
            ids[key] = out["results"][0]["id"]
        memory.add([{"role": "user", "content": "The preferred glaze is shino."}],
                   user_id=f"{USER}-2", infer=False)
        assert stored(client, name) == 4  # 0 writes lost

        preset_args = ("--preset", "mem0", "--collection", name)
        batch = source_cli(user_weaviate, "batch-scan", *preset_args)
        assert f"{name}: read 4, cached 0, extracted 4" in batch.output
        assert "scanned 4 memories of 2 users: 1 conflict {'resolved': 1}" in batch.output
        assert "assumed (declared:observed_at=created_at): a memory without an observation " \
               "time is taken to be observed when its created_at says" in batch.output
        assert "assumed (declared:single_epoch)" in batch.output
        assert f"assumed (declared:source={name})" in batch.output

        report = source_report(user_weaviate, *preset_args, "--user", USER,
                               "--query", "preferred glaze")
        assert report["withhold"] == [ids["celadon"]] and report["unresolved"] == []
        (glaze,) = report["conflicts"]
        assert (glaze["verdict"], glaze["rule"], glaze["winner"]) == (
            "resolved", "recency", ids["tenmoku"])
        assert report["declared"] == ["declared:single_epoch",
                                      "declared:observed_at=created_at",
                                      f"declared:source={name}"]
        assert set(report["declared"]) <= set(glaze["reasons"])
