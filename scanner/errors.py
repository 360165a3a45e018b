"""Errors raised by the scanner package.

All of them derive from one root, so a caller can catch ``ScannerError`` and know that the
message is meant for a person::

    ScannerError
    ├── RecordError            one input record is invalid (names the record and the field)
    ├── ConfigurationError     a setting or table is invalid
    ├── WeaviateUnavailable    the server could not be provisioned, started or reached
    │   └── DataDirectoryBusy  another process owns the embedded data directory
    ├── StoreWriteError        Weaviate rejected some writes (lists every failed object)
    ├── StoreDamaged           a collection or tenant contrascan keeps is gone from the store
    ├── UnknownMemory          an id that is not in the store
    ├── UnknownSource          a name no attached source has (scanner.sources)
    └── SidecarError           the HTTP sidecar answered with an error (scanner.client)

Each subclass takes typed arguments, builds its own message and keeps the arguments as
attributes. Third-party errors are wrapped with ``raise ... from err``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from scanner.wording import shown_id


def faults(errors: Sequence[Mapping], *, field: Callable[[tuple], str],
           reason: Callable[[Mapping], str]) -> tuple[str, str, tuple[str, ...]]:
    """Every fault of one failed validation, worded for a person.

    Args:
        errors: pydantic's ``ValidationError.errors()``, in its order.
        field: the shown name of an error's ``loc``.
        reason: the wording of one error.

    Returns:
        ``(first field, reason, every field)``: the reason is the first field's, followed by
        "; also field 'x': ..." for each further fault, so that one correction pass can fix
        them all.
    """
    found = [(field(tuple(e["loc"])), reason(e)) for e in errors]
    (first, why), others = found[0], found[1:]
    if others:
        why += "; also " + "; ".join(f"field '{f}': {r}" for f, r in others)
    return first, why, tuple(f for f, _ in found)


class ScannerError(Exception):
    """Root of every error this package raises on purpose."""


class RecordError(ScannerError):
    """One input record failed validation.

    Attributes:
        line: 1-based line number in the input file, or ``None`` when the record did not come
            from a file.
        record_id: the record's ``id`` when it could be read, else ``None``.
        field: dotted path of the offending field (``"observed_at"``), or ``"<line>"`` when the
            line is not a JSON object at all.
        reason: what is wrong with it (with every other field at fault, when there are several).
        fields: every field at fault, ``field`` first.
    """

    def __init__(self, *, line: int | None, record_id: str | None, field: str, reason: str,
                 fields: tuple[str, ...] = ()):
        self.line = line
        self.record_id = shown_id(record_id)  # an oversized id is cut, never echoed whole
        record_id = self.record_id
        self.field = field
        self.fields = fields or (field,)
        self.reason = reason
        where = f"line {line}" if line is not None else "record"
        who = f" (id {record_id!r})" if record_id else ""
        super().__init__(f"{where}{who}: field '{field}': {reason}")


class ConfigurationError(ScannerError):
    """A setting, relation table or alias table is invalid."""

    def __init__(self, setting: str, reason: str):
        self.setting = setting
        self.reason = reason
        super().__init__(f"configuration '{setting}': {reason}")


class WeaviateUnavailable(ScannerError):
    """The Weaviate server could not be provisioned, started or reached."""

    def __init__(self, what: str, hint: str | None = None):
        self.what = what
        self.hint = hint
        super().__init__(what + (f" ({hint})" if hint else ""))


class DataDirectoryBusy(WeaviateUnavailable):
    """Another process owns the embedded server's data directory and is not answering."""

    def __init__(self, data_dir: str, owner_pid: int | None, *, lock: str | None = None):
        self.data_dir = data_dir
        self.owner_pid = owner_pid
        owner = f"process {owner_pid}" if owner_pid else "another process"
        if lock is not None:  # never waited for (scanner.store.access.held_by_another_user)
            super().__init__(
                f"{lock} in the data directory {data_dir} is locked by another user's "
                f"process{f' (pid {owner_pid})' if owner_pid else ''}; contrascan does not "
                "wait for another user's lock",
                "pass --data-dir / --weaviate-url to use another store, or ask that user to "
                "release it",
            )
            return
        super().__init__(
            f"the data directory {data_dir} is in use by {owner}, whose Weaviate server does "
            "not answer",
            "wait for it to finish, or pass --data-dir / --weaviate-url to use another store",
        )


