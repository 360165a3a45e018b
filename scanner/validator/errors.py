"""Errors raised by the replay validator.

They hang under the scanner's root, so the CLI's one-line error handling covers them::

    ScannerError
    └── ValidatorError         anything the validator raises on purpose
        ├── LogInputError      an input cannot be read as a whole (missing, not a file, not
        │                      SQLite, no ``history`` table, options that do not fit together)
        └── OutputError        the output directory cannot be created or written

A bad *line* of a log is never an error: it is reported with its line number and field and
the rest of the log is still checked (issue 7).
"""

from __future__ import annotations

from scanner.errors import ScannerError


class ValidatorError(ScannerError):
    """Root of every error the validator raises on purpose."""


class LogInputError(ValidatorError):
    """An input (log, bodies file, adapter source) cannot be read at all.

    Attributes:
        path: the input as given, or ``None`` when the problem is not about one file.
        reason: what is wrong with it.
    """

    def __init__(self, path: str | None, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: {reason}" if path else reason)


class OutputError(ValidatorError):
    """The output directory cannot be created or a record cannot be written.

    Attributes:
        path: the directory or file that failed.
        reason: the operating system's explanation.
    """

    def __init__(self, path: str, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(f"cannot write {path}: {reason}")
