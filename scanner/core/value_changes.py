"""Candidate pairs of a later memory that gives a new typed value to an attribute an earlier
memory stated in other words (issue 37, kind 2), found by structure, judged by the pair judge.

The keys meet two typed values only when both readings name the attribute alike. Memory
written by others names it differently each time, and often states the earlier value in
passing: "Tagged the release with 150 commits and 12 branches merged" / "The number of
commits merged into main has grown to 165"; "Scheduled a Zoom meeting with my professor on
March 22 at 3 PM" / "The meeting was moved to 4:30 PM". A pair is a candidate when, in one
scope,

* the later memory marks a change (:mod:`extractors.change_cues`, or a phrasal change the
  attribute reading found, "is down to £35 a week":
  :data:`extractors.constructions.attribute_values.DIRECTED`) and writes a typed value
  (:func:`extractors.constructions.attribute_values.typed_values`);
* the earlier memory writes a value of the same type that the later one does not (a value
  changed, not said again); and
* the attribute the later memory's new value hangs on is written in the earlier memory
  within :data:`NEAR` words of another value of that type: one of its content words is, by
  stem (the attribute anchor). The attribute is the one a triple of the extractor's names
  (its object a typed value: "number of commits merged into main (number)", "zoom meeting
  (time)"), found by ``valued``; or, when no reading names it, the words written before a
  value the later memory arrives at ("The seaplane fare has recently increased, now closer
  to $650"), found by ``valued_near`` and only ever ``possible``
  (:func:`scanner.core.policy.in_other_words`): those words name no whole attribute; and
* the values compared are states: a value the change starts from ("from 75% to 92%", "45
  minutes instead of 30") or an extent of change ("cut stress by 10%") is none; and when the
  later memory names the value it starts from, the earlier memory states that value (the
  change leaves what the earlier memory said, not another instance of the attribute:
  "reduced search time from 200ms to 160ms" does not change "its 120ms query time"); and
* the two share words of weight: the words they share weigh at least :data:`MIN_ANCHOR` by
  their inverse document frequency in the scan (Spärck Jones 1972), so that everyday words
  ("practice", "project") count little and the words that name one thing ("commits",
  "webinar", "Zoom") count much. Only the best-anchored earlier memory is kept per later
  memory (:data:`MAX_PER_MEMORY`).

Structure alone flags nothing: only a pair the judge reads as an ``update`` is kept
(:func:`scanner.scan.scan_records`). Pure: no I/O.
"""

from __future__ import annotations

import functools
import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from extractors import Cardinality, Triple
from extractors.change_cues import CHANGE_WORDS, marks_change
from extractors.constructions.attribute_values import (
    DIRECTED, typed_value_spans, typed_values)
from extractors.times import MONTHS
from scanner.core.detect import CandidatePair
from scanner.core.keys import GroupKey
from scanner.core.named_changes import _alike, _stance, _stem
from scanner.models import MemoryRecord

MIN_ANCHOR = 6.0
"""Least summed inverse document frequency (natural log) of the shared word stems: about two
words that each occur in a tenth of the scope's memories, or one in a four-hundredth. Chosen
on the project's own pair sets and BEAM's public half (docs/pair-judge.md)."""

NEAR = 6
"""Words between the anchor and the earlier memory's value: the value is said of it, not of
another thing in a memory of several facts."""

MAX_PER_MEMORY = 1
"""Earlier memories paired with one later memory, the best anchored first."""

PRIOR = 200
"""Memories without the word assumed beside the scan's own when weighing it, so that a small
scan (a read-time search's few hits) weighs a word it holds twice as informative, not as
common (additive smoothing of the document frequency)."""

COMMON = 0.2
"""A stem in more than this share of a scope's memories anchors nothing (it is skipped in
the index, which keeps the search near linear in the scope's size)."""

_WORD = re.compile(r"[a-z][a-z-]{3,}")
_STOP = frozenset("""this that with from have been will would should could their there about
after before when what which while into onto over under were your they them then than also
just very more most much some such each only even still same other recently now further
additional better since during between through across around""".split())


def stems(text: str) -> frozenset[str]:
    """The content-word stems of ``text`` (words of four letters or more, no stop word)."""
    return frozenset(_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP)


