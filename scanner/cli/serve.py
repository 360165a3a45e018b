"""The ``serve`` command: the HTTP sidecar under uvicorn."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import click

from scanner.cli.base import (
    FiniteFloatRange,
    _errors_to_exit,
    _open_service,
    _store_options,
    main,
)
from scanner.defaults import DEFAULT_HOST, DEFAULT_MAX_BODY_BYTES, DEFAULT_PORT


@main.command("serve")
@click.option("--host", default=DEFAULT_HOST, show_default=True,
              help="Interface to listen on (0.0.0.0 for every interface).")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(1, 65535),
              help="TCP port to listen on.")
@click.option("--max-body-bytes", default=DEFAULT_MAX_BODY_BYTES, show_default=True,
              type=click.IntRange(1024), help="Largest request body accepted (413 beyond).")
@click.option("--log-level", default="info", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              help="uvicorn's log level.")
@click.option("--single-epoch", is_flag=True,
              help="Declare that records without an epoch share one world state.")
@click.option("--recency-override", is_flag=True,
              help="Let recency decide within an epoch even across source classes.")
@click.option("--compute-threads", default=None, type=click.IntRange(1, 64),
              help="Threads per model forward pass (OMP_NUM_THREADS; default 1, or the "
                   "variable when set): requests run in parallel instead, and Weaviate keeps "
                   "its cores.")
@click.option("--sources", "sources_file", default=None,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="TOML file of attached sources, served under /v1/sources/{name}/.")
@click.option("--header-timeout", default=10.0, show_default=True,
              type=FiniteFloatRange(0, min_open=True),
              help="Seconds a client has to send its request headers (408 and closed after).")
@click.option("--body-timeout", default=30.0, show_default=True,
              type=FiniteFloatRange(0, min_open=True),
              help="Seconds a client has to send its request body after the headers.")
@click.option("--max-in-flight", default=None, type=click.IntRange(1, 10_000),
              help="/v1/ requests handled at once; more wait for a turn "
                   "(default: ApiSettings.max_in_flight).")
@click.option("--max-queued", default=None, type=click.IntRange(0, 10_000),
              help="/v1/ requests that may wait for a turn; more get 503 with Retry-After "
                   "at once (default: ApiSettings.max_queued).")
@click.option("--queue-timeout", default=None, type=FiniteFloatRange(0, 300),
              help="Seconds a request waits for its turn before 503 with Retry-After "
                   "(default: ApiSettings.queue_timeout_s).")
@click.option("--shutdown-timeout", default=10.0, show_default=True,
              type=FiniteFloatRange(0, min_open=True),
              help="Seconds requests in flight get after SIGTERM; the process exits at most "
                   "30 s later whatever it is doing.")
@_store_options(port_flag="--weaviate-port", grpc_port_flag="--weaviate-grpc-port")
@_errors_to_exit
def serve_cmd(host: str, port: int, max_body_bytes: int, log_level: str, single_epoch: bool,
              recency_override: bool, compute_threads: int | None, sources_file: Path | None,
              max_in_flight: int | None, max_queued: int | None,
              queue_timeout: float | None, header_timeout: float, body_timeout: float,
              shutdown_timeout: float, weaviate_url: str | None, data_dir: Path | None) -> None:
    """Run the HTTP sidecar (SPEC §6) under uvicorn until Ctrl-C.

    Opens the store (the embedded default or --weaviate-url) and loads the spaCy pipeline and
    the embedding model once, before it listens. /openapi.json is the contract; /docs shows it.
    When CONTRASCAN_API_KEY is set, /v1/* requires it in the X-API-Key header. Clients too
    slow to send a request are cut off; SIGTERM stops it within --shutdown-timeout + 30 s
    (scanner.serving).

    \b
    Example:
      contrascan serve --port 8765
      curl -s localhost:8765/v1/scan -H 'content-type: application/json' \\
        -d '{"user_id": "potter-1", "query": "preferred glaze"}'
    """
    import os

    # before torch is imported (spaCy's thinc imports it): one thread per forward pass of a
    # single short query is as fast alone and far faster next to a busy Weaviate on few cores
    if compute_threads is not None:
        os.environ["OMP_NUM_THREADS"] = str(compute_threads)
    else:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
    from scanner import serving
    from scanner.api import ApiSettings, create_app
    from scanner.redaction import redact_access_log

    redact_access_log()  # no query strings (keys) or ids (users, memories) in the access log

    limits = {"max_in_flight": max_in_flight, "max_queued": max_queued,
              "queue_timeout_s": queue_timeout}
    settings = ApiSettings.from_env(max_body_bytes=max_body_bytes, **{
        name: value for name, value in limits.items() if value is not None})
    from scanner.sources import load_sources

    sources = load_sources(sources_file) if sources_file else None
    with _open_service(weaviate_url, data_dir, single_epoch=single_epoch,
                       recency_override=recency_override) as service:
        app = create_app(service, settings=settings, sources=sources)
        click.echo(f"contrascan sidecar on http://{host}:{port} (API key "
                   f"{'required' if settings.api_key else 'not set'}); Ctrl-C stops it",
                   err=True)
        # uvicorn shuts down gracefully on SIGTERM, then raises the signal again under the
        # handler it found; the default one would kill the process before the store closes
        # (leaving the embedded Weaviate running), so that handler exits through Python
        previous = signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            serving.run(app, host=host, port=port, log_level=log_level, ws="none",
                        lifespan="on", server_header=False, header_timeout_s=header_timeout,
                        body_timeout_s=body_timeout, shutdown_timeout_s=shutdown_timeout)
        finally:
            signal.signal(signal.SIGTERM, previous)


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM as ``SystemExit(128 + 15)``: context managers and atexit hooks still run."""
    raise SystemExit(128 + signum)
