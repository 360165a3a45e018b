"""Start-up of the ``contrascan`` command: whole-process runs of light commands (issue 15,
"start-up as light as the command": ``--help`` and ``scan-file`` of a two-line file in ≤ 2 s on
an idle machine).

What is measured, for each command:

* **wall time** of ``--runs`` (default 7) whole runs of the installed console script
  (``<venv>/bin/contrascan``, a fresh interpreter each time, output discarded) after one
  warm-up run that fills the OS page cache: median, minimum and maximum in seconds, and the
  CPU seconds the child used (user + system; on a shared machine the wall clock moves with
  the load, the CPU seconds much less);
* **import time** from one more run under ``python -X importtime`` (CPython's own per-module
  timer): the total of top-level imports, and the cumulative time of the heavy packages
  (torch, spaCy, sentence-transformers, transformers, weaviate, FastAPI) if the command
  imported them at all. This is the figure to compare on a loaded machine.

The commands: ``contrascan --help``, ``contrascan scan-file --help`` and
``contrascan scan-file <two lines> --json`` (two memories of one user that conflict, written to a
temporary file). Then ``contrascan serve`` (issue 35, item 5: ready ≤ 20 s): ``--serve-runs``
(default 3) starts over a fresh data directory each, on free ports, each timed from the start
of the process to the first ``GET /healthz`` that answers 200, then stopped with SIGTERM. The
1-minute load average is recorded before and after. Results go to
``results/startup/<UTC time>.json``.

Usage::

    HF_HUB_OFFLINE=1 .venv/bin/python -m benchmarks.bench_startup [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_S = 2.0
"""Issue 15's target for each command's wall time on an idle machine, in seconds."""
SERVE_TARGET_S = 20.0
"""Issue 35's target for ``contrascan serve`` to answer ``/healthz`` 200, in seconds."""
SERVE_LIMIT_S = 300.0
"""A start that is not ready by then is reported as failed and stopped."""
HEAVY = ("torch", "spacy", "sentence_transformers", "transformers", "weaviate", "fastapi")
"""Top-level packages whose import time is reported (absent = not imported by the command)."""
TWO_LINES = (
    '{"id": "m1", "text": "Ann lives in Paris.", "user_id": "u1"}\n'
    '{"id": "m2", "text": "Ann lives in Rome.", "user_id": "u1"}\n'
)
_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)$")


def console_script() -> Path:
    """The ``contrascan`` script next to this interpreter (``.venv/bin/contrascan``)."""
    script = Path(sys.executable).parent / "contrascan"
    if not script.exists():
        raise SystemExit(f"no console script at {script}: run `make setup` first")
    return script