def value_change_pairs(records: Sequence[MemoryRecord],
                       triples: Sequence[Sequence[Triple]]) -> list[CandidatePair]:
    """Candidate pairs (earlier, later) of the module docstring.

    Args:
        records: the memories of a scan, any scopes; a record without ``observed_at`` is
            never paired (which came first is unknown).
        triples: ``triples[i]`` are the triples of ``records[i]``.

    Returns:
        ``value_mismatch`` pairs keyed ``(scope, "memory", anchor)``, the anchor the shared
        stem of highest weight, found by ``valued`` or ``valued_near``, sorted by member
        ids.
    """
    by_scope: dict[tuple, list[MemoryRecord]] = defaultdict(list)
    anchors: dict[str, Anchors] = {}
    changed: set[str] = set()
    for r, found_triples in zip(records, triples):
        if r.observed_at is not None:
            by_scope[(r.user_id, r.group, tuple(sorted(r.properties.items())))].append(r)
            anchors[r.id] = _attribute_anchors(found_triples, r.text)
            if marks_change(r.text) or any(t.qualifiers and t.qualifier("change") == DIRECTED
                                           for t in found_triples):
                changed.add(r.id)  # a cue word, or a phrasal change ("is down to £35")
    found: dict[tuple[str, str], CandidatePair] = {}
    for items in by_scope.values():
        idf = word_weights(items)  # a word common in one store anchors nothing there
        items.sort(key=lambda r: (r.observed_at, r.id))
        roles = [value_roles(r.text) for r in items]
        values = [states for states, _ in roles]
        words = [stems(r.text) for r in items]
        postings: dict[str, list[int]] = defaultdict(list)
        for j, later in enumerate(items):
            weighted = [w for w in words[j] if w in idf]
            if values[j] and anchors[later.id] and later.id in changed:
                _pair_one(j, items, values, weighted, idf, postings, found, anchors[later.id],
                          roles[j][1])
            for w in weighted:
                postings[w].append(j)
    return [found[k] for k in sorted(found)]


def word_weights(records: Sequence[MemoryRecord]) -> dict[str, float]:
    """stem -> its inverse document frequency (natural log) over ``records`` and
    :data:`PRIOR` memories without it; stems in more than :data:`COMMON` of them are left out
    (they anchor nothing)."""
    df: dict[str, int] = defaultdict(int)
    for r in records:
        for w in stems(r.text):
            df[w] += 1
    n = len(records) + PRIOR
    return {w: math.log(n / c) for w, c in df.items() if c <= COMMON * n}


_CHANGE_STEMS = frozenset().union(*(stems(w) for w in CHANGE_WORDS))
"""Stems of the change cues: "increased" names no attribute."""


@dataclass(frozen=True, slots=True)
class Anchors:
    """A later memory's attributes, each by value type -> content-word stems.

    ``named``: the attributes of its triples that hold a typed value ("snack budget
    (amount)" -> ``{"money": {"snack", "budget"}}``), with the owner a reading names;
    ``which``: the words of those that say whose or which one it is (the owner and the
    premodifiers: "Uncle Joe's birthday dinner" -> ``{"uncle", "birthday"}``), all of which
    an earlier memory of the same attribute says too; ``said``: the words written before a
    value that is the result of a change (:func:`goal_spans`: "the seaplane fare has
    increased, now closer to $650"), change and calendar words aside, which name no
    attribute for sure."""

    named: dict[str, frozenset[str]]
    which: frozenset[str]
    said: dict[str, frozenset[str]]

    def __bool__(self) -> bool:
        return bool(self.named or self.said)


def _attribute_anchors(triples: Sequence[Triple], text: str) -> Anchors:
    """The :class:`Anchors` of a memory's ``text`` and its ``triples``."""
    named: dict[str, set[str]] = defaultdict(set)
    which: set[str] = set()
    for t in triples:
        if t.negated or t.rule not in ATTRIBUTE_RULES:
            continue
        for kind, _ in typed_values(t.object_text or t.object):
            named[kind] |= stems(_TYPE_SUFFIX.sub("", t.relation).replace("number of", ""))
            named[kind] |= stems(t.subject) - _OWNERS  # "photo | number": the photos' count
            which |= split_stems(t.subject) - _OWNERS  # "Uncle Joe's dinner"
            which |= premodifiers(t.relation)
    said: dict[str, set[str]] = defaultdict(set)
    for start, kind in goal_spans(text):
        said[kind] |= _said_before(text, start) - _CHANGE_STEMS
    named_, said_ = ({kind: frozenset(words - _CALENDAR) for kind, words in found.items()
                      if words - _CALENDAR} for found in (named, said))
    return Anchors(named_, frozenset(which - _CALENDAR), said_)


