"""Shared parts of the ``contrascan`` command line: the root group :func:`main`, exit codes,
common options, error handling and report output.

Library errors become one-line messages with exit code 1; ``--fail-on-conflict`` turns found
conflicts into exit code 3.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from scanner.core.changes import grouped_report
from scanner.errors import ScannerError
from scanner.models import ScanReport
from scanner.startup import defer_torch

if TYPE_CHECKING:
    from scanner.records import IgnoredFields

defer_torch()  # spaCy without torch until something embeds (scanner/startup.py)

EXIT_ERROR = 1
EXIT_CONFLICTS = 3
EXIT_REJECTED = 65
"""``import`` / ``scan-file`` rejected some lines (every other line was processed):
``EX_DATAERR`` of BSD sysexits(3), "the input data was incorrect in some way"."""


def _json_option(func: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True,
                        help="Print the SPEC §5 report as JSON on stdout.")(func)


_STORE_PORTS = "contrascan.store_ports"
"""Key in click's ``Context.meta``: the embedded server's ports of the current command, as
``{"port" | "grpc_port": (value, from_environment)}`` (see :func:`_store_options`)."""


def _store_options(func: Callable | None = None, *, port_flag: str = "--port",
                   grpc_port_flag: str = "--grpc-port") -> Callable:
    """--weaviate-url, --data-dir, and the embedded server's --port / --grpc-port.

    The two ports are not passed to the command: they are kept in the click context's ``meta``
    for :func:`_open_service`. ``serve`` calls them --weaviate-port / --weaviate-grpc-port (its
    --port is the sidecar's own): ``@_store_options(port_flag=..., grpc_port_flag=...)``.
    """
    if func is None:
        return functools.partial(_store_options, port_flag=port_flag,
                                 grpc_port_flag=grpc_port_flag)

    @functools.wraps(func)
    def keep_ports(*args: Any, weaviate_port: int | None = None,
                   weaviate_grpc_port: int | None = None, **kwargs: Any) -> Any:
        from click.core import ParameterSource

        ctx = click.get_current_context()
        ctx.meta[_STORE_PORTS] = {
            key: (value, ctx.get_parameter_source(name) is ParameterSource.ENVIRONMENT)
            for key, name, value in (("port", "weaviate_port", weaviate_port),
                                     ("grpc_port", "weaviate_grpc_port", weaviate_grpc_port))
        }
        return func(*args, **kwargs)

    keep_ports.__click_params__ = list(getattr(func, "__click_params__", []))  # type: ignore
    command: Callable = keep_ports
    command = click.option(
        grpc_port_flag, "weaviate_grpc_port", type=click.IntRange(1, 65535),
        envvar="CONTRASCAN_GRPC_PORT", default=None,
        help="gRPC port of the embedded Weaviate (default 8074; env CONTRASCAN_GRPC_PORT).",
    )(command)
    command = click.option(
        port_flag, "weaviate_port", type=click.IntRange(1029, 65535),
        envvar="CONTRASCAN_PORT", default=None,
        help="REST port of the embedded Weaviate (default 8079; env CONTRASCAN_PORT); the four "
             "ports below it are its cluster ports. Another port lets a second data dir run "
             "its own server.",
    )(command)
    command = click.option("--weaviate-url", envvar="CONTRASCAN_WEAVIATE_URL", default=None,
                           help="Use this Weaviate instead of the embedded default, e.g. "
                                "http://127.0.0.1:8080 (API key from "
                                "CONTRASCAN_WEAVIATE_API_KEY).")(command)
    command = click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
                           envvar="CONTRASCAN_DATA_DIR", default=None,
                           help="Data directory of the embedded Weaviate (default: the user's "
                                "data dir).")(command)
    return command


def _policy_options(func: Callable) -> Callable:
    func = click.option("--fail-on-conflict", is_flag=True,
                        help="Exit with code 3 when a conflict has a verdict ('possible' "
                             "flags do not count).")(func)
    func = click.option("--single-epoch", is_flag=True,
                        help="Declare that records without an epoch share one world state.")(func)
    func = click.option("--recency-override", is_flag=True,
                        help="Let recency decide within an epoch even across source classes "
                             "(logged as rule 'recency_override').")(func)
    return func


class FiniteFloatRange(click.FloatRange):
    """:class:`click.FloatRange` that refuses ``nan``, which compares false with both bounds
    and so passes any range ("--header-timeout nan" armed no timer and hung every
    connection)."""

    name = "float range"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if isinstance(number, float) and not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


def _errors_to_exit(func: Callable) -> Callable:
    """Library errors, and errors of the Weaviate client, httpx and gRPC (a server that went
    away), become one line on stderr and exit code 1."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ScannerError as err:
            _fail(err)
        except OSError as err:
            click.echo(f"contrascan: {err.strerror or err}: {err.filename or ''}".rstrip(": "),
                       err=True)
            sys.exit(EXIT_ERROR)
        except Exception as err:
            if _is_extractor_error(err):
                _fail(err)
            failure = _store_failure(err)
            if failure is None:
                raise
            _fail(failure)
    return wrapper


def _echo_ignored(ignored: IgnoredFields) -> None:
    """One line on stderr naming the fields outside the record format that were ignored, and
    on which lines (the first few, and how many); the memories themselves were kept."""
    if ignored:
        click.echo("contrascan: ignored fields outside the record format (the memories are "
                   f"kept): {ignored.summary()}", err=True)


def _fail(err: Exception) -> None:
    click.echo(f"contrascan: {' '.join(str(err).split())}", err=True)
    sys.exit(EXIT_ERROR)


def _is_extractor_error(err: Exception) -> bool:
    """Whether ``err`` is an :class:`extractors.ExtractorError`; the extractors (and spaCy with
    them) are not imported for this: a command that never imported them cannot raise one."""
    errors = sys.modules.get("extractors.errors")
    return errors is not None and isinstance(err, errors.ExtractorError)


def _store_failure(err: Exception) -> ScannerError | None:
    """``err`` as a :class:`scanner.errors.WeaviateUnavailable` when it is an error of the
    Weaviate client, httpx or gRPC (:mod:`scanner.store.failures`), else ``None``."""
    if not any(name in sys.modules for name in ("weaviate", "httpx", "grpc")):
        return None  # cannot be one of theirs; spare the import
    from scanner.store.failures import as_unavailable

    return as_unavailable(err)


def _settings():
    from scanner.config import Settings, load_settings

    ctx = click.get_current_context(silent=True)
    path = (ctx.find_root().params.get("config_path") if ctx is not None else None)
    return load_settings(path) if path else Settings()


def _engine(single_epoch: bool = False, recency_override: bool = False):
    from scanner.engine import Engine

    settings = _settings()
    return Engine(settings.scan_config(single_epoch=single_epoch,
                                       recency_override=recency_override))


def emit_report(report: ScanReport, *, as_json: bool, fail_on_conflict: bool = False,
                title: str = "scan", ignored: IgnoredFields | None = None) -> None:
    """Print a report (JSON or a table), warn about rejected lines and ignored fields, and set
    the exit code.

    Args:
        report: the scan report; printed with the resolved pairs of one change merged
            (:func:`scanner.core.changes.grouped_report`).
        as_json: print the SPEC §5 JSON; with ``ignored`` given it carries ``"ignored"``:
            ``[{"field", "count", "lines"}]`` (:class:`scanner.records.IgnoredField`) after
            ``"rejected"``.
        fail_on_conflict: exit with code 3 when a pair has a verdict.
        title: the table's caption.
        ignored: the fields outside the record format met while reading the input file.
    """
    report = grouped_report(report)
    if ignored is not None:
        _echo_ignored(ignored)
    for bad in report.rejected:
        who = f" (id {bad.id!r})" if bad.id else ""
        click.echo(f"contrascan: line {bad.line}{who}: field '{bad.field}': {bad.reason}",
                   err=True)
    if as_json:
        payload = report.to_json_dict()
        if ignored is not None:
            payload["ignored"] = [f.model_dump(mode="json") for f in ignored.fields()]
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        from scanner.render import render_report
        render_report(report, title=title)
    if report.rejected:
        sys.exit(EXIT_REJECTED)
    decided = [c for c in report.conflicts if c.verdict != "possible"]
    if fail_on_conflict and decided:
        sys.exit(EXIT_CONFLICTS)


class _UserMistake(click.ClickException):
    """A usage mistake: one line on stderr, exit code 1."""

    exit_code = EXIT_ERROR

    def show(self, file: Any = None) -> None:
        click.echo(f"contrascan: {self.format_message()}", err=True)


class _OneLineUsageCommand(click.Command):
    """Reports click's usage errors as one line with exit code 1 instead of a usage block."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            raise _UserMistake(err.format_message()) from err


class _OneLineUsageGroup(click.Group):
    """The ``contrascan`` group: its own usage errors (an unknown command) and those of every
    subcommand are one line with exit code 1, as SPEC §6's exit codes say (0 clean, 1 error,
    3 conflicts), instead of click's usage block and exit code 2."""

    command_class = _OneLineUsageCommand

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:
            raise _UserMistake(err.format_message()) from err

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as err:
            raise _UserMistake(err.format_message()) from err


