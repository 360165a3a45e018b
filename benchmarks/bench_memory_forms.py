"""Memory-forms benchmark: earlier/later memory pairs in the six forms agents store memory in.

``benchmarks/data/memory_forms.jsonl`` holds 120 scenarios written for this project by a
writer who had not seen the extractor's rules (80 updates, 40 look-alike negatives; 20 per
form: first-person chat, "the user" statements, subject-less memory-writer facts, third-person
named facts, role/setting copulas and identifiers, labelled profile lines). Each scenario
becomes two memory records in a scope of its own (same source class and epoch, the later one
observed a day later) and all go through one :meth:`scanner.engine.Engine.scan_file` call,
the ``contrascan scan-file`` code path, with the default configuration.

Figures, per form and overall: updates resolved in favour of the later memory, updates
flagged at all (any verdict), and negatives decided against (should be 0).

Usage: ``python -m benchmarks.bench_memory_forms [--data FILE] [--out results/memory_forms]``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

DATA = Path(__file__).resolve().parent / "data" / "memory_forms.jsonl"


def records(scenarios: list[dict]) -> list[dict]:
    """Two SPEC §4 records per scenario: ``s<i>-a`` (earlier) and ``s<i>-b`` (later), in the
    scope ``u<i>``."""
    out = []
    for i, s in enumerate(scenarios):
        for suffix, text, day in (("a", s["earlier"], 1), ("b", s["later"], 2)):
            out.append({"id": f"s{i}-{suffix}", "text": text, "user_id": f"u{i}",
                        "source": "chat", "source_class": "user", "epoch": "e1",
                        "observed_at": f"2026-03-0{day}T10:00:00Z"})
    return out


def score(report: dict, scenarios: list[dict]) -> dict:
    """Per form and overall: ``updates``, ``resolved`` (for the later memory), ``flagged``
    (any conflict), ``negatives``, ``negatives_decided``, and for pair sets that hold them
    ``contradictions``, ``contradictions_quarantined`` and ``contradictions_resolved`` (by a
    time or source pick: wrong, SPEC §2)."""
    by_pair = {tuple(sorted(c["members"])): c for c in report.get("conflicts", [])}
    table: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for i, s in enumerate(scenarios):
        c = by_pair.get((f"s{i}-a", f"s{i}-b"))
        for form in (s["form"], "all"):
            row = table[form]
            if s["kind"] == "update":
                row["updates"] += 1
                row["resolved"] += bool(c and c["verdict"] == "resolved"
                                        and c.get("winner") == f"s{i}-b")
                row["flagged"] += c is not None
            elif s["kind"] == "contradiction":  # one speaker's statements (SPEC §2, last row)
                row["contradictions"] += 1
                row["contradictions_quarantined"] += bool(c and c["verdict"] == "quarantined")
                row["contradictions_resolved"] += bool(c and c["verdict"] == "resolved")
            else:
                row["negatives"] += 1
                row["negatives_decided"] += bool(c and c["verdict"] != "possible")
    return {form: dict(row) for form, row in sorted(table.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--out", type=Path, default=Path("results") / "memory_forms")
    args = ap.parse_args()
    from scanner.config import Settings
    from scanner.engine import Engine

    scenarios = [json.loads(line) for line in args.data.open(encoding="utf-8") if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records(scenarios)),
                        encoding="utf-8")
        report = json.loads(Engine(Settings().scan_config()).scan_file(path).model_dump_json())
    figures = score(report, scenarios)
    print("| form | updates resolved for the later memory | flagged at all | "
          "negatives decided against | contradictions quarantined (resolved) |\n"
          "| --- | --- | --- | --- | --- |")
    for form, row in figures.items():
        print(f"| {form} | {row.get('resolved', 0)} of {row.get('updates', 0)} | "
              f"{row.get('flagged', 0)} | {row.get('negatives_decided', 0)} of "
              f"{row.get('negatives', 0)} | {row.get('contradictions_quarantined', 0)} of "
              f"{row.get('contradictions', 0)} ({row.get('contradictions_resolved', 0)}) |")
    out = args.out / datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out.mkdir(parents=True, exist_ok=True)
    (out / "memory_forms.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")
    text = {r["id"]: r["text"] for r in records(scenarios)}
    by_pair = {tuple(sorted(c["members"])): c for c in report.get("conflicts", [])}
    with (out / "misses.txt").open("w", encoding="utf-8") as f:
        for i, s in enumerate(scenarios):
            c = by_pair.get((f"s{i}-a", f"s{i}-b"))
            if s["kind"] == "update":
                right = c is not None and c["verdict"] == "resolved" and c.get("winner") == \
                    f"s{i}-b"
            elif s["kind"] == "contradiction":
                right = c is not None and c["verdict"] == "quarantined"
            else:
                right = c is None or c["verdict"] == "possible"
            if not right:
                f.write(f"{s['form']}/{s['kind']} [{c['verdict'] if c else None}] "
                        f"{text[f's{i}-a']} -> {text[f's{i}-b']}\n")
    print(f"results in {out}")


if __name__ == "__main__":
    main()
