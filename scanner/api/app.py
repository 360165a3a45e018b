"""The app factory: :func:`create_app` builds the sidecar over one service.

The factory wires what the route modules (:mod:`scanner.api.routes`) read from ``app.state``:
the service (opened by the lifespan when a factory is given), the settings, the metrics, the
batch-scan jobs and the health probe's thread limiter; then the middleware (in-flight limit,
request metrics, body cap), the error handlers, and the routers.
"""

from __future__ import annotations

import gc
import logging
import threading

from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Security

from scanner.api.dependencies import authorize
from scanner.api.docs import install_docs
from scanner.api.attempts import FailedAttempts
from scanner.api.errors import ERROR_RESPONSES, add_error_handlers
from scanner.api.jobs import BatchScanJobs
from scanner.api.loop_lag import LoopLag
from scanner.api.middleware import BodyLimit, RequestMetrics
from scanner.api.routes import batch, history, memories, operations, scans, stats
from scanner.api.settings import ApiSettings
from scanner.backpressure import InFlightLimit
from scanner.health import ReadinessMonitor
from scanner.errors import ConfigurationError
from scanner.metrics import SidecarMetrics
from scanner.models import MemoryRecord
from scanner.scan_workers import ScanWorkers, ScanWorkerUnavailable
from scanner.stats_process import StatsProcess

if TYPE_CHECKING:
    from scanner.service import Service

_log = logging.getLogger("scanner.api")


def create_app(service: Service | None = None, *,
               service_factory: Callable[[], AbstractContextManager[Service]] | None = None,
               settings: ApiSettings | None = None, warm_up: bool = True,
               sources: Mapping[str, Any] | None = None) -> FastAPI:
    """The sidecar app over one service.

    Args:
        service: a ready service (the caller owns its Weaviate client), or
        service_factory: a context manager factory opened at start-up and closed at shutdown
            (e.g. ``scanner.cli.base._open_service``); exactly one of the two.
        settings: limits and the API key; default :meth:`ApiSettings.from_env`.
        warm_up: load the spaCy pipeline and the embedding model at start-up.
        sources: attached sources by name (:class:`scanner.sources.mapping.SourceMapping`),
            served under ``/v1/sources/{name}/…`` (:mod:`scanner.sources.http`); their open
            ledger entries are in the review inbox (:mod:`scanner.review.web`).

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
    app = FastAPI(title="contrascan sidecar", version=_version(),
                  lifespan=partial(_lifespan, service=service, service_factory=service_factory,
                                   warm_up=warm_up),
                  description="Contradiction scans for agent memory kept in Weaviate: call "
                              "`POST /v1/scan` before answering (SPEC §6).",
                  docs_url=None, redoc_url=None)  # served offline below (scanner.api.docs)
    app.state.settings = settings
    app.state.failed_attempts = FailedAttempts()  # wrong keys, slowed per client
    app.state.metrics = metrics
    app.state.loop_lag = LoopLag(metrics.registry)  # the probes' wait for the event loop
    app.state.service = service
    app.state.started = False
    app.state.sources = None
    # outermost last: metrics see every answer; the body is read before admission, so a
    # client slow to send it (cut off after the server's body timeout, scanner.serving)
    # never holds one of the few places in flight
    app.add_middleware(InFlightLimit, max_in_flight=settings.max_in_flight,
                       max_queued=settings.max_queued,
                       queue_timeout_s=settings.queue_timeout_s,
                       on_counts=metrics.observe_admission)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RequestMetrics, metrics=metrics)
    add_error_handlers(app)

    for concern in (scans, memories, batch, history, stats):  # /v1, behind the API key
        app.include_router(concern.router)
    if sources:
        from scanner.sources.http import source_router
        from scanner.sources.registry import AttachedSources

        # one registry for the source routes, the review inbox and history
        app.state.sources = AttachedSources(sources)
        app.include_router(source_router(app.state.sources),
                           dependencies=[Security(authorize)], responses=ERROR_RESPONSES)

    from scanner.review.web import install_review  # the review page and /v1/reviews

    install_review(app, settings)
    app.include_router(operations.router)
    install_docs(app)  # /docs and /redoc with their assets, no CDN
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI, *, service: Service | None,
                    service_factory: Callable[[], AbstractContextManager[Service]] | None,
                    warm_up: bool) -> AsyncIterator[None]:
    """Start-up and shutdown of one app (see :func:`create_app`)."""
    settings: ApiSettings = app.state.settings
    metrics: SidecarMetrics = app.state.metrics
    with ExitStack() as stack:
        opened = service if service is not None else stack.enter_context(service_factory())
        if not getattr(app.state, "store_metrics_registered", False):
            # the process-wide scan counters and the store's ledger statistics
            # (scanner.metrics), next to this app's own request metrics
            from scanner import metrics as process_metrics

            process_metrics.register(metrics.registry, opened,
                                     stats=partial(_store_stats, app.state))
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
        # the store-wide figures of /metrics from a child process, off this one's GIL
        # (scanner.stats_process); stopped before the store closes
        stats_process = StatsProcess.for_service(opened) if settings.stats_process else None
        app.state.stats_process = stats_process
        if stats_process is not None:
            stack.callback(stats_process.close)
        # read-time scans in worker processes, off the event loop's GIL (scanner.scan_workers),
        # brought up behind the sidecar's readiness: each loads spaCy, the embedding model
        # and the judge (about 12 s of the start on two cores, issue 35 item 5); until they
        # answer, scans run on this process's threads as with no workers
        app.state.scan_workers = None
        scan_workers = ScanWorkers.for_service(opened, workers=settings.scan_workers,
                                               nice=settings.work_nice)
        if scan_workers is not None:
            starting = threading.Thread(target=_bring_up, args=(app.state, scan_workers),
                                        name="contrascan-scan-workers-start", daemon=True)
            stack.callback(starting.join, timeout=60)
            stack.callback(scan_workers.close)  # (first: a start still loading then ends)
            starting.start()
        # /healthz never waits on Weaviate; a collection or tenant deleted from outside
        # turns it to 503 and refuses /v1 (Service.check_store, require_service)
        readiness = ReadinessMonitor(opened.check_store)
        readiness.start()
        stack.callback(readiness.stop)
        app.state.readiness = readiness
        app.state.jobs = BatchScanJobs(executor=executor, metrics=metrics,
                                       max_jobs=settings.max_jobs)
        lag: LoopLag = app.state.loop_lag
        lag.start()
        app.state.started = True
        try:
            yield
        finally:
            app.state.started = False
            await lag.stop()


def _bring_up(state: Any, workers: ScanWorkers) -> None:
    """Start ``workers`` and hand them to the scans once each has loaded its model; a worker
    that cannot start leaves the scans on threads, said in the log."""
    try:
        workers.start()
    except ScanWorkerUnavailable as err:
        _log.warning("scan workers unavailable, scanning on threads: %s", err)
        return
    state.scan_workers = workers


def _store_stats(state: Any) -> Any:
    """The store statistics for :class:`scanner.metrics.StoreStatsCollector`: from the app's
    statistics process after this process's read-time tally is written, or in this thread."""
    service = state.service
    process: StatsProcess | None = getattr(state, "stats_process", None)
    if process is None:
        return service.stats()
    service.flush_stats()
    return process.stats()


def _warm_up(service: Service) -> None:
    """Load the spaCy pipeline and the embedding model now, not on the first request."""
    service.engine.extract([MemoryRecord(id="warm-up", text="The glaze is celadon.",
                                         user_id="warm-up")])
    service.embedder.encode(["warm-up"])


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("contrascan")
    except PackageNotFoundError:
        return "0+unknown"
