"""Candidate pairs of a correction and the memory whose value it corrects (issue 37, kind 3),
found by structure, judged by the pair judge.

"Correction: Tom gets £12.60 an hour, not £12.20" names the value it takes back: the earlier
"Tom's pay: £12.20 an hour" is wrong, whatever words each memory gives the attribute. A
correction that rejects a value by name ("not £12.20", "not 26 May", "not 30")
says which earlier statement it replaces (Quirk et al. 1985 §13.43 on contrastive "not"
coordination, "X, not Y"; §8.137 on corrective adverbials). A pair is a candidate when, in
one scope (user, group, properties):

* the later memory says it corrects (:func:`extractors.change_cues.marks_correction`), and
  rejects a typed value with "not" (:data:`_REJECTING`)
  (:func:`extractors.constructions.attribute_values.typed_value_spans`), while it states
  another value of the same type;
* the earlier memory, observed before it, states the rejected value (the same type and
  normalised value, or the same written number: "not 30" / "kept for 30 days") and not the
  new one; and
* the two share a content word that is no calendar word ("Chester", "deposit"): a value
  alone names no attribute.

The nearest earlier such memory is kept (:data:`MAX_PER_MEMORY`). Structure alone flags
nothing: only a pair the judge reads as an ``update`` is kept (:data:`scanner.scan.
STRUCTURE_LABELS`). Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from extractors import Cardinality
from extractors.change_cues import marks_correction
from extractors.constructions.attribute_values import _VALUE, typed_value_spans
from scanner.core.detect import CandidatePair
from scanner.core.keys import GroupKey, dated_by_scope
from scanner.core.named_changes import _stance
from scanner.core.value_changes import _CALENDAR, stems
from scanner.models import MemoryRecord

MAX_PER_MEMORY = 1
"""Earlier memories paired with one correction: the value it rejects was said last there."""

_REJECTING = re.compile(r"\bnot\s+(?:the\s+|a\s+)?$", re.IGNORECASE)
"""The word right before a value a memory rejects ("…, not £12.20"). "Instead of" is no such
word: it names the value a change left ("kept for 30 days instead of two weeks") or the right
one a mistake replaced ("computed it as 10 instead of 12")."""
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


ROOT = 5
"""Letters of a word's root compared: a derivation keeps them ("extended" / "extension")."""


def _roots(text: str) -> frozenset[str]:
    """The first :data:`ROOT` letters of each content-word stem of ``text``, calendar words
    aside."""
    return frozenset(w[:ROOT] for w in stems(text) - _CALENDAR)


def _numbers(written: str) -> frozenset[str]:
    return frozenset(n.replace(",", "") for n in _NUMBER.findall(written))


@functools.lru_cache(maxsize=65536)
def _values(text: str) -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]],
                                frozenset[str]]:
    """``(rejected, stated, numbers stated)`` typed values of ``text``: those a rejecting word
    precedes, the others, and the numbers written in the others (read once per memory: an
    earlier memory is weighed against every later correction)."""
    written = {m.start(): m.group() for m in _VALUE.finditer(text)}
    rejected, stated, numbers = set(), set(), set()
    for start, kind, value in typed_value_spans(text):
        if _REJECTING.search(text[max(0, start - 20):start]):
            rejected.add((kind, value))
        else:
            stated.add((kind, value))
            numbers |= _numbers(written.get(start, ""))
    return frozenset(rejected), frozenset(stated), frozenset(numbers)


def _states(text: str, value: tuple[str, str], written: frozenset[str]) -> bool:
    """Whether ``text`` states ``value`` (or a value written with the same number)."""
    _, stated, numbers = _values(text)
    return value in stated or bool(written) and written <= numbers


def correction_pairs(records: Sequence[MemoryRecord]) -> list[CandidatePair]:
    """Candidate pairs (earlier, correction) of the module docstring.

    Args:
        records: the memories of a scan, any scopes; a record without ``observed_at`` is
            never paired.

    Returns:
        ``value_mismatch`` pairs keyed ``(scope, "memory", shared word)``, found by
        ``corrected``, sorted by member ids.
    """
    found: dict[tuple[str, str], CandidatePair] = {}
    for items in dated_by_scope(records):
        for j, later in enumerate(items):
            if not marks_correction(later.text):
                continue
            rejected, stated, _ = _values(later.text)
            # (a bare number rejected, "not 30", may be the number of any value: "30 days")
            rejected = {(k, v) for k, v in rejected
                        if k == "number" and stated or any(k == s for s, _ in stated)}
            if not rejected:
                continue
            words = _roots(later.text)
            shown = {m.start(): m.group() for m in _VALUE.finditer(later.text)}
            written = {(k, v): _numbers(shown.get(start, "")) for start, k, v in
                       typed_value_spans(later.text) if (k, v) in rejected}
            kept = 0
            for earlier in reversed(items[:j]):
                if earlier.observed_at >= later.observed_at:
                    continue
                shared = _roots(earlier.text) & words
                if not shared or any(_states(earlier.text, s, frozenset()) for s in stated):
                    continue
                if not any(_states(earlier.text, value, written[value]) for value in rejected):
                    continue
                a, b = sorted((earlier, later), key=lambda r: r.id)
                found.setdefault((a.id, b.id), CandidatePair(
                    GroupKey(a.scope(), "memory", max(shared)), "value_mismatch", _stance(a),
                    _stance(b), Cardinality.functional, found_by="corrected"))
                kept += 1
                if kept >= MAX_PER_MEMORY:
                    break
    return [found[k] for k in sorted(found)]
