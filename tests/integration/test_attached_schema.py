"""Auto-schema is on in the embedded Weaviate so that frameworks' writes land (issue 35 item
2); contrascan's own collections stay strict: a write naming a property they do not declare is
never sent, and a collection of one of their names that auto-schema re-made is refused."""

from __future__ import annotations

import uuid

import pytest
from weaviate.classes.data import DataObject

from scanner.errors import ConfigurationError, StoreWriteError
from scanner.store.batching import insert_objects
from scanner.store.memories import MemoryStore, object_uuid
from scanner.store.status_updates import update_many

pytestmark = pytest.mark.integration

USER = "strict-user"


@pytest.fixture()
def memory_store(weaviate_server):
    name = f"Strict_{uuid.uuid4().hex[:10]}"
    store = MemoryStore(weaviate_server, name)
    store.ensure_schema()
    yield store
    weaviate_server.collections.delete(name)


def _properties(client, name: str) -> list[str]:
    return sorted(p.name for p in client.collections.use(name).config.get().properties)


def test_an_undeclared_property_is_never_written_into_contrascans_collections(
        weaviate_server, memory_store):
    before = _properties(weaviate_server, memory_store.name)
    col = memory_store._tenant(USER, create=True)
    good, bad = object_uuid(USER, "m1"), object_uuid(USER, "m2")
    failed = insert_objects(col, [
        DataObject(properties={"memory_id": "m1", "text": "The kiln fires to cone 10."},
                   uuid=good),
        DataObject(properties={"memory_id": "m2", "text": "x", "colour": "celadon"},
                   uuid=bad)])
    assert failed == [(bad, "property 'colour' is not declared in contrascan's collection "
                            f"{memory_store.name} (not written: Weaviate's auto-schema would "
                            "have added it)")]
    with pytest.raises(StoreWriteError) as raised:
        update_many(weaviate_server, col, USER, [("m1", {"status": "active"}),
                                                 ("m1", {"statu": "superseded"})])
    assert raised.value.written == 1
    assert raised.value.failures == [("m1", "property 'statu' is not declared in "
                                            f"contrascan's collection {memory_store.name} "
                                            "(not written: Weaviate's auto-schema would have "
                                            "added it)")]
    assert _properties(weaviate_server, memory_store.name) == before
    stored = {str(o.uuid): o.properties for o in col.iterator()}
    assert list(stored) == [good] and stored[good]["status"] == "active"


def test_a_collection_auto_schema_remade_after_a_deletion_is_refused(weaviate_server,
                                                                    memory_store):
    name = memory_store.name
    weaviate_server.collections.delete(name)
    # a write that reaches the deleted collection: auto-schema makes a collection of the
    # name, without tenants (the write itself fails: it names a tenant)
    failed = insert_objects(weaviate_server.collections.use(name).with_tenant(USER), [
        DataObject(properties={"memory_id": "m1", "text": "t"}, uuid=object_uuid(USER, "m1"))])
    assert "multi-tenancy disabled" in failed[0][1]
    assert weaviate_server.collections.exists(name)
    with pytest.raises(ConfigurationError, match=f"'collection': {name} exists without "
                                                 "multi-tenancy, so contrascan did not make it"):
        MemoryStore(weaviate_server, name).ensure_schema()


def test_a_checkpoint_written_after_its_collection_was_deleted_is_recorded_again(
        weaviate_server):
    from datetime import datetime, timezone

    from scanner.batch import ScanCheckpoint
    from scanner.store.scan_state import ScanStateStore

    store = ScanStateStore(weaviate_server, f"Strict_{uuid.uuid4().hex[:10]}")
    checkpoint = ScanCheckpoint(decision="d", inputs="i", states="s", ledger="l", scanned=1,
                                conflicts={})
    now = datetime.now(timezone.utc)
    try:
        store.put(USER, checkpoint, now)
        weaviate_server.collections.delete(store.name)
        # this process still takes the collection to exist: auto-schema makes a stand-in of
        # it without tenants, and the write fails
        with pytest.raises(StoreWriteError, match="multi-tenancy disabled"):
            store.put(USER, checkpoint, now)
        store.forget_schema()  # as a batch scan does after a failed checkpoint
        store.put(USER, checkpoint, now)
        assert store.get(USER) == checkpoint
        assert weaviate_server.collections.use(store.name).config.get() \
            .multi_tenancy_config.enabled
    finally:
        weaviate_server.collections.delete(store.name)
