"""Candidate pairs of a value note and a later memory that gives its attribute another value
(issue 37, kinds 2 and 3), found by structure, judged by the pair judge.

A note is a memory that states one typed value and the few words of the attribute it is the
value of, and nothing else: "March 1st launch", "API ready January 15", "$100 per unit", "8
engineers on Project Alpha", "Client call at 2pm EST Tuesday". Its words name the whole
attribute, since there are no others, but no reading names it: a note has no verb and its value
hangs on a noun, an adjective or a preposition alike. A later memory speaks of the same
attribute when it writes a value of the same type, other than the note's, beside the note's
words and no others: "Launch moved to April 15", "API delayed to February 1", "$150 per unit
(the $100 was last year's pricing)".

A pair is a candidate when, in one scope (user, group, properties):

* the earlier memory is a note (:func:`note_of`): exactly one typed value
  (:func:`extractors.constructions.attribute_values.typed_value_spans`), not a number that
  names a thing ("Room 204"), and at most :data:`NOTE_WORDS` content words besides it; none
  of them a verb in the simple past other than a change cue ("Cleaned cleats and replaced
  mouthguard on August 14" reports an act and when it was done: Quirk et al. 1985 §4.14; the
  "-ed" past and :data:`extractors.memory_forms.IRREGULAR_PAST`), and no deictic time word
  ("Steps today 8,000" is that day's episode);
* the later memory, observed after it, states a value of that type other than the note's
  (:class:`Stated`), not inside an editorial bracket ("[INVALIDATED - was based on wrong
  data: $100 per unit]" quotes it: The Chicago Manual of Style, 17th ed., §6.104), with one
  of the note's content-word stems within :data:`NEAR` words of it;
* the later value's part of the sentence (to the nearest ";", bracket, dash or sentence end)
  names nothing the note does not: every content word there is one of the note's (a word of
  another attribute or act: "Gym fee $45" / "Gym joining fee $99", "Credit card limit" /
  "Card balance", "Inspection for the flat May 3" / "Moved into the flat May 20"); a change
  word counts as none only when the value is what the change arrives at ("moved to April
  15", "now $25"); every capitalised word there (a name, single letters too) is the note's
  ("Team A standup" / "Team B standup", "Project Alpha" / "Project Beta"), though the later
  memory may leave the note's name unsaid ("8 engineers on Project Alpha" / "Only 5 engineers
  on it now"); a month, weekday or recurring period written there is the note's too, unless
  it is part of the new value a change arrives at ("Electric bill March £82" / "Electric bill
  April £95", "Kids bedtime 7:30" / "Kids bedtime 8:30 on weekends", but "Sam's party
  Saturday 7pm" / "Sam's party now Sunday 6pm"); and a note of a plan, an offer or an
  expectation ("Salary offer £55k", "Target weight 70kg") meets only a later memory that
  says one too. The words are ``extractors/data/note_words.toml`` with their sources.

Structure alone flags nothing: only a pair the judge reads as an ``update`` is kept
(:data:`scanner.scan.STRUCTURE_LABELS`). Since the note's words are the whole attribute, such a
pair may be decided, like one whose attribute a reading names. Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from extractors import Cardinality
from extractors.change_cues import CHANGE_WORDS
from extractors.memory_forms import IRREGULAR_PAST
from extractors.note_words import DEICTIC_WORDS, INTENTION, PERIODS, WHICH
from extractors.constructions.attribute_values import _VALUE, typed_value_spans
from scanner.core.detect import CandidatePair
from scanner.core.keys import GroupKey, dated_by_scope
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
_PART = re.compile(r"[;()\[\]]|\s[-–—]\s|[.!?](?:\s|$)")
"""Where a part of a sentence ends: a value said beyond it is said of something else."""
_BRACKETED = re.compile(r"\[[^\]]*\]")
_CHANGE = frozenset(_stem(w) for cue in CHANGE_WORDS for w in _WORD.findall(cue.lower()))
"""Stems of the change cues: "moved" names no attribute."""


@dataclass(frozen=True, slots=True)
class Note:
    """A note's one value (``kind``, normalised ``value``), its content-word stems
    (``words``), the time words that say which period it is of (``times``: "March",
    "weekends") and the words that make it a plan or an offer (``intention``)."""

    kind: str
    value: str
    words: frozenset[str]
    times: frozenset[str] = frozenset()
    intention: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Stated:
    """A value of a later memory and what is written beside it: the content-word stems
    within :data:`NEAR` words (``words``), and in its part of the sentence the capitalised
    words (``capitalised``, single letters too: "Team B"), the time words (``times``) and
    the words of intention (``intention``)."""

    value: str
    words: frozenset[str]
    capitalised: frozenset[str]
    times: frozenset[str]
    intention: frozenset[str]
    part: frozenset[str] = frozenset()
    """The content-word stems of its whole part of the sentence."""
    goal: bool = False
    """Whether the value is what a change arrives at ("moved to Sunday 6pm", "now $25"): its
    day or month is then part of the new value, not a period it is restricted to."""

    def speaks_of(self, note: Note) -> frozenset[str]:
        """The note's words this value is said beside, or none when it is said of another
        attribute, instance or period than the note's (module docstring)."""
        if self.value == note.value or not self.words & note.words:
            return frozenset()
        if note.kind in _WHEN_KINDS and not self.goal:
            return frozenset()  # "Parents' evening 12 March" / "… 4 June": the next one
        if not (self.part - _INTENTION <= note.words and self.capitalised <= note.words
                and (self.goal or self.times <= note.times)
                and (self.intention or not note.intention)):
            return frozenset()
        return self.words & note.words


