"""The pair judge: a learned second opinion on the pairs that keys put together.

SPEC §2 (last paragraph) and issue 37: structure finds candidate pairs (same scope, owner and
attribute, differing values or an ending); a model labels each pair as an ``update`` (the later
memory replaces a value of the earlier one), a ``contradiction`` (one speaker's statements that
cannot both hold at any time), ``compatible`` (both true together) or a ``restatement``. A
decided verdict needs both; either alone gives at most ``possible``
(:func:`scanner.core.policy.pair_judge`).

The judge is a cross-encoder fine-tuned from the packaged all-MiniLM-L6-v2 weights by
:mod:`scanner.pair_judge.training`, on pairs this project wrote (``scanner/data/judge_pairs``,
MIT, never a benchmark's data), and cached under the user's cache directory like the Weaviate
binary. This module holds only plain values, so the pure core can read a judgment without
importing torch.
"""

from scanner.core.judgment import DEFAULT_THRESHOLD, LABELS, Judgment, PairJudge

__all__ = ["DEFAULT_THRESHOLD", "LABELS", "Judgment", "PairJudge"]