@click.group(cls=_OneLineUsageGroup,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="contrascan")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              envvar="CONTRASCAN_CONFIG", default=None,
              help="TOML or JSON file with relation tables, aliases, epoch declarations, "
                   "strategies and extra patterns (see docs/configuration.md).")
def main(config_path: str | None) -> None:
    """Find memories that contradict each other in agent memory kept in Weaviate.

    \b
    Example:
      contrascan demo
      contrascan scan-file memories.jsonl --json
    """


def _progress(total: int, label: str, enabled: bool):
    """A rich progress bar on stderr when stderr is a terminal; a no-op elsewhere and in
    --json mode (``enabled`` False). A context manager of the ``advance(n)`` callable."""
    from contextlib import contextmanager

    @contextmanager
    def bar():
        with _phases(enabled) as start:
            yield start(label, total)

    return bar()


def _phases(enabled: bool):
    """Progress bars of a job in phases, on stderr when stderr is a terminal (stdout keeps
    only the report, so ``--json`` output or a redirected table stays clean); a no-op
    elsewhere and in --json mode (``enabled`` False).

    A context manager of ``start(label, total) -> advance(n)``: each call adds a bar of
    ``total`` steps (``total`` 0 or less: a bar of unknown length), and ``advance`` moves it
    by ``n``. The bars are erased when the job ends.
    """
    from contextlib import contextmanager

    def quiet(label: str, total: int) -> Callable[[int], None]:
        return lambda n: None

    @contextmanager
    def bars():
        if not enabled or not sys.stderr.isatty():
            yield quiet
            return
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as progress:
            def start(label: str, total: int) -> Callable[[int], None]:
                task = progress.add_task(label, total=total if total > 0 else None)
                return lambda n: progress.advance(task, n)

            yield start

    return bars()


