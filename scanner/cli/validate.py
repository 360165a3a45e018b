"""The ``validate-log`` command (issue 7): check an exported memory log."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from scanner.cli.base import FiniteFloatRange, _OneLineUsageCommand, _errors_to_exit, main


# -- validate-log (issue 7) -----------------------------------------------------------------
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
@click.option("--trust-floor", type=FiniteFloatRange(0, 1), default=0.6, show_default=True,
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
