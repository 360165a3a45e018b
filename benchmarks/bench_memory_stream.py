"""Memory-stream benchmark: contradiction scans of a real agent memory with labelled updates.

Data (read from ``../shared/data/locomo/``, never bundled: CC BY-NC 4.0, evaluation only):
LoCoMo's per-session observations (Maharana et al. 2024, "Evaluating Very Long-Term
Conversational Memory of LLM Agents"; third-person facts a memory writer stored from real
conversations) plus ``injected.jsonl``: later ``update`` records that each make one labelled
observation (``target``) no longer true, and look-alike ``negative`` records that do not.
Nothing in the product was tuned on a split this benchmark calls held out; the public split
is the one failures were analysed on (say which one a figure comes from).

All observations of the conversations the injected file names, plus the injected records, go
through one :meth:`scanner.engine.Engine.scan_file` call, the ``contrascan scan-file`` code
path, with the default configuration. Figures (the definitions of
``../shared/tools/memory_stream_eval.py``):

* ``update_resolved_right``: updates whose (target, update) pair is a ``resolved`` conflict
  won by the update; ``update_decided``: any decided verdict; ``update_any_flag``: any
  conflict, ``possible`` included; ``update_target_withheld``: targets in ``withhold``;
* ``negatives_flagged_decided``: negatives in any decided conflict (should be 0);
* ``other_decided``: decided conflicts that pair no labelled (target, update); the annotation
  names one target per update, so an update that also retires another observation of the
  same fact counts here (``other_decided_by_update`` tells those apart);
* ``possible_per_100``: ``possible`` conflicts per 100 memories;
* per-kind recall of updates, by the annotation's ``why``, grouped by its first words.

Usage: ``python -m benchmarks.bench_memory_stream [--data ../shared/data/locomo]
[--split public] [--out results/memory_stream]``; prints the table and writes JSON (with the
data's SHA-256, the commit and the timings) and ``misses.txt``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import subprocess
import tempfile
import time
from collections import Counter, defaultdict
from datetime import datetime, timezone
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from benchmarks.pairs import DATA_DIR, SHARED_ENV  # noqa: E402

DATA = DATA_DIR / "locomo"
"""LoCoMo under the benchmarks' data dir (:data:`benchmarks.pairs.DATA_DIR`)."""
FIELDS = ("id", "text", "user_id", "group", "properties", "source", "source_class",
          "observed_at", "epoch")
TARGETS = {"update_resolved_right": 56, "possible_per_100": 3.0, "other_decided": 1,
           "negatives_flagged_decided": 0}
"""Issue 13's targets on the public split (70 updates, 30 negatives, 1,310 memories)."""


def load(data: Path, split: str) -> tuple[list[dict], list[dict]]:
    """``(observations, injected)`` of one split: ``observations.jsonl`` and
    ``injected.jsonl`` for ``public``, ``<split>/`` files otherwise; only the conversations
    the injected file names are kept.

    Raises:
        FileNotFoundError: the split's files are missing.
    """
    folder = data if split == "public" else data / split
    injected = [json.loads(line) for line in (folder / "injected.jsonl").open(encoding="utf-8")
                if line.strip()]
    users = {r["user_id"] for r in injected}
    observations = [r for r in (json.loads(line) for line in
                                (folder / "observations.jsonl").open(encoding="utf-8")
                                if line.strip()) if r["user_id"] in users]
    return observations, injected


def score(report: dict, observations: list[dict], injected: list[dict]) -> dict:
    """The figures of the module docstring for one scan report (SPEC §5 JSON)."""
    conflicts = report.get("conflicts", [])
    pair: dict[frozenset, dict] = {}
    for c in conflicts:
        members = c.get("members", [])
        for i, x in enumerate(members):
            for y in members[i + 1:]:
                pair[frozenset((x, y))] = c
    updates = [r for r in injected if r.get("kind") == "update"]
    negatives = [r for r in injected if r.get("kind") == "negative"]
    labelled = {frozenset((r["id"], r["target"])) for r in updates}
    update_ids = {r["id"] for r in updates}
    withhold = set(report.get("withhold", []))

    def verdict(r: dict) -> tuple[str | None, str | None]:
        c = pair.get(frozenset((r["id"], r["target"])))
        return (c["verdict"], c.get("winner")) if c else (None, None)

    decided = [c for c in conflicts if c.get("verdict") != "possible"]
    other = [c for c in decided if not any(frozenset((x, y)) in labelled
                                           for x in c["members"] for y in c["members"] if x != y)]
    n = len(observations) + len(injected)
    possible = sum(1 for c in conflicts if c.get("verdict") == "possible")
    kinds: dict[str, list[bool]] = defaultdict(list)
    for r in updates:
        kinds[_kind(r.get("why", ""))].append(verdict(r) == ("resolved", r["id"]))
    return {
        "memories": n, "updates": len(updates), "negatives": len(negatives),
        "update_resolved_right": sum(verdict(r) == ("resolved", r["id"]) for r in updates),
        "update_decided": sum(verdict(r)[0] not in (None, "possible") for r in updates),
        "update_any_flag": sum(verdict(r)[0] is not None for r in updates),
        "update_target_withheld": sum(r["target"] in withhold for r in updates),
        "negatives_flagged_decided": sum(any(r["id"] in c["members"] for c in decided)
                                         for r in negatives),
        "other_decided": len(other),
        "other_decided_by_update": sum(any(m in update_ids for m in c["members"])
                                       for c in other),
        "possible": possible, "possible_per_100": round(100 * possible / max(n, 1), 1),
        "verdicts": dict(Counter(f"{c['verdict']}/{c.get('rule')}" for c in conflicts)),
        "per_kind": {k: {"updates": len(v), "resolved_right": sum(v)}
                     for k, v in sorted(kinds.items())},
    }


