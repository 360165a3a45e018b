"""Review actions through ``/v1/reviews`` and the review service, against a real Weaviate
(issue 17): what each action writes to the ledger and to the memories' statuses, that nothing
is deleted, that a repeated request writes once, that history tells it, that decisions hold
in later scans, and the page's session, CSRF and tenant checks over plain HTTP."""

from __future__ import annotations

import re
import uuid

import pytest
from fastapi.testclient import TestClient

from scanner.api import ApiSettings, create_app
from scanner.models import MemoryRecord
from scanner.review.decisions import review_entry_id, review_record_id
from scanner.review.sample import PAIRS, sample_records
from scanner.service import Service
from tests.integration.conftest import review_engine, scoped_service

pytestmark = pytest.mark.integration
KEY = "review-k3y"


@pytest.fixture(scope="module")
def service(weaviate_server, extractor):
    with scoped_service(weaviate_server, review_engine(extractor), "Review") as svc:
        yield svc


@pytest.fixture(scope="module")
def client(service):
    app = create_app(service, settings=ApiSettings.from_env({"CONTRASCAN_API_KEY": KEY}),
                     warm_up=False)
    with TestClient(app, headers={"X-API-Key": KEY}) as test_client:
        yield test_client


def seeded(service: Service, prefix: str) -> tuple[str, dict[tuple[str, str], str]]:
    """A new user with the sample memories, batch-scanned: (user, pair -> open entry id)."""
    user = f"{prefix}-{uuid.uuid4().hex[:8]}"
    service.import_records(sample_records(user))
    service.batch_scan(user)
    items = service_items(service, user)
    assert set(items) == set(PAIRS)
    return user, items


def service_items(service: Service, user: str) -> dict[tuple[str, str], str]:
    from scanner.review.service import ReviewService

    return {tuple(e.members): e.entry_id for e in ReviewService(service).inbox(user).items}


def statuses(service: Service, user: str) -> dict[str, str]:
    return {m.record.id: m.status for m in service.store.iterate(user)}


def review(client, user: str, entry: str, action: str, chosen: str | None = None,
           reviewer: str = "ana") -> dict:
    response = client.post("/v1/reviews", json={"user_id": user, "entry_id": entry,
                                                "action": action, "chosen": chosen,
                                                "reviewer": reviewer})
    assert response.status_code == 200, response.text
    return response.json()


def test_the_inbox_lists_open_items_newest_first_with_counts_and_questions(client, service):
    user, items = seeded(service, "inbox")
    body = client.get("/v1/reviews", params={"user_id": user}).json()
    assert body["counts"]["total"] == len(PAIRS) == len(body["items"])
    assert body["counts"]["verdict"] == {"quarantined": 3, "epoch_change": 1, "escalated": 1}
    times = [i["recorded_at"] for i in body["items"]]
    assert times == sorted(times, reverse=True)
    assert all(i["question"] and i["status"] == "open" for i in body["items"])
    only = client.get("/v1/reviews", params={"user_id": user, "verdict": "escalated"}).json()
    assert [tuple(i["members"]) for i in only["items"]] == [("timeout-1", "timeout-2")]
    by_relation = client.get("/v1/reviews", params={"user_id": user,
                                                   "relation": "live in"}).json()
    assert [tuple(i["members"]) for i in by_relation["items"]] == [("home-1", "home-2")]