_OWNERS = frozenset({"user"})
"""Subjects that name the memory's speaker, not a thing whose attribute it is."""
_HEAD_END = re.compile(r"\s(?:of|for|in|into|on|at|to|with|from|by)\s")


def premodifiers(relation: str) -> frozenset[str]:
    """Stems of the words before an attribute's head noun ("paris office rent (amount)" ->
    ``{"paris", "office"}``; "budget for software licenses" -> none): they say which thing's
    attribute it is, so another memory speaks of it only if it says them too (Quirk et al.
    1985 §17.4 on restrictive premodification)."""
    head = _HEAD_END.split(_TYPE_SUFFIX.sub("", relation), maxsplit=1)[0].split()
    return split_stems(" ".join(w.split("'")[0] for w in head[:-1]))


@functools.lru_cache(maxsize=65536)
def split_stems(text: str) -> frozenset[str]:
    """:func:`stems` of ``text`` with its hyphenated words split ("post-production" and the
    parser's "post - production" alike)."""
    return stems(text.replace("-", " "))


_CALENDAR = frozenset(stems(" ".join(MONTHS)) | stems("monday tuesday wednesday thursday "
                                                     "friday saturday sunday today tomorrow"))
"""Words of a date, not of an attribute: "April" shared by two memories dated in April anchors
nothing."""


_GOAL = re.compile(r"\b(?:to|now(?:\s+[a-z]+){0,2}|reached|reaching|hit)\s+(?:about\s+|around\s+|"
                   r"roughly\s+|nearly\s+|almost\s+|a\s+)?$", re.IGNORECASE)
"""Words before a value a change arrives at ("increased to $6,200", "now includes 52",
"now expected at 8:30 AM"): the goal of a change (Quirk et al. 1985 §9.21)."""


BEFORE = 12
"""Words before a goal value that may name its attribute: the subject of the change is said
first ("The number of photos taken at Gion Matsuri increased to 180")."""


def _said_before(text: str, start: int) -> frozenset[str]:
    """Stems of up to :data:`BEFORE` words before ``start`` in its sentence part (to the last
    ";", "." or ":"), and of the two words after the value."""
    head = re.split(r"[;:]|\.\s", text[:start])[-1]
    tail = text[start:].split()[1:3]
    return stems(" ".join(head.split()[-BEFORE:] + tail))


def goal_spans(text: str) -> list[tuple[int, str]]:
    """``(start offset, type)`` of each typed value in ``text`` written as the goal of a
    change (:data:`_GOAL`), when ``text`` marks a change at all."""
    if not marks_change(text):
        return []
    return [(start, kind) for start, kind, _ in _spans(text)
            if _GOAL.search(text[max(0, start - 30):start])]


ATTRIBUTE_RULES = frozenset({"attribute", "key_value", "attribute_value"})
"""The rules whose relation is an attribute's name (an attribute noun, a ``key: value`` key,
the noun phrase a typed value hangs on); a verb's relation ("complete", "add") names no
attribute to anchor on."""

_TYPE_SUFFIX = re.compile(r"\s*\([^()]*\)$")


def words_near(text: str, starts, near: int) -> frozenset[str]:
    """Stems of the words within ``near`` words of each character offset in ``starts``."""
    words = list(re.finditer(r"\S+", text))
    out: set[str] = set()
    for start in starts:
        at = next((i for i, w in enumerate(words) if w.end() > start), None)
        if at is None:
            continue
        for w in words[max(0, at - near):at + near + 1]:
            out |= stems(w.group())
    return frozenset(out)


