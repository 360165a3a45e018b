"""Stop the embedded Weaviate when the process that started it dies (issue 18, item 12).

weaviate-client's embedded mode starts the server with a plain ``subprocess.Popen``
(client:embedded.py ``start``): no ``preexec_fn``, so ``PR_SET_PDEATHSIG`` cannot be set on it,
and after a SIGKILL of its owner the server keeps running with nobody to stop it. (The
death signal would not fit anyway: Linux sends it when the *thread* that forked the child
exits, prctl(2), and the owner may start the server from a worker thread.)

:func:`watch_server` starts a **watchdog** instead: a small Python process running this file
(standard library only, ``python -I -S``, ~10 MB) whose standard input is the read end of a
pipe. The owner keeps the write end, never inherited by other programs (``O_CLOEXEC``). When
the owner exits for any reason, SIGKILL included, the kernel closes the write end and the
watchdog reads end-of-file; unlike the death signal this works on every POSIX system. It then does what the owner's ``close()`` would have
done (:mod:`scanner.store.server`): waits until no guest process uses the server (an exclusive
``flock`` on the guests lock file, at most ``guest_wait_s``), stops the server (SIGTERM, up to
``stop_timeout_s``, then SIGKILL) and removes the state file if it still names the dead owner.

The watchdog exits by itself once the server is gone, so a server stopped the normal way takes
its watchdog with it; :meth:`Watchdog.release` closes the pipe and reaps it. If the watchdog
is killed too, the next owner still reclaims the stale server from the data directory
(``server._stop_orphans``). The watchdog ignores SIGINT and SIGHUP: a Ctrl-C in the owner's
terminal must not stop it before it has done its job.

Run as a program (by :func:`watch_server` only)::

    python -I -S lifecycle.py SERVER_PID OWNER_PID DATA_DIR GUEST_WAIT_S STOP_TIMEOUT_S

This module imports nothing from ``scanner`` so that it runs without the package on the path.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

GUESTS_LOCK_FILE_NAME = ".contrascan-guests.lock"
"""The guests lock file of :mod:`scanner.store.server` (kept equal to its constant)."""
STATE_FILE_NAME = ".contrascan-server.json"
"""The state file of :mod:`scanner.store.server` (kept equal to its constant)."""
POLL_S = 1.0
"""Seconds between the watchdog's checks that the server still runs (while it waits for the
pipe to close)."""
KILL_WAIT_S = 5.0
"""Seconds to wait for the server to vanish after SIGKILL."""


class Watchdog:
    """A running watchdog process and the write end of its pipe (held by the owner).

    Attributes:
        pid: the watchdog's process id.
        server_pid: the Weaviate server it watches.
    """

    def __init__(self, process: subprocess.Popen[bytes], write_fd: int, server_pid: int):
        self._process = process
        self._write_fd: int | None = write_fd
        self.pid = process.pid
        self.server_pid = server_pid

    def release(self, timeout_s: float = 5.0) -> None:
        """Close the pipe after the owner stopped the server itself, and reap the watchdog.

        The watchdog finds the server gone and exits; if it is still waiting after
        ``timeout_s`` seconds (the server is still running, e.g. stopping it failed) it is
        left to finish its job on its own, as after the owner's death.
        """
        fd, self._write_fd = self._write_fd, None
        if fd is not None:
            os.close(fd)
        try:
            self._process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            pass


def watch_server(server_pid: int, data_dir: Path, *, guest_wait_s: float,
                 stop_timeout_s: float) -> Watchdog | None:
    """Start a watchdog that stops ``server_pid`` once this process is gone.

    Args:
        server_pid: the embedded Weaviate server this process started.
        data_dir: its data directory (guests lock and state file).
        guest_wait_s: seconds the watchdog waits for guests before it stops the server.
        stop_timeout_s: seconds between SIGTERM and SIGKILL.

    Returns:
        The watchdog (keep it until the server is stopped, then :meth:`Watchdog.release`), or
        ``None`` when the watchdog process could not be started: the next start then
        reclaims a server left running.
    """
    read_fd, write_fd = os.pipe()  # both O_CLOEXEC: no other child inherits them
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", str(Path(__file__).resolve()), str(server_pid),
             str(os.getpid()), str(data_dir), repr(float(guest_wait_s)),
             repr(float(stop_timeout_s))],
            stdin=read_fd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            close_fds=True, start_new_session=False,
        )
    except OSError:
        os.close(write_fd)
        return None
    finally:
        os.close(read_fd)
    return Watchdog(process, write_fd, server_pid)


# --------------------------------------------------------------------------- the watchdog


def _start_time(pid: int) -> str | None:
    """Field 22 of ``/proc/<pid>/stat`` (start time in clock ticks since boot), ``"Z"`` for a
    zombie, ``""`` without ``/proc`` while the process exists, ``None`` when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return None
    except OSError:
        stat = ""
    if stat:
        fields = stat.rpartition(")")[2].split()  # the name may contain spaces
        return "Z" if fields[0] in ("Z", "X") else fields[19]
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass
    return ""


def _same_process_running(pid: int, started: str | None) -> bool:
    now = _start_time(pid)
    return now is not None and now != "Z" and now == started


def _wait_for_guests(data_dir: Path, wait_s: float) -> int | None:
    """An fd holding the guests lock exclusively, or None after ``wait_s`` seconds."""
    try:
        fd = os.open(data_dir / GUESTS_LOCK_FILE_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except OSError as err:
            if err.errno not in (errno.EAGAIN, errno.EACCES) or time.monotonic() >= deadline:
                os.close(fd)
                return None
        time.sleep(0.2)


def _stop(pid: int, started: str | None, timeout_s: float) -> None:
    for sig, wait_s in ((signal.SIGTERM, timeout_s), (signal.SIGKILL, KILL_WAIT_S)):
        if not _same_process_running(pid, started):
            return
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and _same_process_running(pid, started):
            time.sleep(0.1)


def _forget_owner(data_dir: Path, owner_pid: int) -> None:
    path = data_dir / STATE_FILE_NAME
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if isinstance(state, dict) and state.get("pid") == owner_pid:
        path.unlink(missing_ok=True)


def _watch(argv: list[str]) -> int:
    server_pid, owner_pid = int(argv[0]), int(argv[1])
    data_dir, guest_wait_s, stop_timeout_s = Path(argv[2]), float(argv[3]), float(argv[4])
    for sig in (signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    started = _start_time(server_pid)
    while True:
        if not _same_process_running(server_pid, started):
            return 0  # stopped by its owner (or died): nothing to do
        ready, _, _ = select.select([0], [], [], POLL_S)
        if ready and os.read(0, 1) == b"":
            break  # every write end closed: the owner exited or released us
    if not _same_process_running(server_pid, started):
        return 0
    guests_fd = _wait_for_guests(data_dir, guest_wait_s)
    try:
        _stop(server_pid, started, stop_timeout_s)
        _forget_owner(data_dir, owner_pid)
    finally:
        if guests_fd is not None:
            os.close(guests_fd)
    return 0


if __name__ == "__main__":
    sys.exit(_watch(sys.argv[1:]))
