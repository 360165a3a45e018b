"""Locks and the ownership record of an embedded server's data directory (SPEC §7).

**Sharing one embedded server between processes.** The process that starts the server (the
*owner*) holds an exclusive ``flock`` on ``<data_dir>/.contrascan.lock``; any other contrascan
process on the same data dir (a *guest*) connects to the owner's server and, for as long as its
client is open, holds a shared ``flock`` on ``<data_dir>/.contrascan-guests.lock``. The owner
does not hand its server over: when it closes (also at interpreter exit), it waits until it can
take that file exclusively, i.e. until no guest uses the server, logging ``waiting for N other
contrascan process(es) using this Weaviate``; after ``guest_wait_s`` (default 10 min) it stops the
server anyway and says so. While it holds the file exclusively no new guest can join: a process
arriving then waits for the data dir lock and starts a fresh server itself. The kernel drops a
``flock`` when its process dies, so a killed guest never blocks an owner. A new owner that finds
a server orphaned by a killed owner waits the same way for that server's guests before stopping
it. A long-running guest (``contrascan serve``) keeps an owner waiting for the whole wait: start
it first, so that it owns the server. Not covered: a Ctrl-C in the owner's terminal reaches the
server too (it is in the owner's process group, started by weaviate-client) and stops it at
once; guests then fail with a one-line :class:`~scanner.errors.WeaviateUnavailable`.

The owner records ``{pid, server_pid, port, grpc_port, version, data_dir}`` in
``<data_dir>/.contrascan-server.json`` (:func:`read_state`, :func:`write_state`), which guests
read to find its server. Locks held by another user are never waited for
(:mod:`scanner.store.access`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from scanner.errors import DataDirectoryBusy
from scanner.store import access

LOCK_FILE_NAME = ".contrascan.lock"
"""File in the data dir that the owning process holds an exclusive ``flock`` on."""


GUESTS_LOCK_FILE_NAME = ".contrascan-guests.lock"
"""File in the data dir that every guest process holds a shared ``flock`` on while it uses the
owner's server; the owner takes it exclusively before it stops the server."""


IMPORT_LOCK_FILE_NAME = ".contrascan-import.lock"
"""File in the data dir that :func:`import_lock` holds an exclusive ``flock`` on."""


STATE_FILE_NAME = ".contrascan-server.json"
"""File in the data dir with the owner's ``{pid, server_pid, port, grpc_port, version,
data_dir}`` and, once started, ``watchdog_pid`` (:mod:`scanner.store.lifecycle`),
``launcher_pid`` (the Weaviate process's parent when it runs in a network of its own,
:mod:`scanner.store.private_network`) and ``private_network`` (whether it does)."""


GUEST_WAIT_S = 600.0
"""Default seconds an owner waits for its guests to finish before it stops the server anyway."""


Log = Callable[[str], None]


def quiet(_message: str) -> None:
    """Default ``log`` callable: discard progress messages."""


@contextlib.contextmanager
def flocked(path: Path, poll_s: float = 0.2) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` for the duration of the block, waiting for this
    user's other processes to release it, never for another user's.

    Raises:
        DataDirectoryBusy: another user's process holds the lock
            (:func:`scanner.store.access.held_by_another_user`), at once.
    """
    fd = access.open_private(path)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as err:
                if err.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
            holders = access.lock_holders(path, "WRITE")
            if access.held_by_another_user(path, holders):
                raise DataDirectoryBusy(str(path.parent), holders[0] if holders else None,
                                        lock=path.name)
            time.sleep(poll_s)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def read_state(data_dir: Path) -> dict[str, Any] | None:
    try:
        state = json.loads((data_dir / STATE_FILE_NAME).read_text())
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def write_state(data_dir: Path, state: dict[str, Any]) -> None:
    path = data_dir / STATE_FILE_NAME
    staging = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    with os.fdopen(access.open_private(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                   "w") as out:
        out.write(json.dumps(state, indent=1) + "\n")
    os.replace(staging, path)


def join_as_guest(data_dir: Path) -> int | None:
    """Register this process as a guest of the data dir's server: a descriptor holding a shared
    ``flock`` on the guests lock file, or ``None`` when the owner holds it exclusively (it is
    stopping its server)."""
    fd = access.open_private(data_dir / GUESTS_LOCK_FILE_NAME)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as err:
        os.close(fd)
        if err.errno not in (errno.EAGAIN, errno.EACCES):
            raise
        return None
    return fd


def wait_for_guests(data_dir: Path, wait_s: float, say: Log) -> int | None:
    """Wait until no guest uses the data dir's server, then keep new ones out.

    Returns:
        A descriptor holding the guests lock file exclusively (close it once the server is
        stopped and the data dir lock released), or ``None`` when guests still held it after
        ``wait_s`` seconds (both outcomes are logged).
    """
    path = data_dir / GUESTS_LOCK_FILE_NAME
    fd = access.open_private(path)
    deadline = time.monotonic() + wait_s
    waited = False
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                if waited:
                    say("the other contrascan processes are done; stopping Weaviate")
                return fd
            except OSError as err:
                if err.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
            holders = access.lock_holders(path, "READ")
            if access.held_by_another_user(path, holders):
                # another user opened the file while the dir was readable: not a guest of ours
                say(f"ignoring the lock on {path} held by another user's process "
                    f"(pid {', '.join(map(str, holders))}); stopping Weaviate")
                os.close(fd)
                return None
            who = (f"{len(holders)} other contrascan process(es)" if holders
                   else "other contrascan process(es)")
            if not waited:
                pids = f"pid {', '.join(map(str, holders))}; " if holders else ""
                say(f"waiting for {who} using this Weaviate to finish ({pids}data dir "
                    f"{data_dir}; at most {wait_s:.0f} s)")
                waited = True
            if time.monotonic() >= deadline:
                say(f"{who} still using this Weaviate after {wait_s:.0f} s; stopping it anyway")
                os.close(fd)
                return None
            time.sleep(0.2)
    except BaseException:
        os.close(fd)
        raise