def best_weighted(words: Sequence[str], idf: dict[str, float],
                  postings: dict[str, list[int]], least: float) -> list[int]:
    """Indices of the earlier memories that share ``words`` (``postings``: word -> indices),
    whose shared words weigh ``least`` or more in all, the heaviest first."""
    score: dict[int, float] = defaultdict(float)
    for w in words:
        for i in postings[w]:
            score[i] += idf[w]
    return [i for _, i in sorted(((s, i) for i, s in score.items() if s >= least),
                                 reverse=True)]


_SOURCE = re.compile(r"\b(?:from|instead\s+of|originally(?:\s+\w+)?(?:\s+(?:for|at|on))?)"
                     r"\s+(?:about\s+|around\s+|roughly\s+)?$", re.IGNORECASE)
"""Words before a value the change leaves: the source of a change (Quirk et al. 1985 §9.21)."""
_EXTENT = re.compile(r"\bby\s+(?:about\s+|around\s+|roughly\s+|another\s+|a\s+further\s+)?$",
                     re.IGNORECASE)
"""Words before the extent of a change ("cut stress by 10%"): a difference, not a state (Quirk
et al. 1985 §8.75, "by" of measure)."""
_WHEN = frozenset({"date", "clock"})
"""Value types a "by" introduces as a time limit ("by March 1"), not an extent."""


@functools.lru_cache(maxsize=65536)
def _spans(text: str) -> tuple[tuple[int, str, str], ...]:
    """:func:`typed_value_spans` of ``text``, read once per memory of a scan (an earlier
    memory is weighed against many later ones)."""
    return tuple(typed_value_spans(text))


def value_roles(text: str) -> tuple[frozenset[tuple[str, str]], frozenset[tuple[str, str]]]:
    """``(states, sources)``: the typed values of ``text`` (``(type, normalised value)``) that
    state what holds, and those a change starts from; an extent of change is in neither."""
    states, sources = set(), set()
    for start, kind, value in _spans(text):
        before = text[max(0, start - 40):start]
        if _SOURCE.search(before):
            sources.add((kind, value))
        elif kind in _WHEN or not _EXTENT.search(before):
            states.add((kind, value))
    return frozenset(states), frozenset(sources)


def _other_value_near(text: str, states, later_states, anchors) -> bool:
    """Whether ``text`` (the earlier memory, its state values ``states``) states a value of
    a type the later memory gives its attribute, other than the later's values
    (``later_states``), within :data:`NEAR` words of a word of that attribute (``anchors``:
    type -> attribute stems): a value changed, said of the same attribute."""
    for start, kind, value in _spans(text):
        said = anchors.get(kind)
        if said and (kind, value) in states and (kind, value) not in later_states and \
                said & words_near(text, [start], NEAR):
            return True
    return False


def _pair_one(j, items, values, weighted, idf, postings, found, anchors, sources) -> None:
    """Add the best-anchored earlier partner of ``items[j]`` to ``found``; ``sources`` are the
    values the later memory's change starts from."""
    later = items[j]
    types = {kind for kind, _ in values[j]}
    kept = 0
    for i in best_weighted(weighted, idf, postings, MIN_ANCHOR):
        earlier = items[i]
        if earlier.observed_at >= later.observed_at or _alike(earlier.text, later.text):
            continue
        if any(kind in types and (kind, v) not in values[i] for kind, v in sources):
            continue  # the later changes from a value the earlier does not state
        if not anchors.which <= split_stems(earlier.text):
            continue  # the later's reading names another's attribute: "the Paris office rent"
        if _other_value_near(earlier.text, values[i], values[j], anchors.named):
            found_by = "valued"  # the attribute a reading names
        elif _other_value_near(earlier.text, values[i], values[j], anchors.said):
            found_by = "valued_near"  # words written before the new value
        else:
            continue  # the later's attribute is not said near another value of its type
        shared = stems(earlier.text) & stems(later.text)
        anchor = max(shared, key=lambda w: (idf.get(w, 0.0), w))
        a, b = sorted((earlier, later), key=lambda r: r.id)
        if (a.id, b.id) not in found:
            found[(a.id, b.id)] = CandidatePair(
                GroupKey(a.scope(), "memory", anchor), "value_mismatch", _stance(a),
                _stance(b), Cardinality.functional, found_by=found_by)
        kept += 1
        if kept >= MAX_PER_MEMORY:
            return
