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
temporary file). The 1-minute load average is recorded before and after. Results go to
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command (7)")
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
    document = {"benchmark": "bench_startup", "primary_metric": "wall_s.median",
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
