"""A ``contrascan`` command run as a person runs it at a terminal: stderr on a pseudo-terminal
(so ``sys.stderr.isatty()`` is true and progress bars are drawn), stdout on a pipe (as when it
is redirected to a file or read by another program)."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class TerminalRun:
    """What the command did: its exit code, its stdout (text) and what it drew on the
    terminal (stderr, raw bytes with the terminal's control sequences)."""

    returncode: int
    stdout: str
    terminal: bytes


def run_at_terminal(args: list[str], *, env: dict[str, str] | None = None,
                    timeout_s: float = 600) -> TerminalRun:
    """``python -m scanner.cli ARGS`` with stderr on a 100x30 pseudo-terminal.

    The terminal is read while the command runs (a full pseudo-terminal would block it)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    drawn = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the command ended and closed its side
                return
            if not chunk:
                return
            drawn.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "TERM": "xterm-256color",
                   "COLUMNS": "100", **(env or {})}
    for name in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        environment.pop(name, None)
    try:
        done = subprocess.run([sys.executable, "-m", "scanner.cli", *args], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=slave, env=environment,
                              timeout=timeout_s, text=True)
    finally:
        os.close(slave)
        reader.join(timeout=30)
        os.close(master)
    return TerminalRun(done.returncode, done.stdout, bytes(drawn))
