"""The store statistics computed in a process of their own, off the sidecar's GIL (issue 18).

``GET /metrics`` serves store-wide figures (:class:`scanner.metrics.StoreStatsCollector`) that
come from a stream of every ledger entry: ~20 s of Python (decoding, validating and counting
200k entries) per refresh. Run on a thread of the sidecar, that work holds the GIL whenever the
event loop lets go of it, and the probes answered on the loop wait: measured with 200 clients
on two cores (``benchmarks.bench_service``, ``docs/benchmarks.md``), probes during a refresh had
p99 64-171 ms against 28-83 ms outside it. :class:`StatsProcess` moves the computation into a
child process with its own interpreter and its own client of the same Weaviate; the sidecar's
refresh thread only waits on a pipe (the GIL released) and decodes a few kB of JSON.

Why not counters kept as verdicts are written: the ledger is written by every contrascan
process on the store (imports, batch scans, ``scan`` on the command line, other sidecars), and
an entry changes status after it is written (open -> settled, moot, withdrawn); counters of one
process would count its own writes only, and Weaviate has no atomic increment to keep shared
ones. The ledger stays the one source of the figures.

The child runs at a lower CPU priority (:data:`CHILD_NICE`): unlike a thread, a process that
waits for a core holds no lock the event loop needs, so lowering it costs the probes nothing
(with a refresh *thread* at nice 10 the probes got worse: :mod:`scanner.api.priority`).

Protocol (JSON lines over the child's stdin and stdout): the first line is the store's address
``{"url", "api_key", "collection"}`` (the key never appears in the child's arguments or
environment); then each request ``{"user_id": null | "u"}`` gets one reply
``{"stats": Stats.to_json_dict(), "cpu_s": float}`` or ``{"error": "..."}``. The child exits at
the end of its stdin, when its parent is gone (checked every second), or on SIGTERM.

``python -m scanner.stats_process`` is the child's entry point.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Any

from scanner.core.ledger_stats import Stats, compute_stats
from scanner.errors import ScannerError

CHILD_NICE = 10
"""Nice value the child adds to its own (see the module docstring; CFS weighs a nice-10 task
110 against 1024 at nice 0, kernel/sched/core.c ``sched_prio_to_weight``)."""
REPLY_TIMEOUT_S = 900.0
"""Seconds a computation may take before the child is killed (one refresh of 200k entries
took 18 s alone and up to 96 s on a loaded two-core machine, ``docs/benchmarks.md``)."""
STOP_TIMEOUT_S = 5.0
"""Seconds :meth:`StatsProcess.close` waits for the child after SIGTERM before SIGKILL."""
PARENT_CHECK_S = 1.0
"""Seconds between the child's checks that its parent still runs."""


