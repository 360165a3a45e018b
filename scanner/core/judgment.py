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

DEFAULT_THRESHOLD = 0.03
"""Probability, in [0, 1], that two memories are *not* compatible (an update, a contradiction
or a restatement), at or above which the judge confirms a conflict the keys found. The keys
have already found two values of one attribute; what the judge adds is whether the two
memories speak of the same attribute of the same owner at all, so only a ``compatible``
reading dismisses a pair (a "restatement" of two different values is no reason to). 0.03,
i.e. a pair is dismissed when the judge gives ``compatible`` 0.97 or more: with the judge of
sixteen writers (docs/pair-judge.md), the key pairs of BEAM's public half that it reads as
compatible between 0.8 and 0.97 are 184, none of them a labelled update and 14 touching no
marked memory, while the contract's own examples fall there ("Alice lives in Paris" /
"Alice lives in Berlin": 0.91; "works at Harbor Labs" / "is employed by Quillmark": 0.945),
and a judge retrained on another machine may read a pair a point or two apart: 0.95 left the
second example 0.005 from the line. Kept for the judge of nineteen writers, whose readings
are less extreme: the key pairs it reads as compatible below 0.97 and the policy decides are,
on the public halves, 21 labelled StateBench updates (0.56–0.96), 2 labelled BEAM updates and
18 BEAM pairs touching no marked memory (0.50–0.96); dismissing from 0.9 would drop 9 of the
18 and 7 of the 21, from 0.5 all of both, so the line stays where the judge is sure. The first judge's value, 0.2 (0.8 or more), was chosen
on the pairs the rules alone decide: it dismissed 213 of the 329 BEAM pairs that touch no
marked memory, none of the 51 LoCoMo updates found and 20 of the 78 StateBench updates
found."""


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
