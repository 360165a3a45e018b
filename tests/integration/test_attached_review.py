"""Verdicts on an attached collection reach the review inbox, its actions and history (issue 35,
item 4): a LangChain collection (langchain-weaviate ``add_texts``) with a quarantined pair,
served by ``create_app(..., sources=...)``, listed by ``GET /v1/reviews`` and the ``/review``
page with its texts and its source, decided by ``POST /v1/reviews`` and by the page's form,
told by ``GET /v1/memories/{id}/history``, ``contrascan history`` and the review page's
history; the decision holds in later scans, contrascan's own item on the same key stays
apart, and nothing is written into LangChain's objects unless the source opts in to
statuses."""

from __future__ import annotations

import json
import re
import uuid

import pytest

pytest.importorskip("langchain_weaviate", reason="needs the contrascan[langchain] extra")

from click.testing import CliRunner  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from langchain_weaviate import WeaviateVectorStore  # noqa: E402

from scanner.api import ApiSettings, create_app  # noqa: E402
from scanner.cli import main  # noqa: E402
from scanner.integrations.langchain import SentenceEmbeddings  # noqa: E402
from scanner.models import MemoryRecord  # noqa: E402
from scanner.sources import load_sources  # noqa: E402
from scanner.store.attached import cache_collection_name  # noqa: E402
from scanner.store.server import API_KEY_ENV  # noqa: E402
from tests.integration.conftest import scoped_service  # noqa: E402

pytestmark = pytest.mark.integration
KEY = "attached-review-k3y"
USER = "lc-review"
DOCS = [  # (key, text, metadata besides user_id): no epoch, so the strict mapping quarantines
    ("paris", "Alice lives in Paris.",
     {"source": "chat:3", "source_class": "user", "observed_at": "2026-03-02T10:00:00Z"}),
    ("berlin", "Alice lives in Berlin.",
     {"source": "chat:4", "source_class": "user", "observed_at": "2026-03-06T10:00:00Z"}),
    ("kiln", "The kiln fires to cone 10.",
     {"source": "chat:5", "source_class": "user", "observed_at": "2026-03-03T10:00:00Z"}),
]


@pytest.fixture()
def attached(weaviate_server, engine, tmp_path):
    """A LangChain collection, the sidecar app over a service of its own collection with the
    collection attached twice (``notes``: the default, writing nothing into LangChain's
    objects; ``notes-status``: the opt-in status mode), and an HTTP client with the key."""
    name = f"LangChain_{uuid.uuid4().hex[:12]}"
    store = WeaviateVectorStore(weaviate_server, name, "text", embedding=SentenceEmbeddings())
    ids = {key: str(store.add_texts([text], metadatas=[{"user_id": USER, **meta}])[0])
           for key, text, meta in DOCS}
    path = tmp_path / "sources.toml"
    path.write_text(f'[sources.notes]\npreset = "langchain"\ncollection = "{name}"\n'
                    'single_epoch = false\n\n'
                    f'[sources.notes-status]\npreset = "langchain"\ncollection = "{name}"\n'
                    'single_epoch = false\nstatus_property = "contrascan_status"\n')
    with scoped_service(weaviate_server, engine, "AttachedReview") as service:
        app = create_app(service, settings=ApiSettings.from_env({"CONTRASCAN_API_KEY": KEY}),
                         warm_up=False, sources=load_sources(path))
        with TestClient(app, headers={"X-API-Key": KEY}, follow_redirects=False) as http:
            yield http, service, name, ids
    for coll in (name, *(cache_collection_name(n) + suffix for n in ("notes", "notes-status")
                         for suffix in ("", "Ledger", "ScanState"))):
        weaviate_server.collections.delete(coll)


def _objects(client, name: str) -> dict[str, dict]:
    return {str(o.uuid): dict(o.properties)
            for o in client.collections.use(name).iterator()}


def _login(http) -> None:
    assert http.post("/review/login", data={"reviewer": "ana", "api_key": KEY}
                     ).status_code == 303