class StatsUnavailable(ScannerError):
    """The statistics process failed: it could not start, died, timed out or reported an
    error (``reason``)."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"store statistics process: {reason}")


def store_stats(memories: Any, ledger: Any, user_id: str | None = None) -> Stats:
    """The figures of :meth:`scanner.service.Service.stats` from a memory store and its ledger
    (without flushing a read-time tally: the child has none; its parent flushes its own).

    Args:
        memories: a :class:`scanner.store.protocols.MemoryStoreProtocol`.
        ledger: a :class:`scanner.store.protocols.LedgerStoreProtocol` of the same collection.
        user_id: one tenant, or None for all.

    Returns:
        :func:`scanner.core.ledger_stats.compute_stats` over the streamed entries.
    """
    users = [user_id] if user_id else memories.user_ids()
    imported: dict[tuple[str, str], str] = {}
    for uid in users:
        imported.update(((uid, mid), t) for mid, t in memories.import_times(uid).items())
    entries = (e for uid in users for e in ledger.iterate(uid))
    return compute_stats(entries, imported)


class StatsProcess:
    """A child process that computes the store statistics on request (module docstring).

    Started on the first :meth:`stats` call (and again after it died); one request at a time.

    Args:
        url: the store's address for :func:`scanner.store.connection.connect_url`.
        api_key: its API key, or None.
        collection: the memory collection (the ledger is ``<collection>Ledger``).
        timeout_s: seconds one computation may take.
    """

    def __init__(self, url: str, api_key: str | None, collection: str, *,
                 timeout_s: float = REPLY_TIMEOUT_S):
        self._hello = json.dumps({"url": url, "api_key": api_key, "collection": collection})
        self._timeout_s = timeout_s
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._closed = False
        self.last_cpu_s: float | None = None
        """CPU seconds (user + system) the child spent on the last computation."""

    @classmethod
    def for_service(cls, service: Any) -> StatsProcess | None:
        """A statistics process over the store of ``service``, or None where its client's
        server cannot be named for another process (:func:`scanner.store.address.server_address`)
        or its memory store is not a plain :class:`scanner.store.memories.MemoryStore`."""
        from scanner.store.address import server_address
        from scanner.store.memories import MemoryStore

        store = getattr(service, "store", None)
        if type(store) is not MemoryStore:
            return None
        address = server_address(store.client)
        if address is None:
            return None
        return cls(address.url, address.api_key, store.name)

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def stats(self, user_id: str | None = None) -> Stats:
        """Compute the statistics in the child (starting it if needed) and wait for them.

        Raises:
            StatsUnavailable: closed, the child could not start, died, took longer than
                ``timeout_s`` (it is then killed), or reported an error.
        """
        with self._lock:
            if self._closed:
                raise StatsUnavailable("closed")
            proc = self._running()
            try:
                proc.stdin.write(  # type: ignore[union-attr] - Popen(stdin=PIPE)
                    json.dumps({"user_id": user_id}).encode() + b"\n")
                proc.stdin.flush()  # type: ignore[union-attr]
            except OSError as err:
                self._stop(proc)
                raise StatsUnavailable(f"the child is gone ({err})") from err
            reply = self._reply(proc)
        if "error" in reply:
            raise StatsUnavailable(str(reply["error"]))
        self.last_cpu_s = reply.get("cpu_s")
        return Stats.from_json_dict(reply["stats"])

    def close(self) -> None:
        """Stop the child (SIGTERM, SIGKILL after :data:`STOP_TIMEOUT_S`); later calls of
        :meth:`stats` raise. A computation in progress ends with :class:`StatsUnavailable`."""
        self._closed = True
        proc = self._proc
        if proc is None:
            return
        # a stats() call reading the pipes sees their end and closes them itself
        idle = self._lock.acquire(blocking=False)
        try:
            self._stop(proc, close_pipes=idle)
        finally:
            if idle:
                self._lock.release()

    def _running(self) -> subprocess.Popen[bytes]:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            return proc
        env = {k: v for k, v in os.environ.items() if k != "CONTRASCAN_API_KEY"}
        env["OMP_NUM_THREADS"] = "1"  # torch is imported with the store modules, never used
        try:
            proc = subprocess.Popen([sys.executable, "-m", "scanner.stats_process"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
            proc.stdin.write(self._hello.encode() + b"\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
        except OSError as err:
            raise StatsUnavailable(f"cannot start ({err})") from err
        self._proc = proc
        return proc

    def _reply(self, proc: subprocess.Popen[bytes]) -> dict[str, Any]:
        stdout: IO[bytes] = proc.stdout  # type: ignore[assignment] - Popen(stdout=PIPE)
        ready, _, _ = select.select([stdout], [], [], self._timeout_s)
        if not ready:
            self._stop(proc)
            raise StatsUnavailable(f"no answer within {self._timeout_s:.0f} s; stopped")
        line = stdout.readline()
        if not line:
            self._stop(proc)
            raise StatsUnavailable(f"the child exited (status {proc.returncode})")
        try:
            reply = json.loads(line)
        except ValueError as err:
            self._stop(proc)
            raise StatsUnavailable("unreadable answer") from err
        if not isinstance(reply, dict):
            self._stop(proc)
            raise StatsUnavailable("unreadable answer")
        return reply

    def _stop(self, proc: subprocess.Popen[bytes], *, close_pipes: bool = True) -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if close_pipes:
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    try:
                        pipe.close()
                    except OSError:
                        pass
        if self._proc is proc:
            self._proc = None


# ------------------------------------------------------------------------------- the child


def watch_parent(parent: int) -> None:
    """Exit this child process once its parent ``parent`` is gone (checked every
    :data:`PARENT_CHECK_S` seconds); run on a daemon thread."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)  # the sidecar is gone (killed): nobody reads the answer


def _answer(out: IO[bytes], reply: dict[str, Any]) -> None:
    out.write(json.dumps(reply).encode() + b"\n")
    out.flush()


def main() -> int:
    """The child: read the address, then answer requests until stdin ends (module doc)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the sidecar; it stops us
    try:
        os.nice(CHILD_NICE)
    except OSError:
        pass
    # replies go to a private copy of stdout; anything a library prints goes to stderr
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True,
                     name="contrascan-stats-parent").start()
    hello = sys.stdin.buffer.readline()
    if not hello:
        return 0
    address = json.loads(hello)

    from scanner.store.connection import connect_url
    from scanner.store.ledger import LedgerStore
    from scanner.store.memories import MemoryStore

    client = None
    try:
        for line in sys.stdin.buffer:
            request = json.loads(line)
            started = time.process_time()
            try:
                if client is None:
                    client = connect_url(address["url"], api_key=address.get("api_key"))
                memories = MemoryStore(client, address["collection"])
                stats = store_stats(memories, LedgerStore(client, memories.name),
                                    request.get("user_id"))
            except Exception as err:  # noqa: BLE001 - reported to the parent, which retries
                _answer(out, {"error": f"{type(err).__name__}: {err}"})
                continue
            _answer(out, {"stats": stats.to_json_dict(),
                          "cpu_s": time.process_time() - started})
    except BrokenPipeError:
        return 0
    finally:
        if client is not None:
            client.close()
        try:
            out.close()
        except BrokenPipeError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
