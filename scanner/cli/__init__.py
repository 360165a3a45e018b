"""``contrascan``: the command line (SPEC §6).

Thin click commands over the library, by command group: :mod:`scanner.cli.scans` (``scan-file``,
``scan``, ``batch-scan``), :mod:`scanner.cli.memories` (``import``, ``history``, ``stats``,
``demo``, ``setup-weaviate``), :mod:`scanner.cli.serve`, :mod:`scanner.cli.validate`
(``validate-log``) and :mod:`scanner.sources.cli` (``source``). The root group, exit codes and
shared options are :mod:`scanner.cli.base`. Library errors become one-line messages with exit
code 1; ``--fail-on-conflict`` turns found conflicts into exit code 3.
"""

from __future__ import annotations

from scanner.cli import memories, scans, serve, validate  # noqa: F401  (registers the commands)
from scanner.cli.base import EXIT_CONFLICTS, EXIT_ERROR, EXIT_REJECTED, emit_report, main
from scanner.sources.cli import source_group

main.add_command(source_group)

__all__ = ["EXIT_CONFLICTS", "EXIT_ERROR", "EXIT_REJECTED", "emit_report", "main"]
