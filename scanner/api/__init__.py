"""The HTTP sidecar (SPEC §6): what an agent calls before it answers.

:func:`create_app` (:mod:`scanner.api.app`) builds a FastAPI app over one
:class:`scanner.service.Service`; the routes live in :mod:`scanner.api.routes`, one module per
concern:

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
``GET /v1/stats``                           the ledger's conflict statistics, as
                                            ``contrascan stats --json`` prints them
``GET|POST /v1/reviews``, ``/review``       open entries and a person's decisions on them
                                            (:mod:`scanner.review.web`)
``GET /healthz``                            200 only while Weaviate answers, else 503
``GET /metrics``                            Prometheus text format
``GET /openapi.json``, ``GET /docs``,       the contract; Swagger UI and ReDoc served with
``GET /redoc``                              no network (:mod:`scanner.api.docs`)
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
  the one exception is ``GET /v1/stats`` without ``user_id``, which counts every user, as
  ``contrascan stats`` does (the operator's view, behind the same key);
* caps: the request body (:attr:`ApiSettings.max_body_bytes`, 413), ``limit``
  (:data:`MAX_LIMIT`), records per request (:data:`MAX_RECORDS`), query length
  (:data:`MAX_QUERY_CHARS`) and memory text (:data:`scanner.models.MAX_TEXT_CHARS`);
* every error is ``{"error": {"code", "message", "fields"}}`` with a stable
  :class:`ErrorCode`; tracebacks go to the server log, never into a response.

The service is thread-safe (:class:`scanner.service.Service`); endpoints are plain functions
that FastAPI runs in its worker threads (read-time scans in worker processes when
:attr:`ApiSettings.scan_workers` is set, :mod:`scanner.scan_workers`), and batch scans run in a
separate executor, so a job outlives the request (and the client connection) that started it.
"""

import importlib
from typing import Any

_FROM = {
    "create_app": "scanner.api.app",
    **dict.fromkeys(("ErrorCode", "ErrorDetail", "ErrorField", "ErrorResponse"),
                    "scanner.api.errors"),
    **dict.fromkeys(("AddMemoriesRequest", "AddMemoriesResponse", "BatchScanJob",
                     "BatchScanRequest", "HealthResponse", "HistoryEntryModel",
                     "HistoryResponse", "JobProgress", "MemoryInput", "ScanRequest",
                     "StatsResponse"), "scanner.api.schemas"),
    **dict.fromkeys(("Hit", "ScanResponse"), "scanner.api.wire"),
    **dict.fromkeys(("API_KEY_ENV", "API_KEY_HEADER", "MAX_ID_CHARS", "MAX_LIMIT",
                     "MAX_PROPERTIES", "MAX_QUERY_CHARS", "MAX_RECORDS",
                     "MAX_VECTOR_DIMENSIONS", "ApiSettings"), "scanner.api.settings"),
    **dict.fromkeys(("DEFAULT_ALPHA", "DEFAULT_LIMIT", "DEFAULT_MAX_BODY_BYTES",
                     "DEFAULT_PORT"), "scanner.defaults"),
}
"""Where each name below comes from. They are imported on first use (PEP 562), so that
importing one light module of this package (:mod:`scanner.api.wire`,
:mod:`scanner.api.settings`, as :mod:`scanner.client` does) does not load the app and, with
it, the scan engine, spaCy and torch."""


def __getattr__(name: str) -> Any:
    module = _FROM.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM})


__all__ = [
    "API_KEY_ENV", "API_KEY_HEADER", "DEFAULT_ALPHA", "DEFAULT_LIMIT", "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_PORT", "MAX_ID_CHARS", "MAX_LIMIT", "MAX_PROPERTIES", "MAX_QUERY_CHARS",
    "MAX_RECORDS", "MAX_VECTOR_DIMENSIONS", "AddMemoriesRequest", "AddMemoriesResponse",
    "ApiSettings", "BatchScanJob", "BatchScanRequest", "ErrorCode", "ErrorDetail", "ErrorField",
    "ErrorResponse", "HealthResponse", "Hit", "HistoryEntryModel", "HistoryResponse",
    "JobProgress", "MemoryInput", "ScanRequest", "ScanResponse", "StatsResponse", "create_app",
]