def test_this_one_is_current_writes_a_review_record_that_settles_by_reobservation(
        client, service):
    user, items = seeded(service, "current")
    entry = items[("work-1", "work-2")]
    out = review(client, user, entry, "current", chosen="work-2")
    record = out["record"]
    assert record["id"] == review_record_id(entry)
    assert (record["source"], record["source_class"], record["epoch"], record["text"]) == (
        "review:ana", "user", "studio-v3", "Sam works at Globex.")
    # the existing settlement rule settled it: the review record is the re-observation
    assert out["item"]["status"] == "settled"
    # (the key's dispute also lists the review record: its own pair with work-1 is moot)
    kinds = {e["entry_type"]: e for e in out["ledger"]
             if {"work-1", "work-2"} <= set(e["members"])}
    assert set(kinds) == {"quarantine", "review", "settlement"}
    assert kinds["quarantine"]["members"] == sorted(["work-1", "work-2", record["id"]])
    settlement = kinds["settlement"]  # (the decision settles the record's own pair too)
    assert (settlement["settler"], settlement["superseded"], settlement["confirmed"],
            settlement["rule"]) == (record["id"], ["work-1"], sorted([record["id"], "work-2"]),
                                    "reobservation")
    assert kinds["review"]["data"]["reviewer"] == "ana"
    assert out["item"]["settled_by"] == settlement["entry_id"]
    now = statuses(service, user)
    assert (now["work-1"], now["work-2"], now[record["id"]]) == ("superseded", "active",
                                                                 "active")
    assert len(now) == 11  # nothing deleted: ten sample memories and the review record
    # a double submission writes nothing more
    count = service.ledger.count(user)
    again = review(client, user, entry, "current", chosen="work-1", reviewer="bo")
    assert again["already"] is True and again["review"]["data"]["reviewer"] == "ana"
    assert service.ledger.count(user) == count and len(statuses(service, user)) == 11
    # history tells who settled what and when
    story = "\n".join(service.history_report("work-1", user).story)
    assert "review by ana" in story and "work-2 “globex” is current" in story
    assert f"re-observation {record['id']}" in story and "review:ana" in story
    # a later full scan keeps it settled; read-time scans cite the chosen value
    service.batch_scan(user)
    assert statuses(service, user)["work-1"] == "superseded"
    report = service.scan(user, "Where does Sam work?").report
    assert "work-1" in report.withhold and "work-2" in report.cite


def test_current_on_a_tie_retires_the_other_value(client, service):
    """The review record shares the chosen value, so it represents it (scanner.core.policy.decide)
    and the pair is decided by recency; the tie's entry is closed by the review."""
    user, items = seeded(service, "tie")
    entry = items[("glaze-1", "glaze-2")]
    out = review(client, user, entry, "current", chosen="glaze-1")
    assert out["item"]["status"] == "settled"
    assert out["review"]["superseded"] == ["glaze-2"]
    assert out["review"]["confirmed"] == ["glaze-1"]
    now = statuses(service, user)
    assert (now["glaze-1"], now["glaze-2"]) == ("active", "superseded")
    assert {e["entry_type"] for e in out["ledger"]} >= {"quarantine", "review", "resolution"}
    service.batch_scan(user)
    report = service.scan(user, "preferred glaze").report
    assert "glaze-2" in report.withhold and "glaze-1" in report.cite


def test_current_on_an_escalation_is_settled_by_the_decision(client, service):
    """Safety relations are never settled by the rule: the reviewer's decision settles them,
    even against a more trusted (observation) member."""
    user, items = seeded(service, "escalated")
    entry = items[("timeout-1", "timeout-2")]
    out = review(client, user, entry, "current", chosen="timeout-2")
    record = out["record"]["id"]
    assert out["item"]["status"] == "settled"
    settlement = next(e for e in out["ledger"] if e["entry_type"] == "settlement")
    assert settlement["superseded"] == ["timeout-1"] and settlement["settler"] == record
    now = statuses(service, user)
    assert (now["timeout-1"], now["timeout-2"], now[record]) == ("superseded", "active",
                                                                  "active")
    service.batch_scan(user)
    report = service.scan(user, "deploy timeout").report
    open_pairs = [c for c in report.conflicts if c.key.relation == "timeout"
                  and c.verdict == "escalated" and not c.settled_by]
    assert open_pairs == [] and "timeout-1" in report.withhold


def test_both_true_makes_the_key_several_valued_for_this_user_only(client, service):
    user, items = seeded(service, "both")
    other, other_items = seeded(service, "both-other")
    entry = items[("home-1", "home-2")]
    out = review(client, user, entry, "both_true")
    assert out["item"]["status"] == "settled" and out["record"] is None
    assert out["review"]["data"]["action"] == "both_true"
    now = statuses(service, user)
    assert (now["home-1"], now["home-2"]) == ("active", "active")
    # its like never reopens: a third value on the same key is no conflict for this user
    service.import_records([MemoryRecord(
        id="home-3", text="Sam lives in Rome.", user_id=user, source="crm:export",
        source_class="user", observed_at="2026-05-01T00:00:00Z", epoch="address-2026")])
    report = service.batch_scan(user)
    assert not [c for c in report.conflicts if c.key.relation == "live in"]
    assert set(service_items(service, user)) == set(PAIRS) - {("home-1", "home-2")}
    # the other user's same key is untouched
    assert ("home-1", "home-2") in service_items(service, other)
    story = "\n".join(service.history_report("home-1", user).story)
    assert "both are true" in story and "holds several values for this user" in story


