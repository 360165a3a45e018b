"""Read-time scans in worker processes, off the GIL of the process that answers the probes
(issue 18, item 13).

The sidecar answers ``/healthz`` and ``/metrics`` on its event loop. A read-time scan
(embedding the query, decoding the hits, the scan, the verdict writes) is mostly Python that
holds the GIL; run on threads of the sidecar, every scan competes with the event loop for it,
and a scan thread at a lower CPU priority (:mod:`scanner.api.priority`) that is preempted while
holding the GIL stops the loop until it runs again. Measured with 200 clients on two shared
cores (``benchmarks.bench_service``, ``docs/benchmarks.md``): whole-loop stalls of 80-250 ms
in which every probe waits. :class:`ScanWorkers` runs ``Service.scan`` in ``n`` child
processes instead, each with its own interpreter, its own client of the same Weaviate and its
own embedding model (torch's threads bounded as in every entry point that embeds,
:func:`scanner.embeddings.load_model`); the sidecar's request thread only waits on a pipe and
unpickles the result. The workers run at a lower CPU priority (``nice``): a process waiting
for a core holds nothing the event loop needs.

What stays per process: each worker counts its scans in its own read-time tally and writes it
to the ledger as every process does (:class:`scanner.scan_tally.ReadScanTally`), remembers
the verdicts it wrote and when it last read an open ledger entry — as separate ``contrascan``
processes on one store always have. Review decisions the sidecar records are applied by the
next scan, as in one process: each request carries the tenant's decisions as the sidecar
knows them, and a worker whose cache differs reads them again. The sidecar counts the scans in
its own metrics from the returned reports.

Protocol (over each worker's stdin and stdout): length-prefixed pickles. The first message is
the worker's set-up ``{"url", "api_key", "collection", "config", "model", "nice"}`` (the key
never appears in its arguments or environment); the worker answers ``("ready", pid)`` once
its model is loaded, then each request ``{"scan": Service.scan keyword arguments,
"reviews": the tenant's review decisions}`` gets ``("ok", ReadTimeScan)`` or
``("error", exception)``. A worker exits at the end of its stdin
(after writing its tally), when its parent is gone (checked every second), or on SIGTERM.

``python -m scanner.scan_workers`` is the worker's entry point.
"""

from __future__ import annotations

import gc
import os
import pickle
import queue
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from typing import IO, Any

from scanner.errors import ScannerError
from scanner.stats_process import watch_parent

WORKER_NICE = 10
"""Nice value a worker adds to its own (as :data:`scanner.api.priority.DEFAULT_WORK_NICE`)."""
READY_TIMEOUT_S = 300.0
"""Seconds a worker may take to connect and load its model."""
SCAN_TIMEOUT_S = 300.0
"""Seconds one scan may take before its worker is killed (a scan takes tens of ms)."""
STOP_TIMEOUT_S = 5.0
"""Seconds :meth:`ScanWorkers.close` waits for a worker to write its tally and exit before
SIGTERM, and again before SIGKILL."""

_HEADER = struct.Struct("!Q")


