"""Request and response bodies of the sidecar (pydantic models: ``/openapi.json`` is the
contract)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StringConstraints,
    field_validator,
    model_validator,
)

from scanner.api.errors import ErrorDetail
from scanner.api.wire import Hit, ScanResponse  # noqa: F401  (re-exported)
from scanner.api.settings import (
    MAX_ID_CHARS,
    MAX_LIMIT,
    MAX_PROPERTIES,
    MAX_QUERY_CHARS,
    MAX_RECORDS,
    MAX_VECTOR_DIMENSIONS,
)
from scanner.core.ledger import LedgerEntry
from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.models import MemoryRecord, ScanReport

Id = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID_CHARS)]
PropertyText = Annotated[str, StringConstraints(max_length=MAX_ID_CHARS)]


class MemoryInput(MemoryRecord):
    """A SPEC §4 record as posted: :class:`~scanner.models.MemoryRecord` plus the ranges the
    store can hold.

    ``priority`` must round-trip through the store (:data:`scanner.models.MAX_SAFE_INTEGER`),
    and ``observed_at`` must stay a valid datetime once converted to UTC
    (``0001-01-01T00:00:00+01:00`` does not), so both are answered 422 instead of failing in
    the store.
    """

    @field_validator("observed_at", mode="wrap")
    @classmethod
    def _utc_in_range(cls, value: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(value)
        except OverflowError as err:
            raise ValueError("timestamp out of range once converted to UTC") from err


class ScanRequest(BaseModel):
    """``POST /v1/scan``: what the agent is about to answer, and its scope."""

    model_config = ConfigDict(extra="forbid")

    user_id: Id = Field(description="The scope's user: the only tenant read.")
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS,
                       description="What the agent is about to answer (BM25 text and the "
                                   "embedded query vector).")
    group: PropertyText | None = Field(None, description="Only memories of this group.")
    properties: dict[PropertyText, PropertyText] = Field(
        default_factory=dict, max_length=MAX_PROPERTIES,
        description="Only memories carrying all of these scope properties.")
    limit: int = Field(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT, strict=True,
                       description="Hits to scan (k).")
    alpha: float = Field(DEFAULT_ALPHA, ge=0.0, le=1.0, strict=True,
                         description="Hybrid weight: 0 = BM25 only, 1 = vector only.")
    apply: bool = Field(True, strict=True, description="Record the verdicts in the store (supersedes "
                                          "edges, status), as a batch scan does.")
    vector: list[Annotated[float, Field(allow_inf_nan=False, strict=True)]] | None = Field(
        None, min_length=1, max_length=MAX_VECTOR_DIMENSIONS,
        description="The query's embedding by the sidecar's model (all-MiniLM-L6-v2 by "
                    "default: 384 values), when the agent already has it; saves the "
                    "sidecar embedding the query. Scaling does not matter (cosine).")


class AddMemoriesRequest(BaseModel):
    """``POST /v1/memories``: records of one user, and whether to check them at once.

    A record's fields outside the record format (an export's ``created_at``, ``updated_at``,
    ``metadata``, ``hash``) are ignored, never a reason to refuse the memory, as
    ``contrascan scan-file`` and ``import`` ignore them; :attr:`ignored_fields` counts them
    by name and the response reports them. ``updated_at`` never becomes ``observed_at``.
    """

    model_config = ConfigDict(extra="forbid")

    user_id: Id = Field(description="The tenant written; every record must carry it.")
    records: list[MemoryInput] = Field(min_length=1, max_length=MAX_RECORDS)
    check: bool = Field(False, strict=True, description="Write-time check: scan the new records against "
                                           "stored memories sharing their keys and record "
                                           "the verdicts.")
    _ignored: dict[str, int] = PrivateAttr(default_factory=dict)

    @property
    def ignored_fields(self) -> dict[str, int]:
        """Fields outside the record format, by name, with the number of records that carried
        each (ignored). Set by the server, never by the client: a request that sends
        ``ignored_fields`` is refused like any other unknown field."""
        return self._ignored

    @model_validator(mode="wrap")
    @classmethod
    def _drop_foreign_fields(cls, data: Any, handler: Any) -> AddMemoriesRequest:
        ignored: dict[str, int] = {}
        if isinstance(data, dict) and isinstance(data.get("records"), list):
            known, records = set(MemoryInput.model_fields), []
            for record in data["records"]:
                if isinstance(record, dict) and not known.issuperset(record):
                    for name in record:
                        if name not in known:
                            ignored[name] = ignored.get(name, 0) + 1
                    record = {k: v for k, v in record.items() if k in known}
                records.append(record)
            data = {**data, "records": records}
        model = handler(data)
        model._ignored = ignored
        return model


class AddMemoriesResponse(BaseModel):
    """What was stored; the write-time report when ``check`` was asked for."""

    written: int = Field(description="Records stored now.")
    unchanged: int = Field(description="Records whose id was already stored (left as is).")
    differing: list[str] = Field(
        default_factory=list,
        description="Of those, the ids stored with another text or provenance: the stored "
                    "memory is kept (memories are never overwritten); post a correction "
                    "under a new id.")
    report: ScanReport | None = None
    ignored_fields: dict[str, int] = Field(
        default_factory=dict,
        description="Fields outside the record format that the records carried, by name, "
                    "with how many records carried each: ignored, never a reason to refuse "
                    "a memory.")


class BatchScanRequest(BaseModel):
    """``POST /v1/batch-scans``: the tenant to scan."""

    model_config = ConfigDict(extra="forbid")

    user_id: Id


class JobProgress(BaseModel):
    """Memories scanned so far, of ``total`` (counted when the job starts)."""

    done: int
    total: int | None = None


class BatchScanJob(BaseModel):
    """A batch-scan job; ``report`` is set once ``status`` is ``done``."""

    id: str
    user_id: str
    status: Literal["queued", "running", "done", "failed"]
    progress: JobProgress
    created_at: AwareDatetime
    started_at: AwareDatetime | None = None
    finished_at: AwareDatetime | None = None
    report: ScanReport | None = None
    error: ErrorDetail | None = None


class HistoryEntryModel(BaseModel):
    """One memory in a supersedes chain (see :class:`scanner.service.HistoryEntry`)."""

    id: str
    text: str
    values: list[str] = Field(description="Its triples as 'subject · relation · object'.")
    source: str | None
    source_class: str
    epoch: str | None
    observed_at: str | None = Field(description="ISO 8601, UTC.")
    status: str
    retired_rule: str | None
    supersedes: list[str]
    superseded_by: list[str]
    retired_by: str | None = Field(None, description="The memory whose verdict retired this "
                                                     "one (a winner or a re-observation).")
    ledger: list[str] = Field(default_factory=list,
                              description="Ids of the ledger entries about this memory.")


class HistoryResponse(BaseModel):
    """What changed around ``memory_id``, and why (issue 4): the memories linked to it by
    ``supersedes`` edges or ledger entries, oldest observation first; the ledger entries about
    them (verdicts with their rule, inputs and configuration; epoch changes; quarantines with
    their re-observation request; escalations; settlements), in the order they arose; and one
    readable line per memory and entry."""

    memory_id: str
    user_id: str
    collection: str | None = Field(None, description="Where the memories were read from: "
                                   "contrascan's memory collection, or an attached source's "
                                   "triple cache (`ContrascanSource<Name>`: the agent's "
                                   "objects as contrascan last read them).")
    chain: list[HistoryEntryModel]
    ledger: list[LedgerEntry] = Field(default_factory=list)
    story: list[str] = Field(default_factory=list)


class ImportConflicts(BaseModel):
    """The conflicts one import introduced (:class:`scanner.core.ledger_stats.ImportRate`)."""

    user_id: str
    imported_at: str = Field(description="ISO 8601, UTC: when the import wrote.")
    memories: int = Field(description="Memories the import wrote.")
    conflicts: int = Field(description="Conflicts whose newest member came with it.")
    rate: float = Field(description="conflicts / memories (0 without memories).")


class StatsResponse(BaseModel):
    """``GET /v1/stats``: the document ``contrascan stats --json`` prints
    (:meth:`scanner.core.ledger_stats.Stats.to_json_dict`), counted as the ledger records
    conflicts (:class:`~scanner.core.ledger_stats.Stats`)."""

    users: list[str] = Field(description="The users counted.")
    conflicts: int = Field(description="Conflicts recorded (every conflict entry type).")
    by_relation: dict[str, int]
    by_verdict: dict[str, int]
    by_rule: dict[str, int]
    open: int = Field(description="Quarantines, epoch changes, escalations and possible "
                                  "pairs not settled.")
    settled: int = Field(description="Conflicts settled by a later re-observation.")
    moot: int = Field(description="Conflicts nothing settles whose member the settlement of "
                                  "another retired.")
    imports: list[ImportConflicts]
    read_scans: int = Field(description="Read-time scans recorded.")
    read_scans_with_conflict: int = Field(description="Those whose hits held incompatible "
                                                      "values for one key.")
    read_scan_conflict_share: float | None = Field(
        description="read_scans_with_conflict / read_scans in [0, 1]; null without scans.")


class HealthResponse(BaseModel):
    """``ready`` while Weaviate answers and holds every collection and tenant the sidecar has
    seen."""

    status: Literal["ready", "unavailable"]
    weaviate: bool = Field(description="Whether the last check (at most a second ago) passed.")
    problem: str | None = Field(None, description="Why not, when known: e.g. a collection or "
                                                  "tenant deleted from outside contrascan.")