def test_dismiss_closes_the_item_and_leaves_the_members_unresolved(client, service):
    user, items = seeded(service, "dismiss")
    entry = items[("work-1", "work-2")]
    out = review(client, user, entry, "dismiss", reviewer="cy")
    assert out["item"]["status"] == "dismissed"
    assert out["item"]["settled_by"] == review_entry_id(user, entry)
    now = statuses(service, user)
    assert (now["work-1"], now["work-2"]) == ("unresolved", "unresolved")
    service.batch_scan(user)
    service.scan(user, "Where does Sam work?")
    stored = service.ledger.fetch(user, [entry])[entry]
    assert stored.status == "dismissed"  # scans never reopen it
    assert ("work-1", "work-2") not in service_items(service, user)
    assert "dismissed without choosing" in "\n".join(
        service.history_report("work-1", user).story)


def test_a_new_value_reopens_a_dismissed_dispute_for_a_review_of_its_own(client, service):
    """The ledger keeps a key's dispute as one entry (:mod:`scanner.core.open_state`): a
    person's dismissal closes it as it stood, and a value that joins it later opens it again
    in the inbox, under the same id, for a second review; the first stays as history."""
    user, items = seeded(service, "reopen")
    entry = items[("work-1", "work-2")]
    review(client, user, entry, "dismiss", reviewer="cy")
    service.batch_scan(user)
    assert service.ledger.fetch(user, [entry])[entry].status == "dismissed"
    third = MemoryRecord(id="work-3", text="Sam works at Initech.", user_id=user, source=None,
                         source_class="user", observed_at="2026-03-04T09:00:00Z",
                         epoch="studio-v3")
    service.add_memories([third], check=True)
    reopened = service.ledger.fetch(user, [entry])[entry]
    assert (reopened.status, reopened.members) == ("open", ["work-1", "work-2", "work-3"])
    assert reopened.data == {"review_round": 1}
    service.batch_scan(user)  # a scan of every memory keeps it open, and its count of reviews
    assert service.ledger.fetch(user, [entry])[entry].data == {"review_round": 1}
    assert service_items(service, user)[("work-1", "work-2", "work-3")] == entry
    again = review(client, user, entry, "dismiss", reviewer="di")
    assert (again["already"], again["item"]["status"]) == (False, "dismissed")
    assert again["item"]["settled_by"] == review_entry_id(user, entry, 1)
    reviews = [e for e in service.ledger.iterate(user) if e.entry_type == "review"]
    assert sorted(e.data["reviewer"] for e in reviews) == ["cy", "di"]
    assert review(client, user, entry, "dismiss", reviewer="di")["already"] is True


def test_bad_review_requests_name_the_field_and_write_nothing(client, service):
    user, items = seeded(service, "bad")
    entry = items[("glaze-1", "glaze-2")]
    count = service.ledger.count(user)
    cases = [({"action": "current", "chosen": "home-1"}, 422, "chosen"),
             ({"action": "current"}, 422, "chosen"),
             ({"action": "maybe"}, 422, "action"),
             ({"action": "dismiss", "reviewer": "<b>x</b>"}, 422, "reviewer"),
             ({"action": "dismiss", "entry_id": "no-such-entry"}, 404, None)]
    for change, status, field in cases:
        body = {"user_id": user, "entry_id": entry, "reviewer": "ana", **change}
        response = client.post("/v1/reviews", json=body)
        assert response.status_code == status, (change, response.text)
        if field:
            assert field in response.text
    # another user's entry id is not found under this user (tenant isolation)
    other, other_items = seeded(service, "bad-other")
    response = client.post("/v1/reviews", json={
        "user_id": user, "entry_id": other_items[("glaze-1", "glaze-2")],
        "action": "dismiss", "reviewer": "ana"})
    assert response.status_code == 404
    assert service.ledger.count(user) == count
    assert client.post("/v1/reviews", json={"user_id": user}, headers={
        "X-API-Key": "wrong"}).status_code == 401


