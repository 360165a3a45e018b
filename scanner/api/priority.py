"""Request work at a lower CPU priority than the event loop that answers probes.

The sidecar answers ``/healthz`` and ``/metrics`` on its event loop and runs ``/v1/`` requests
(scans, writes, history) on worker threads. On a machine whose cores are all busy, the loop's
thread waits for a core behind that work (measured with 200 clients on two cores,
``benchmarks.bench_service``: the loop's thread waited on the run queue 0.39-0.51 s per second
while it ran 0.25-0.28 s). :func:`lower_thread_priority` gives the calling worker thread a
higher nice value once, so Linux's scheduler runs the event loop first when both are ready; the
work still gets every cycle nobody else wants. Only the worker thread changes: the event loop,
Weaviate and other processes keep theirs. Read-time scans in worker processes
(:mod:`scanner.scan_workers`, the default of ``contrascan serve``) get the same nice value as
processes; the request thread that waits for them keeps the loop's priority, since it holds the
GIL only to unpickle the result.

Only request-sized work is lowered, not the long whole-store work (the store statistics'
refresh, batch scans): a lowered thread that holds the GIL while it waits for a core makes the
event loop wait for the GIL in turn (priority inversion). Measured: with the refresh thread at
nice 10, probes during the refresh had p99 98-102 ms against 64-66 ms outside it; at nice 0 the
refresh also ran 25-39 s instead of 49 s (same load).

Linux only: there a thread's nice value is its own (``setpriority(PRIO_PROCESS, tid)``, man 2
setpriority, NOTES: "a per-thread attribute"); elsewhere the call would name a process, so
nothing is changed. Raising a nice value needs no privilege.
"""

from __future__ import annotations

import os
import sys
import threading

DEFAULT_WORK_NICE = 10
"""Nice value added to a worker thread running ``/v1/`` work. Under Linux's CFS a thread at
nice 10 weighs 110 against 1024 at nice 0 (kernel/sched/core.c, ``sched_prio_to_weight``):
when both are runnable on one core the event loop gets ~90 % of it, and the work all the rest."""

_state = threading.local()


def lower_thread_priority(nice: int = DEFAULT_WORK_NICE) -> int | None:
    """Raise the calling thread's nice value by ``nice``, once per thread.

    Args:
        nice: 0-19; 0 leaves the thread as it is.

    Returns:
        The thread's nice value after the call, or None where it is not changed (not Linux,
        ``nice`` 0, or the system refused).
    """
    if nice <= 0 or not sys.platform.startswith("linux"):
        return None
    done = getattr(_state, "nice", None)
    if done is not None:
        return done
    tid = threading.get_native_id()
    try:
        current = os.getpriority(os.PRIO_PROCESS, tid)
        target = min(19, current + nice)
        os.setpriority(os.PRIO_PROCESS, tid, target)
    except OSError:
        _state.nice = None
        return None
    _state.nice = target
    return target


def thread_nice() -> int:
    """The calling thread's own nice value (Linux; the process's elsewhere)."""
    tid = threading.get_native_id() if sys.platform.startswith("linux") else 0
    return os.getpriority(os.PRIO_PROCESS, tid)