def test_an_attached_quarantine_is_reviewed_settled_and_told(attached, weaviate_server,
                                                              embedded_weaviate):
    http, service, name, ids = attached
    before = _objects(weaviate_server, name)
    # contrascan's own memories of the same user hold the same dispute: same key, same rule,
    # so the same entry id in its own ledger; the two stay apart
    service.import_records([
        MemoryRecord(id="own-paris", text="Alice lives in Paris.", user_id=USER,
                     source="chat:a", source_class="user", observed_at="2026-03-02T10:00:00Z"),
        MemoryRecord(id="own-berlin", text="Alice lives in Berlin.", user_id=USER,
                     source="chat:b", source_class="user", observed_at="2026-03-06T10:00:00Z")])
    service.batch_scan(USER)
    assert http.post("/v1/sources/notes/batch-scans").status_code == 200

    inbox = http.get("/v1/reviews", params={"user_id": USER}).json()
    by_source = {i["source"]: i for i in inbox["items"]}
    assert set(by_source) == {None, "notes"}  # the status source has no ledger yet
    item = by_source["notes"]
    assert (item["verdict"], item["rule"], item["status"]) == (
        "quarantined", "missing_provenance", "open")
    assert item["members"] == sorted([ids["paris"], ids["berlin"]])
    assert item["question"] and item["entry_id"] == by_source[None]["entry_id"]
    assert inbox["counts"]["source"] == {"notes": 1} and inbox["counts"]["total"] == 2
    only = http.get("/v1/reviews", params={"user_id": USER, "source": "notes"}).json()
    assert [i["source"] for i in only["items"]] == ["notes"]
    assert http.get("/v1/reviews", params={"user_id": USER, "source": "nope"}
                    ).status_code == 404

    # the page lists it with its memories' texts, read from the source's cache
    _login(http)
    page = http.get("/review", params={"user_id": USER}).text
    row = page[page.index('data-source="notes"'):]
    row = row[:row.index("</tr>")]
    assert "“Alice lives in Paris.”" in row and "“Alice lives in Berlin.”" in row
    assert f"attached source <strong>notes</strong> (collection {name})" in row
    link = re.search(r'href="(/review/items/[^"]+)"', row).group(1).replace("&amp;", "&")
    assert link.endswith("source=notes")
    item_page = http.get(link).text
    assert '<p class="text">Alice lives in Paris.</p>' in item_page
    assert f"objects of the collection {name}" in item_page
    assert f"/review/history?user_id={USER}&amp;memory_id={ids['paris']}&amp;source=notes" \
        in item_page

    # "this one is current" from the page's form: the attached item is settled
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', item_page).group(1)
    done = http.post(link, data={"action": "current", "chosen": ids["berlin"], "csrf": token})
    assert done.status_code == 303 and done.headers["location"].endswith("&done=current")
    source = http.app.state.sources.get(service, "notes")
    entry = item["entry_id"]
    assert source.ledger.fetch(USER, [entry])[entry].status == "settled"
    statuses = {m.record.id: m.status for m in source.store.iterate(USER)}
    assert (statuses[ids["paris"]], statuses[ids["berlin"]], statuses[ids["kiln"]]) == (
        "superseded", "active", "active")
    record = f"review-{entry}"
    assert statuses[record] == "active"  # the review record, in contrascan's cache
    # contrascan's own item on the same key is untouched, and still open
    assert service.ledger.fetch(USER, [entry])[entry].status == "open"
    assert [i["source"] for i in http.get("/v1/reviews", params={"user_id": USER}
                                          ).json()["items"]] == [None]
    # a second decision over the API finds the first one and writes nothing
    again = http.post("/v1/reviews", json={"user_id": USER, "entry_id": entry,
                                           "action": "dismiss", "reviewer": "bo",
                                           "source": "notes"})
    assert again.status_code == 200 and again.json()["already"] is True
    assert again.json()["review"]["data"]["reviewer"] == "ana"
    # nothing was written into LangChain's objects, and nothing deleted
    assert _objects(weaviate_server, name) == before

    # history: by the id alone (the source's cache is found), by the source, and on the page
    told = http.get(f"/v1/memories/{ids['paris']}/history", params={"user_id": USER}).json()
    assert told["collection"] == cache_collection_name("notes")
    story = "\n".join(told["story"])
    assert "review by ana" in story and f"re-observation {record}" in story
    assert {e["id"] for e in told["chain"]} >= {ids["paris"], ids["berlin"], record}
    by_source_history = http.get(f"/v1/sources/notes/memories/{ids['paris']}/history",
                                 params={"user_id": USER}).json()
    assert by_source_history["story"] == told["story"]
    history_page = http.get("/review/history", params={
        "user_id": USER, "memory_id": ids["paris"], "source": "notes"}).text
    assert "review by ana" in history_page and "Alice lives in Paris." in history_page
    cli = CliRunner().invoke(main, ["history", ids["paris"], "--user", USER, "--json",
                                    "--weaviate-url", embedded_weaviate.url],
                             env={API_KEY_ENV: embedded_weaviate.api_key})
    assert cli.exit_code == 0, (cli.output, cli.exception)
    assert json.loads(cli.stdout)["story"] == told["story"]
    printed = CliRunner().invoke(main, ["history", ids["paris"], "--user", USER,
                                        "--weaviate-url", embedded_weaviate.url],
                                 env={API_KEY_ENV: embedded_weaviate.api_key})
    assert f"a memory of an attached source: the objects as {cache_collection_name('notes')}" \
        in " ".join(printed.stdout.split())

    # the decision holds: a later batch scan and a read-time scan withhold the retired value
    assert http.post("/v1/sources/notes/batch-scans").status_code == 200
    assert source.ledger.fetch(USER, [entry])[entry].status == "settled"
    scan = http.post("/v1/sources/notes/scan", json={"user_id": USER,
                                                     "query": "Where does Alice live?"}).json()
    assert ids["paris"] in scan["withhold"] and ids["berlin"] in scan["cite"]
    assert [i["source"] for i in http.get("/v1/reviews", params={"user_id": USER}
                                          ).json()["items"]] == [None]


def test_a_decision_on_a_status_source_marks_the_agents_objects(attached, weaviate_server):
    """The opt-in status mode: the decision's statuses are written onto LangChain's objects
    (the only property contrascan writes there), the review record is not one of them."""
    http, service, name, ids = attached
    assert http.post("/v1/sources/notes-status/batch-scans").status_code == 200
    marked = {u: p.get("contrascan_status") for u, p in _objects(weaviate_server, name).items()}
    assert marked == {ids["paris"]: "unresolved", ids["berlin"]: "unresolved",
                      ids["kiln"]: "active"}
    (item,) = http.get("/v1/reviews", params={"user_id": USER, "source": "notes-status"}
                       ).json()["items"]
    out = http.post("/v1/reviews", json={"user_id": USER, "entry_id": item["entry_id"],
                                         "action": "current", "chosen": ids["paris"],
                                         "reviewer": "ana", "source": "notes-status"})
    assert out.status_code == 200, out.text
    assert out.json()["item"]["status"] == "settled"
    after = _objects(weaviate_server, name)
    assert {u: p.get("contrascan_status") for u, p in after.items()} == {
        ids["paris"]: "active", ids["berlin"]: "superseded", ids["kiln"]: "active"}
    assert len(after) == len(DOCS)  # no object added or deleted
