"""Limits, defaults and the API key of the sidecar (:class:`ApiSettings`)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from scanner.api.priority import DEFAULT_WORK_NICE
from scanner.backpressure import (
    DEFAULT_MAX_IN_FLIGHT,
    DEFAULT_MAX_QUEUED,
    DEFAULT_QUEUE_TIMEOUT_S,
)
from scanner.defaults import DEFAULT_MAX_BODY_BYTES

API_KEY_ENV = "CONTRASCAN_API_KEY"
"""Env var holding the sidecar's API key; unset or empty = no key required."""
WORK_NICE_ENV = "CONTRASCAN_WORK_NICE"
"""Env var overriding :attr:`ApiSettings.work_nice` (0 turns the lower priority off)."""
STATS_PROCESS_ENV = "CONTRASCAN_STATS_PROCESS"
"""Env var overriding :attr:`ApiSettings.stats_process` (``0`` computes the store statistics on
a thread of the sidecar, as before issue 18's load run)."""
METRICS_MAX_AGE_ENV = "CONTRASCAN_METRICS_MAX_AGE"
"""Env var overriding :attr:`ApiSettings.metrics_max_age_s` (seconds)."""
SCAN_WORKERS_ENV = "CONTRASCAN_SCAN_WORKERS"
"""Env var overriding :attr:`ApiSettings.scan_workers` (``0`` scans on threads)."""
API_KEY_HEADER = "X-API-Key"
"""Request header that carries the API key."""
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

DEFAULT_SCAN_WORKERS = min(8, os.cpu_count() or 1)
"""Scan worker processes of ``contrascan serve``: one per core (a scan is CPU: embedding,
decoding, the scan), at most 8."""
SERVE_METRICS_MAX_AGE_S = 1.0
"""Seconds ``contrascan serve`` reuses a rendered ``/metrics`` exposition: far below any
scrape interval (Prometheus' ``scrape_interval`` defaults to 1 min), while 200 scrapes a
second cost the event loop one rendering a second instead of 200 (~1.2 ms each)."""
SERVE_DEFAULTS: dict[str, Any] = {"scan_workers": DEFAULT_SCAN_WORKERS,
                                  "metrics_max_age_s": SERVE_METRICS_MAX_AGE_S}
"""What :meth:`ApiSettings.from_env` (the settings of ``contrascan serve`` and of
``create_app`` without settings) sets beyond the field defaults: a sidecar that serves a
probe and many scans at once runs scans in worker processes and renders ``/metrics`` at most
once a second (issue 18's load run, ``docs/benchmarks.md``). An app built with explicit
settings in another program keeps one process and exact scrapes unless asked."""