class ScanWorkerUnavailable(ScannerError):
    """A scan worker could not start, died, or did not answer in time (``reason``); the
    request may be retried."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"scan worker: {reason}")


def _send(out: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    out.write(_HEADER.pack(len(data)) + data)
    out.flush()


def _receive(source: IO[bytes]) -> Any:
    """The next message, or None at the end of ``source``."""
    head = source.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(head)
    data = source.read(size)
    if len(data) < size:
        return None
    return pickle.loads(data)  # noqa: S301 - our own child, over a private pipe


class _Worker:
    """One worker process and its pipes; used by one request at a time."""

    def __init__(self, setup: dict[str, Any]):
        self._setup = setup
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Spawn the process and send its set-up (does not wait for it to be ready)."""
        env = {k: v for k, v in os.environ.items() if k != "CONTRASCAN_API_KEY"}
        try:
            self.proc = subprocess.Popen([sys.executable, "-m", "scanner.scan_workers"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         env=env)
            _send(self.proc.stdin, self._setup)  # type: ignore[arg-type] - PIPE
        except OSError as err:
            raise ScanWorkerUnavailable(f"cannot start ({err})") from err

    def wait_ready(self, timeout_s: float = READY_TIMEOUT_S) -> None:
        reply = self._reply(timeout_s)
        if not (isinstance(reply, tuple) and reply[0] == "ready"):
            self.stop()
            raise ScanWorkerUnavailable("did not start")

    def call(self, request: dict[str, Any], timeout_s: float = SCAN_TIMEOUT_S) -> Any:
        """Run ``request`` in the worker, starting it first when it is not running. A worker
        that exits before answering (killed just before, or while, the request was sent)
        is replaced and the request sent once more: a read-time scan converges to the same
        stored state when repeated (issue 18, item 10)."""
        try:
            return self._call(request, timeout_s)
        except ScanWorkerUnavailable as err:
            if err.reason != "the worker exited":
                raise
            return self._call(request, timeout_s)

    def _call(self, request: dict[str, Any], timeout_s: float) -> Any:
        if self.proc is None or self.proc.poll() is not None:
            self.stop()
            self.start()
            self.wait_ready()
        try:
            _send(self.proc.stdin, request)  # type: ignore[union-attr, arg-type] - PIPE
            kind, value = self._reply(timeout_s)
        except (OSError, ValueError, AttributeError) as err:  # stopped meanwhile: close()
            self.stop()
            raise ScanWorkerUnavailable(f"the worker is gone ({err})") from err
        if kind == "error":
            raise value
        return value

    def _reply(self, timeout_s: float) -> Any:
        proc = self.proc
        stdout: IO[bytes] = proc.stdout  # type: ignore[union-attr, assignment] - PIPE
        ready, _, _ = select.select([stdout], [], [], timeout_s)
        if not ready:
            self.stop()
            raise ScanWorkerUnavailable(f"no answer within {timeout_s:.0f} s; stopped")
        try:
            reply = _receive(stdout)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError) as err:
            self.stop()
            raise ScanWorkerUnavailable(f"unreadable answer ({err})") from err
        if reply is None:
            self.stop()
            raise ScanWorkerUnavailable("the worker exited")
        return reply

    def end_input(self) -> None:
        """Close the worker's stdin: it writes its tally and exits (see :meth:`stop`)."""
        proc = self.proc
        if proc is not None and proc.stdin is not None:
            try:
                proc.stdin.close()
            except (OSError, ValueError):
                pass

    def stop(self, *, wait_s: float = 0.0) -> None:
        """Stop the process: wait up to ``wait_s`` seconds for it to exit on its own (after
        :meth:`end_input`), then SIGTERM, then SIGKILL after :data:`STOP_TIMEOUT_S`."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if wait_s > 0:
            try:
                proc.wait(timeout=wait_s)
            except subprocess.TimeoutExpired:
                pass
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                try:
                    pipe.close()
                except (OSError, ValueError):
                    pass


class ScanWorkers:
    """``n`` worker processes that run :meth:`scanner.service.Service.scan` (module doc).

    Args:
        url: the store's address for :func:`scanner.store.connection.connect_url`.
        api_key: its API key, or None.
        collection: the memory collection.
        config: the engine's :class:`scanner.scan.ScanConfig` (what decides verdicts).
        model: the embedding model's name or path.
        workers: processes (≥ 1).
        nice: nice value each worker adds to its own.
    """

    def __init__(self, url: str, api_key: str | None, collection: str, config: Any,
                 model: str, *, workers: int, nice: int = WORKER_NICE):
        if workers < 1:
            raise ValueError("workers must be at least 1")
        setup = {"url": url, "api_key": api_key, "collection": collection, "config": config,
                 "model": model, "nice": nice}
        self._workers = [_Worker(setup) for _ in range(workers)]
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._closed = False

    @classmethod
    def for_service(cls, service: Any, *, workers: int,
                    nice: int = WORKER_NICE) -> ScanWorkers | None:
        """Workers that scan as ``service`` does, or None where they cannot: its client's
        server cannot be named for another process (:mod:`scanner.store.address`), its memory
        store is not a plain :class:`~scanner.store.memories.MemoryStore`, or its engine was
        given its own extractor (a worker could not rebuild it)."""
        from scanner.store.address import server_address
        from scanner.store.memories import MemoryStore

        store = getattr(service, "store", None)
        if workers < 1 or type(store) is not MemoryStore:
            return None
        engine = service.engine
        if getattr(engine, "_extractor", None) is not None and not _default_extractor(engine):
            return None
        address = server_address(store.client)
        if address is None:
            return None
        return cls(address.url, address.api_key, store.name, engine.config,
                   service.embedder.model_name, workers=workers, nice=nice)

    @property
    def pids(self) -> list[int]:
        """Process ids of the running workers."""
        return [w.proc.pid for w in self._workers if w.proc is not None
                and w.proc.poll() is None]

    def start(self) -> None:
        """Start every worker and wait until each has loaded its model.

        Raises:
            ScanWorkerUnavailable: a worker could not start (the others are stopped).
        """
        try:
            for w in self._workers:
                w.start()
            for w in self._workers:
                w.wait_ready()
        except BaseException:
            self.close()
            raise
        for w in self._workers:
            self._idle.put(w)

    def scan(self, *, reviews: Any = None, **request: Any) -> Any:
        """``Service.scan(**request)`` in the next free worker; waits for one.

        Args:
            reviews: the tenant's review decisions as the sidecar knows them
                (:meth:`scanner.review.book.ReviewBook.decisions`); a worker whose cached
                decisions differ drops them and reads the ledger again, so a decision the
                sidecar recorded is applied by the next scan, as in one process.
            **request: the keyword arguments of ``Service.scan``.

        Returns:
            The :class:`scanner.service.ReadTimeScan`.

        Raises:
            ScanWorkerUnavailable: closed, or the worker died or timed out (it is started
                again for the next request).
            Exception: what ``Service.scan`` raised in the worker.
        """
        if self._closed:
            raise ScanWorkerUnavailable("stopped")
        worker = self._idle.get()
        try:
            if self._closed:
                raise ScanWorkerUnavailable("stopped")
            return worker.call({"reviews": reviews, "scan": request})
        finally:
            self._idle.put(worker)

    def close(self) -> None:
        """Stop every worker: idle ones write their tally and exit; busy ones are ended
        (their request then raises :class:`ScanWorkerUnavailable`)."""
        self._closed = True
        for w in self._workers:
            w.end_input()
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for w in self._workers:
            w.stop(wait_s=max(0.0, deadline - time.monotonic()))


def _default_extractor(engine: Any) -> bool:
    """Whether the engine's extractor is the one its config would build."""
    from extractors import TripleExtractor

    return type(engine._extractor) is TripleExtractor  # noqa: SLF001 - read only


