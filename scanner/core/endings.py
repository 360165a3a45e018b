"""Candidate pairs of a later memory that ends a state an earlier memory stated in other
words (issue 37, kind 5), found by structure, judged by the pair judge.

"Nadia uses a Canon 5D for her photography" / "Nadia no longer shoots with the Canon; she
switched to a Fujifilm"; "Maya is dating Leo" / "Maya and Leo are not together anymore";
"The team's standup is at 9:30" / "Standup isn't at 9:30 anymore". The keys meet such pairs
only when both readings name one relation; an ending is often said with another verb. A pair
is a candidate when, in one scope,

* the later memory says that a state ended or a plan is off
  (:data:`extractors.change_cues.ENDING_CUES`: "no longer", "anymore", "called off", "left",
  "quit"), and
* the earlier memory shares words of weight with it, one of them within :data:`NEAR` words of
  the ending (the ending is said of the shared thing): the stems they share weigh at least
  :data:`MIN_WEIGHT` by inverse document frequency over the scan
  (:func:`scanner.core.value_changes.word_weights`): one word that names one thing
  ("Radiohead", "Canon", "standup"), not a scope's everyday words. Only the best-weighted
  earlier memory is kept per later memory (:data:`MAX_PER_MEMORY`).

Structure alone flags nothing: only a pair the judge reads as an ``update`` is kept
(:func:`scanner.scan.scan_records`), and it is ``possible`` at most (policy row
``ended_in_other_words``): a shared word is no key that names the whole attribute. Pure: no
I/O.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from extractors import Cardinality
from extractors.change_cues import ENDING_CUES, marks_ending
from scanner.core.detect import CandidatePair
from scanner.core.keys import GroupKey, dated_by_scope
from scanner.core.named_changes import _alike, _stance
from scanner.core.value_changes import best_weighted, stems, word_weights, words_near
from scanner.models import MemoryRecord

MIN_WEIGHT = 4.0
"""Least summed inverse document frequency (natural log) of the shared stems: one word in
about one memory in fifty of the scan (with the smoothing of
:data:`scanner.core.value_changes.PRIOR`, one word a small scan holds twice)."""

MAX_PER_MEMORY = 1
"""Earlier memories paired with one ending, the best weighted first."""

NEAR = 4
"""Words between the ending cue and a shared word of the later memory."""


def _near_ending(text: str) -> frozenset[str]:
    """Stems of the words within :data:`NEAR` words of an ending cue of ``text``."""
    return words_near(text, [cue.start() for cue in ENDING_CUES.finditer(text)], NEAR)


def ending_pairs(records: Sequence[MemoryRecord]) -> list[CandidatePair]:
    """Candidate pairs (earlier, later) of the module docstring.

    Args:
        records: the memories of a scan, any scopes; a record without ``observed_at`` is
            never paired.

    Returns:
        ``value_mismatch`` pairs keyed ``(scope, "memory", shared stem of most weight)``,
        found by ``ended``, sorted by member ids.
    """
    idf = word_weights(records)
    found: dict[tuple[str, str], CandidatePair] = {}
    for items in dated_by_scope(records):
        words = [[w for w in stems(ENDING_CUES.sub(" ", r.text)) if w in idf] for r in items]
        postings: dict[str, list[int]] = defaultdict(list)
        for j, later in enumerate(items):
            if marks_ending(later.text):
                near = _near_ending(later.text)
                kept = 0
                for i in best_weighted(words[j], idf, postings, MIN_WEIGHT):
                    earlier = items[i]
                    if earlier.observed_at >= later.observed_at or \
                            _alike(earlier.text, later.text):
                        continue
                    shared = set(words[i]) & set(words[j])
                    if not shared & near:
                        continue
                    anchor = max(shared, key=lambda w: (idf[w], w))
                    a, b = sorted((earlier, later), key=lambda r: r.id)
                    found.setdefault((a.id, b.id), CandidatePair(
                        GroupKey(a.scope(), "memory", anchor), "value_mismatch", _stance(a),
                        _stance(b), Cardinality.functional, found_by="ended"))
                    kept += 1
                    if kept >= MAX_PER_MEMORY:
                        break
            for w in words[j]:
                postings[w].append(j)
    return [found[k] for k in sorted(found)]