def test_the_pages_need_a_session_and_form_posts_a_csrf_token(service):
    user, items = seeded(service, "csrf")
    app = create_app(service, settings=ApiSettings.from_env({"CONTRASCAN_API_KEY": KEY}),
                     warm_up=False)
    entry = items[("work-1", "work-2")]
    path = f"/review/items/{entry}?user_id={user}"
    with TestClient(app, follow_redirects=False) as http:
        assert http.get("/review").status_code == 303  # to the login form
        assert http.post(path, data={"action": "dismiss"}).status_code == 401
        wrong = http.post("/review/login", data={"reviewer": "ana", "api_key": "nope"})
        assert wrong.status_code == 401 and "contrascan_review" not in wrong.cookies
        login = http.post("/review/login", data={"reviewer": "ana", "api_key": KEY,
                                                  "next": "/review"})
        assert login.status_code == 303
        page = http.get(path)
        assert page.status_code == 200
        assert "script-src 'self'" in page.headers["content-security-policy"]
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1)
        count = service.ledger.count(user)
        for data in ({"action": "dismiss"}, {"action": "dismiss", "csrf": "0" * 64}):
            refused = http.post(path, data=data)
            assert refused.status_code == 403 and "CSRF" in refused.text
        assert service.ledger.count(user) == count
        done = http.post(path, data={"action": "dismiss", "csrf": token})
        assert done.status_code == 303 and done.headers["location"].endswith("&done=dismiss")
        assert service.ledger.fetch(user, [entry])[entry].status == "dismissed"
        # a user filter shows that user's items only
        other, other_items = seeded(service, "csrf-other")
        inbox = http.get("/review", params={"user_id": user}).text
        assert all(e not in inbox for e in other_items.values())
        assert items[("glaze-1", "glaze-2")] in inbox


def test_the_inbox_page_shortens_a_long_memory_text_and_keeps_the_whole_of_it(service):
    """Issue 35, item 6: each inbox item shows its memories' texts, a long one shortened
    (scanner.wording.shortened) with the whole text one click away; the item page shows it
    whole."""
    from scanner.wording import SHOWN_TEXT_CHARS, shortened

    user = f"long-{uuid.uuid4().hex[:8]}"
    long_text = ("The preferred glaze is celadon. We settled on it after a long afternoon of "
                 "test tiles from the gas kiln, comparing every green on the shelf against the "
                 "new porcelain body and the older stoneware.")
    assert len(long_text) > SHOWN_TEXT_CHARS
    when = "2026-03-01T09:00:00Z"
    service.import_records([
        MemoryRecord(id="g-1", text=long_text, user_id=user, source="chat:a",
                     source_class="user", observed_at=when, epoch="studio-v3"),
        MemoryRecord(id="g-2", text="The preferred glaze is tenmoku.", user_id=user,
                     source="chat:b", source_class="user", observed_at=when, epoch="studio-v3")])
    service.batch_scan(user)
    entry = service_items(service, user)[("g-1", "g-2")]
    app = create_app(service, settings=ApiSettings.from_env({"CONTRASCAN_API_KEY": KEY}),
                     warm_up=False)
    with TestClient(app, follow_redirects=False) as http:
        assert http.post("/review/login", data={"reviewer": "ana", "api_key": KEY}
                         ).status_code == 303
        inbox = http.get("/review", params={"user_id": user}).text
        row = inbox[inbox.index(f'data-entry="{entry}"'):]
        row = row[:row.index("</tr>")]
        short = shortened(long_text)
        assert short.endswith("…") and len(short) <= SHOWN_TEXT_CHARS
        assert f"“{short}”" in row and "“The preferred glaze is tenmoku.”" in row
        assert (f'<details class="full"><summary>full text</summary>'
                f'<p class="text-full">{long_text}</p></details>') in row
        assert row.count("<details") == 1  # the short text is whole: nothing to open
        item = http.get(f"/review/items/{entry}", params={"user_id": user}).text
        assert f'<p class="text">{long_text}</p>' in item
