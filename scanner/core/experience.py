"""Denials of any time and of any past time, read from a memory's words (issue 37, kind 4).

"I have never been to Japan" denies every past visit; "Never ships on Thursdays" is a rule
from now on. Pure: no I/O.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from extractors.memory_forms import IRREGULAR_PAST

if TYPE_CHECKING:
    from scanner.core.stances import Stance

_NEVER = re.compile(r"\b(?:never|not\s+ever|n[’']t\s+ever|no\s+(?:prior\s+)?experience\s+"
                    r"(?:with|in|of))\b", re.IGNORECASE)
"""A denial for any time ("never", "not ever", "no experience with")."""

_EXPERIENCE = re.compile(r"\b(?:(?:ha(?:ve|s|d)|[’']ve|[’']d)\s+never|never\s+(?:been|had|"
                         r"done|gone|seen|met|[a-z]+ed|" + "|".join(IRREGULAR_PAST) + r")|"
                         r"not\s+ever|n[’']t\s+ever|no\s+(?:prior\s+)?"
                         r"experience\s+(?:with|in|of))\b", re.IGNORECASE)
"""A denial of any past time: the experiential perfect ("I have never been to Japan") or a
past tense under "never" ("I never visited Japan", "Never sold my car": the irregular pasts
are extractors/data/irregular_past.toml), not a habit ("never ships on Thursdays", a rule
from now on) (Quirk et al. 1985 §4.22 on the experiential perfect)."""


def denies_experience(text: str) -> bool:
    """Whether a memory denies that something ever happened (:data:`_EXPERIENCE`)."""
    return _EXPERIENCE.search(text) is not None


def denies_any_time(text: str) -> bool:
    """Whether a memory denies for any time ("never", "not ever", "no experience with")."""
    return _NEVER.search(text) is not None


def ever_denied(denier: Stance, other_past: bool) -> bool:
    """Whether ``denier`` denies, with no time of its own, that something ever happened ("I
    have never solved a Bayes problem": :func:`denies_experience`) while the other stance is
    a past report (``other_past``): the experiential perfect covers every past time (Quirk et
    al. 1985 §4.22), so "Solved twelve Bayes problems last week" meets it
    (:func:`scanner.core.detect._comparable`)."""
    return (other_past and denier.time is None and bool(denier.denied)
            and not denier.asserted and denies_experience(denier.record.text))