class ApiSettings(BaseModel):
    """Limits and the API key of one app.

    Attributes:
        api_key: required in ``X-API-Key`` on ``/v1/*`` when set.
        max_body_bytes: largest request body, in bytes (413 beyond it).
        max_limit: largest ``limit`` of a read-time scan, ≤ :data:`MAX_LIMIT`.
        max_records: most records per ``POST /v1/memories``, ≤ :data:`MAX_RECORDS`.
        max_jobs: most batch-scan jobs kept; also the most queued or running at once (429).
        batch_workers: batch scans run at the same time (each reads a whole tenant).
        max_in_flight: ``/v1/`` requests handled at once; more wait for a turn
            (:mod:`scanner.backpressure`).
        max_queued: ``/v1/`` requests that may wait for a turn; more get 503 with
            ``Retry-After`` at once.
        queue_timeout_s: seconds a waiting request waits for its turn before 503 with
            ``Retry-After``.
        work_nice: nice value added to the worker threads that run ``/v1/`` requests, so the
            event loop answering ``/healthz`` and ``/metrics`` runs first on a busy machine
            (:mod:`scanner.api.priority`; 0 = unchanged; Linux only).
        stats_process: compute the store-wide figures of ``/metrics`` in a child process
            (:mod:`scanner.stats_process`) instead of on a thread of the sidecar, where they
            hold the GIL the event loop needs (falls back to the thread where the store's
            server cannot be named for another process).
        metrics_max_age_s: seconds a ``/metrics`` exposition is served again to later
            scrapes before it is rendered anew (0: every scrape renders; see
            :mod:`scanner.api.routes.operations`). :data:`SERVE_DEFAULTS`: 1 s.
        scan_workers: processes that run read-time scans (:mod:`scanner.scan_workers`), off
            the GIL of the event loop; 0 runs them on worker threads of the sidecar.
            :data:`SERVE_DEFAULTS`: one per core.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    api_key: SecretStr | None = None
    max_body_bytes: int = Field(DEFAULT_MAX_BODY_BYTES, ge=1024)
    max_limit: int = Field(MAX_LIMIT, ge=1, le=MAX_LIMIT)
    max_records: int = Field(MAX_RECORDS, ge=1, le=MAX_RECORDS)
    max_jobs: int = Field(64, ge=1, le=10_000)
    batch_workers: int = Field(1, ge=1, le=8)
    max_in_flight: int = Field(DEFAULT_MAX_IN_FLIGHT, ge=1, le=10_000)
    max_queued: int = Field(DEFAULT_MAX_QUEUED, ge=0, le=10_000)
    queue_timeout_s: float = Field(DEFAULT_QUEUE_TIMEOUT_S, ge=0.0, le=300.0)
    work_nice: int = Field(DEFAULT_WORK_NICE, ge=0, le=19)
    stats_process: bool = True
    scan_workers: int = Field(0, ge=0, le=64)
    metrics_max_age_s: float = Field(0.0, ge=0.0, le=60.0)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ApiSettings:
        """The serving settings: :data:`SERVE_DEFAULTS`, then the API key from
        ``$CONTRASCAN_API_KEY`` (empty = none), the work threads' nice value from
        ``$CONTRASCAN_WORK_NICE``, where the store statistics are computed from
        ``$CONTRASCAN_STATS_PROCESS`` (``1`` / ``0``), the scan worker processes from
        ``$CONTRASCAN_SCAN_WORKERS`` and the ``/metrics`` reuse from
        ``$CONTRASCAN_METRICS_MAX_AGE`` (seconds; each when set and not empty), then
        ``overrides``.

        Args:
            environ: the variables to read instead of the process's environment.
            overrides: fields of :class:`ApiSettings`.

        Raises:
            pydantic.ValidationError: a variable or an override is not a valid value.
        """
        if environ is None:
            found = ServeEnvironment()
        else:
            found = _GivenEnvironment(**{k: v for k, v in environ.items() if v})
        return cls(**{**SERVE_DEFAULTS, **found.model_dump(exclude_none=True), **overrides})


class ServeEnvironment(BaseSettings):
    """The ``CONTRASCAN_*`` variables :meth:`ApiSettings.from_env` reads (pydantic-settings:
    names matched exactly, an empty value counts as unset, no ``.env`` file). A field is the
    variable's text, ``None`` when it is unset; :class:`ApiSettings` validates it, so an error
    names its field there."""

    model_config = SettingsConfigDict(case_sensitive=True, env_ignore_empty=True,
                                      extra="ignore", frozen=True)

    api_key: SecretStr | None = Field(None, validation_alias=API_KEY_ENV)
    work_nice: str | None = Field(None, validation_alias=WORK_NICE_ENV)
    stats_process: str | None = Field(None, validation_alias=STATS_PROCESS_ENV)
    scan_workers: str | None = Field(None, validation_alias=SCAN_WORKERS_ENV)
    metrics_max_age_s: str | None = Field(None, validation_alias=METRICS_MAX_AGE_ENV)


class _GivenEnvironment(ServeEnvironment):
    """:class:`ServeEnvironment` read from the mapping passed in, never from the process's
    environment (its one source: the values given, by variable name)."""

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings],
                                   init_settings: PydanticBaseSettingsSource,
                                   **others: PydanticBaseSettingsSource
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)
