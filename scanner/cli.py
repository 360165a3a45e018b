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

from scanner.errors import ScannerError
from scanner.models import ScanReport

EXIT_ERROR = 1
EXIT_CONFLICTS = 3


def _json_option(func: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True,
                        help="Print the SPEC §5 report as JSON on stdout.")(func)


def _store_options(func: Callable) -> Callable:
    func = click.option("--weaviate-url", envvar="CONTRASCAN_WEAVIATE_URL", default=None,
                        help="Use this Weaviate instead of the embedded default, e.g. "
                             "http://127.0.0.1:8080 (API key from CONTRASCAN_WEAVIATE_API_KEY)."
                        )(func)
    func = click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path),
                        envvar="CONTRASCAN_DATA_DIR", default=None,
                        help="Data directory of the embedded Weaviate (default: the user's "
                             "data dir).")(func)
    return func


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
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ScannerError as err:
            click.echo(f"contrascan: {err}", err=True)
            sys.exit(EXIT_ERROR)
        except OSError as err:
            click.echo(f"contrascan: {err.strerror or err}: {err.filename or ''}".rstrip(": "),
                       err=True)
            sys.exit(EXIT_ERROR)
    return wrapper


def _engine(single_epoch: bool = False, recency_override: bool = False):
    from scanner.engine import Engine
    from scanner.policy import PolicyConfig
    from scanner.scan import ScanConfig

    policy = PolicyConfig(single_epoch=single_epoch, recency_override=recency_override)
    return Engine(ScanConfig(policy=policy))


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
    decided = [c for c in report.conflicts if c.verdict != "possible"]
    if fail_on_conflict and decided:
        sys.exit(EXIT_CONFLICTS)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="contrascan")
def main() -> None:
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
    report = _engine(single_epoch, recency_override).scan_file(file)
    emit_report(report, as_json=as_json, fail_on_conflict=fail_on_conflict, title=str(file))


if __name__ == "__main__":
    main()
