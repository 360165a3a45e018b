"""Candidate pairs of a value note and a later memory that gives its attribute another value
(issue 37, kinds 2 and 3), found by structure, judged by the pair judge.

A note is a memory that states one typed value and the few words of the attribute it is the
value of, and nothing else: "March 1st launch", "API ready January 15", "$100 per unit", "8
engineers on Project Alpha", "Client call at 2pm EST Tuesday". Its words name the whole
attribute, since there are no others, but no reading names it: a note has no verb and its value
hangs on a noun, an adjective or a preposition alike. A later memory speaks of the same
attribute when it writes a value of the same type, other than the note's, with one of the
note's attribute words beside it: "Launch moved to April 15", "API delayed to February 1",
"$150 per unit (the $100 was last year's pricing)", "Only 5 engineers available".

A pair is a candidate when, in one scope (user, group, properties):

* the earlier memory is a note (:func:`note_of`): exactly one typed value
  (:func:`extractors.constructions.attribute_values.typed_value_spans`) and at most
  :data:`NOTE_WORDS` content words besides it, none a verb in the simple past other than a
  change cue: "Cleaned cleats and replaced mouthguard on August 14" reports an act and when
  it was done, and the next such act is another episode, not a new value (Quirk et al. 1985
  §4.14 on the simple past of a dynamic verb; the "-ed" past, and the irregular ones of
  :data:`extractors.memory_forms.IRREGULAR_PAST`);
* the later memory, observed after it, states a value of that type other than the note's
  with one of the note's content-word stems within :data:`NEAR` words of it, in the same part
  of the sentence (to the nearest ";", bracket, dash or sentence end); a value inside an
  editorial bracket ("[INVALIDATED - was based on wrong data: $100 per unit]") is one the
  memory quotes, not one it states (The Chicago Manual of Style, 17th ed., §6.104 on
  brackets), and a change or calendar word is no attribute word ("moved", "April"); and
* every capitalised word written in the later value's part of the sentence (a proper name,
  an identifier, a name's first word) is a word of the note too ("Project Alpha: 15
  hours/week" is no note of "Project Beta: 12 hours/week", "Grandma's dinner is at 6 pm" none
  of "Joe's dinner moved to 7 pm"); the later memory may leave the note's name unsaid ("8
  engineers on Project Alpha" / "Only 5 engineers available").

Structure alone flags nothing: only a pair the judge reads as an ``update`` is kept
(:data:`scanner.scan.STRUCTURE_LABELS`). Since the note's words are the whole attribute, such a
pair may be decided, like one whose attribute a reading names. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from extractors import Cardinality
from extractors.change_cues import CHANGE_WORDS
from extractors.memory_forms import IRREGULAR_PAST
from extractors.constructions.attribute_values import _VALUE, typed_value_spans
from scanner.core.detect import CandidatePair
from scanner.core.keys import GroupKey
from scanner.core.named_changes import _stance, _stem
from scanner.core.value_changes import _CALENDAR, _STOP
from scanner.models import MemoryRecord

NOTE_WORDS = 3
"""Content words a note may have besides its value: an attribute phrase ("volume discount
applies", "engineers on Project Alpha"), not a sentence ("The retry success rate has improved
to 97%, further enhancing message reliability" has six)."""

NEAR = 3
"""Words before or after the later memory's value that may name its attribute."""

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
_FUNCTION = frozenset("""a an the and or but of to in on at by for with from per as is are was
were be been am my our your their his her its i we you he she it they me us them now only
just also very up""".split())
_WHICH = frozenset("new old next last first final current previous latest".split())
"""Adjectives that say which instance, not which attribute ("Scheduled appraisal for new
property" / "Moved into new home"; Quirk et al. 1985 §7.33 on restrictive adjectives of
time and sequence): no attribute word."""
_PART = re.compile(r"[;()\[\]]|\s[-–—]\s|[.!?](?:\s|$)")
"""Where a part of a sentence ends: a value said beyond it is said of something else."""
_BRACKETED = re.compile(r"\[[^\]]*\]")
_CHANGE = frozenset(_stem(w) for cue in CHANGE_WORDS for w in _WORD.findall(cue.lower()))
"""Stems of the change cues: "moved" names no attribute."""


@dataclass(frozen=True, slots=True)
class Note:
    """A note's one value (``kind``, normalised ``value``) and its content-word stems
    (``words``)."""

    kind: str
    value: str
    words: frozenset[str]


def _content(words: Sequence[str]) -> set[str]:
    """Stems of ``words`` that may name an attribute: no function, stop, change or calendar
    word."""
    out = set()
    for word in words:
        lower = word.lower().removesuffix("'s").strip("'")
        if lower in _FUNCTION or lower in _STOP or lower in _WHICH:
            continue
        stem = _stem(lower)
        if stem not in _CALENDAR and stem not in _CHANGE:
            out.add(stem)
    return out


_PAST = frozenset(IRREGULAR_PAST)


def _reports(word: str) -> bool:
    """Whether ``word`` is a simple past (or "-ed" participle) that is no change cue."""
    lower = word.lower()
    return (lower in _PAST or (len(lower) > 4 and lower.endswith("ed"))) and \
        _stem(lower) not in _CHANGE


def _after(text: str, start: int) -> int:
    """The offset just past the typed value written at ``start``."""
    found = _VALUE.match(text, start)
    return found.end() if found else start


def note_of(text: str) -> Note | None:
    """The :class:`Note` ``text`` is, or None when it states no value, several, no word or
    more than :data:`NOTE_WORDS` content words besides its value."""
    spans = typed_value_spans(text)
    if len(spans) != 1:
        return None
    start, kind, value = spans[0]
    before = [w for w in _WORD.findall(text[:start]) if _content([w])]
    after = [w for w in _WORD.findall(text[_after(text, start):]) if _content([w])]
    if not before + after or len(before + after) > NOTE_WORDS or \
            any(_reports(w) for w in before + after):
        return None
    return Note(kind, value, frozenset(_content(before + after)))


def stated_values(text: str, kind: str) -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """``(value, stems, capitalised)`` of each value of type ``kind`` that ``text`` states
    (outside an editorial bracket), with the content-word stems within :data:`NEAR` words of
    it and those of the capitalised words in its part of the sentence."""
    quoted = [(m.start(), m.end()) for m in _BRACKETED.finditer(text)]
    out = []
    for start, found_kind, value in typed_value_spans(text):
        if found_kind != kind or any(a <= start < b for a, b in quoted):
            continue
        ends = [m for m in _PART.finditer(text)]
        lo = max((m.end() for m in ends if m.end() <= start), default=0)
        hi = min((m.start() for m in ends if m.start() >= _after(text, start)),
                 default=len(text))
        capitalised = _content([w for w in _WORD.findall(text[lo:hi]) if w[0].isupper()])
        words = _WORD.findall(text[lo:start])[-NEAR:] + \
            _WORD.findall(text[_after(text, start):hi])[:NEAR]
        out.append((value, frozenset(_content(words)), frozenset(capitalised)))
    return out


def value_note_pairs(records: Sequence[MemoryRecord]) -> list[CandidatePair]:
    """Candidate pairs (note, later memory) of the module docstring.

    Args:
        records: the memories of a scan, any scopes; a record without ``observed_at`` is
            never paired (which came first is unknown).

    Returns:
        ``value_mismatch`` pairs keyed ``(scope, "memory", anchor)``, the anchor the first
        shared stem in alphabetical order, found by ``noted``, sorted by member ids.
    """
    by_scope: dict[tuple, list[MemoryRecord]] = defaultdict(list)
    for r in records:
        if r.observed_at is not None:
            by_scope[(r.user_id, r.group, tuple(sorted(r.properties.items())))].append(r)
    found: dict[tuple[str, str], CandidatePair] = {}
    for items in by_scope.values():
        notes = [(r, note) for r in items if (note := note_of(r.text)) is not None]
        if not notes:
            continue
        for later in items:
            stated: dict[str, list] = {}
            for earlier, note in notes:
                if earlier.observed_at >= later.observed_at:
                    continue
                if note.kind not in stated:
                    stated[note.kind] = stated_values(later.text, note.kind)
                shared = [words & note.words for value, words, capitalised
                          in stated[note.kind] if value != note.value
                          and words & note.words and capitalised <= note.words]
                if not shared:
                    continue
                a, b = sorted((earlier, later), key=lambda r: r.id)
                found.setdefault((a.id, b.id), CandidatePair(
                    GroupKey(a.scope(), "memory", min(shared[0])), "value_mismatch",
                    _stance(a), _stance(b), Cardinality.functional, found_by="noted"))
    return [found[k] for k in sorted(found)]
