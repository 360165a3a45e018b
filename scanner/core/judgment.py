"""The pair judge's reading of one memory pair, as plain values the pure core can hold.

The model that gives it lives above the core (:mod:`scanner.pair_judge`); the core reads only
these numbers (SPEC §2, last paragraph; docs/pair-judge.md).
"""


from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

LABELS: tuple[str, ...] = ("update", "contradiction", "compatible", "restatement")
"""The judge's classes, in the order of its output logits."""

DEFAULT_THRESHOLD = 0.2
"""Probability, in [0, 1], that two memories are *not* compatible (an update, a contradiction
or a restatement), at or above which the judge confirms a conflict the keys found. The keys
have already found two values of one attribute; what the judge adds is whether the two
memories speak of the same attribute of the same owner at all, so only a ``compatible``
reading dismisses a pair (a "restatement" of two different values is no reason to). 0.2, i.e.
a pair is dismissed when the judge gives ``compatible`` 0.8 or more: chosen on the public
yardsticks with the pairs the rules alone decide (docs/pair-judge.md): it dismisses 213 of the
329 BEAM pairs that touch no marked memory, none of the 51 LoCoMo updates found and 20 of the
78 StateBench updates found; 0.5 dismissed 216, 0 and 24, and 0.99 dismissed 135, 0 and 13."""


@dataclass(frozen=True, slots=True)
class Judgment:
    """The judge's class probabilities for one ``(earlier, later)`` pair; they sum to 1."""

    update: float
    contradiction: float
    compatible: float
    restatement: float

    @property
    def changes(self) -> float:
        """Probability in [0, 1] that the two memories cannot both be current."""
        return self.update + self.contradiction

    @property
    def related(self) -> float:
        """Probability in [0, 1] that the two memories speak of the same attribute of the same
        owner (anything but ``compatible``)."""
        return 1.0 - self.compatible

    @property
    def label(self) -> str:
        """The most probable class (one of :data:`LABELS`)."""
        return max(LABELS, key=lambda name: getattr(self, name))

    def confirms(self, threshold: float = DEFAULT_THRESHOLD) -> bool:
        """Whether the judge confirms a conflict the keys found: :attr:`related` at or above
        ``threshold`` (probability in [0, 1])."""
        return self.related >= threshold

    def reason(self) -> str:
        """One line for a report: ``judge:compatible 0.91``."""
        return f"judge:{self.label} {getattr(self, self.label):.2f}"


class PairJudge(Protocol):
    """Anything that labels memory pairs (the cross-encoder, or a test's own judge)."""

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[Judgment]:
        """One judgment per ``(earlier text, later text)`` pair, in order."""
        ...