class StoreWriteError(ScannerError):
    """Weaviate rejected one or more writes.

    Attributes:
        failures: ``(object id, server message)`` for every rejected object.
        written: how many objects of the same call were stored.
    """

    def __init__(self, failures: Sequence[tuple[str, str]], written: int):
        self.failures = list(failures)
        self.written = written
        first = "; ".join(f"{oid}: {msg}" for oid, msg in self.failures[:3])
        more = f" (+{len(self.failures) - 3} more)" if len(self.failures) > 3 else ""
        super().__init__(
            f"Weaviate rejected {len(self.failures)} object(s), stored {written}: {first}{more}"
        )


class StoreDamaged(ScannerError):
    """A collection or a tenant that contrascan keeps is gone from the store. contrascan
    deletes neither (SPEC §3: "Nothing is deleted, ever"), so something else did, and what was in
    it is lost to every scan until it is restored.

    Attributes:
        collection: the collection's name.
        tenant: the tenant's name, or ``None`` when the whole collection is gone.
        evidence: how the loss is known, e.g. ``"this process saw it before"``.
    """

    def __init__(self, collection: str, tenant: str | None = None, *,
                 evidence: str = "this process saw it before"):
        self.collection = collection
        self.tenant = tenant
        self.evidence = evidence
        what = (f"tenant {tenant!r} of collection {collection}" if tenant is not None
                else f"collection {collection}")
        super().__init__(f"{what} is gone from Weaviate ({evidence}); contrascan never "
                         "deletes one, so it was deleted from outside: restore it from a "
                         "backup, then restart contrascan")

    def __reduce__(self) -> tuple:  # pickled by the scan workers (scanner.scan_workers)
        return (_store_damaged, (self.collection, self.tenant, self.evidence))


def _store_damaged(collection: str, tenant: str | None, evidence: str) -> StoreDamaged:
    return StoreDamaged(collection, tenant, evidence=evidence)


class UnknownMemory(ScannerError):
    """No memory with this id exists in the given tenant."""

    def __init__(self, memory_id: str, user_id: str | None = None):
        self.memory_id = memory_id
        self.user_id = user_id
        scope = f" for user {user_id!r}" if user_id else ""
        super().__init__(f"no memory with id {memory_id!r}{scope}")


class UnknownSource(ScannerError):
    """No attached source of this name is configured (``serve --sources FILE``).

    Attributes:
        name: the name asked for; known: the names configured, sorted.
    """

    def __init__(self, name: str, known: Sequence[str] = ()):
        self.name = name
        self.known = sorted(known)
        super().__init__(f"no source {name!r} (known: {', '.join(self.known) or 'none'})")


class SidecarError(ScannerError):
    """The HTTP sidecar answered a request with an error (raised by :mod:`scanner.client`).

    Attributes:
        status: the HTTP status code (``0`` when no answer arrived at all).
        code: the stable error code of the response body (``"validation_error"``,
            ``"unauthorized"``, …; ``"unreachable"`` when no answer arrived).
        detail: the body's human-readable message.
        fields: ``(field path, message)`` for each invalid field of a 422 answer.
    """

    def __init__(self, status: int, code: str, detail: str,
                 fields: Sequence[tuple[str, str]] = ()):
        self.status = status
        self.code = code
        self.detail = detail
        self.fields = list(fields)
        super().__init__(f"sidecar answered {status} {code}: {detail}" if status
                         else f"sidecar unreachable: {detail}")
