"""Mine extraction patterns from CounterFact's training split (``counterfact-train.json`` only).

CounterFact rewords each fact with a small set of templates ("The tragic death of [X]
occurred in [Y]."). For every training case whose prompt instantiates a ParaRel pattern, the
last sentence of ``rephrase_prompt`` becomes a template by putting ``[X]`` for the subject and
``[Y]`` after it; a template is kept when it was seen at least ``min_support`` times (2), for
each relation that at least ``min_agreement`` (0.3, chosen on a sample of the training file:
0.8 / 0.5 / 0.3 / 0.2 gave reworded recall 0.66 / 0.78 / 0.88 / 0.89 there, non-conflict flags
0.4 % throughout) of its cases share. This is pattern bootstrapping in the
manner of DIPRE (Brin 1998) and Snowball (Agichtein & Gravano 2000), limited to the training
file so that the edit and val files stay untouched for evaluation (issue 5).

A template must also be :func:`specific`: a content word in its literal text, no ParaRel
pattern reading it already, and no other curated relation in the rules' own reading of it. The result is either a configuration file for ``contrascan
--config`` / :func:`scanner.config.load_settings` under ``results/`` (never committed), or,
with ``--ship``, the extractor's data file ``extractors/data/counterfact_train_patterns.json``
with the input's SHA-256 and the parameters, which the extractor loads by default.

Usage: ``python -m benchmarks.mine_patterns [--ship] --counterfact ../shared/data/counterfact``.
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
    """The lexicon relation the case's prompt + true object instantiates, if any.

    "continent" counts as "located in": the extractor tells the two apart by the object
    (:func:`extractors.lexicon.place_relations`), so a template learnt for either serves both.
    """
    sentence = f"{case['prompt']} {case['ground_truth']}."
    matches = {"located in" if pat.relation == "continent" else pat.relation
               for pat, _, _ in match_patterns(sentence)}
    return min(matches) if len(matches) == 1 else None


def template(case: dict) -> str | None:
    """The case's rephrase as a pattern with ``[X]``/``[Y]`` slots, or None."""
    sentence = last_sentence(case["rephrase_prompt"])
    if sentence.count(case["subject"]) != 1:
        return None
    return sentence.replace(case["subject"], "[X]").rstrip() + " [Y]."


_FUNCTION_WORDS = frozenset("""
    a an the is was are were be been being has have had do does did in on at of from to by
    for with and or but that which who whom whose it its his her their this these those as
    s into onto than then there
    """.split())
"""English function words: a template whose literal text has nothing else ("[X] from [Y].",
"[X] is a [Y].") names no relation and is dropped."""


def specific(relation: str, pattern: str, reader=None) -> bool:
    """True when a mined template may be used: its literal text has a content word, no
    ParaRel pattern already reads it with the placeholders as its slots (the lexicon wins: "[X] was born in [Y]." is place of
    birth even where CounterFact rewords native-language facts with it), and the dependency
    rules of ``reader`` (a :class:`extractors.TripleExtractor`, optional) do not read it as a
    different relation of the curated table: "[X] currently lives in [Y]." stays "live in"
    although CounterFact uses it to reword birthplaces and citizenships."""
    words = re.findall(r"[a-z]+", re.sub(r"\[[XY]\]", " ", pattern).lower())
    if not any(w not in _FUNCTION_WORDS for w in words):
        return False
    sentence = pattern.replace("[X]", "Alan Smith").replace("[Y]", "Zembla")
    if reader is None:
        return not any(True for _ in match_patterns(sentence))
    table = reader.table
    curated = set(table.functional) | set(table.multi_valued) | set(table.synonyms.values())
    readings = [t for t in reader.extract(sentence)
                if {t.subject, t.object} == {"alan smith", "zembla"}]
    return not any(t.rule == "pattern" or (t.relation in curated and t.relation != relation)
                   for t in readings)


def mine(cases: list[dict], *, min_support: int = 2,
         min_agreement: float = 0.3) -> list[tuple[str, str, int]]:
    """``(relation, pattern, support)`` for every kept template, most supported first.

    A template is kept for each relation that at least ``min_agreement`` of its cases share,
    when it was seen at least ``min_support`` times and it is :func:`specific`; with
    ``min_agreement`` below one half, a template CounterFact uses for two relations keeps
    both readings, as ParaRel's own shared patterns do ("[X], created by [Y]." is read as
    manufacturer and as developer).
    """
    votes: dict[str, Counter] = defaultdict(Counter)
    for case in cases:
        relation, tmpl = prompt_relation(case), template(case)
        if relation and tmpl:
            votes[tmpl][relation] += 1
    from extractors import TripleExtractor

    reader = TripleExtractor(use_train_patterns=False)
    kept = []
    for tmpl, counts in votes.items():
        total = sum(counts.values())
        for relation, n in counts.most_common():
            if (total >= min_support and n / total >= min_agreement
                    and specific(relation, tmpl, reader)):
                kept.append((relation, tmpl, n))
    return sorted(kept, key=lambda k: (-k[2], k[1], k[0]))


SHIPPED = Path(__file__).resolve().parents[1] / "extractors" / "data" / "counterfact_train_patterns.json"
"""The committed copy the extractor loads by default (:func:`extractors.lexicon.load_train_patterns`)."""


def main() -> None:
    """Command line: write the mined patterns as a contrascan configuration file, or with
    ``--ship`` as the extractor's data file, with its provenance (input hash, parameters)."""
    ap = argparse.ArgumentParser(description="Mine patterns from counterfact-train.json.")
    ap.add_argument("--counterfact", type=Path, default=Path("../shared/data/counterfact"))
    ap.add_argument("--out", type=Path, default=None,
                    help=f"output file (default {DEFAULT_OUT}, or {SHIPPED.name} with --ship)")
    ap.add_argument("--ship", action="store_true",
                    help="write the extractor's data file extractors/data/" + SHIPPED.name)
    ap.add_argument("--min-support", type=int, default=2)
    ap.add_argument("--min-agreement", type=float, default=0.3)
    args = ap.parse_args()
    source = args.counterfact / "counterfact-train.json"
    raw = source.read_bytes()
    kept = mine(json.loads(raw), min_support=args.min_support,
                min_agreement=args.min_agreement)
    out = args.out or (SHIPPED if args.ship else DEFAULT_OUT)
    out.parent.mkdir(parents=True, exist_ok=True)
    doc: dict = {"patterns": [{"relation": r, "pattern": p, "support": n} for r, p, n in kept]}
    if args.ship:
        doc = {"source": "CounterFact (Meng et al. 2022), counterfact-train.json only",
               "source_sha256": hashlib.sha256(raw).hexdigest(),
               "script": "python -m benchmarks.mine_patterns --ship",
               "min_support": args.min_support, "min_agreement": args.min_agreement, **doc}
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"mined {len(kept)} patterns from {source} (sha256 "
          f"{hashlib.sha256(raw).hexdigest()[:16]}) -> {out}")


if __name__ == "__main__":
    main()
