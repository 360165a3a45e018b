"""Mine extraction patterns from CounterFact's training split (``counterfact-train.json`` only).

CounterFact rewords each fact with a small set of templates ("The tragic death of [X]
occurred in [Y]."). For every training case whose prompt instantiates a ParaRel pattern, the
last sentence of ``rephrase_prompt`` becomes a template by putting ``[X]`` for the subject and
``[Y]`` after it; a template is kept when it was seen at least ``min_support`` times and at
least ``min_agreement`` of its cases share one relation. This is pattern bootstrapping in the
manner of DIPRE (Brin 1998) and Snowball (Agichtein & Gravano 2000), limited to the training
file so that the edit and val files stay untouched for evaluation (issue 5).

The result is a configuration file for ``contrascan --config`` / :func:`scanner.config.
load_settings`; it is written under ``results/`` and never committed.

Usage: ``python -m benchmarks.mine_patterns --counterfact ../shared/data/counterfact``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from extractors.lexicon import match_patterns

DEFAULT_OUT = Path("results") / "counterfact-train-patterns.json"


def last_sentence(text: str) -> str:
    """The last sentence of a ``rephrase_prompt`` (earlier ones are distractor text)."""
    return re.split(r"(?<=[.?!])\s+", text.strip())[-1]


def prompt_relation(case: dict) -> str | None:
    """The lexicon relation the case's prompt + true object instantiates, if any."""
    sentence = f"{case['prompt']} {case['ground_truth']}."
    matches = {pat.relation for pat, _, _ in match_patterns(sentence)}
    return min(matches) if len(matches) == 1 else None


def template(case: dict) -> str | None:
    """The case's rephrase as a pattern with ``[X]``/``[Y]`` slots, or None."""
    sentence = last_sentence(case["rephrase_prompt"])
    if sentence.count(case["subject"]) != 1:
        return None
    return sentence.replace(case["subject"], "[X]").rstrip() + " [Y]."


def mine(cases: list[dict], *, min_support: int = 2,
         min_agreement: float = 0.8) -> list[tuple[str, str, int]]:
    """``(relation, pattern, support)`` for every kept template, most supported first."""
    votes: dict[str, Counter] = defaultdict(Counter)
    for case in cases:
        relation, tmpl = prompt_relation(case), template(case)
        if relation and tmpl:
            votes[tmpl][relation] += 1
    kept = []
    for tmpl, counts in votes.items():
        relation, n = counts.most_common(1)[0]
        total = sum(counts.values())
        if total >= min_support and n / total >= min_agreement:
            kept.append((relation, tmpl, total))
    return sorted(kept, key=lambda k: (-k[2], k[1]))


def main() -> None:
    """Command line: write the mined patterns as a contrascan configuration file."""
    ap = argparse.ArgumentParser(description="Mine patterns from counterfact-train.json.")
    ap.add_argument("--counterfact", type=Path, default=Path("../shared/data/counterfact"))
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--min-support", type=int, default=2)
    ap.add_argument("--min-agreement", type=float, default=0.8)
    args = ap.parse_args()
    source = args.counterfact / "counterfact-train.json"
    raw = source.read_bytes()
    kept = mine(json.loads(raw), min_support=args.min_support,
                min_agreement=args.min_agreement)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    doc = {"patterns": [{"relation": r, "pattern": p} for r, p, _ in kept]}
    args.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"mined {len(kept)} patterns from {source} (sha256 "
          f"{hashlib.sha256(raw).hexdigest()[:16]}) -> {args.out}")


if __name__ == "__main__":
    main()
