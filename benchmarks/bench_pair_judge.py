"""Pair-judge benchmark: what the judge costs a scan, and how it reads pairs it never saw.

Two parts (issue 37):

* ``--scan FILE``: one ``scan-file`` of a JSON Lines file through
  :meth:`scanner.engine.Engine.scan_file`, with the default judge and with rules only
  (``judge=None``), back to back: wall time of each, pairs judged, the judge's wall time per
  candidate pair (p50, p99; a batch's time over its size) and the verdict counts.
  ``python -m benchmarks.bench_pair_judge --scan ../shared/data/beam/memories.jsonl``
* ``--holdout NAME``: trains a judge on every training file but ``NAME``
  (``scanner/data/judge_pairs/NAME.jsonl``), then scores it on ``NAME``'s pairs: accuracy and
  the confusion of the four labels, and how often a ``compatible`` pair would be confirmed
  (the judge's own false-confirmation rate at the default threshold). Takes the training
  time again (minutes).

torch runs on ``--threads`` threads (default 1, as in serving). Results are printed as one
JSON line and written to ``--out`` (default ``results/pair_judge/<part>.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def scan_cost(path: Path) -> dict:
    """Scan ``path`` with the judge and without it; see the module docstring."""
    from scanner.engine import Engine
    from scanner.pair_judge.model import CrossEncoderJudge

    judge = CrossEncoderJudge()
    judge.judge([("warm-up", "warm-up")])
    judge.seconds_per_pair.clear()
    from scanner.config import Settings

    out: dict = {"file": str(path)}
    engine = Engine(Settings().scan_config(), default_judge=False)  # as `scan-file` reads
    extracted = engine.extract  # one parse for both scans: the judge's cost is the difference
    from scanner.records import read_jsonl

    records, _ = read_jsonl(path)
    began = time.perf_counter()
    triples = extracted(records)
    out["extract_s"] = round(time.perf_counter() - began, 2)
    for name, config in (("rules_only", replace(engine.config, judge=None)),
                         ("with_judge", replace(engine.config, judge=judge))):
        began = time.perf_counter()
        report = Engine(config, extractor=engine.extractor, default_judge=False).scan(
            records, triples)
        verdicts = Counter(c.verdict for c in report.conflicts)
        out[name] = {"scan_s": round(time.perf_counter() - began, 2), "verdicts": dict(verdicts)}
    times = judge.seconds_per_pair
    out["pairs_judged"] = len(times)
    out["judge_ms_per_pair"] = {"p50": round(1000 * statistics.median(times), 2) if times else 0,
                                "p99": round(1000 * _percentile(times, 0.99), 2)}
    return out


def holdout(name: str) -> dict:
    """Train without ``name`` and score on it; see the module docstring."""
    from scanner.pair_judge import DEFAULT_THRESHOLD, LABELS
    from scanner.pair_judge.model import CrossEncoderJudge
    from scanner.pair_judge.training import DATA_DIR, data_files, read_pairs, train

    files = data_files()
    held = [f for f in files if f.stem == name]
    if not held:
        raise SystemExit(f"no training file {name}.jsonl in {DATA_DIR}")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        train(read_pairs([f for f in files if f.stem != name]), Path(folder))
        trained_s = time.perf_counter() - began
        rows = [json.loads(line) for line in held[0].read_text().splitlines() if line.strip()]
        test = [e for e in read_pairs(held)][::2]  # each pair once, in its written order
        readings = CrossEncoderJudge(folder).judge([(e.earlier, e.later) for e in test])
    confusion = Counter((LABELS[e.label], r.label) for e, r in zip(test, readings))
    compatible = [r for e, r in zip(test, readings) if LABELS[e.label] == "compatible"]
    changes = [r for e, r in zip(test, readings) if LABELS[e.label] != "compatible"]
    return {"holdout": name, "pairs": len(rows), "train_s": round(trained_s, 1),
            "accuracy": round(sum(n for (a, b), n in confusion.items() if a == b) / len(test), 3),
            "compatible_confirmed": round(sum(r.confirms(DEFAULT_THRESHOLD) for r in compatible)
                                          / max(1, len(compatible)), 3),
            "change_confirmed": round(sum(r.confirms(DEFAULT_THRESHOLD) for r in changes)
                                      / max(1, len(changes)), 3),
            "confusion": {f"{a}->{b}": n for (a, b), n in sorted(confusion.items())}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    part = parser.add_mutually_exclusive_group(required=True)
    part.add_argument("--scan", type=Path, help="a JSON Lines file of memory records")
    part.add_argument("--holdout", help="a training file's name to hold out, e.g. writer_h")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)  # every entry point that embeds sets it deliberately
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    result = scan_cost(args.scan) if args.scan else holdout(args.holdout)
    result["threads"] = args.threads
    out = args.out or Path("results/pair_judge") / ("scan.json" if args.scan else
                                                   f"holdout-{args.holdout}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