def timed_run(argv: list[str]) -> tuple[float, float]:
    """One whole-process run: (wall seconds, child CPU seconds, user + system)."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=_env(), check=False)
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(argv)} exited with {done.returncode}")
    cpu = (after.children_user - before.children_user
           + after.children_system - before.children_system)
    return wall, cpu


def import_times(argv: list[str]) -> dict:
    """One run under ``-X importtime``: total top-level import seconds and the heavy packages.

    Returns:
        ``{"total_s": float, "packages_s": {name: cumulative seconds}}`` for the packages of
        :data:`HEAVY` that were imported (a package imported only as a failed attempt, such as
        torch hidden from thinc, counts with its few microseconds).
    """
    script = [sys.executable, "-X", "importtime", str(argv[0]), *argv[1:]]
    done = subprocess.run(script, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=_env(), text=True, check=False)
    total_us, packages = 0, {}
    for line in done.stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match is None:
            continue
        _, cumulative, indent, name = match.groups()
        if len(indent) == 1:  # a top-level import of the program
            total_us += int(cumulative)
        if name in HEAVY:
            packages[name] = max(packages.get(name, 0), int(cumulative))
    return {"total_s": total_us / 1e6,
            "packages_s": {name: us / 1e6 for name, us in sorted(packages.items())}}


def _env() -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1"}


def _load() -> float:
    return os.getloadavg()[0]


def measure(name: str, argv: list[str], runs: int) -> dict:
    """Warm-up, ``runs`` timed runs and one import-time run of ``argv``."""
    timed_run(argv)
    walls, cpus = zip(*(timed_run(argv) for _ in range(runs)))
    return {"command": name, "runs": runs,
            "wall_s": {"median": statistics.median(walls), "min": min(walls),
                       "max": max(walls), "all": list(walls)},
            "cpu_s_median": statistics.median(cpus),
            "imports": import_times(argv)}


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve_ready(script: str) -> float | None:
    """Seconds from starting ``contrascan serve`` over a fresh data directory to its first
    ``/healthz`` 200; None when it is not ready within :data:`SERVE_LIMIT_S`. The server is
    stopped with SIGTERM (killed 60 s later if still running)."""
    import signal

    import httpx

    with tempfile.TemporaryDirectory() as data:
        port = _free_port()
        argv = [script, "serve", "--port", str(port), "--data-dir", data,
                "--weaviate-port", str(_free_port()), "--weaviate-grpc-port", str(_free_port()),
                "--log-level", "warning"]
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env=_env())
        ready = None
        try:
            while time.perf_counter() - start < SERVE_LIMIT_S and process.poll() is None:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2.0,
                                 trust_env=False).status_code == 200:
                        ready = time.perf_counter() - start
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return ready


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (7)")
    parser.add_argument("--serve-runs", type=int, default=3,
                        help="starts of `contrascan serve` timed to /healthz 200 (3; 0: none)")
    parser.add_argument("--out", type=Path, default=REPO / "results" / "startup",
                        help="directory for the JSON result")
    args = parser.parse_args(argv)
    script = str(console_script())
    load_start = _load()
    with tempfile.TemporaryDirectory() as tmp:
        two = Path(tmp) / "two.jsonl"
        two.write_text(TWO_LINES, encoding="utf-8")
        commands = {"contrascan --help": [script, "--help"],
                    "contrascan scan-file --help": [script, "scan-file", "--help"],
                    "contrascan scan-file <2 lines> --json": [script, "scan-file", str(two),
                                                              "--json"]}
        results = [measure(name, cmd, args.runs) for name, cmd in commands.items()]
    serve = [serve_ready(script) for _ in range(args.serve_runs)]
    load_end = _load()
    print(f"1-min load average {load_start:.2f} at the start, {load_end:.2f} at the end; "
          f"{os.cpu_count()} CPUs; target ≤ {TARGET_S:.0f} s per command on an idle machine")
    print(f"{'command':40} {'median s':>9} {'min s':>7} {'max s':>7} {'cpu s':>7} "
          f"{'imports s':>10}  heavy packages imported (cumulative s)")
    for r in results:
        wall, imports = r["wall_s"], r["imports"]
        heavy = ", ".join(f"{k} {v:.3f}" for k, v in imports["packages_s"].items()) or "none"
        print(f"{r['command']:40} {wall['median']:9.2f} {wall['min']:7.2f} {wall['max']:7.2f} "
              f"{r['cpu_s_median']:7.2f} {imports['total_s']:10.3f}  {heavy}")
    if serve:
        ready = [s for s in serve if s is not None]
        print(f"contrascan serve ready (first /healthz 200), {len(serve)} starts over a fresh "
              f"data directory: " + (f"median {statistics.median(ready):.1f} s, min "
                                     f"{min(ready):.1f}, max {max(ready):.1f}" if ready else
                                     "none ready") +
              f" ({len(serve) - len(ready)} not ready within {SERVE_LIMIT_S:.0f} s); "
              f"target ≤ {SERVE_TARGET_S:.0f} s")
    document = {"benchmark": "bench_startup", "primary_metric": "wall_s.median",
                "serve_ready_s": serve, "serve_target_s": SERVE_TARGET_S,
                "target_s": TARGET_S, "python": sys.version.split()[0],
                "cpu_count": os.cpu_count(),
                "load_average_1min": {"start": load_start, "end": load_end},
                "commit": _commit(), "results": results}
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {path}")


def _commit() -> str | None:
    done = subprocess.run(["git", "rev-parse", "--short=10", "HEAD"], cwd=REPO,
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or None


if __name__ == "__main__":
    main()
