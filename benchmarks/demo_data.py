"""Build the bundled demo memories from the public CounterFact data set.

CounterFact (Meng et al. 2022, "Locating and Editing Factual Associations in GPT", MIT
licence; ``counterfact/`` of the benchmarks' data dir, :data:`benchmarks.pairs.DATA_DIR`) pairs a true fact with a counterfactual update
for 21,919 Wikidata subjects. Each selected case becomes memories of one demo user:

* the original fact ("The mother tongue of Danielle Darrieux is French."),
* its paraphrase (the last sentence of ``rephrase_prompt`` + the true object),
* the counterfactual update ("… is English."), with provenance varied by scenario so that
  every verdict of SPEC §3 occurs: ``recency``, ``source_class``, ``missing_provenance``,
  ``epoch_change`` and ``tie``,
* a neighbourhood fact (same relation, another subject) that must not conflict.

A case is kept only when the engine extracts the fact and the update under one key, so the
demo shows the product on wordings it parses; ``benchmarks/`` measures all cases.

Rebuild: ``python -m benchmarks.demo_data`` (``--source DIR`` names another copy of the
CounterFact folder; the default is ``counterfact/`` under ``$CONTRASCAN_SHARED/data`` or
``../shared/data`` beside the checkout). The product reads only the file this writes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from benchmarks.pairs import DATA_DIR, SHARED_ENV

SCENARIOS = ("recency", "source_class", "missing_provenance", "epoch_change", "tie",
             "paraphrase_only")
EXPECTED = {"recency": "resolved", "source_class": "resolved",
            "missing_provenance": "quarantined", "epoch_change": "epoch_change",
            "tie": "quarantined", "paraphrase_only": None}
USERS = 6
BASE = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "scanner" / "data" / "demo_memories.jsonl"


def last_sentence(text: str) -> str:
    """The last sentence of a CounterFact ``rephrase_prompt`` (its earlier sentences are
    unrelated distractor text)."""
    parts = re.split(r"(?<=[.?!])\s+", text.strip())
    return parts[-1] if parts else text


def _iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def case_memories(case: dict[str, Any], scenario: str, user: str, n: int) -> list[dict]:
    """The memory records (SPEC §4 dicts) of one CounterFact case under one scenario."""
    cid = case["case_id"]
    t0 = BASE + timedelta(days=n % 300, hours=n % 7)
    later = t0 + timedelta(days=30)
    fact = {"id": f"cf{cid}-fact", "text": f"{case['prompt']} {case['ground_truth']}.",
            "user_id": user, "group": "world-facts", "source": "wikidata-import",
            "source_class": "observation" if scenario == "source_class" else "user",
            "observed_at": _iso(t0), "epoch": "kb-2025"}
    para = dict(fact, id=f"cf{cid}-para", source="chat:paraphrase",
                text=f"{last_sentence(case['rephrase_prompt'])} {case['ground_truth']}.",
                observed_at=_iso(t0 + timedelta(hours=2)), source_class="user")
    neighbour = dict(fact, id=f"cf{cid}-nbr", source="wikidata-import", source_class="user",
                     text=f"{case['locality_prompt']} {case['locality_ground_truth']}.")
    if scenario == "paraphrase_only":
        return [fact, para, neighbour]
    update = dict(fact, id=f"cf{cid}-update", text=f"{case['prompt']} {case['target_new']}.",
                  source="chat:correction", source_class="user", observed_at=_iso(later))
    if scenario == "source_class":
        # the newer statement is a person's recollection; the older one a direct reading
        update["source_class"] = "user"
    elif scenario == "missing_provenance":
        del update["observed_at"]
    elif scenario == "epoch_change":
        update["epoch"] = "kb-2026"
        update["source"] = "wikidata-import-2026"
    elif scenario == "tie":
        update["observed_at"] = fact["observed_at"]
        update["source"] = "second-import"
    return [fact, para, neighbour, update]


def build(source: Path, *, per_scenario: int = 45, split: str = "edit") -> list[dict]:
    """Select cases and return the demo memories.

    Args:
        source: the CounterFact folder.
        per_scenario: cases kept per scenario (6 scenarios).
        split: which CounterFact file to draw from.

    Returns:
        Memory record dicts, ordered by user then id.
    """
    from scanner.engine import Engine
    from scanner.records import parse_record

    cases = json.loads((source / f"counterfact-{split}.json").read_text(encoding="utf-8"))
    engine = Engine()
    kept: dict[str, int] = {s: 0 for s in SCENARIOS}
    out: list[dict] = []
    subjects: set[str] = set()
    n = 0
    for case in cases:
        if all(v >= per_scenario for v in kept.values()):
            break
        if case["subject"] in subjects:
            continue
        scenario = min(SCENARIOS, key=lambda s: (kept[s], SCENARIOS.index(s)))
        user = f"demo-user-{n % USERS + 1}"
        memories = case_memories(case, scenario, user, n)
        records = [parse_record(m) for m in memories]
        report = engine.scan(records)
        decided = [c for c in report.conflicts if c.verdict != "possible"]
        pair = [c for c in decided if set(c.members) == {memories[0]["id"], memories[-1]["id"]}]
        if scenario == "paraphrase_only":
            ok = not decided
        else:
            ok = (len(pair) == 1 and pair[0].verdict == EXPECTED[scenario]
                  and all(memories[2]["id"] not in c.members for c in decided)
                  and all(c.verdict == pair[0].verdict for c in decided))
        if not ok:
            continue
        kept[scenario] += 1
        subjects.add(case["subject"])
        out.extend(memories)
        n += 1
    return sorted(out, key=lambda m: (m["user_id"], m["id"]))


def main() -> None:
    """Command line: rebuild ``scanner/data/demo_memories.jsonl``."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--source", type=Path, default=DATA_DIR / "counterfact",
                    help="the CounterFact folder (default: %(default)s)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--per-scenario", type=int, default=45)
    args = ap.parse_args()
    if not args.source.is_dir():
        ap.error(f"{args.source} is missing: pass --source, or set {SHARED_ENV} to the folder "
                 "whose data/counterfact holds CounterFact")
    memories = build(args.source, per_scenario=args.per_scenario)
    with open(args.out, "w", encoding="utf-8") as f:
        for m in memories:
            f.write(json.dumps(m, ensure_ascii=False) + "\n")
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
    print(f"wrote {len(memories)} memories to {args.out} (sha256 {digest[:16]})")


if __name__ == "__main__":
    main()
