"""The HTTP sidecar (SPEC §6): what an agent calls before it answers.

:func:`create_app` builds a FastAPI app over one :class:`scanner.service.Service`:

==========================================  ==============================================
``POST /v1/scan``                           read-time scan: scoped hybrid search, then the
                                            SPEC §5 report over the hits (stored triples;
                                            nothing is re-parsed) plus the hits and scores
``POST /v1/memories``                       add records (validated, triples extracted,
                                            embedded, stored); ``check`` scans them against
                                            their keys right away (write-time check)
``POST /v1/batch-scans``                    start a batch scan of one tenant (202 + job id)
``GET /v1/batch-scans/{job_id}``            the job's progress and, when done, its report
``GET /v1/memories/{memory_id}/history``    the ``supersedes`` chain through a memory
``GET|POST /v1/reviews``, ``/review``       open entries and a person's decisions on them
                                            (:mod:`scanner.review.web`)
``GET /healthz``                            200 only while Weaviate answers (checked each
                                            second off the request path), else 503
``GET /metrics``                            Prometheus text format
``GET /openapi.json``, ``GET /docs``        the contract
==========================================  ==============================================

Request and response bodies are pydantic models (SPEC §4 :class:`~scanner.models.MemoryRecord`,
SPEC §5 :class:`~scanner.models.ScanReport`), so ``/openapi.json`` is the contract.

Security:

* an optional API key, read from ``$CONTRASCAN_API_KEY`` (:meth:`ApiSettings.from_env`), sent
  as the ``X-API-Key`` header and compared with :func:`hmac.compare_digest` (constant time);
  it guards ``/v1/*``; ``/healthz``, ``/metrics`` and the OpenAPI document stay open for
  probes and scrapers;
* tenant isolation: every ``/v1`` request names one ``user_id`` and reads or writes only that
  user's Weaviate tenant; ``group`` and ``properties`` are filters *inside* the tenant, so a
  forged scope can narrow a search but never widen it to another user; records posted under
  one ``user_id`` must all carry it; a job or a history is found only under its own user;
* caps: the request body (:attr:`ApiSettings.max_body_bytes`, 413), ``limit``
  (:data:`MAX_LIMIT`), records per request (:data:`MAX_RECORDS`), query length
  (:data:`MAX_QUERY_CHARS`) and memory text (:data:`scanner.models.MAX_TEXT_CHARS`);
* every error is ``{"error": {"code", "message", "fields"}}`` with a stable
  :class:`ErrorCode`; tracebacks go to the server log, never into a response.

The service is thread-safe (:class:`scanner.service.Service`); endpoints are plain functions
that FastAPI runs in its worker threads, and batch scans run in a separate executor, so a job
outlives the request (and the client connection) that started it.
"""

from __future__ import annotations

import enum
import gc
import hmac
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.routing import APIRouter
from fastapi.security import APIKeyHeader
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    StringConstraints,
    field_validator,
)
from starlette.exceptions import HTTPException as StarletteHTTPException

from scanner.errors import (
    ConfigurationError,
    RecordError,
    ScannerError,
    StoreWriteError,
    UnknownMemory,
    WeaviateUnavailable,
)
from scanner.backpressure import DEFAULT_MAX_IN_FLIGHT, InFlightLimit
from scanner.health import ReadinessMonitor
from scanner.embeddings import unit_vector
from scanner.ledger import LedgerEntry
from scanner.models import MemoryRecord, ScanReport

if TYPE_CHECKING:
    from scanner.service import Service

logger = logging.getLogger("scanner.api")