def _content(words: Sequence[str], *, acts: bool = False) -> set[str]:
    """Stems of ``words`` that may name an attribute: no function, stop, change or calendar
    word; with ``acts``, the change words are kept (they name an act, not a change of the
    value: "Moved into the new flat May 20")."""
    out = set()
    for word in words:
        lower = word.lower().removesuffix("'s").strip("'")
        if lower in _FUNCTION or lower in _STOP or lower in WHICH:
            continue
        stem = _stem(lower)
        if stem not in _CALENDAR and (acts or stem not in _CHANGE):
            out.add(stem)
    return out


_PAST = frozenset(IRREGULAR_PAST)
_INTENTION = frozenset(_stem(w) for w in INTENTION)
"""Stems of the words of intention: one plan said in other words ("goal" / "target", "max" /
"limit") is still a plan."""


def _reports(word: str) -> bool:
    """Whether ``word`` is a simple past (or "-ed" participle) that is no change cue."""
    lower = word.lower()
    return (lower in _PAST or (len(lower) > 4 and lower.endswith("ed"))) and \
        _stem(lower) not in _CHANGE


_WHEN_KINDS = frozenset({"when"})
"""Values that say when an event happens, a date with its time of day: a later one meets a
note's only as the goal of a change ("moved to 21 May 10am"); without one it is another
occurrence of the event ("Parents' evening 12 March 6pm" / "Parents' evening 4 June 5pm").
(A date or a time alone keeps the rules of every value: "API ready January 15" / "API
delayed to February 1" either way.)"""
_WHEN_JOIN = re.compile(r"\s*(?:,|at|@|from)?\s*$", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def value_spans(text: str) -> tuple[tuple[int, int, str, str], ...]:
    """``(start, end, type, normalised value)`` of each typed value of ``text``
    (:func:`extractors.constructions.attribute_values.typed_value_spans`), a date written
    next to a time of day read as one point in time of type ``when`` ("Dentist 14 May 3pm",
    "moved to 21 May at 10am", "3pm on 14 May" is not: the time comes first and "on" joins
    them; ISO 8601 writes a date and a time as one value, §4.3)."""
    spans = [(start, found.end() if (found := _VALUE.match(text, start)) else start, kind,
              value) for start, kind, value in typed_value_spans(text)]
    out: list[tuple[int, int, str, str]] = []
    for span in spans:
        if out and {out[-1][2], span[2]} == {"date", "clock"} and \
                _WHEN_JOIN.match(text[out[-1][1]:span[0]]):
            first = out.pop()
            date, clock = (first, span) if first[2] == "date" else (span, first)
            out.append((first[0], span[1], "when", f"{date[3]} {clock[3]}"))
        else:
            out.append(span)
    return tuple(out)


def _blanked(text: str) -> str:
    """``text`` with every typed value and editorial bracket replaced by spaces (offsets kept):
    the words around them."""
    out = list(text)
    for start, end, _, _ in value_spans(text):
        out[start:end] = " " * (end - start)
    for m in _BRACKETED.finditer(text):
        out[m.start():m.end()] = " " * (m.end() - m.start())
    return "".join(out)


def _times(words: Sequence[str]) -> frozenset[str]:
    """The words of ``words`` that name a month, a weekday, a day relative to today or a
    recurring period (``extractors/data/note_words.toml``), lower case, as stems."""
    return frozenset(_stem(w.lower()) for w in words
                     if _stem(w.lower()) in _CALENDAR or w.lower() in PERIODS)


def note_of(text: str) -> Note | None:
    """The :class:`Note` ``text`` is, or None when it states no value, several, no word,
    more than :data:`NOTE_WORDS` content words besides its value, a verb in the simple past
    (an act reported) or a deictic time word (that day's episode: "Steps today 8,000")."""
    spans = value_spans(text)
    if len(spans) != 1:
        return None
    start, _, kind, value = spans[0]
    if kind == "number" and _NAMED_NUMBER.search(text[:start]):
        return None  # "Room 204 wifi: guest204": the number names which room, it is no value
    words = _WORD.findall(_blanked(text))
    said = [w for w in words if _content([w])]
    if not said or len(said) > NOTE_WORDS or any(_reports(w) for w in said) or \
            DEICTIC_WORDS.search(" ".join(words)):
        return None
    return Note(kind, value, frozenset(_content(said)), _times(words),
                frozenset(w.lower() for w in words if w.lower() in INTENTION))


_NAMED_NUMBER = re.compile(r"\b[A-Z][A-Za-z]*\s$")
"""A capitalised word right before a bare number: the number is part of a name ("Room 204",
"Team 3", "Gate 12"; The Chicago Manual of Style, 17th ed., §9.22 on numbers in names)."""
_CAPITALISED = re.compile(r"\b[A-Z][A-Za-z'-]*")
_GOAL_WORDS = frozenset({"to", "until", "till", "now", "at", "by", "about", "around"})
"""The word before the value a change arrives at, days and months aside ("moved to April 15",
"now Sunday 6pm"): only then is a change word beside it no word of another act (Quirk et al.
1985 §9.21, goal of a change)."""


def stated_values(text: str, kind: str) -> list[Stated]:
    """The :class:`Stated` values of type ``kind`` that ``text`` states (a value inside an
    editorial bracket is quoted, not stated)."""
    quoted = [(m.start(), m.end()) for m in _BRACKETED.finditer(text)]
    blank = _blanked(text)
    ends = list(_PART.finditer(text))
    out = []
    for start, end, found_kind, value in value_spans(text):
        if found_kind != kind or any(a <= start < b for a, b in quoted):
            continue
        lo = max((m.end() for m in ends if m.end() <= start), default=0)
        hi = min((m.start() for m in ends if m.start() >= end), default=len(text))
        part = _WORD.findall(blank[lo:hi])
        near = _WORD.findall(blank[lo:start])[-NEAR:] + \
            _WORD.findall(blank[end:hi])[:NEAR]
        before = [w for w in _WORD.findall(blank[lo:start]) if not _times([w])
                  and w.lower() not in ("on", "the", "next", "this")]
        goal = bool(before) and before[-1].lower() in _GOAL_WORDS
        out.append(Stated(value, frozenset(_content(near, acts=not goal)),
                          frozenset(_content(_CAPITALISED.findall(blank[lo:hi]))),
                          _times(part),
                          frozenset(w.lower() for w in part if w.lower() in INTENTION),
                          frozenset(_content(part, acts=not goal)), goal))
    return out


def _frame(text: str) -> str | None:
    """``text`` with each typed value replaced by its type, lower-cased, spaces and the final
    full stop aside; None when it states no typed value."""
    spans = value_spans(text)
    if not spans:
        return None
    parts, at = [], 0
    for start, end, kind, _ in spans:
        parts += [text[at:start], f"<{kind}>"]
        at = end
    parts.append(text[at:])
    return " ".join("".join(parts).lower().split()).rstrip(".")


def same_but_values(a: str, b: str) -> bool:
    """Whether two memories are one sentence but for typed values of the same types ("The
    retry timeout of the payments service is 30 seconds." / "… is 5s."): the words name the
    same attribute of the same owner whatever the judge reads, so its ``compatible`` reading
    does not dismiss the keys' pair (value normalisation and equality are the rules' to say:
    issue 37, "rules stay where they are sure")."""
    frame = _frame(a)
    return frame is not None and frame == _frame(b)


def value_note_pairs(records: Sequence[MemoryRecord]) -> list[CandidatePair]:
    """Candidate pairs (note, later memory) of the module docstring.

    Args:
        records: the memories of a scan, any scopes; a record without ``observed_at`` is
            never paired (which came first is unknown).

    Returns:
        ``value_mismatch`` pairs keyed ``(scope, "memory", anchor)``, the anchor the first
        shared stem in alphabetical order, found by ``noted``, sorted by member ids.
    """
    found: dict[tuple[str, str], CandidatePair] = {}
    for items in dated_by_scope(records):
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
                shared = [words for value in stated[note.kind]
                          if (words := value.speaks_of(note))]
                if not shared:
                    continue
                a, b = sorted((earlier, later), key=lambda r: r.id)
                found.setdefault((a.id, b.id), CandidatePair(
                    GroupKey(a.scope(), "memory", min(shared[0])), "value_mismatch",
                    _stance(a), _stance(b), Cardinality.functional, found_by="noted"))
    return [found[k] for k in sorted(found)]