def _open_service(weaviate_url: str | None, data_dir: Path | None, *, quiet: bool = False,
                  single_epoch: bool = False, recency_override: bool = False,
                  port: int | None = None, grpc_port: int | None = None):
    """Context manager yielding a :class:`scanner.service.Service` on the chosen store.

    ``port`` and ``grpc_port`` (the embedded server's) default to the current command's
    --port / --grpc-port (:func:`_store_options`). With ``weaviate_url`` the values from
    CONTRASCAN_PORT / CONTRASCAN_GRPC_PORT are dropped (they are for the embedded default);
    ports given on the command line are an error. Client errors raised inside the block
    become :class:`scanner.errors.WeaviateUnavailable` naming the server.
    """
    from contextlib import contextmanager

    from scanner.service import Service
    from scanner.store.failures import as_unavailable
    from scanner.store.server import describe, open_client
    from scanner.store.wiring import weaviate_stores

    if port is None and grpc_port is None:
        ctx = click.get_current_context(silent=True)
        given = ctx.meta.get(_STORE_PORTS, {}) if ctx is not None else {}

        def pick(key: str) -> int | None:
            value, from_env = given.get(key, (None, False))
            return None if weaviate_url and from_env else value

        port, grpc_port = pick("port"), pick("grpc_port")

    def say(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    @contextmanager
    def opened():
        with open_client(weaviate_url=weaviate_url, data_dir=data_dir, port=port,
                         grpc_port=grpc_port, log=say) as client:
            from scanner.store import replication

            replication.configure(client, _settings().replication)
            service = Service(weaviate_stores(client), engine=_engine(single_epoch, recency_override))
            try:
                yield service
            except Exception as err:
                failure = as_unavailable(err, describe(client))
                if failure is None:
                    raise
                raise failure from err
            finally:
                # the read-time scan tally is written before the client (and an embedded
                # server) closes, never after by a thread left behind
                service.close()

    return opened()


def _echo_failures(result) -> None:
    for memory_id, message in result.failures:
        click.echo(f"contrascan: memory {memory_id!r} was not stored: {message}", err=True)
