"""``contrascan``: the command line (SPEC §6).

Thin click commands over the library. Library errors become one-line messages with exit code
1; ``--fail-on-conflict`` turns found conflicts into exit code 3.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from scanner.defaults import DEFAULT_ALPHA, DEFAULT_LIMIT
from scanner.errors import ScannerError
from scanner.models import ScanReport
from scanner.startup import defer_torch

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
                        help="Exit with code 3 when any conflict is found.")(func)
    func = click.option("--single-epoch", is_flag=True,
                        help="Declare that records without an epoch share one world state.")(func)
    func = click.option("--recency-override", is_flag=True,
                        help="Let recency decide within an epoch even across source classes "
                             "(logged as rule 'recency_override').")(func)
    return func


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


def _echo_ignored(ignored: dict[str, int]) -> None:
    """One line on stderr naming the fields outside the record format that were ignored."""
    if ignored:
        fields = ", ".join(f"{name} ({n} line{'s' if n > 1 else ''})"
                           for name, n in sorted(ignored.items()))
        click.echo(f"contrascan: ignored fields outside the record format: {fields}", err=True)


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


def _engine(single_epoch: bool = False, recency_override: bool = False):
    from scanner.config import Settings, load_settings
    from scanner.engine import Engine

    ctx = click.get_current_context(silent=True)
    path = (ctx.find_root().params.get("config_path") if ctx is not None else None)
    settings = load_settings(path) if path else Settings()
    return Engine(settings.scan_config(single_epoch=single_epoch,
                                       recency_override=recency_override))


def emit_report(report: ScanReport, *, as_json: bool, fail_on_conflict: bool = False,
                title: str = "scan") -> None:
    """Print a report (JSON or a table), warn about rejected lines, and set the exit code."""
    for bad in report.rejected:
        who = f" (id {bad.id!r})" if bad.id else ""
        click.echo(f"contrascan: line {bad.line}{who}: field '{bad.field}': {bad.reason}",
                   err=True)
    if as_json:
        click.echo(json.dumps(report.to_json_dict(), indent=2, ensure_ascii=False))
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


@main.command("scan-file")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_json_option
@_policy_options
@_errors_to_exit
def scan_file(file: Path, as_json: bool, fail_on_conflict: bool, single_epoch: bool,
              recency_override: bool) -> None:
    """Scan a JSON Lines file of memories without any store.

    Use it on an export, or on a bulk import before it lands.

    \b
    Example:
      contrascan scan-file memories.jsonl --json --fail-on-conflict
    """
    ignored: dict[str, int] = {}
    report = _engine(single_epoch, recency_override).scan_file(file, ignored=ignored)
    _echo_ignored(ignored)
    emit_report(report, as_json=as_json, fail_on_conflict=fail_on_conflict, title=str(file))


def _progress(total: int, label: str, enabled: bool):
    """A rich progress bar on a terminal; a no-op elsewhere and in --json mode."""
    from contextlib import nullcontext

    if not enabled or not sys.stderr.isatty():
        return nullcontext(lambda n: None)
    from rich.progress import Progress

    class _Bar:
        def __enter__(self):
            self.progress = Progress(transient=True)
            self.progress.__enter__()
            self.task = self.progress.add_task(label, total=total)
            return lambda n: self.progress.advance(self.task, n)

        def __exit__(self, *exc):
            return self.progress.__exit__(*exc)

    return _Bar()


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
            try:
                yield Service(weaviate_stores(client), engine=_engine(single_epoch, recency_override))
            except Exception as err:
                failure = as_unavailable(err, describe(client))
                if failure is None:
                    raise
                raise failure from err

    return opened()


def _echo_failures(result) -> None:
    for memory_id, message in result.failures:
        click.echo(f"contrascan: memory {memory_id!r} was not stored: {message}", err=True)


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_store_options
@_json_option
@_errors_to_exit
def import_cmd(file: Path, weaviate_url: str | None, data_dir: Path | None,
               as_json: bool) -> None:
    """Import a JSON Lines file of memories (triples extracted once, here).

    Ids already stored are left as they are. Bad lines are reported; the rest are stored.

    \b
    Example:
      contrascan import memories.jsonl
    """
    from scanner.records import read_jsonl

    ignored: dict[str, int] = {}
    records, rejected = read_jsonl(file, ignored=ignored)
    _echo_ignored(ignored)
    for bad in rejected:
        who = f" (id {bad.id!r})" if bad.id else ""
        click.echo(f"contrascan: line {bad.line}{who}: field '{bad.field}': {bad.reason}",
                   err=True)
    with _open_service(weaviate_url, data_dir, quiet=as_json) as service:
        with _progress(len(records), "importing", not as_json) as advance:
            result = service.import_records(records, progress=advance)
    _echo_failures(result)
    for mid in result.differing:
        click.echo(f"contrascan: id {mid!r} is already stored with another text or "
                   "provenance; the stored memory is kept (memories are never overwritten: "
                   "import the correction under a new id)", err=True)
    summary = {"read": len(records) + len(rejected), "written": result.written,
               "unchanged": result.unchanged, "differing": len(result.differing),
               "rejected": len(rejected), "failed": len(result.failures)}
    if as_json:
        click.echo(json.dumps(summary))
    else:
        click.echo(", ".join(f"{k} {v}" for k, v in summary.items()))
    if result.failures:
        sys.exit(EXIT_ERROR)
    if rejected:
        sys.exit(EXIT_REJECTED)


def _parse_properties(values: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for item in values:
        if "=" not in item:
            raise click.BadParameter(f"{item!r} is not KEY=VALUE", param_hint="--property")
        key, value = item.split("=", 1)
        out[key] = value
    return out


@main.command("scan")
@click.option("--user", "user_id", required=True, help="The scope's user (one tenant).")
@click.option("--query", required=True, help="What the agent is about to answer.")
@click.option("--group", default=None, help="Only memories of this group.")
@click.option("--property", "props", multiple=True, metavar="KEY=VALUE",
              help="Only memories with this scope property (repeatable).")
@click.option("--limit", default=DEFAULT_LIMIT, show_default=True, type=click.IntRange(1, 1000),
              help="Hits to scan.")
@click.option("--alpha", default=DEFAULT_ALPHA, show_default=True, type=click.FloatRange(0, 1),
              help="Hybrid weight: 0 = BM25 only, 1 = vector only.")
@_store_options
@_json_option
@_policy_options
@_errors_to_exit
def scan_cmd(user_id: str, query: str, group: str | None, props: tuple[str, ...], limit: int,
             alpha: float, weaviate_url: str | None, data_dir: Path | None, as_json: bool,
             fail_on_conflict: bool, single_epoch: bool, recency_override: bool) -> None:
    """Read-time scan: scoped hybrid search, then flag hits that cannot both be true.

    \b
    Example:
      contrascan scan --user potter-1 --query "preferred glaze" --property rack_id=rack-4
    """
    properties = _parse_properties(props)
    with _open_service(weaviate_url, data_dir, quiet=as_json, single_epoch=single_epoch,
                       recency_override=recency_override) as service:
        result = service.scan(user_id, query, group=group, properties=properties,
                              limit=limit, alpha=alpha)
    emit_report(result.report, as_json=as_json, fail_on_conflict=fail_on_conflict,
                title=f"{user_id}: {query!r}")


@main.command("batch-scan")
@click.option("--user", "user_id", default=None, help="Only this user (default: every user).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Tenants scanned at once (one worker per tenant).")
@click.option("--summary", is_flag=True,
              help="Print counts per tenant instead of the full report (memory bounded by one "
                   "tenant's keys; a tenant unchanged since its last scan is only checked).")
@click.option("--full", is_flag=True,
              help="With --summary: decide every tenant again, even one unchanged since its "
                   "last scan.")
@_store_options
@_json_option
@_policy_options
@_errors_to_exit
def batch_scan_cmd(user_id: str | None, workers: int, summary: bool, full: bool,
                   weaviate_url: str | None, data_dir: Path | None, as_json: bool,
                   fail_on_conflict: bool, single_epoch: bool, recency_override: bool) -> None:
    """Scan every stored memory (after a bulk import) and record the verdicts.

    Each tenant is streamed once with the cursor API; verdicts go to the memories
    (supersedes edges, status) and to the ledger, in batches. Re-running changes nothing.

    The full report (SPEC §5) lists every memory id. With --summary only counts are kept:
    per tenant, memories scanned, conflicts by verdict and what was written. A tenant found
    exactly as the last complete scan of it left it (same memories, statuses, ledger,
    configuration and code) is then reported from that scan's counts without deciding
    again ("unchanged"); --full decides it anyway.

    \b
    Example:
      contrascan batch-scan --user potter-1 --json
      contrascan batch-scan --workers 4
      contrascan batch-scan --summary --json
    """
    if full and not summary:
        raise _UserMistake("--full applies to --summary (the full report always decides)")
    with _open_service(weaviate_url, data_dir, quiet=as_json, single_epoch=single_epoch,
                       recency_override=recency_override) as service:
        total = service.store.count(user_id)
        if user_id is not None and total == 0:
            click.echo(f"contrascan: no memories stored for user {user_id!r}", err=True)
        with _progress(total, "scanning", not as_json) as advance:
            if summary:
                result = service.run_batch_scan(user_id, progress=advance, workers=workers,
                                                full=full)
            else:
                report = service.batch_scan(user_id, progress=advance, workers=workers)
    if not summary:
        emit_report(report, as_json=as_json, fail_on_conflict=fail_on_conflict,
                    title="batch scan")
        return
    emit_batch_summary(result, as_json=as_json)
    if fail_on_conflict and any(n for t in result.tenants
                                for verdict, n in t.by_verdict.items() if verdict != "possible"):
        sys.exit(EXIT_CONFLICTS)


def emit_batch_summary(result: Any, *, as_json: bool) -> None:
    """Print a summary batch scan (:class:`scanner.service.BatchScanResult`): JSON
    ``{"scanned", "seconds", "tenants": [{"user_id", "scanned", "conflicts", "by_verdict",
    "unchanged_since_checkpoint", "edges_added", "statuses_changed", "ledger_written",
    "seconds"}]}`` or a table."""
    rows = [{"user_id": t.user_id, "scanned": t.scanned, "conflicts": t.conflicts,
             "by_verdict": dict(sorted(t.by_verdict.items())),
             "unchanged_since_checkpoint": t.unchanged_since_checkpoint,
             "edges_added": t.applied.edges_added,
             "statuses_changed": t.applied.statuses_changed,
             "ledger_written": t.ledger.written + t.ledger.replaced,
             "seconds": round(t.seconds, 3)} for t in result.tenants]
    if as_json:
        click.echo(json.dumps({"scanned": result.scanned, "seconds": round(result.seconds, 3),
                               "tenants": rows}, indent=2, ensure_ascii=False))
        return
    from scanner.render import render_batch_summary
    render_batch_summary(rows, scanned=result.scanned, seconds=result.seconds)


@main.command("history")
@click.argument("memory_id")
@click.option("--user", "user_id", default=None, help="The memory's user (faster when given).")
@_store_options
@_json_option
@_errors_to_exit
def history_cmd(memory_id: str, user_id: str | None, weaviate_url: str | None,
                data_dir: Path | None, as_json: bool) -> None:
    """What changed around a memory, and why: the supersedes chain and the ledger.

    Every value with its source, source class, epoch and observation time, the rule and
    the memory that retired it, then the ledger: epoch changes, quarantines with their
    re-observation requests, escalations, settlements. With --json: {"memory_id", "user_id",
    "chain", "ledger", "story"}.

    \b
    Example:
      contrascan history cf0-fact --user demo-user-1
    """
    with _open_service(weaviate_url, data_dir, quiet=as_json) as service:
        history = service.history_report(memory_id, user_id)
    if as_json:
        click.echo(json.dumps(history.to_json_dict(), indent=2, ensure_ascii=False))
        return
    from scanner.render import render_history
    render_history(history.chain, memory_id, story=history.story)


@main.command("stats")
@click.option("--user", "user_id", default=None, help="Only this user (default: every user).")
@_store_options
@_json_option
@_errors_to_exit
def stats_cmd(user_id: str | None, weaviate_url: str | None, data_dir: Path | None,
              as_json: bool) -> None:
    """Conflict statistics from the ledger: by relation, verdict and rule; the conflict
    rate of each import; the share of read-time scans whose hits held incompatible values.

    \b
    Example:
      contrascan stats --user potter-1
      contrascan stats --json
    """
    with _open_service(weaviate_url, data_dir, quiet=as_json) as service:
        stats = service.stats(user_id)
    if as_json:
        click.echo(json.dumps(stats.to_json_dict(), indent=2, ensure_ascii=False))
        return
    from scanner.render import render_stats
    render_stats(stats)


@main.command("demo")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the JSON report (default: demo-report.json beside the "
                   "embedded data directory).")
@click.option("--queries", default=3, show_default=True, type=click.IntRange(0, 50),
              help="Read-time scans to show.")
@_store_options
@_json_option
@_errors_to_exit
def demo_cmd(out: Path | None, queries: int, weaviate_url: str | None, data_dir: Path | None,
             as_json: bool) -> None:
    """The main job on bundled real data (CounterFact): import, batch scan, read-time scans.

    \b
    Example:
      contrascan demo --out report.json
    """
    from scanner.demo import run_demo

    run_demo(out=out, queries=queries, weaviate_url=weaviate_url, data_dir=data_dir,
             as_json=as_json, open_service=_open_service, progress=_progress)


@main.command("setup-weaviate")
@_errors_to_exit
def setup_weaviate_cmd() -> None:
    """Provision the pinned Weaviate server binary (reuse, else go install) and print its path.

    \b
    Example:
      contrascan setup-weaviate
    """
    from scanner.store.server import ensure_binary

    path = ensure_binary(log=lambda line: click.echo(line, err=True))
    click.echo(str(path) if path else "not provisioned: the client will try its own download")


EXIT_BLOCKED = 3
EXIT_UNVERIFIED = 4
_VALIDATOR_EXIT = {"pass": 0, "blocked": EXIT_BLOCKED, "unverified": EXIT_UNVERIFIED}
_VALIDATOR_CHECKS = ("intake", "temporal_order", "semantic_recompute", "replay",
                     "positive_floor", "negative_coverage")


@main.command("validate-log", cls=_OneLineUsageCommand)
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", required=True,
              type=click.Path(file_okay=False, path_type=Path),
              help="Directory for result.json, board.json, validation.json, signoff.json.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "mem0-sqlite", "contrascan"]),
              default="jsonl", show_default=True,
              help="FILE is our JSON Lines log, Mem0's SQLite history database, or contrascan "
                   "memory records (with --report).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="With --format contrascan: the scan report of FILE "
                                 "(scan-file FILE --json).")
@click.option("--bodies", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help='JSON Lines of {"ref": ROW_ID, "body": TEXT} to check digests against '
                   "(hashed on reading, never written).")
@click.option("--fixture", is_flag=True,
              help="Validate the bundled fixture (three episodes, seven falsification rows).")
@click.option("--trust-floor", type=click.FloatRange(0, 1), default=0.6, show_default=True,
              help="Least source trust in [0, 1] an UPDATE or DELETE may come from.")
@click.option("--skip-check", "skip", multiple=True, type=click.Choice(_VALIDATOR_CHECKS),
              help="Do not run this check (repeatable), e.g. positive_floor on a production "
                   "log. The board shows it as disabled.")
@click.option("--require-negative-cases", is_flag=True,
              help="Block unless all seven falsification cases have a row (on with --fixture).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the result record as JSON on stdout.")
@_errors_to_exit
def validate_log_cmd(file: Path | None, out_dir: Path, fmt: str, report_path: Path | None,
                     bodies: Path | None, fixture: bool, trust_floor: float,
                     skip: tuple[str, ...], require_negative_cases: bool,
                     as_json: bool) -> None:
    """Audit a memory log's ADD/UPDATE/DELETE/NOOP decisions without trusting their labels.

    Every supersession is recomputed from order, event time, priority and source trust;
    replay credit must rest on resolving evidence; digests are checked against --bodies.
    Four metadata-only records go to --out. Exit codes: 0 pass, 1 error, 3 blocked,
    4 unverified (nothing blocked, but the source lacks fields some rows needed).

    \b
    Example:
      contrascan validate-log --fixture --out /tmp/validator
      contrascan validate-log memory-log.jsonl --bodies bodies.jsonl --out audit --json
      contrascan validate-log history.db --format mem0-sqlite --skip-check positive_floor \\
          --out audit
    """
    from scanner.validator import (
        ValidatorConfig,
        from_mem0_history,
        read_contrascan,
        validate_log,
    )
    from scanner.validator.errors import LogInputError
    from scanner.validator.fixture import FIXTURE_BODIES, FIXTURE_LOG
    from scanner.validator.records import result_record, summary_lines

    if fixture == (file is not None):
        raise LogInputError(None, "give either FILE or --fixture")
    if fixture and fmt != "jsonl":
        raise LogInputError(None, "--fixture is a JSON Lines log; drop --format")
    if (fmt == "contrascan") != (report_path is not None):
        raise LogInputError(None, "--format contrascan and --report REPORT.json go together")
    config = ValidatorConfig(trust_floor=trust_floor, disabled_checks=frozenset(skip),
                             require_negative_cases=require_negative_cases or fixture)
    source: Any = file
    if fixture:
        source, bodies = FIXTURE_LOG, bodies or FIXTURE_BODIES
    elif fmt == "mem0-sqlite":
        source = from_mem0_history(file)
    elif fmt == "contrascan":
        source = read_contrascan(file, report_path)
    result = validate_log(source, out_dir=out_dir, config=config, bodies=bodies)
    for bad in result.malformed:
        who = f" (id {bad.id!r})" if bad.id else ""
        click.echo(f"contrascan: {bad.source} line {bad.line}{who}: field '{bad.field}': "
                   f"{bad.reason}", err=True)
    if as_json:
        click.echo(json.dumps(result_record(result), indent=2, ensure_ascii=False))
    else:
        for line in summary_lines(result):
            click.echo(line)
    if result.status != "pass":
        sys.exit(_VALIDATOR_EXIT[result.status])


if __name__ != "__main__":  # always (``python -m scanner.cli`` runs scanner/cli/__main__.py)
    # imported once ``main`` exists: scanner/cli/serve.py and the ``source`` group register
    # their commands on it
    from scanner.cli import serve as _serve  # noqa: F401
    from scanner.sources.cli import source_group

    main.add_command(source_group)
