"""The app factory: :func:`create_app` builds the sidecar over one service."""

from __future__ import annotations

import hmac
import time
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from fastapi import FastAPI, Path, Query, Request, Security
from fastapi.responses import PlainTextResponse, Response
from fastapi.routing import APIRouter
from fastapi.security import APIKeyHeader
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel

from scanner.api.errors import (
    _ERROR_RESPONSES,
    ErrorCode,
    ErrorField,
    ErrorResponse,
    _add_error_handlers,
    _invalid,
    _Problem,
)
from scanner.api.jobs import _Jobs
from scanner.api.middleware import _BodyLimit, _RequestMetrics
from scanner.api.schemas import (
    AddMemoriesRequest,
    AddMemoriesResponse,
    BatchScanJob,
    BatchScanRequest,
    HealthResponse,
    Hit,
    HistoryEntryModel,
    HistoryResponse,
    ScanRequest,
    ScanResponse,
)
from scanner.api.settings import API_KEY_ENV, API_KEY_HEADER, MAX_ID_CHARS, ApiSettings
from scanner.backpressure import PROBE_THREADS, InFlightLimit
from scanner.embeddings import unit_vector
from scanner.errors import ConfigurationError
from scanner.metrics import SidecarMetrics
from scanner.models import MemoryRecord

if TYPE_CHECKING:
    from scanner.service import Service

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
            executor = ThreadPoolExecutor(max_workers=settings.batch_workers,
                                          thread_name_prefix="contrascan-batch")
            stack.callback(executor.shutdown, wait=True, cancel_futures=True)
            app.state.service = opened
            app.state.probe_limiter = anyio.CapacityLimiter(PROBE_THREADS)
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
    app.add_middleware(_BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(_RequestMetrics, metrics=metrics)
    app.add_middleware(InFlightLimit, max_in_flight=settings.max_in_flight)  # outermost
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
        svc = getattr(request.app.state, "service", None)
        # its own threads: the probe never waits behind scans for a worker thread
        ok = bool(svc is not None and request.app.state.started
                  and await anyio.to_thread.run_sync(
                      svc.store.ready, limiter=request.app.state.probe_limiter))
        return _json(HealthResponse(status="ready" if ok else "unavailable", weaviate=ok),
                     200 if ok else 503)

    @app.get("/metrics", response_class=PlainTextResponse, tags=["operations"],
             responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                              "description": "Prometheus text exposition format."}})
    def metrics_endpoint() -> Response:
        """Prometheus metrics (see :class:`SidecarMetrics`)."""
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return app



def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("contrascan")
    except PackageNotFoundError:
        return "0+unknown"