_KIND_WORDS = {
    "possession": ("sold", "given away", "lost", "discarded", "given", "figure", "possession",
                   "shoes", "trophy", "store"),
    "pet": ("dog", "pet", "puppy", "turtle", "luna"),
    "membership, job or team": ("membership", "group", "club", "job", "internship",
                                "employer", "team", "church", "studio", "gym", "sponsor"),
    "plan or event": ("plan", "cancelled", "trip", "event", "show", "candidacy", "project",
                      "adoption"),
    "habit or activity": ("stopped", "habit", "learning", "study", "piano", "yoga", "hiking",
                          "running", "kickboxing", "volunteering", "mentoring", "writing",
                          "blog", "service"),
    "favourite or setting": ("favourite", "favorite", "replaced", "choice", "corrected",
                             "game", "book", "style", "genre"),
    "relationship": ("marriage", "relationship", "partnership", "collaboration"),
    "residence": ("residence", "moved", "living"),
}


def _kind(why: str) -> str:
    """A coarse kind for an annotation's ``why`` (first matching word list)."""
    low = why.lower()
    for kind, words in _KIND_WORDS.items():
        if any(w in low for w in words):
            return kind
    return "other"


def misses(report: dict, observations: list[dict], injected: list[dict]) -> str:
    """Readable lists: updates not resolved for the update, and other decided conflicts."""
    text = {r["id"]: r["text"] for r in observations + injected}
    pair = {frozenset(c["members"][i:i + 2]): c for c in report.get("conflicts", [])
            for i in range(len(c["members"]) - 1)}
    lines = ["# updates not resolved in favour of the update: verdict | target -> update"]
    for r in injected:
        if r.get("kind") != "update":
            continue
        c = pair.get(frozenset((r["id"], r["target"])))
        if not (c and c["verdict"] == "resolved" and c.get("winner") == r["id"]):
            lines.append(f"{c['verdict'] if c else None} | {text[r['target']]} -> {r['text']}")
    labelled = {frozenset((r["id"], r["target"])) for r in injected if r.get("kind") == "update"}
    lines.append("\n# decided conflicts that pair no labelled update")
    for c in report.get("conflicts", []):
        if c["verdict"] != "possible" and not any(
                frozenset((x, y)) in labelled for x in c["members"] for y in c["members"]):
            lines.append(f"{c['verdict']}/{c.get('rule')} {c['key']['subject']} | "
                         f"{c['key']['relation']} :: "
                         + " || ".join(text.get(m, m) for m in c["members"]))
    return "\n".join(lines) + "\n"


def table(figures: dict, split: str) -> str:
    """The figures as a markdown table with the targets."""
    rows = [("updates resolved in favour of the update",
             f"{figures['update_resolved_right']} of {figures['updates']}",
             f"≥ {TARGETS['update_resolved_right']}"),
            ("`possible` conflicts per 100 memories",
             f"{figures['possible_per_100']} ({figures['possible']} in {figures['memories']})",
             f"≤ {TARGETS['possible_per_100']}"),
            ("decided verdicts that pair no labelled update",
             f"{figures['other_decided']} ({figures['other_decided_by_update']} of them an "
             "update against another observation)", f"≤ {TARGETS['other_decided']}"),
            ("look-alike negatives decided against",
             f"{figures['negatives_flagged_decided']} of {figures['negatives']}", "0")]
    out = [f"| figure ({split} split) | result | target |", "| --- | --- | --- |"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    out += ["", "| kind of update (by the annotation's why) | resolved right |", "| --- | --- |"]
    out += [f"| {k} | {v['resolved_right']} of {v['updates']} |"
            for k, v in figures["per_kind"].items()]
    return "\n".join(out)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--split", default="public",
                    help="public (the files in --data) or a sub-folder of --data")
    ap.add_argument("--out", type=Path, default=Path("results") / "memory_stream")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (no embedding "
                    "happens in scan-file; set for symmetry with the other entry points)")
    args = ap.parse_args()
    if not args.data.is_dir():
        ap.error(f"{args.data} is missing: pass --data, or set {SHARED_ENV} to the folder "
                 "whose data/locomo holds LoCoMo")

    import torch

    torch.set_num_threads(args.threads)
    from scanner.config import Settings
    from scanner.engine import Engine

    observations, injected = load(args.data, args.split)
    engine = Engine(Settings().scan_config())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for r in observations + injected:
                f.write(json.dumps({k: r[k] for k in FIELDS if k in r}) + "\n")
        started = time.perf_counter()
        report = json.loads(engine.scan_file(path).model_dump_json())
        seconds = time.perf_counter() - started
    figures = score(report, observations, injected)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out / f"{stamp}-{args.split}"
    out.mkdir(parents=True, exist_ok=True)
    data_files = [args.data / ("" if args.split == "public" else args.split) / name
                  for name in ("observations.jsonl", "injected.jsonl")]
    result = {"split": args.split, "commit": _commit(), "python": platform.python_version(),
              "data_sha256": {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
                              for p in data_files},
              "seconds": round(seconds, 2), "targets": TARGETS, "figures": figures}
    (out / "memory_stream.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
    (out / "misses.txt").write_text(misses(report, observations, injected), encoding="utf-8")
    print(table(figures, args.split))
    print(f"\n{figures['memories']} memories scanned in {seconds:.1f} s; results in {out}")


if __name__ == "__main__":
    main()