API_KEY_ENV = "CONTRASCAN_API_KEY"
"""Env var holding the sidecar's API key; unset or empty = no key required."""
API_KEY_HEADER = "X-API-Key"
"""Request header that carries the API key."""
DEFAULT_PORT = 8765
"""Port of ``contrascan serve`` (and the client's default base URL)."""
DEFAULT_LIMIT = 12
"""Hits per read-time scan; equals :data:`scanner.service.DEFAULT_LIMIT` (seed 004)."""
DEFAULT_ALPHA = 0.5
"""Hybrid weight (0 = BM25 only, 1 = vector only); equals :data:`scanner.service.DEFAULT_ALPHA`."""
MAX_LIMIT = 100
"""Largest ``limit`` of a read-time scan: the scan reads every hit's triples."""
MAX_QUERY_CHARS = 2_000
"""Longest query, in characters (a question, not a document)."""
MAX_RECORDS = 500
"""Most records per ``POST /v1/memories``; bulk imports go through ``contrascan import``."""
MAX_ID_CHARS = 256
"""Longest ``user_id``, memory id, group or job id, in characters (as in SPEC §4 records)."""
MAX_PROPERTIES = 32
"""Most scope properties in one request."""
MAX_VECTOR_DIMENSIONS = 4_096
"""Longest query vector accepted before its length is checked against the model's."""
DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024
"""Default cap on a request body, in bytes."""
_DRAIN_BYTES = 64 * 1024 * 1024
"""An oversized body is read and discarded up to this many bytes before the 413 answer (so
the client, still sending, gets the answer instead of a reset connection); beyond it the
connection is answered at once."""
_LATENCY_BUCKETS_S = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.02, 0.025, 0.03,
                      0.04, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Histogram buckets, in seconds: fine around the 5-50 ms of a read-time scan."""

Id = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID_CHARS)]
PropertyText = Annotated[str, StringConstraints(max_length=MAX_ID_CHARS)]


# --------------------------------------------------------------------------- errors


class ErrorCode(str, enum.Enum):
    """Stable error codes of the sidecar, with the HTTP status each comes with."""

    validation_error = "validation_error"  # 422: a field is missing or invalid
    request_too_large = "request_too_large"  # 413: body over ApiSettings.max_body_bytes
    unauthorized = "unauthorized"  # 401: API key missing or wrong
    not_found = "not_found"  # 404: no such route
    method_not_allowed = "method_not_allowed"  # 405
    unknown_memory = "unknown_memory"  # 404: no such memory for that user
    unknown_job = "unknown_job"  # 404: no such batch-scan job for that user
    too_many_jobs = "too_many_jobs"  # 429: ApiSettings.max_jobs jobs queued or running
    http_error = "http_error"  # other 4xx from the HTTP layer
    not_ready = "not_ready"  # 503: the service has not started (or is stopping)
    weaviate_unavailable = "weaviate_unavailable"  # 503: Weaviate does not answer
    store_write_failed = "store_write_failed"  # 502: Weaviate rejected some writes
    store_error = "store_error"  # 502: Weaviate failed a request
    configuration_error = "configuration_error"  # 500: a setting or table is invalid
    internal_error = "internal_error"  # 500: a bug; the traceback is in the server log


class ErrorField(BaseModel):
    """One invalid field of a request."""

    field: str = Field(description="Dotted path in the request, e.g. records.0.observed_at; "
                                   "'body' for a body that is not JSON at all.")
    message: str
    type: str = Field(description="Machine-readable reason (pydantic's error type).")


class ErrorDetail(BaseModel):
    """What went wrong."""

    code: ErrorCode
    message: str = Field(description="For a person; names the field for 422 answers.")
    fields: list[ErrorField] = Field(default_factory=list)


class ErrorResponse(BaseModel):
    """Body of every error answer."""

    error: ErrorDetail


class _Problem(Exception):
    """An HTTP answer other than success, raised inside the app and rendered by a handler."""

    def __init__(self, status: int, code: ErrorCode, message: str,
                 fields: list[ErrorField] | None = None, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields or []
        self.headers = dict(headers or {})


def _error_response(status: int, code: ErrorCode, message: str,
                    fields: list[ErrorField] | None = None,
                    headers: Mapping[str, str] | None = None) -> JSONResponse:
    body = ErrorResponse(error=ErrorDetail(code=code, message=message, fields=fields or []))
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def _field_path(loc: tuple | list) -> str:
    parts = list(loc)
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:] if len(parts) > 1 else parts
    return ".".join(str(p) for p in parts)


def _invalid(field_path: tuple, message: str, kind: str = "value_error") -> RequestValidationError:
    """A 422 naming one field, in the shape pydantic would have reported it."""
    return RequestValidationError([{"loc": ("body", *field_path), "msg": message, "type": kind}])


def _validation_fields(errors: list[dict[str, Any]]) -> list[ErrorField]:
    out = []
    for err in errors:
        if err.get("type") == "json_invalid":
            path = "body"
        else:
            path = _field_path(err.get("loc", ()))
        message = str(err.get("msg", "invalid"))
        if err.get("type") == "timezone_aware":
            message = "naive timestamp: give a UTC offset such as 'Z' or '+00:00' (SPEC §4)"
        out.append(ErrorField(field=path, message=message, type=str(err.get("type", "invalid"))))
    return out


_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "API key missing or wrong (`unauthorized`)."},
    413: {"model": ErrorResponse, "description": "Body too large (`request_too_large`)."},
    422: {"model": ErrorResponse, "description": "Invalid field (`validation_error`); the "
                                                 "message and `fields` name it. A body that "
                                                 "is not JSON is 422 too, on field `body`; "
                                                 "numbers and booleans are never coerced "
                                                 "from strings."},
    500: {"model": ErrorResponse, "description": "`internal_error`, `configuration_error`."},
    502: {"model": ErrorResponse, "description": "`store_write_failed`, `store_error`."},
    503: {"model": ErrorResponse, "description": "`not_ready`, `weaviate_unavailable`."},
}


# --------------------------------------------------------------------------- settings


class ApiSettings(BaseModel):
    """Limits and the API key of one app.

    Attributes:
        api_key: required in ``X-API-Key`` on ``/v1/*`` when set.
        max_body_bytes: largest request body, in bytes (413 beyond it).
        max_limit: largest ``limit`` of a read-time scan, ≤ :data:`MAX_LIMIT`.
        max_records: most records per ``POST /v1/memories``, ≤ :data:`MAX_RECORDS`.
        max_jobs: most batch-scan jobs kept; also the most queued or running at once (429).
        batch_workers: batch scans run at the same time (each reads a whole tenant).
        max_in_flight: ``/v1/`` requests handled at once; more get 503 with ``Retry-After``
            (:mod:`scanner.backpressure`).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    api_key: SecretStr | None = None
    max_body_bytes: int = Field(DEFAULT_MAX_BODY_BYTES, ge=1024)
    max_limit: int = Field(MAX_LIMIT, ge=1, le=MAX_LIMIT)
    max_records: int = Field(MAX_RECORDS, ge=1, le=MAX_RECORDS)
    max_jobs: int = Field(64, ge=1, le=10_000)
    batch_workers: int = Field(1, ge=1, le=8)
    max_in_flight: int = Field(DEFAULT_MAX_IN_FLIGHT, ge=1, le=10_000)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ApiSettings:
        """Settings with the API key from ``$CONTRASCAN_API_KEY`` (empty = none).

        Raises:
            pydantic.ValidationError: an override is out of range.
        """
        env = os.environ if environ is None else environ
        key = env.get(API_KEY_ENV) or None
        return cls(**{"api_key": SecretStr(key) if key else None, **overrides})


# --------------------------------------------------------------------------- wire models


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


class Hit(BaseModel):
    """One search hit, best first."""

    id: str
    score: float | None = Field(description="Fused hybrid score in [0, 1] (relative-score "
                                            "fusion), higher = better.")
    status: str = Field(description="'active', 'superseded' or 'unresolved' as stored before "
                                    "this scan.")
    memory: MemoryRecord


class ScanResponse(ScanReport):
    """The SPEC §5 report over the hits, plus the hits themselves."""

    hits: list[Hit] = Field(default_factory=list)


class AddMemoriesRequest(BaseModel):
    """``POST /v1/memories``: records of one user, and whether to check them at once."""

    model_config = ConfigDict(extra="forbid")

    user_id: Id = Field(description="The tenant written; every record must carry it.")
    records: list[MemoryInput] = Field(min_length=1, max_length=MAX_RECORDS)
    check: bool = Field(False, strict=True, description="Write-time check: scan the new records against "
                                           "stored memories sharing their keys and record "
                                           "the verdicts.")


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
    chain: list[HistoryEntryModel]
    ledger: list[LedgerEntry] = Field(default_factory=list)
    story: list[str] = Field(default_factory=list)


class HealthResponse(BaseModel):
    """``ready`` while Weaviate answers."""

    status: Literal["ready", "unavailable"]
    weaviate: bool


# --------------------------------------------------------------------------- metrics


class SidecarMetrics:
    """Prometheus metrics of one app, in their own registry (two apps never collide).

    * ``contrascan_http_request_duration_seconds{method,route,status}``: histogram of the
      whole request, middleware included;
    * ``contrascan_scans_total{kind}``, ``contrascan_scans_with_conflicts_total{kind}``,
      ``contrascan_memories_scanned_total{kind}`` with ``kind`` in ``read_time``,
      ``write_time``, ``batch``;
    * ``contrascan_conflicts_total{kind,verdict}``;
    * ``contrascan_conflict_rate{kind}``: scans with at least one conflict / scans, since
      start-up, in [0, 1] (windowed rates: divide the two counters in PromQL);
    * ``contrascan_scan_duration_seconds{kind}``: service time (search, scan, verdict writes);
    * ``contrascan_memories_written_total``, ``contrascan_batch_jobs{status}``.
    """

    def __init__(self, registry: CollectorRegistry | None = None):
        self.registry = registry or CollectorRegistry()
        r = self.registry
        self.requests = Histogram("contrascan_http_request_duration_seconds",
                                  "HTTP request latency, seconds.", ["method", "route", "status"],
                                  buckets=_LATENCY_BUCKETS_S, registry=r)
        self.scans = Counter("contrascan_scans", "Scans run.", ["kind"], registry=r)
        self.scans_with_conflicts = Counter("contrascan_scans_with_conflicts",
                                            "Scans that found at least one conflict.", ["kind"],
                                            registry=r)
        self.memories_scanned = Counter("contrascan_memories_scanned", "Memories scanned.",
                                        ["kind"], registry=r)
        self.conflicts = Counter("contrascan_conflicts", "Conflicting pairs found, by verdict.",
                                 ["kind", "verdict"], registry=r)
        self.conflict_rate = Gauge("contrascan_conflict_rate",
                                   "Share of scans with at least one conflict since start-up.",
                                   ["kind"], registry=r)
        self.scan_seconds = Histogram("contrascan_scan_duration_seconds",
                                      "Service time of a scan, seconds.", ["kind"],
                                      buckets=_LATENCY_BUCKETS_S, registry=r)
        self.memories_written = Counter("contrascan_memories_written",
                                        "Memories stored through the sidecar.", registry=r)
        self.jobs = Gauge("contrascan_batch_jobs", "Batch-scan jobs kept, by status.",
                          ["status"], registry=r)
        self._lock = threading.Lock()
        self._counts: dict[str, list[int]] = {}

    def observe_scan(self, kind: str, report: ScanReport, seconds: float) -> None:
        """Count one scan and its conflicts; ``seconds`` is its service time."""
        self.scans.labels(kind).inc()
        self.scan_seconds.labels(kind).observe(seconds)
        self.memories_scanned.labels(kind).inc(report.scanned)
        for c in report.conflicts:
            self.conflicts.labels(kind, c.verdict).inc()
        if report.conflicts:
            self.scans_with_conflicts.labels(kind).inc()
        with self._lock:
            counts = self._counts.setdefault(kind, [0, 0])
            counts[0] += 1
            counts[1] += bool(report.conflicts)
            self.conflict_rate.labels(kind).set(counts[1] / counts[0])


# --------------------------------------------------------------------------- middleware


class _BodyLimit:
    """Pure ASGI middleware: answer 413 to bodies over ``max_bytes`` (declared or streamed).

    The body is buffered (the endpoints read all of it anyway) and replayed to the app.
    """

    def __init__(self, app: Any, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = None
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                declared = value
        too_large = _error_response(
            413, ErrorCode.request_too_large,
            f"request body over {self.max_bytes} bytes", headers={"Connection": "close"})
        if declared is not None:
            if not declared.isdigit():
                await _error_response(400, ErrorCode.http_error, "bad Content-Length")(
                    scope, receive, send)
                return
            if int(declared) > self.max_bytes:
                if int(declared) <= _DRAIN_BYTES:
                    await _drain(receive)
                await too_large(scope, receive, send)
                return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                if more:
                    await _drain(receive)
                await too_large(scope, receive, send)
                return
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _drain(receive: Callable) -> None:
    seen = 0
    while seen <= _DRAIN_BYTES:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        seen += len(message.get("body", b""))
        if not message.get("more_body", False):
            return


class _RequestMetrics:
    """Pure ASGI middleware: the request latency histogram, by method, route template and
    status (unmatched paths share one label, so label cardinality stays bounded)."""

    _METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})

    def __init__(self, app: Any, metrics: SidecarMetrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: dict) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = getattr(scope.get("route"), "path", None) or "<unmatched>"
            method = scope["method"] if scope["method"] in self._METHODS else "OTHER"
            self.metrics.requests.labels(method, route, str(status)).observe(
                time.perf_counter() - started)


# --------------------------------------------------------------------------- batch jobs


@dataclass
class _Job:
    id: str
    user_id: str
    created_at: datetime
    status: str = "queued"
    done: int = 0
    total: int | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    report: ScanReport | None = None
    error: ErrorDetail | None = None

    def snapshot(self) -> BatchScanJob:
        return BatchScanJob(id=self.id, user_id=self.user_id, status=self.status,  # type: ignore[arg-type]
                            progress=JobProgress(done=self.done, total=self.total),
                            created_at=self.created_at, started_at=self.started_at,
                            finished_at=self.finished_at, report=self.report, error=self.error)


@dataclass
class _Jobs:
    """Batch-scan jobs, run in their own executor: independent of any request or connection."""

    executor: ThreadPoolExecutor
    metrics: SidecarMetrics
    max_jobs: int
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _jobs: OrderedDict[str, _Job] = field(default_factory=OrderedDict)

    def submit(self, service: Service, user_id: str) -> BatchScanJob:
        with self._lock:
            active = sum(j.status in ("queued", "running") for j in self._jobs.values())
            if active >= self.max_jobs:
                raise _Problem(429, ErrorCode.too_many_jobs,
                               f"{active} batch scans are queued or running; retry later")
            job = _Job(id=uuid.uuid4().hex, user_id=user_id, created_at=_now())
            self._jobs[job.id] = job
            finished = [j.id for j in self._jobs.values() if j.status in ("done", "failed")]
            for old in finished[:max(0, len(self._jobs) - self.max_jobs)]:
                del self._jobs[old]
            snapshot = job.snapshot()
            self._count()
        self.executor.submit(self._run, service, job)
        return snapshot

    def get(self, job_id: str, user_id: str) -> BatchScanJob | None:
        with self._lock:
            job = self._jobs.get(job_id)
            return job.snapshot() if job is not None and job.user_id == user_id else None

    def _update(self, job: _Job, **changes: Any) -> None:
        with self._lock:
            for name, value in changes.items():
                setattr(job, name, value)
            self._count()

    def _count(self) -> None:
        for status in ("queued", "running", "done", "failed"):
            self.metrics.jobs.labels(status).set(
                sum(j.status == status for j in self._jobs.values()))

    def _run(self, service: Service, job: _Job) -> None:
        self._update(job, status="running", started_at=_now())
        try:
            total = service.store.count(job.user_id)
            self._update(job, total=total)

            def advance(n: int) -> None:
                self._update(job, done=job.done + n)

            started = time.perf_counter()
            report = service.batch_scan(job.user_id, progress=advance)
            self.metrics.observe_scan("batch", report, time.perf_counter() - started)
            self._update(job, status="done", report=report, finished_at=_now())
        except Exception as err:  # noqa: BLE001 - a job records its failure instead of dying
            status, code, message = _classify(err)
            if status >= 500 and code is ErrorCode.internal_error:
                logger.exception("batch scan %s of user %r failed", job.id, job.user_id)
            self._update(job, status="failed", finished_at=_now(),
                         error=ErrorDetail(code=code, message=message))


def _now() -> datetime:
    return datetime.now(timezone.utc)


# --------------------------------------------------------------------------- the app


def _classify(err: BaseException) -> tuple[int, ErrorCode, str]:
    """HTTP status, code and message for an exception raised by the service."""
    if isinstance(err, UnknownMemory):
        return 404, ErrorCode.unknown_memory, str(err)
    if isinstance(err, WeaviateUnavailable):
        return 503, ErrorCode.weaviate_unavailable, str(err)
    if isinstance(err, StoreWriteError):
        return 502, ErrorCode.store_write_failed, str(err)
    if isinstance(err, RecordError):
        return 422, ErrorCode.validation_error, str(err)
    if isinstance(err, ConfigurationError):
        return 500, ErrorCode.configuration_error, str(err)
    if isinstance(err, ScannerError):
        return 500, ErrorCode.internal_error, str(err)
    if type(err).__module__.split(".")[0] == "weaviate":
        # the store module wraps what it expects; anything else from the client is the
        # store failing a request (an outage shows up as WeaviateUnavailable or here)
        return 502, ErrorCode.store_error, f"Weaviate failed the request ({type(err).__name__})"
    return 500, ErrorCode.internal_error, "internal error; the traceback is in the server log"


def _service(request: Request) -> Service:
    service = getattr(request.app.state, "service", None)
    if service is None or not getattr(request.app.state, "started", False):
        raise _Problem(503, ErrorCode.not_ready, "the service is not started")
    return service


_api_key_scheme = APIKeyHeader(name=API_KEY_HEADER, auto_error=False,
                               description=f"Required when the server sets ${API_KEY_ENV}.")


async def _authorize(request: Request,
                     key: Annotated[str | None, Security(_api_key_scheme)] = None) -> None:
    # async: FastAPI runs a plain-def dependency in its thread pool, a thread hop per request
    # for a constant-time comparison
    settings: ApiSettings = request.app.state.settings
    if settings.api_key is None:
        return
    expected = settings.api_key.get_secret_value().encode("utf-8")
    given = (key or "").encode("utf-8", "surrogateescape")
    if not hmac.compare_digest(given, expected):
        raise _Problem(401, ErrorCode.unauthorized,
                       f"missing or wrong API key (header {API_KEY_HEADER})",
                       headers={"WWW-Authenticate": API_KEY_HEADER})


def _json(model: BaseModel, status: int = 200, headers: Mapping[str, str] | None = None
          ) -> Response:
    """Serialise a response model once (FastAPI would validate it again), aliases applied."""
    return Response(model.model_dump_json(by_alias=True), status_code=status,
                    media_type="application/json", headers=headers)


def _server_timing(timings: Mapping[str, float]) -> str:
    """The W3C ``Server-Timing`` header value: one metric per stage, durations in ms."""
    return ", ".join(f"{name};dur={seconds * 1e3:.3f}" for name, seconds in timings.items())


def _warm_up(service: Service) -> None:
    """Load the spaCy pipeline and the embedding model now, not on the first request."""
    service.engine.extract([MemoryRecord(id="warm-up", text="The glaze is celadon.",
                                         user_id="warm-up")])
    service.embedder.encode(["warm-up"])


def create_app(service: Service | None = None, *,
               service_factory: Callable[[], AbstractContextManager[Service]] | None = None,
               settings: ApiSettings | None = None, warm_up: bool = True,
               sources: Mapping[str, Any] | None = None) -> FastAPI:
    """The sidecar app over one service.

    Args:
        service: a ready service (the caller owns its Weaviate client), or
        service_factory: a context manager factory opened at start-up and closed at shutdown
            (e.g. ``scanner.cli._open_service``); exactly one of the two.
        settings: limits and the API key; default :meth:`ApiSettings.from_env`.
        warm_up: load the spaCy pipeline and the embedding model at start-up.
        sources: attached sources by name (:class:`scanner.sources.mapping.SourceMapping`),
            served under ``/v1/sources/{name}/…`` (:mod:`scanner.sources.http`).

    Returns:
        The FastAPI app. Start-up (the lifespan, run by uvicorn or ``with TestClient(app)``)
        opens the service, warms it up and starts the batch-scan executor; shutdown waits for
        running batch scans, cancels queued ones and closes what the factory opened.

    Raises:
        ConfigurationError: neither or both of ``service`` and ``service_factory``.
    """
    if (service is None) == (service_factory is None):
        raise ConfigurationError("create_app", "pass exactly one of service, service_factory")
    settings = settings or ApiSettings.from_env()
    metrics = SidecarMetrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        with ExitStack() as stack:
            opened = service if service is not None else stack.enter_context(service_factory())
            if not getattr(app.state, "store_metrics_registered", False):
                # the process-wide scan counters and the store's ledger statistics
                # (scanner.metrics), next to this app's own request metrics
                from scanner import metrics as process_metrics

                process_metrics.register(metrics.registry, opened)
                app.state.store_metrics_registered = True
            if warm_up:
                _warm_up(opened)
            # Move what start-up built (spaCy, torch, the model: millions of objects) out of
            # the collector's reach ("gc.freeze", Python docs): a full collection then walks
            # only what requests create, instead of stopping every thread for seconds
            # (issue 18: /healthz p99 2.1 s at 200 clients).
            gc.collect()
            gc.freeze()
            executor = ThreadPoolExecutor(max_workers=settings.batch_workers,
                                          thread_name_prefix="contrascan-batch")
            stack.callback(executor.shutdown, wait=True, cancel_futures=True)
            app.state.service = opened
            readiness = ReadinessMonitor(opened.store.ready)  # /healthz never waits on Weaviate
            readiness.start()
            stack.callback(readiness.stop)
            app.state.readiness = readiness
            app.state.jobs = _Jobs(executor=executor, metrics=metrics,
                                   max_jobs=settings.max_jobs)
            app.state.started = True
            try:
                yield
            finally:
                app.state.started = False

    app = FastAPI(title="contrascan sidecar", version=_version(), lifespan=lifespan,
                  description="Contradiction scans for agent memory kept in Weaviate: call "
                              "`POST /v1/scan` before answering (SPEC §6).")
    app.state.settings = settings
    app.state.metrics = metrics
    app.state.service = service
    app.state.started = False
    # outermost last: metrics see every answer; the body is read before admission, so a
    # client slow to send it (cut off after the server's body timeout, scanner.serving)
    # never holds one of the few places in flight
    app.add_middleware(InFlightLimit, max_in_flight=settings.max_in_flight)
    app.add_middleware(_BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(_RequestMetrics, metrics=metrics)
    _add_error_handlers(app)

    v1 = APIRouter(prefix="/v1", dependencies=[Security(_authorize)],
                   responses=_ERROR_RESPONSES)

    @v1.post("/scan", response_model=ScanResponse, tags=["scan"])
    def scan(body: ScanRequest, request: Request) -> Response:
        """Read-time scan: scoped hybrid search, then the SPEC §5 report over the hits.

        `cite` = safe to use as current, `withhold` = superseded, `unresolved` = members of
        quarantined, epoch-change and escalated pairs. Stored triples are used; nothing is
        re-parsed. Only the tenant of `user_id` is searched.
        """
        if body.limit > settings.max_limit:
            raise _invalid(("limit",), f"Input should be less than or equal to "
                                       f"{settings.max_limit}", "less_than_equal")
        svc = _service(request)
        vector = None
        if body.vector is not None:
            dimensions = svc.embedder.dimensions
            if len(body.vector) != dimensions:
                raise _invalid(("vector",), f"the query vector must have {dimensions} values "
                                            f"(the sidecar's embedding model), got "
                                            f"{len(body.vector)}")
            try:
                vector = unit_vector(body.vector, dimensions)
            except ValueError as err:
                raise _invalid(("vector",), str(err)) from None
        started = time.perf_counter()
        result = svc.scan(body.user_id, body.query, group=body.group,
                          properties=body.properties, limit=body.limit, alpha=body.alpha,
                          apply=body.apply, vector=vector)
        metrics.observe_scan("read_time", result.report, time.perf_counter() - started)
        hits = [Hit(id=h.record.id, score=h.score, status=h.status, memory=h.record)
                for h in result.hits]
        return _json(ScanResponse.model_construct(**dict(result.report), hits=hits),
                     headers={"Server-Timing": _server_timing(result.timings)})

    @v1.post("/memories", response_model=AddMemoriesResponse, tags=["memories"])
    def add_memories(body: AddMemoriesRequest, request: Request) -> Response:
        """Add records of one user: provenance validated, triples extracted, embedded, stored.

        Ids already stored are left as they are (`unchanged`). With `check`, the new records
        are scanned at once against stored memories sharing their keys, the verdicts are
        recorded and the report is returned.
        """
        if len(body.records) > settings.max_records:
            raise _invalid(("records",), f"List should have at most {settings.max_records} "
                                         "items", "too_long")
        seen: set[str] = set()
        for i, record in enumerate(body.records):
            if record.user_id != body.user_id:
                raise _invalid(("records", i, "user_id"),
                               f"record user_id {record.user_id!r} differs from the request's "
                               f"user_id {body.user_id!r}: one request writes one tenant")
            if record.id in seen:
                raise _invalid(("records", i, "id"), f"duplicate id {record.id!r}")
            seen.add(record.id)
        svc = _service(request)
        started = time.perf_counter()
        result, report = svc.add_memories(body.records, check=body.check)
        if report is not None:
            metrics.observe_scan("write_time", report, time.perf_counter() - started)
        metrics.memories_written.inc(result.written)
        if result.failures:
            index = {r.id: i for i, r in enumerate(body.records)}
            raise _Problem(502, ErrorCode.store_write_failed,
                           f"Weaviate rejected {len(result.failures)} of {len(body.records)} "
                           f"records ({result.written} stored, {result.unchanged} unchanged); "
                           "posting them again is safe",
                           [ErrorField(field=f"records.{index.get(mid, '?')}", message=msg,
                                       type="store_rejected") for mid, msg in result.failures])
        return _json(AddMemoriesResponse(written=result.written, unchanged=result.unchanged,
                                         differing=result.differing,
                                         report=report))

    @v1.post("/batch-scans", status_code=202, response_model=BatchScanJob, tags=["batch"],
             responses={429: {"model": ErrorResponse, "description": "`too_many_jobs`."}})
    def start_batch_scan(body: BatchScanRequest, request: Request) -> Response:
        """Start a batch scan of one tenant; poll `GET /v1/batch-scans/{job_id}`.

        The job runs in the server, independent of this request: closing the connection does
        not stop it.
        """
        svc = _service(request)
        job = request.app.state.jobs.submit(svc, body.user_id)
        return _json(job, 202, headers={"Location": f"/v1/batch-scans/{job.id}"})

    @v1.get("/batch-scans/{job_id}", response_model=BatchScanJob, tags=["batch"],
            responses={404: {"model": ErrorResponse, "description": "`unknown_job`."}})
    def batch_scan_status(
        request: Request,
        job_id: Annotated[str, Path(min_length=1, max_length=64)],
        user_id: Annotated[str, Query(min_length=1, max_length=MAX_ID_CHARS,
                                      description="The user the job scans.")],
    ) -> Response:
        """Progress of a batch scan and, once `done`, its report."""
        _service(request)
        job = request.app.state.jobs.get(job_id, user_id)
        if job is None:
            raise _Problem(404, ErrorCode.unknown_job,
                           f"no batch-scan job {job_id!r} for user {user_id!r}")
        return _json(job)

    @v1.get("/memories/{memory_id:path}/history", response_model=HistoryResponse,
            tags=["memories"],
            responses={404: {"model": ErrorResponse, "description": "`unknown_memory`."}})
    def history(
        request: Request,
        memory_id: Annotated[str, Path(min_length=1, max_length=MAX_ID_CHARS)],
        user_id: Annotated[str, Query(min_length=1, max_length=MAX_ID_CHARS,
                                      description="The memory's user.")],
    ) -> Response:
        """What changed around a memory, and why: the supersedes chain and the ledger —
        each value with its source, source class, epoch and observed_at, the rule and the
        memory that retired it, the ledger entries, and a readable story."""
        report = _service(request).history_report(memory_id, user_id)
        return _json(HistoryResponse(
            memory_id=memory_id, user_id=user_id,
            chain=[HistoryEntryModel.model_validate(e.to_dict()) for e in report.chain],
            ledger=report.ledger, story=report.story))

    app.include_router(v1)
    if sources:
        from scanner.sources.http import source_router

        app.include_router(source_router(sources), dependencies=[Security(_authorize)],
                           responses=_ERROR_RESPONSES)

    from scanner.review.web import install_review  # the review page and /v1/reviews

    install_review(app, settings)

    @app.get("/healthz", response_model=HealthResponse, tags=["operations"],
             responses={503: {"model": HealthResponse, "description": "Weaviate does not "
                                                                       "answer."}})
    async def healthz(request: Request) -> Response:
        """Ready (200) only while the service is started and Weaviate answers; else 503."""
        # Weaviate's readiness as checked in the background at most a second ago
        # (scanner.health): the probe never waits behind scans, nor on a busy Weaviate
        readiness = getattr(request.app.state, "readiness", None)
        ok = bool(request.app.state.started and readiness is not None and readiness.ready)
        return _json(HealthResponse(status="ready" if ok else "unavailable", weaviate=ok),
                     200 if ok else 503)

    @app.get("/metrics", response_class=PlainTextResponse, tags=["operations"],
             responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                              "description": "Prometheus text exposition format."}})
    async def metrics_endpoint() -> Response:
        """Prometheus metrics (see :class:`SidecarMetrics`)."""
        # on the event loop: a few ms of counters and cached figures (scanner.metrics never
        # computes in the scrape), so no wait for a worker thread behind scans
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return app


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        fields = _validation_fields(list(err.errors()))
        first = fields[0] if fields else ErrorField(field="body", message="invalid", type="invalid")
        more = f" (+{len(fields) - 1} more)" if len(fields) > 1 else ""
        return _error_response(422, ErrorCode.validation_error,
                               f"{first.field}: {first.message}{more}", fields)

    @app.exception_handler(_Problem)
    async def on_problem(request: Request, err: _Problem) -> JSONResponse:
        return _error_response(err.status, err.code, err.message, err.fields, err.headers)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, err: StarletteHTTPException) -> JSONResponse:
        code = {404: ErrorCode.not_found, 405: ErrorCode.method_not_allowed}.get(
            err.status_code, ErrorCode.http_error)
        return _error_response(err.status_code, code, str(err.detail),
                               headers=getattr(err, "headers", None))

    @app.exception_handler(ScannerError)
    async def on_scanner_error(request: Request, err: ScannerError) -> JSONResponse:
        status, code, message = _classify(err)
        if status >= 500:
            logger.error("%s %s: %s", request.method, request.url.path, err)
        return _error_response(status, code, message)

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, err: Exception) -> JSONResponse:
        # Starlette's ServerErrorMiddleware calls this, then re-raises for the server log.
        status, code, message = _classify(err)
        return _error_response(status, code, message)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("contrascan")
    except PackageNotFoundError:
        return "0+unknown"
