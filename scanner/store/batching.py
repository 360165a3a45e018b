"""Synchronous batch writes: ``insert_many`` in chunks, every failure collected.

The client's batch context managers (``collection.batch.fixed_size`` / ``dynamic``) run a
background sender and wait about one second on leaving the context, whatever the number of
objects (measured with weaviate-client 4.24 against Weaviate 1.39: ~1,040 ms for one object,
against ~2 ms for the same object through ``data.insert_many``). A read-time scan or a
write-time check that records a verdict cannot pay that second, and a batch scan pays it once
per batch. ``insert_many`` sends one gRPC ``BatchObjects`` request per chunk and returns the
per-object errors; it does not raise on them (only when every object of a request fails),
so both cases are turned into the same failure list here.

Only contrascan's own collections are written here, and an object naming a property or
reference they do not declare is never sent (:func:`scanner.store.schema.undeclared`: the
server's auto-schema would add it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from weaviate.classes.data import DataObject
from weaviate.exceptions import WeaviateInsertManyAllFailedError

from scanner.redaction import quiet_batch_error_log
from scanner.store.schema import undeclared

quiet_batch_error_log()  # the client would log every rejected object whole (memory text)


def insert_objects(collection: Any, objects: Sequence[DataObject], *, batch_size: int = 500,
                   on_chunk: Callable[[int], None] | None = None) -> list[tuple[str, str]]:
    """Insert (or replace, by uuid) ``objects`` in requests of at most ``batch_size``.

    Args:
        collection: a (tenant-bound) handle of one of contrascan's collections.
        objects: the objects, each with its ``uuid``.
        batch_size: objects per request.
        on_chunk: called with the number of objects after each request.

    Returns:
        ``(uuid, message)`` of every object Weaviate rejected, or that was not sent because it
        names an undeclared property (:func:`scanner.store.schema.undeclared`); empty when
        all were stored.
    """
    failed: list[tuple[str, str]] = []
    for start in range(0, len(objects), batch_size):
        chunk = objects[start:start + batch_size]
        errors: dict[int, str] = {}
        for i, o in enumerate(chunk):
            why = undeclared(collection, o.properties, o.references)
            if why is not None:
                errors[i] = why
        send = [o for i, o in enumerate(chunk) if i not in errors]
        if send:
            index = [i for i in range(len(chunk)) if i not in errors]
            try:
                result = collection.data.insert_many(send)
                errors.update({index[i]: e.message for i, e in result.errors.items()})
            except WeaviateInsertManyAllFailedError as err:
                errors.update({i: str(err) for i in index})
        failed.extend((str(chunk[i].uuid), message) for i, message in sorted(errors.items()))
        if on_chunk:
            on_chunk(len(chunk))
    return failed