# ------------------------------------------------------------------------------ the worker


def _transportable(err: Exception) -> Exception:
    """``err`` if it survives pickling, else a :class:`ScanWorkerUnavailable` naming it."""
    try:
        pickle.loads(pickle.dumps(err))  # noqa: S301 - our own object
        return err
    except Exception:  # noqa: BLE001 - any failure to round-trip
        return ScanWorkerUnavailable(f"{type(err).__name__}: {err}")


def main() -> int:
    """The worker: set up, answer scans until stdin ends (module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the sidecar; it stops us
    out = os.fdopen(os.dup(1), "wb")  # replies; anything a library prints goes to stderr
    os.dup2(2, 1)
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True,
                     name="contrascan-scan-worker-parent").start()
    source = sys.stdin.buffer
    setup = _receive(source)
    if setup is None:
        return 0
    try:
        os.nice(int(setup.get("nice") or 0))
    except OSError:
        pass

    from scanner.embeddings import Embedder
    from scanner.engine import Engine
    from scanner.service import Service
    from scanner.store.connection import connect_url
    from scanner.store.wiring import weaviate_stores

    client = connect_url(setup["url"], api_key=setup.get("api_key"))
    service = None
    try:
        service = Service(weaviate_stores(client, setup["collection"]),
                          engine=Engine(setup["config"]), embedder=Embedder(setup["model"]))
        service.embedder.encode(["warm-up"])
        gc.collect()
        gc.freeze()  # the model out of the collector's passes, as in the sidecar
        _send(out, ("ready", os.getpid()))
        while (request := _receive(source)) is not None:
            try:
                scan, reviews = request["scan"], request.get("reviews")
                if reviews is not None and service.reviews.decisions(
                        scan["user_id"]) != reviews:
                    service.reviews.forget(scan["user_id"])  # the sidecar recorded one
                reply = ("ok", service.scan(**scan))
            except Exception as err:  # noqa: BLE001 - raised again in the sidecar
                reply = ("error", _transportable(err))
            _send(out, reply)
    except BrokenPipeError:
        return 0
    finally:
        if service is not None:
            service.close()  # the read-time tally
        client.close()
        try:
            out.close()
        except BrokenPipeError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
